@_exported import SeatMapInventory
import CLibPQ
import Dispatch
import Foundation
import SeatMapCore

/// The store a `--store` value names: a PostgreSQL URL or connection
/// string, else a SQLite file.
public enum InventoryStores {
    public static func open(_ text: String, connections: Int = 4) throws(SeatMapError) -> any InventoryStore {
        if PostgresInventoryStore.isConnectionString(text) { return try PostgresInventoryStore(url: text, connections: connections) }
        return try SQLiteInventoryStore(path: text)
    }
}
