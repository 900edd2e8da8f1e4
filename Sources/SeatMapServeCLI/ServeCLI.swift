import Foundation
import SeatMapCLI
import SeatMapCore
import SeatMapServer
import SeatMapStore
import CMicroHTTPD

/// The seatmap command line with its serving side: the SQLite and
/// PostgreSQL stores and the HTTP service, which link SQLite, libpq and
/// libmicrohttpd. The `seatmap-serve` executable runs it; `seatmap` runs
/// that executable for every command line that needs them (see
/// `SeatMapCLI.needsServeSide(_:)`), so a render's process loads none.
public enum ServeCLI {
    /// Gives SeatMapCLI its serving side (once a process; tests call it
    /// from many threads).
    public static func install() { _ = installed }

    private static let installed: Void = {
        SeatMapCLI.serveSide = SeatMapCLI.ServeSide(
            openStore: { path, connections throws(SeatMapError) in try InventoryStores.open(path, connections: connections) },
            serve: { args, console in try serve(args, console) },
            libraries: [("sqlite", SQLiteInventoryStore.sqliteVersion), ("libmicrohttpd", MHD_get_version().map { String(cString: $0) } ?? "?")])
    }()

    /// Runs the command line on the process's standard streams (as `SeatMapCLI.main`).
    public static func main(_ args: [String]) -> Int32 {
        install()
        return SeatMapCLI.main(args)
    }
}
