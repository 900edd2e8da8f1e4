import Foundation
import SeatMapCore

/// Where shows keep their inventory: the one seam between the service's
/// use cases and a database. Each call is one transaction of its own.
///
/// `update` runs a use case on a `ShowTransaction` that holds only the
/// show's own row until the use case reads the rows it names (seats, a
/// token's holds, an order); the store then writes what differs from what
/// was read and appends the seats whose status changed to the show's
/// change log, serialised with every other writer of that show (in this
/// process and in any other sharing the store). Expired holds are free
/// wherever they are read, and swept a bounded batch per commit. SQL and
/// transaction boundaries stay inside the implementations.
public protocol InventoryStore: AnyObject, Sendable {
    /// What happened on open that the user should hear about (a migration,
    /// a corrupt file moved aside).
    var notes: [String] { get }
    /// Where the store is, for messages (a file name, a server).
    var location: String { get }

    /// Creates the show unless one with its id exists; returns the stored
    /// show (for one that existed, at least its own row: hall, rules) and
    /// whether this call created it.
    func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool)

    /// The whole show as of the last commit, holds live at `now`, or nil.
    func show(_ id: String, now: Date) throws(SeatMapError) -> ShowInventory?

    /// Runs `body` in one transaction on the show's rows it reads, and
    /// stores what it changed; a throw rolls everything back. Nil when
    /// there is no such show.
    func update<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T?

    /// `update`, told which rows the use case is expected to read: a store
    /// may read them with the show's row, in one trip to its server. Only a
    /// guess: the use case still reads what it needs (what was read ahead
    /// is not read again), so a wrong guess costs a trip, never a result.
    func update<T>(show id: String, now: Date, expecting: ShowTransaction.Expected, _ body: (ShowTransaction) throws -> T) throws -> T?

    /// Reads the show's rows `body` names, changing nothing. Nil when
    /// there is no such show.
    func read<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T?

    /// The show's change sequence now and the seats changed after
    /// `sequence` (nil seats: older than the kept log, or more than
    /// `limit` seats: read the whole show). Nil when there is no such show.
    func changes(show id: String, since sequence: Int, limit: Int) throws(SeatMapError) -> (sequence: Int, seats: [SeatID]?)?

    /// Releases a bounded batch of holds expired at `now` (appending them
    /// to the change log) when the show has any; returns how many. Readers
    /// of deltas call it so an expired hold reaches them without a sale.
    func sweep(show id: String, now: Date) throws(SeatMapError) -> Int

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
    /// Stores without trips to save read as the use case asks.
    public func update<T>(show id: String, now: Date, expecting: ShowTransaction.Expected, _ body: (ShowTransaction) throws -> T) throws -> T? {
        try update(show: id, now: now, body)
    }
}

extension InventoryStore {
    public func probe() -> String? { nil }
    public func watchChanges(_ onChange: @escaping @Sendable (String) -> Void) -> StoreWatch? { nil }
    /// The whole show as of the last commit, holds live now.
    public func show(_ id: String) throws(SeatMapError) -> ShowInventory? { try show(id, now: Date()) }
}

/// A running change feed; `stop()` ends it.
public protocol StoreWatch: AnyObject, Sendable {
    func stop()
}

/// The store for unit tests: shows in memory, one lock for all, read and
/// written through the same transaction as the SQL stores.
public final class MemoryInventoryStore: InventoryStore, @unchecked Sendable {
    private let lock = NSLock()
    private var shows: [String: ShowInventory] = [:]
    /// Each show's change log (sequence, seat, word) and its first kept sequence.
    private var logs: [String: (entries: [(Int, SeatID, String)], floor: Int)] = [:]
    /// The client address each show's tokens were given to.
    private var addresses: [String: [String: String]] = [:]
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

    public func show(_ id: String, now: Date) throws(SeatMapError) -> ShowInventory? {
        lock.lock()
        defer { lock.unlock() }
        return try? MemoryRows(shows: shows, addresses: [:]).all(id, now: now)
    }

