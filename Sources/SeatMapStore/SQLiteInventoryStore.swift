import CSQLite
import Foundation
import SeatMapCore

/// The embedded inventory store: one SQLite file, created on first use.
///
/// Every change runs in one `BEGIN IMMEDIATE` transaction, so writers in
/// this process (one connection, one lock) and in others sharing the file
/// are serialised by SQLite (WAL journal, 10 s busy timeout); a process
/// killed at any moment leaves the database as of its last commit. The
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

    /// The schema, as named steps. Never edit a step that has shipped: add one.
    static let migrations: [(name: String, sql: String)] = [
        // Rounds 1–2: a pending selection per show (no buyer), applied batches.
        ("1-selections", """
        CREATE TABLE IF NOT EXISTS holds(show TEXT NOT NULL, seat TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY(show, seat));
        CREATE TABLE IF NOT EXISTS hold_expiry(show TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS applied_batches(show TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY(show, batch_id));
        CREATE TABLE IF NOT EXISTS last_sequence(show TEXT PRIMARY KEY, sequence INTEGER NOT NULL);
        """),
        // Round 3: shows own their inventory; holds belong to tokens.
        ("2-shows", """
        CREATE TABLE shows(show TEXT PRIMARY KEY, hall TEXT NOT NULL, last_sequence INTEGER, created_at INTEGER NOT NULL);
        CREATE TABLE show_seats(show TEXT NOT NULL, seat TEXT NOT NULL,
            state TEXT NOT NULL CHECK(state IN ('locked', 'sold', 'held')), ref TEXT NOT NULL DEFAULT '', PRIMARY KEY(show, seat));
        CREATE INDEX show_seats_ref ON show_seats(show, ref);
        CREATE TABLE show_tokens(show TEXT NOT NULL, token TEXT NOT NULL, expires_ms INTEGER NOT NULL, PRIMARY KEY(show, token));
        CREATE TABLE show_areas(show TEXT NOT NULL, area TEXT NOT NULL, available INTEGER NOT NULL CHECK(available >= 0), PRIMARY KEY(show, area));
        CREATE TABLE area_holds(show TEXT NOT NULL, area TEXT NOT NULL, token TEXT NOT NULL, places INTEGER NOT NULL CHECK(places > 0),
            PRIMARY KEY(show, area, token));
        CREATE TABLE orders(show TEXT NOT NULL, order_id TEXT NOT NULL, token TEXT NOT NULL, seats TEXT NOT NULL, PRIMARY KEY(show, order_id));
        CREATE TABLE order_areas(show TEXT NOT NULL, order_id TEXT NOT NULL, area TEXT NOT NULL, places INTEGER NOT NULL,
            PRIMARY KEY(show, order_id, area));
        CREATE TABLE show_batches(show TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY(show, batch_id));
        """),
    ]

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
        try db.exec("CREATE TABLE IF NOT EXISTS schema_migrations(name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)")
        for (name, sql) in SQLiteInventoryStore.migrations {
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

    /// Runs `body` in one transaction that takes the write lock at once.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do { try db.exec("BEGIN IMMEDIATE") } catch { throw error.error }
        do {
            let result = try body()
            do { try db.exec("COMMIT") } catch { throw error.error }
            return result
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
    }

    private func q(_ sql: String, _ args: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        do { return try db.rows(sql, args) } catch { throw error.error }
    }

    // MARK: InventoryStore

    public func createShow(_ inventory: ShowInventory) throws(SeatMapError) -> (show: ShowInventory, created: Bool) {
        do {
            return try transaction {
                if let existing = try read(inventory.show) { return (existing, false) }
                var show = inventory
                // Batch ids a round-2 store applied under this show's id stay applied.
                for row in try q("SELECT batch_id FROM applied_batches WHERE show = ?", [.text(show.show)]) {
                    if let id = row.first?.text { show.batchIds.insert(id) }
                }
                if let last = try q("SELECT sequence FROM last_sequence WHERE show = ?", [.text(show.show)]).first?.first?.int {
                    show.lastSequence = max(show.lastSequence ?? Int.min, Int(last))
                }
                try q("INSERT INTO shows(show, hall, last_sequence, created_at) VALUES (?, ?, ?, ?)",
                      [.text(show.show), .text(show.hall), show.lastSequence.map { .int(Int64($0)) } ?? .null,
                       .int(Int64(Date().timeIntervalSince1970))])
                try write(ShowInventory(show: show.show, hall: show.hall), show)
                return (show, true)
            }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func show(_ id: String) throws(SeatMapError) -> ShowInventory? {
        do {
            return try transaction { try read(id) }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    public func update<T>(show id: String, _ body: (inout ShowInventory) throws -> T) throws -> T? {
        try transaction {
            guard let before = try read(id) else { return nil }
            var after = before
            let result = try body(&after)
            try write(before, after)
            return result
        }
    }

    public func showIDs() throws(SeatMapError) -> [String] {
        do {
            return try transaction { try q("SELECT show FROM shows ORDER BY show").compactMap { $0.first?.text } }
        } catch {
            throw SQLiteInventoryStore.seatMapError(error, path)
        }
    }

    static func seatMapError(_ error: Error, _ path: String) -> SeatMapError {
        (error as? SeatMapError) ?? SeatMapError(file: path, "the store failed: \(error)")
    }

    // MARK: Rows ⇄ inventory

    private func read(_ id: String) throws -> ShowInventory? {
        let key: [SQLiteValue] = [.text(id)]
        guard let head = try q("SELECT hall, last_sequence FROM shows WHERE show = ?", key).first, let hall = head[0].text else { return nil }
        var show = ShowInventory(show: id, hall: hall)
        show.lastSequence = head[1].int.map { Int($0) }
        for row in try q("SELECT seat, state, ref FROM show_seats WHERE show = ?", key) {
            guard let text = row[0].text, let seat = SeatID(text), let state = row[1].text, let ref = row[2].text else { continue }
            switch state {
            case "locked": show.seats[seat] = .locked
            case "sold": show.seats[seat] = .sold(order: ref)
            default: show.seats[seat] = .held(token: ref)
            }
        }
        for row in try q("SELECT token, expires_ms FROM show_tokens WHERE show = ?", key) {
            if let token = row[0].text, let ms = row[1].int { show.tokens[token] = Date(timeIntervalSince1970: Double(ms) / 1000) }
        }
        for row in try q("SELECT area, available FROM show_areas WHERE show = ?", key) {
            if let area = row[0].text, let n = row[1].int { show.areaAvailable[area] = Int(n) }
        }
        for row in try q("SELECT area, token, places FROM area_holds WHERE show = ?", key) {
            if let area = row[0].text, let token = row[1].text, let n = row[2].int { show.areaHolds[area, default: [:]][token] = Int(n) }
        }
        for row in try q("SELECT order_id, token, seats FROM orders WHERE show = ?", key) {
            guard let oid = row[0].text, let token = row[1].text, let seats = row[2].text else { continue }
            show.orders[oid] = ShowInventory.Order(token: token, seats: seats.split(separator: ",").compactMap { SeatID(String($0)) }, areas: [:])
        }
        for row in try q("SELECT order_id, area, places FROM order_areas WHERE show = ?", key) {
            if let oid = row[0].text, let area = row[1].text, let n = row[2].int { show.orders[oid]?.areas[area] = Int(n) }
        }
        for row in try q("SELECT batch_id FROM show_batches WHERE show = ?", key) {
            if let b = row[0].text { show.batchIds.insert(b) }
        }
        return show
    }

    /// Writes the rows that differ between two states of one show.
    private func write(_ before: ShowInventory, _ after: ShowInventory) throws {
        let show = SQLiteValue.text(after.show)
        for id in Set(before.seats.keys).union(after.seats.keys) where before.seats[id] != after.seats[id] {
            let seat = SQLiteValue.text(id.description)
            switch after.seats[id] {
            case nil: try q("DELETE FROM show_seats WHERE show = ? AND seat = ?", [show, seat])
            case let state?:
                let (word, ref): (String, String)
                switch state {
                case .locked: (word, ref) = ("locked", "")
                case .sold(let order): (word, ref) = ("sold", order)
                case .held(let token): (word, ref) = ("held", token)
                }
                try q("INSERT INTO show_seats(show, seat, state, ref) VALUES (?, ?, ?, ?) ON CONFLICT(show, seat) DO UPDATE SET state = excluded.state, ref = excluded.ref",
                      [show, seat, .text(word), .text(ref)])
            }
        }
        for token in Set(before.tokens.keys).union(after.tokens.keys) where before.tokens[token] != after.tokens[token] {
            if let expiry = after.tokens[token] {
                try q("INSERT INTO show_tokens(show, token, expires_ms) VALUES (?, ?, ?) ON CONFLICT(show, token) DO UPDATE SET expires_ms = excluded.expires_ms",
                      [show, .text(token), .int(Int64((expiry.timeIntervalSince1970 * 1000).rounded(.up)))])
            } else {
                try q("DELETE FROM show_tokens WHERE show = ? AND token = ?", [show, .text(token)])
            }
        }
        for area in Set(before.areaAvailable.keys).union(after.areaAvailable.keys) where before.areaAvailable[area] != after.areaAvailable[area] {
            if let n = after.areaAvailable[area] {
                try q("INSERT INTO show_areas(show, area, available) VALUES (?, ?, ?) ON CONFLICT(show, area) DO UPDATE SET available = excluded.available",
                      [show, .text(area), .int(Int64(n))])
            } else {
                try q("DELETE FROM show_areas WHERE show = ? AND area = ?", [show, .text(area)])
            }
        }
        for area in Set(before.areaHolds.keys).union(after.areaHolds.keys) {
            let old = before.areaHolds[area] ?? [:], new = after.areaHolds[area] ?? [:]
            for token in Set(old.keys).union(new.keys) where old[token] != new[token] {
                if let n = new[token], n > 0 {
                    try q("INSERT INTO area_holds(show, area, token, places) VALUES (?, ?, ?, ?) ON CONFLICT(show, area, token) DO UPDATE SET places = excluded.places",
                          [show, .text(area), .text(token), .int(Int64(n))])
                } else {
                    try q("DELETE FROM area_holds WHERE show = ? AND area = ? AND token = ?", [show, .text(area), .text(token)])
                }
            }
        }
        for (oid, order) in after.orders where before.orders[oid] == nil {
            try q("INSERT INTO orders(show, order_id, token, seats) VALUES (?, ?, ?, ?)",
                  [show, .text(oid), .text(order.token), .text(order.seats.map(\.description).joined(separator: ","))])
            for (area, n) in order.areas {
                try q("INSERT INTO order_areas(show, order_id, area, places) VALUES (?, ?, ?, ?)", [show, .text(oid), .text(area), .int(Int64(n))])
            }
        }
        for b in after.batchIds.subtracting(before.batchIds) {
            try q("INSERT OR IGNORE INTO show_batches(show, batch_id) VALUES (?, ?)", [show, .text(b)])
        }
        if before.lastSequence != after.lastSequence {
            try q("UPDATE shows SET last_sequence = ? WHERE show = ?", [after.lastSequence.map { .int(Int64($0)) } ?? .null, show])
        }
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
                try fresh.exec(migrations[0].sql)
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

    /// The version of the linked SQLite, as linked at run time.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// How long a hold lasts unless `--hold-ttl` says otherwise.
    public static let defaultHoldSeconds: Double = 600
}

/// A value in a row.
enum SQLiteValue: Equatable {
    case int(Int64)
    case text(String)
    case null

    var text: String? { if case .text(let s) = self { return s } else { return nil } }
    var int: Int64? { if case .int(let v) = self { return v } else { return nil } }
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

    deinit {
        if let db { sqlite3_close_v2(db) }
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
    func rows(_ sql: String, _ args: [SQLiteValue] = []) throws(SQLiteFailure) -> [[SQLiteValue]] {
        var stmt: OpaquePointer? = nil
        var rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw failure("the store failed", rc) }
        defer { sqlite3_finalize(stmt) }
        for (i, arg) in args.enumerated() {
            let k = Int32(i + 1)
            switch arg {
            case .int(let v): rc = sqlite3_bind_int64(stmt, k, v)
            case .text(let s): rc = seatmap_sqlite_bind_text(stmt, k, s)
            case .null: rc = sqlite3_bind_null(stmt, k)
            }
            guard rc == SQLITE_OK else { throw failure("the store failed", rc) }
        }
        var out: [[SQLiteValue]] = []
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
