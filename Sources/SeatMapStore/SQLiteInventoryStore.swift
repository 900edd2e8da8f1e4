import CSQLite
import Foundation
import SeatMapCore

/// The embedded inventory store: one SQLite file, created on first use.
///
/// Every change runs in a `BEGIN IMMEDIATE` transaction, so writers in
/// this process (one connection, one lock) and in others sharing the file
/// are serialised by SQLite (WAL journal, 10 s busy timeout); a process
/// killed at any moment leaves the database as of its last commit.
/// Updates arriving together share a commit (`GroupCommit`). The
/// schema is versioned by named migrations (`migrations`), applied in
/// order, once each, and recorded in `schema_migrations`; a round-2 store
/// (no migration table) takes them like a new one. A first-round JSON store
/// is turned into a database on first open (the JSON kept beside it); a
/// file that is neither is moved aside (`PATH.corrupt-…`, never
/// overwriting an earlier one) and the store starts empty, with a note.
public final class SQLiteInventoryStore: InventoryStore, @unchecked Sendable {
    public let path: String
    public private(set) var notes: [String] = []
    public var location: String { path }
    private let db: SQLiteConnection
    /// One transaction at a time on the connection.
    private let lock = NSLock()
    /// Updates arriving together share a commit.
    private let commits = GroupCommit<InventoryRows<SQLiteRunner>>()

