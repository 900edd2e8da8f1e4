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
                    try c.exec("BEGIN")
                    do {
                        let result = try body(InventoryRows(db: c, lockShow: true))
                        committing = true
                        try c.exec("COMMIT")
                        return result
                    } catch {
                        if !committing { try? c.exec("ROLLBACK") }
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
            return try transaction { rows in
                let result = try rows.create(inventory, now: Date())
                if result.created { try rows.db.q("SELECT pg_notify('seatmap_shows', $1)", [.text(inventory.show)]) }
                return result
            }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func show(_ id: String) throws(SeatMapError) -> ShowInventory? {
        do {
            return try pool.with { c in try InventoryRows(db: c).readConsistent(id) }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    public func update<T>(show id: String, _ body: (inout ShowInventory) throws -> T) throws -> T? {
        do {
            return try transaction { rows in
                guard let before = try rows.read(id) else { return nil }
                var after = before
                let result = try body(&after)
                if after != before {
                    try rows.write(before, after)
                    try rows.db.q("SELECT pg_notify('seatmap_shows', $1)", [.text(id)])
                }
                return result
            }
        } catch let e as PGFailure {
            throw PostgresInventoryStore.seatMapError(e, location)
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

/// The thread behind `watchChanges`.
final class PGListener: StoreWatch, @unchecked Sendable {
    private let conninfo: String, location: String
    private let onChange: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(conninfo: String, location: String, onChange: @escaping @Sendable (String) -> Void) {
        self.conninfo = conninfo
        self.location = location
        self.onChange = onChange
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func start() {
        let thread = Thread { [self] in
            var missed = false
            while !isStopped {
                guard let c = try? PGConnection(conninfo: conninfo, location: location), (try? c.exec("LISTEN seatmap_shows")) != nil else {
                    missed = true
                    Thread.sleep(forTimeInterval: 1)
                    continue
                }
                if missed { onChange("*") }
                missed = true
                while !isStopped, let shows = c.notifications(waiting: 1) {
                    for show in shows { onChange(show) }
                }
            }
            finished.signal()
        }
        thread.name = "seatmap-store-listen"
        thread.start()
    }

    func stop() {
        lock.lock()
        let was = stopped
        stopped = true
        lock.unlock()
        if !was { _ = finished.wait(timeout: .now() + 3) }
    }
}

extension PGConnection {
    /// The payloads of the notifications that arrive within `seconds`
    /// (empty when none did); nil when the connection is lost.
    func notifications(waiting seconds: Double) -> [String]? {
        let fd = PQsocket(conn)
        guard fd >= 0 else { return nil }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, Int32(seconds * 1000))
        if ready < 0 && errno != EINTR { return nil }
        guard PQconsumeInput(conn) == 1 else { return nil }
        var out: [String] = []
        while let n = PQnotifies(conn) {
            out.append(String(cString: n.pointee.extra))
            PQfreemem(n)
        }
        return PQstatus(conn) == CONNECTION_OK ? out : nil
    }
}

extension InventoryRows where DB == PGConnection {
    /// A show read in one snapshot (a read-only transaction at REPEATABLE READ).
    func readConsistent(_ id: String) throws -> ShowInventory? {
        try db.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let show = try read(id)
            try db.exec("COMMIT")
            return show
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }
}

/// A failed libpq call: the server's message and SQLSTATE, and whether the
/// connection itself was lost.
struct PGFailure: Error {
    var message: String
    var sqlstate: String
    var connectionLost: Bool

    /// serialization_failure and deadlock_detected: run the transaction again.
    var isRetryable: Bool { sqlstate == "40001" || sqlstate == "40P01" }
}

/// One libpq connection (closed on deinit); every result's status checked.
final class PGConnection: SQLRunner {
    let conn: OpaquePointer
    let location: String

    init(conninfo: String, location: String) throws(PGFailure) {
        // A dead server is noticed within seconds, not after TCP's minutes.
        let info = conninfo.contains("connect_timeout") ? conninfo
            : conninfo + (conninfo.contains("://") ? (conninfo.contains("?") ? "&" : "?") + "connect_timeout=5" : " connect_timeout=5")
        guard let c = PQconnectdb(info) else {
            throw PGFailure(message: "cannot reach the store: out of memory", sqlstate: "", connectionLost: true)
        }
        guard PQstatus(c) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(c)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(c)
            throw PGFailure(message: "cannot reach the store: \(message)", sqlstate: "", connectionLost: true)
        }
        conn = c
        self.location = location
        _ = try rows("SET application_name = 'seatmap'", [])
    }

    deinit { PQfinish(conn) }

    var isUsable: Bool { PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE }

    /// Runs statements without arguments (DDL, BEGIN, COMMIT).
    func exec(_ sql: String) throws(PGFailure) {
        _ = try rows(sql, [])
    }

    @discardableResult
    func rows(_ sql: String, _ args: [SQLValue]) throws(PGFailure) -> [[SQLValue]] {
        let texts: [String?] = args.map {
            switch $0 {
            case .int(let v): return String(v)
            case .text(let s): return s
            case .null: return nil
            }
        }
        let result: OpaquePointer? = args.isEmpty ? PQexec(conn, sql) : withCStrings(texts) { pointers in
            PQexecParams(conn, sql, Int32(args.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result) }
        var out: [[SQLValue]] = []
        let n = PQntuples(result), m = PQnfields(result)
        out.reserveCapacity(Int(n))
        for i in 0..<n {
            out.append((0..<m).map { j in
                PQgetisnull(result, i, j) == 1 ? .null : .text(String(cString: PQgetvalue(result, i, j)))
            })
        }
        return out
    }

    private func failure(_ result: OpaquePointer?) -> PGFailure {
        let lost = PQstatus(conn) != CONNECTION_OK
        var message = result.map { String(cString: PQresultErrorMessage($0)) } ?? ""
        if message.isEmpty { message = String(cString: PQerrorMessage(conn)) }
        let state = result.flatMap { PQresultErrorField($0, seatmap_pg_diag_sqlstate()) }.map { String(cString: $0) } ?? ""
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        return PGFailure(message: lost ? "the store's connection was lost: \(text)" : "the store failed: \(text)", sqlstate: state,
                         connectionLost: lost)
    }

    /// Calls `body` with C strings for `texts` (nil stays a null pointer).
    private func withCStrings<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let buffers: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdup($0) } ?? nil }
        defer { buffers.forEach { free($0) } }
        return body(buffers.map { $0.map { UnsafePointer($0) } })
    }
}

/// Up to `size` connections shared by the threads of a process: a caller
/// waits for a free one; a broken connection is dropped and a new one made
/// the next time (so the pool reconnects after the database restarts).
final class PGPool: @unchecked Sendable {
    let conninfo: String
    private let location: String
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var idle: [PGConnection] = []

    init(conninfo: String, size: Int, location: String) {
        self.conninfo = conninfo
        self.location = location
        slots = DispatchSemaphore(value: size)
    }

    func with<T>(_ body: (PGConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        lock.lock()
        var connection = idle.popLast()
        lock.unlock()
        if let c = connection, !c.isUsable { connection = nil }
        let c = try connection ?? PGConnection(conninfo: conninfo, location: location)
        defer {
            if c.isUsable {
                lock.lock()
                idle.append(c)
                lock.unlock()
            }
        }
        do {
            return try body(c)
        } catch let e as PGFailure where e.connectionLost {
            // The server went away: every idle connection is as stale as this one
            // (libpq learns of a closed socket only on its next use).
            lock.lock()
            idle.removeAll()
            lock.unlock()
            throw e
        }
    }
}

/// The store a `--store` value names: a PostgreSQL URL or connection
/// string, else a SQLite file.
public enum InventoryStores {
    public static func open(_ text: String, connections: Int = 4) throws(SeatMapError) -> any InventoryStore {
        if PostgresInventoryStore.isConnectionString(text) { return try PostgresInventoryStore(url: text, connections: connections) }
        return try SQLiteInventoryStore(path: text)
    }
}