    private func transaction<T>(_ id: String, now: Date, writing: Bool, _ body: (ShowTransaction) throws -> T) throws -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard var full = shows[id] else { return nil }
        let swept = writing ? MemoryRows.sweep(&full, now: now) : []
        let rows = MemoryRows(shows: [id: full], addresses: addresses[id] ?? [:])
        guard let head = try rows.head(id) else { return nil }
        let tx = ShowTransaction(head: head, source: rows, now: now)
        let result = try body(tx)
        guard writing else { return result }
        let after = tx.finished()
        let diff = ShowDiff(tx.before, after)
        MemoryRows.apply(diff, tx.before, after, to: &full)
        for t in diff.tokens where tx.before.tokens[t] == nil && after.tokens[t] != nil { addresses[id, default: [:]][t] = tx.address ?? "" }
        addresses[id] = addresses[id]?.filter { full.tokens[$0.key] != nil }
        let logged = diff.logged(after, swept: swept)
        if diff.areas || !logged.isEmpty {
            full.changeSequence += 1
            var log = logs[id] ?? ([], 0)
            log.entries += logged.map { (full.changeSequence, $0.0, $0.1) }
            logs[id] = log
        }
        shows[id] = full
        return result
    }

    public func update<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        try transaction(id, now: now, writing: true, body)
    }

    public func read<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        try transaction(id, now: now, writing: false, body)
    }

    public func changes(show id: String, since sequence: Int, limit: Int) throws(SeatMapError) -> (sequence: Int, seats: [SeatID]?)? {
        lock.lock()
        defer { lock.unlock() }
        guard let show = shows[id] else { return nil }
        let log = logs[id] ?? ([], 0)
        guard sequence >= log.floor, sequence <= show.changeSequence else { return (show.changeSequence, nil) }
        let seats = Set(log.entries.filter { $0.0 > sequence }.map(\.1))
        return (show.changeSequence, seats.count <= limit ? seats.sorted() : nil)
    }

    public func sweep(show id: String, now: Date) throws(SeatMapError) -> Int {
        lock.lock()
        let expired = shows[id].map { show in show.tokens.contains { $0.value <= now } } ?? false
        lock.unlock()
        guard expired else { return 0 }
        do {
            return try update(show: id, now: now) { _ in 1 } ?? 0
        } catch {
            throw SeatMapError(file: location, "the store failed: \(error)")
        }
    }

    public func showIDs() throws(SeatMapError) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return shows.keys.sorted()
    }
}

/// The memory store's shows read as the SQL stores read their rows.
struct MemoryRows: ShowRowSource {
    let shows: [String: ShowInventory]
    /// The client address each of the show's tokens was given to.
    let addresses: [String: String]

    func tokenCounts(_ id: String, address: String?, now: Date) throws -> (show: Int, address: Int) {
        guard let full = shows[id] else { return (0, 0) }
        let mine = address.map { a in addresses.filter { $0.value == a && MemoryRows.live(full, $0.key, now) }.count } ?? 0
        return (full.tokens.count, mine)
    }

    /// Whether a token's holds are live at `now`.
    private static func live(_ show: ShowInventory, _ token: String, _ now: Date) -> Bool {
        (show.tokens[token] ?? .distantPast) > now
    }

    func head(_ id: String) throws -> ShowInventory? {
        guard let full = shows[id] else { return nil }
        var show = ShowInventory(show: id, hall: full.hall)
        show.lastSequence = full.lastSequence
        show.rules = full.rules
        show.hallFile = full.hallFile
        show.changeSequence = full.changeSequence
        show.scope = []
        return show
    }