    /// Opens (creating, migrating or recovering) the store at `path`.
    public init(path: String, now: Date = Date()) throws(SeatMapError) {
        self.path = path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw SeatMapError(file: path, "is a folder; give the store's file name")
        }
        notes += try SQLiteInventoryStore.migrateJSONIfNeeded(path, now: now)
        do {
            db = try SQLiteInventoryStore.openMigrated(path)
        } catch let first {
            // Not a database (or a damaged one): keep it, start afresh. Any
            // other failure (a folder that cannot be written, a lock) is
            // reported and the file left alone.
            guard first.code == SQLITE_NOTADB || first.code == SQLITE_CORRUPT, FileManager.default.fileExists(atPath: path) else {
                throw first.error
            }
            let aside = try SQLiteInventoryStore.moveAside(path, suffix: "corrupt", now: now)
            notes.append("\(path): the store could not be read (\(first.error.message)); moved it to \(aside) and started empty")
            do {
                db = try SQLiteInventoryStore.openMigrated(path)
            } catch {
                throw error.error
            }
        }
    }

    /// Opens the database and applies the migrations not yet recorded,
    /// each in its own transaction.
    private static func openMigrated(_ path: String) throws(SQLiteFailure) -> SQLiteConnection {
        let db = try SQLiteConnection(path: path)
        try db.exec("CREATE TABLE IF NOT EXISTS schema_migrations(name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
        for (name, sql) in InventorySchema.migrations {
            try db.exec("BEGIN IMMEDIATE")
            do {
                if try db.rows("SELECT 1 FROM schema_migrations WHERE name = ?", [.text(name)]).isEmpty {
                    try db.exec(sql)
                    try db.rows("INSERT INTO schema_migrations(name, applied_at) VALUES (?, ?)",
                                [.text(name), .int(Int64(Date().timeIntervalSince1970))])
                }
                try db.exec("COMMIT")
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
        }
        return db
    }

    /// The migrations recorded as applied, in order.
    public func appliedMigrations() throws(SeatMapError) -> [String] {
        do {
            return try db.rows("SELECT name FROM schema_migrations ORDER BY name").compactMap { $0.first?.text }
        } catch { throw error.error }
    }

    /// Runs `body` in one transaction that takes the write lock at once
    /// (`immediate`), or a read transaction (one snapshot of the file).
    private func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do { try db.exec(immediate ? "BEGIN IMMEDIATE" : "BEGIN") } catch { throw error.error }
        do {
            let result = try body()
            do { try db.exec("COMMIT") } catch { throw error.error }
            return result
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    /// The inventory's rows on this connection.
    private var rows: InventoryRows<SQLiteRunner> { InventoryRows(db: SQLiteRunner(connection: db)) }

    // MARK: InventoryStore

    public func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool) {
        do {
            return try transaction { try rows.create(inventory, now: Date()) }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func show(_ id: String, now: Date) throws(SeatMapError) -> ShowInventory? {
        do {
            return try transaction(immediate: false) { try rows.all(id, now: now) }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func update<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        var outcome: Result<T?, any Error> = .success(nil)
        try commits.submit(key: "", { rows in
            outcome = try InventoryRows.savepoint(rows) {
                guard let (head, swept, _) = try rows.open(id, now: now, expecting: ShowTransaction.Expected(token: nil, seats: [])) else { return nil }
                let tx = ShowTransaction(head: head, source: rows, now: now)
                let result = try body(tx)
                try rows.write(tx.before, tx.finished(), swept: swept, address: tx.address)
                return result
            }
        }, commit: { runAll in
            // Writers in other processes wait in SQLite's busy handler.
            try transaction { try runAll(rows) }
        })
        return try outcome.get()
    }

    public func sweep(show id: String, now: Date) throws(SeatMapError) -> Int {
        do {
            guard try transaction(immediate: false, { try rows.hasExpired(id, now: now) }) else { return 0 }
            return try update(show: id, now: now) { _ in 1 } ?? 0
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func read<T>(show id: String, now: Date, _ body: (ShowTransaction) throws -> T) throws -> T? {
        try transaction(immediate: false) {
            guard let head = try rows.head(id) else { return nil }
            return try body(ShowTransaction(head: head, source: rows, now: now))
        }
    }

    public func changes(show id: String, since sequence: Int, limit: Int) throws(SeatMapError) -> (sequence: Int, seats: [SeatID]?)? {
        do {
            return try transaction(immediate: false) { try rows.changes(of: id, since: sequence, limit: limit) }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func showIDs() throws(SeatMapError) -> [String] {
        do {
            return try transaction(immediate: false) { try rows.showIDs() }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    static func seatMapError(_ error: Error, _ path: String) -> SeatMapError {
        (error as? SeatMapError) ?? SeatMapError(file: path, "the store failed: \(error)")
    }

    /// Whether the database passes SQLite's own check (`PRAGMA integrity_check`).
    public func integrityCheck() throws(SeatMapError) -> String {
        do {
            return try db.rows("PRAGMA integrity_check").compactMap { $0.first?.text }.joined(separator: "\n")
        } catch { throw error.error }
    }

    // MARK: Migration and recovery

    /// Whether a file starts like a SQLite database.
    static func isDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header.isEmpty || header == Data("SQLite format 3\u{0}".utf8)
    }

    /// Moves a file aside to `PATH.<suffix>-<time>-<pid>-<n>` without ever
    /// replacing an earlier one (a hard link, which fails on a taken name,
    /// then the old name removed); returns the new name.
    static func moveAside(_ path: String, suffix: String, now: Date) throws(SeatMapError) -> String {
        let stamp = Int(now.timeIntervalSince1970)
        for n in 0..<1000 {
            let aside = "\(path).\(suffix)-\(stamp)-\(getpid())-\(n)"
            if link(path, aside) == 0 {
                unlink(path)
                return aside
            }
            guard errno == EEXIST else { break }
        }
        throw SeatMapError(file: path, "cannot move the file aside: \(String(cString: strerror(errno)))")
    }

    /// Turns a first-round JSON store (`{"shows": {"SHOW": [ids]}}`) into a
    /// database, once, under an exclusive lock on the file. Its pending
    /// selections had no buyer: they become the round-2 tables' rows, kept
    /// but held by no token (a show created later starts without them).
    private static func migrateJSONIfNeeded(_ path: String, now: Date) throws(SeatMapError) -> [String] {
        var notes: [String] = []
        while FileManager.default.fileExists(atPath: path) && !isDatabase(path) {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw SeatMapError(file: path, "cannot read the store: \(String(cString: strerror(errno)))") }
            defer { Glibc.close(fd) }
            guard flock(fd, LOCK_EX) == 0 else { throw SeatMapError(file: path, "cannot lock the store: \(String(cString: strerror(errno)))") }
            // Still the file at PATH, and still not migrated?
            var mine = stat(), current = stat()
            guard fstat(fd, &mine) == 0, stat(path, &current) == 0, mine.st_ino == current.st_ino, !isDatabase(path) else { continue }
            let source = try Files.read(path)
            var shows: [String: [String]] = [:]
            var ctx = DecodeContext(source: source)
            var readable = false
            if let root = ctx.parse(), let m = ctx.object(root, "", known: ["shows"]),
               let showsNode = ctx.required(m, "shows", in: root, ""), let entries = ctx.object(showsNode, "shows", known: []) {
                for (show, node) in entries {
                    guard let items = ctx.array(node, "shows.\(show)") else { continue }
                    shows[show] = items.enumerated().compactMap { ctx.string($0.element, "shows.\(show)[\($0.offset)]") }
                }
                readable = ctx.errors.isEmpty
            }
            // Build the database beside it, then swap: the JSON stays as a backup.
            let temp = "\(path).seatmap-migrating-\(getpid())"
            unlink(temp)
            do {
                let fresh = try SQLiteConnection(path: temp)
                try fresh.exec(InventorySchema.migrations[0].sql)
                if readable {
                    try fresh.exec("BEGIN IMMEDIATE")
                    for show in shows.keys.sorted() {
                        for (k, seat) in (shows[show] ?? []).enumerated() {
                            try fresh.rows("INSERT OR IGNORE INTO holds(show, seat, position) VALUES (?, ?, ?)", [.text(show), .text(seat), .int(Int64(k))])
                        }
                        try fresh.rows("INSERT OR REPLACE INTO hold_expiry(show, expires_at) VALUES (?, ?)",
                                       [.text(show), .int(Int64(now.timeIntervalSince1970 + defaultHoldSeconds))])
                    }
                    try fresh.exec("COMMIT")
                }
            } catch {
                throw error.error
            }
            let aside = try moveAside(path, suffix: readable ? "json-backup" : "corrupt", now: now)
            guard rename(temp, path) == 0 else { throw SeatMapError(file: path, "cannot install the migrated store: \(String(cString: strerror(errno)))") }
            unlink(temp + "-wal")
            unlink(temp + "-shm")
            notes.append(readable
                ? "\(path): migrated the JSON selection store to SQLite (\(shows.count) show(s)); the JSON is kept as \(aside)"
                : "\(path): the selection store was corrupt (\(ctx.errors.first?.description ?? "unreadable")); moved it to \(aside) and started empty")
        }
        return notes
    }

    /// The version of SQLite, as opened at run time ("?" when it cannot be).
    public static var sqliteVersion: String { sqlite3_libversion().map { String(cString: $0) } ?? "?" }

    /// How long a hold lasts unless the user says otherwise.
    public static let defaultHoldSeconds: Double = HoldTime.defaultSeconds
}

/// The inventory's rows reach SQLite through this: `$N` arguments as
/// SQLite's `?N`, failures as the library's error.
struct SQLiteRunner: SQLRunner {
    let connection: SQLiteConnection
    func rows(_ sql: String, _ args: [SQLValue]) throws -> [[SQLValue]] {
        do { return try connection.rows(sql, args, dollarArguments: true) } catch { throw error.error }
    }
}

/// A failed SQLite call: its result code and the message for people.
struct SQLiteFailure: Error {
    var code: Int32
    var error: SeatMapError
}

/// One SQLite connection (closed on deinit): statements with bound
/// arguments, every status checked.
final class SQLiteConnection {
    let path: String
    private var db: OpaquePointer?

    init(path: String) throws(SQLiteFailure) {
        self.path = path
        var handle: OpaquePointer? = nil
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        db = handle
        guard rc == SQLITE_OK, handle != nil else { throw failure("cannot open the store", rc) }
        sqlite3_busy_timeout(handle, 10_000)
        try rows("PRAGMA journal_mode=WAL")
    }

    /// Prepared statements by their text (at most `cacheLimit`; all
    /// finalised when it is full): a hold's few statements are parsed once.
    private var statements: [String: OpaquePointer] = [:]
    private let cacheLimit = 256

    deinit {
        for stmt in statements.values { sqlite3_finalize(stmt) }
        if let db { sqlite3_close_v2(db) }
    }

    /// The statement for `sql` (`$N` arguments as SQLite's `?N` when
    /// `dollarArguments`), prepared once and reset for each use.
    private func statement(_ sql: String, dollarArguments: Bool) throws(SQLiteFailure) -> OpaquePointer {
        if let stmt = statements[sql] {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
            return stmt
        }
        if statements.count >= cacheLimit {
            for stmt in statements.values { sqlite3_finalize(stmt) }
            statements.removeAll()
        }
        let text = dollarArguments ? String(decoding: sql.utf8.map { $0 == UInt8(ascii: "$") ? UInt8(ascii: "?") : $0 }, as: UTF8.self) : sql
        var stmt: OpaquePointer? = nil
        let rc = sqlite3_prepare_v2(db, text, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw failure("the store failed", rc) }
        statements[sql] = stmt
        return stmt
    }

    private func failure(_ what: String, _ rc: Int32) -> SQLiteFailure {
        let detail = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
        return SQLiteFailure(code: rc, error: SeatMapError(file: path, "\(what): \(detail)"))
    }

    func exec(_ sql: String) throws(SQLiteFailure) {
        var message: UnsafeMutablePointer<CChar>? = nil
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            throw SQLiteFailure(code: rc, error: SeatMapError(file: path,
                "the store failed: \(message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc)))"))
        }
    }

    /// Runs one statement with its arguments; returns its rows.
    @discardableResult
    func rows(_ sql: String, _ args: [SQLValue] = [], dollarArguments: Bool = false) throws(SQLiteFailure) -> [[SQLValue]] {
        let stmt = try statement(sql, dollarArguments: dollarArguments)
        // Done with the statement (its locks let go) whatever happens.
        defer { sqlite3_reset(stmt) }
        var rc: Int32 = SQLITE_OK
        for (i, arg) in args.enumerated() {
            let k = Int32(i + 1)
            switch arg {
            case .int(let v): rc = sqlite3_bind_int64(stmt, k, v)
            case .text(let s): rc = seatmap_sqlite_bind_text(stmt, k, s, Int32(s.utf8.count))  // every byte, a NUL too
            case .null: rc = sqlite3_bind_null(stmt, k)
            }
            guard rc == SQLITE_OK else { throw failure("the store failed", rc) }
        }
        var out: [[SQLValue]] = []
        while true {
            rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure("the store failed", rc) }
            out.append((0..<sqlite3_column_count(stmt)).map { c in
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, c))
                case SQLITE_TEXT: return sqlite3_column_text(stmt, c).map { .text(String(cString: $0)) } ?? .null
                default: return .null
                }
            })
        }
        return out
    }
}
