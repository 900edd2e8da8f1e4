import Foundation
import SeatMapCore

/// Where shows keep their inventory: the one seam between the service's
/// use cases and a database. Each call is one transaction of its own, and
/// `update` is the only way to change a show: the implementation reads the
/// show, lets the rules change the value, and writes the difference back
/// before it commits, serialised with every other writer of that show (in
/// this process and in any other sharing the store). SQL and transaction
/// boundaries stay inside the implementations.
public protocol InventoryStore: AnyObject, Sendable {
    /// What happened on open that the user should hear about (a migration,
    /// a corrupt file moved aside).
    var notes: [String] { get }
    /// Where the store is, for messages (a file name, a server).
    var location: String { get }

    /// Creates the show unless one with its id exists; returns the stored
    /// show and whether this call created it.
    func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool)

    /// The show's inventory as of the last commit, or nil.
    func show(_ id: String) throws(SeatMapError) -> ShowInventory?

    /// Runs `body` on the show's inventory inside one transaction and
    /// stores what it changed; a throw rolls everything back. Nil when
    /// there is no such show.
    func update<T>(show id: String, _ body: (inout ShowInventory) throws -> T) throws -> T?

    /// Every show's id, sorted.
    func showIDs() throws(SeatMapError) -> [String]

    /// Nil when the store answers now, else why not (a server's stores
    /// are asked by the health check).
    func probe() -> String?

    /// Tells `onChange` the id of every show a commit changes, made by any
    /// process sharing the store ("*": any show may have changed, e.g.
    /// after a reconnection), until the returned watch is stopped. Nil when
    /// the store cannot tell (its users then look again from time to time).
    func watchChanges(_ onChange: @escaping @Sendable (String) -> Void) -> StoreWatch?
}

extension InventoryStore {
    public func probe() -> String? { nil }
    public func watchChanges(_ onChange: @escaping @Sendable (String) -> Void) -> StoreWatch? { nil }
}

/// A running change feed; `stop()` ends it.
public protocol StoreWatch: AnyObject, Sendable {
    func stop()
}

/// The store for unit tests: shows in memory, one lock for all.
public final class MemoryInventoryStore: InventoryStore, @unchecked Sendable {
    private let lock = NSLock()
    private var shows: [String: ShowInventory] = [:]
    public let notes: [String] = []
    public var location: String { "memory" }

    public init() {}

    public func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if let existing = shows[inventory.show] { return (existing, false) }
        shows[inventory.show] = inventory
        return (inventory, true)
    }

    public func show(_ id: String) throws(SeatMapError) -> ShowInventory? {
        lock.lock()
        defer { lock.unlock() }
        return shows[id]
    }

    public func update<T>(show id: String, _ body: (inout ShowInventory) throws -> T) throws -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard var inventory = shows[id] else { return nil }
        let result = try body(&inventory)
        shows[id] = inventory
        return result
    }

    public func showIDs() throws(SeatMapError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return shows.keys.sorted()
    }
}