    private func copy(_ ids: some Sequence<SeatID>, from full: ShowInventory, into show: inout ShowInventory, now: Date) {
        for id in ids {
            if let state = full.seats[id] {
                if case .held(let t) = state, !MemoryRows.live(full, t, now) { continue }
                show.seats[id] = state
                if case .held(let t) = state {
                    show.tokens[t] = full.tokens[t]
                    show.tokenChannels[t] = full.tokenChannels[t]
                    show.ticketTypes[id] = full.ticketTypes[id]
                }
            }
            show.channels[id] = full.channels[id]
        }
    }

    func seats(_ ids: [SeatID], of id: String, into show: inout ShowInventory, now: Date) throws {
        guard let full = shows[id] else { return }
        copy(ids, from: full, into: &show, now: now)
    }

    func token(_ token: String, of id: String, into show: inout ShowInventory, now: Date) throws {
        guard let full = shows[id], MemoryRows.live(full, token, now) else { return }
        show.tokens[token] = full.tokens[token]
        show.tokenChannels[token] = full.tokenChannels[token]
        copy(full.heldSeats(of: token), from: full, into: &show, now: now)
        for (area, n) in full.heldPlaces(of: token) { show.areaHolds[area, default: [:]][token] = n }
    }

    func areas(of id: String, into show: inout ShowInventory, now: Date) throws {
        guard let full = shows[id] else { return }
        show.areaAvailable = full.areaAvailable
        for (area, holds) in full.areaHolds {
            for (t, n) in holds where MemoryRows.live(full, t, now) { show.areaHolds[area, default: [:]][t] = n }
        }
    }

    func order(_ orderId: String, of id: String, into show: inout ShowInventory) throws {
        show.orders[orderId] = shows[id]?.orders[orderId]
    }

    func batches(_ ids: [String], of id: String, into show: inout ShowInventory) throws {
        guard let full = shows[id] else { return }
        show.batchIds.formUnion(ids.filter { full.batchIds.contains($0) })
    }

    func all(_ id: String, now: Date) throws -> ShowInventory? {
        guard var show = shows[id] else { return nil }
        show.releaseExpired(now: now)
        show.scope = nil
        return show
    }

    /// Releases the holds of tokens expired at `now`; returns their seats.
    static func sweep(_ show: inout ShowInventory, now: Date) -> [SeatID] {
        let expired = show.tokens.filter { $0.value <= now }.map(\.key).sorted().prefix(ShowTransaction.sweepBatch)
        var freed: [SeatID] = []
        for t in expired {
            freed += show.heldSeats(of: t)
            show.release(token: t)
        }
        return freed
    }

    /// Puts what a transaction changed into the whole show.
    static func apply(_ diff: ShowDiff, _ before: ShowInventory, _ after: ShowInventory, to full: inout ShowInventory) {
        for id in diff.seats {
            full.seats[id] = after.seats[id]
            full.ticketTypes[id] = after.ticketTypes[id]
        }
        for t in diff.tokens {
            full.tokens[t] = after.tokens[t]
            full.tokenChannels[t] = after.tokens[t] == nil ? nil : after.tokenChannels[t]
            if after.tokens[t] == nil {
                for area in full.areaHolds.keys { full.areaHolds[area]?[t] = nil }
            }
        }
        for id in diff.channels { full.channels[id] = after.channels[id] }
        for (area, n) in after.areaAvailable where before.areaAvailable[area] != n { full.areaAvailable[area] = n }
        for area in Set(before.areaHolds.keys).union(after.areaHolds.keys) {
            let old = before.areaHolds[area] ?? [:], new = after.areaHolds[area] ?? [:]
            for t in Set(old.keys).union(new.keys) where old[t] != new[t] { full.areaHolds[area, default: [:]][t] = new[t] }
            if full.areaHolds[area]?.isEmpty ?? false { full.areaHolds[area] = nil }
        }
        for (oid, order) in after.orders where before.orders[oid] == nil { full.orders[oid] = order }
        full.batchIds.formUnion(after.batchIds)
        full.lastSequence = after.lastSequence
    }
}
