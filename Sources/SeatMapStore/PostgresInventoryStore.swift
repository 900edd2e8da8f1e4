import CLibPQ
import Dispatch
import Foundation
import SeatMapCore

/// The inventory store for several instances: one PostgreSQL database
/// (libpq), reached through a pool of connections per process.
///
/// Every use case is one transaction at READ COMMITTED: the show's row is
/// read `FOR UPDATE`, so writers of one show — in this process or any
/// other instance — queue on that row lock and each sees the last commit;
/// a serialization failure or deadlock is retried (three times at most).
/// A connection lost before `COMMIT` was sent is replaced and the
/// transaction run again (twice at most); one lost during `COMMIT` is reported (its outcome
/// is unknown to the client), never retried. Two instances starting at once
/// migrate once (a transaction-scoped advisory lock). Each commit that
/// changes a show sends `NOTIFY seatmap_shows, 'SHOW'` for listeners on
/// every instance.
public final class PostgresInventoryStore: InventoryStore, @unchecked Sendable {
    public private(set) var notes: [String] = []
    /// The connection URL without its password.
    public let location: String
    private let pool: PGPool
    /// Updates of one show arriving together share a transaction and its
    /// commit (`GroupCommit`, a queue a show): the show's row is locked once
    /// for all of them.
    private let commits = GroupCommit<InventoryRows<PGConnection>>()

    /// Whether `text` names a PostgreSQL database rather than a SQLite file:
    /// a `postgresql://` or `postgres://` URI, or a libpq keyword/value
    /// string (`host=... dbname=...`).
    public static func isConnectionString(_ text: String) -> Bool {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") { return true }
        return text.range(of: #"^[a-z_]+=[^ =]*( +[a-z_]+=[^ =]*)*$"#, options: .regularExpression) != nil
    }

    /// Connects (at least once, to migrate) and keeps up to `connections`
    /// connections open.
    public init(url: String, connections: Int = 4) throws(SeatMapError) {
        location = PostgresInventoryStore.redacted(url)
        pool = PGPool(conninfo: url, size: max(1, connections), location: location)
        do {
            try pool.with { c in try PostgresInventoryStore.migrate(c) }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    /// The URL with any password replaced by `***`.
    static func redacted(_ url: String) -> String {
        if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") {
            let userinfo = url[scheme.upperBound..<at]
            if let colon = userinfo.firstIndex(of: ":") {
                return String(url[..<colon]) + ":***" + String(url[at...])
            }
            return url
        }
        return url.split(separator: " ").map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: " ")
    }

    static func seatMapError(_ error: Error, _ location: String) -> SeatMapError {
        switch error {
        case let e as SeatMapError: return e
        case let e as PGFailure: return SeatMapError(file: location, .init(verbatim: e.message))
        default: return SeatMapError(file: location, "the store failed: \(error)")
        }
    }

    /// Applies the migrations not yet recorded, under an advisory lock.
    static func migrate(_ c: PGConnection) throws {
        try c.exec("BEGIN")
        do {
            try c.q("SELECT pg_advisory_xact_lock(7283025)")
            try c.exec("CREATE TABLE IF NOT EXISTS schema_migrations(name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
            for (name, sql) in InventorySchema.migrations {
                if try c.q("SELECT 1 FROM schema_migrations WHERE name = $1", [.text(name)]).isEmpty {
                    try c.exec(sql)
                    try c.q("INSERT INTO schema_migrations(name, applied_at) VALUES ($1, $2)", [.text(name), .int(Int64(Date().timeIntervalSince1970))])
                }
            }
            try c.exec("COMMIT")
        } catch {
            try? c.exec("ROLLBACK")
            throw error
        }
    }

    /// The migrations recorded as applied, in order.
    public func appliedMigrations() throws(SeatMapError) -> [String] {
        do {
            return try pool.with { c in try c.q("SELECT name FROM schema_migrations ORDER BY name").compactMap { $0.first?.text } }
        } catch { throw PostgresInventoryStore.seatMapError(error, location) }
    }

    /// Runs `body` in one transaction, retried on a serialization failure,
    /// a deadlock, or a connection lost before the commit was sent.
    private func transaction<T>(_ body: (InventoryRows<PGConnection>) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            var committing = false
            do {
                return try pool.with { c in
                    try c.later("BEGIN", [])
                    c.swept.removeAll()
                    do {
                        let result = try body(InventoryRows(db: c, lockShow: true))
                        for show in c.announced.sorted() { try c.later("SELECT pg_notify('seatmap_shows', $1)", [.text(show)]) }
                        c.announced.removeAll()
                        committing = true
                        try c.exec("COMMIT")
                        return result
                    } catch {
                        if !committing {
                            c.dropWaiting()
                            try? c.exec("ROLLBACK")
                        }
                        throw error
                    }
                }
            } catch let e as PGFailure where !committing && ((e.isRetryable && attempt < 4) || (e.connectionLost && attempt < 3)) {
                usleep(UInt32(attempt) * 20_000)
                continue
            }
        }
    }

    // MARK: InventoryStore

    public func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool) {
        do {
            let result = try transaction { rows in
                let result = try rows.create(inventory, now: Date())
                if result.created { rows.db.announced.insert(inventory.show) }
                return result
            }
            // A show's rows arrive at once: the planner learns of them now,
            // not when autovacuum gets round to it (until then it read whole
            // tables where an index names one row).
            if result.created { try pool.with { c in try c.exec("ANALYZE show_seats") } }
            return result
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func show(_ id: String, now: Date) throws(SeatMapError) -> ShowInventory? {
        do {
            return try pool.with { c in try InventoryRows(db: c).readConsistent { try $0.all(id, now: now) } }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func update<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        try update(show: id, now: now, expecting: ShowTransaction.Expected(token: nil, seats: []), body)
    }

    /// The show's row (locked), the sweep of expired holds and the rows
    /// `expecting` names are read in one trip.
    public func update<T>(show id: String, now: Date, expecting: ShowTransaction.Expected, _ body: (ShowTransaction) throws -> T) throws -> T? {
        var outcome: Result<T?, any Error> = .success(nil)
        do {
            try commits.submit(key: id, { rows in
                // Its writes go with the next trip; should they fail there, this update alone is undone.
                // An update undone takes its sweep with it: the next one of the commit sweeps.
                outcome = try InventoryRows.savepoint(rows, undone: {
                    outcome = .failure($0)
                    rows.db.swept.remove(id)
                }) {
                    // The show's row first: writers of one show in other instances queue on its lock.
                    // Expired holds are swept once a commit, by its first update of the show.
                    let sweeping = rows.db.swept.insert(id).inserted
                    guard let (head, swept, ahead) = try rows.open(id, now: now, expecting: expecting, sweeping: sweeping) else { return nil }
                    let tx = ShowTransaction(head: head, source: ahead, now: now)
                    let result = try body(tx)
                    let after = tx.finished()
                    if after != tx.before || !swept.isEmpty {
                        try rows.write(tx.before, after, swept: swept, address: tx.address)
                        // Sent with the commit, once however many updates of the batch ask.
                        rows.db.announced.insert(id)
                    }
                    return result
                }
                if case .failure = outcome { rows.db.swept.remove(id) }
            }, commit: { runAll in
                try transaction { rows in try runAll(rows) }
            })
        } catch let e as PGFailure {
            throw PostgresInventoryStore.seatMapError(e, location)
        }
        return try outcome.get()
    }

    public func sweep(show id: String, now: Date) throws(SeatMapError) -> Int {
        do {
            guard try pool.with({ c in try InventoryRows(db: c).hasExpired(id, now: now) }) else { return 0 }
            return try update(show: id, now: now) { _ in 1 } ?? 0
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func read<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        do {
            return try pool.with { c in
                try InventoryRows(db: c).readConsistent { rows in
                    guard let head = try rows.head(id) else { return nil }
                    return try body(ShowTransaction(head: head, source: rows, now: now))
                }
            }
        } catch let e as PGFailure {
            throw PostgresInventoryStore.seatMapError(e, location)
        }
    }

    public func changes(show id: String, since sequence: Int, limit: Int) throws(SeatMapError) -> (sequence: Int, seats: [SeatID]?)? {
        do {
            // One snapshot: the show's sequence and the log it trims agree.
            return try pool.with { c in try InventoryRows(db: c).readConsistent { try $0.changes(of: id, since: sequence, limit: limit) } }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func showIDs() throws(SeatMapError) -> [String] {
        do {
            return try pool.with { c in try InventoryRows(db: c).showIDs() }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    /// Nil when the database answers, else why not.
    public func probe() -> String? {
        var failure: Error? = nil
        for _ in 0..<2 {  // a stale connection first, then a fresh one
            do {
                try pool.with { c in _ = try c.q("SELECT 1") }
                return nil
            } catch {
                failure = error
            }
        }
        return failure.map { PostgresInventoryStore.seatMapError($0, location).message }
    }
}

extension PostgresInventoryStore {
    /// `LISTEN seatmap_shows` on a connection of its own, on a thread of
    /// its own; reconnects after a second when the connection is lost (and
    /// then reports "*": changes may have been missed meanwhile).
    public func watchChanges(_ onChange: @escaping @Sendable (String) -> Void) -> StoreWatch? {
        let watch = PGListener(conninfo: pool.conninfo, location: location, onChange: onChange)
        watch.start()
        return watch
    }
}
