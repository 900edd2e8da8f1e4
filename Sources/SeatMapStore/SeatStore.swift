import CSQLite
import Foundation
import SeatMapCore

/// The store behind `--store PATH`: a SQLite database holding each show's
/// pending selection as a hold with an expiry, and the status batches
/// applied per show (so `apply` is idempotent across runs, not only within
/// one).
///
/// Every command runs its reads and writes in one `BEGIN IMMEDIATE`
/// transaction (`transaction`), so concurrent commands on one store are
/// serialised by SQLite (WAL journal, 10 s busy timeout) and none loses
/// another's change; a process killed at any moment leaves the database as
/// of its last commit. A store file in the first round's JSON format is
/// migrated on first open (the JSON kept beside it as a backup); a file
/// that is neither is moved aside (`PATH.corrupt-…`, never overwriting an
/// earlier one) and the store starts empty, with a note saying so.
public final class SeatStore {
    public let path: String
    /// What happened on open that the user should hear about (a migration,
    /// a corrupt file moved aside).
    public private(set) var notes: [String] = []
    private var db: OpaquePointer?
    /// The SQLite result code of the last failure.
    private var lastCode: Int32 = SQLITE_OK

    /// A value in a row.
    enum Value: Equatable {
        case int(Int64)
        case text(String)
        case null
    }

    static let schema = """
    CREATE TABLE IF NOT EXISTS holds(show TEXT NOT NULL, seat TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY(show, seat));
    CREATE TABLE IF NOT EXISTS hold_expiry(show TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS applied_batches(show TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY(show, batch_id));
    CREATE TABLE IF NOT EXISTS last_sequence(show TEXT PRIMARY KEY, sequence INTEGER NOT NULL);
    """

    /// Opens (creating, migrating or recovering) the store at `path`.
    public init(path: String, now: Date = Date()) throws(SeatMapError) {
        self.path = path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw SeatMapError(file: path, "is a folder; give the store's file name")
        }
        try migrateJSONIfNeeded(now: now)
        do {
            try open()
        } catch let first {
            close()
            // Not a database (or a damaged one): keep it, start afresh. Any
            // other failure (a folder that cannot be written, a lock) is
            // reported and the file left alone.
            guard lastCode == SQLITE_NOTADB || lastCode == SQLITE_CORRUPT, FileManager.default.fileExists(atPath: path) else { throw first }
            let aside = try SeatStore.moveAside(path, suffix: "corrupt", now: now)
            notes.append("\(path): the store could not be read (\(first.message)); moved it to \(aside) and started empty")
            try open()
        }
    }

    deinit { close() }

    private func close() {
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    private func open() throws(SeatMapError) {
        var handle: OpaquePointer? = nil
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        db = handle
        guard rc == SQLITE_OK, handle != nil else { throw failure("cannot open the store", rc) }
        sqlite3_busy_timeout(handle, 10_000)
        _ = try run("PRAGMA journal_mode=WAL")
        try execScript(SeatStore.schema)
    }

    private func failure(_ what: String, _ rc: Int32) -> SeatMapError {
        lastCode = rc
        let detail = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
        return SeatMapError(file: path, "\(what): \(detail)")
    }

    private func execScript(_ sql: String) throws(SeatMapError) {
        var message: UnsafeMutablePointer<CChar>? = nil
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            lastCode = rc
            throw SeatMapError(file: path, "the store failed: \(message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc)))")
        }
    }

    /// Runs one statement with its arguments; returns its rows.
    @discardableResult
    func run(_ sql: String, _ args: [Value] = []) throws(SeatMapError) -> [[Value]] {
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
        var rows: [[Value]] = []
        while true {
            rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw failure("the store failed", rc) }
            rows.append((0..<sqlite3_column_count(stmt)).map { c in
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, c))
                case SQLITE_TEXT: return sqlite3_column_text(stmt, c).map { .text(String(cString: $0)) } ?? .null
                default: return .null
                }
            })
        }
        return rows
    }

    /// Runs `body` in one transaction that takes the write lock at once
    /// (waiting for other writers), committed when `body` returns and
    /// rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execScript("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execScript("COMMIT")
            return result
        } catch {
            try? execScript("ROLLBACK")
            throw error
        }
    }

    // MARK: Holds (pending selections)

    /// A show's held seat ids, in the order they were held; an expired hold
    /// is released (and gives none).
    public func heldSeats(show: String, now: Date = Date()) throws(SeatMapError) -> [String] {
        let expiry = try run("SELECT expires_at FROM hold_expiry WHERE show = ?", [.text(show)])
        if case .int(let t)? = expiry.first?.first, t <= Int64(now.timeIntervalSince1970) {
            try release(show: show)
            return []
        }
        return try run("SELECT seat FROM holds WHERE show = ? ORDER BY position", [.text(show)]).compactMap {
            if case .text(let s)? = $0.first { return s }
            return nil
        }
    }

    /// Replaces a show's held seats, held until `until`.
    public func hold(show: String, seats: [String], until: Date) throws(SeatMapError) {
        try release(show: show)
        guard !seats.isEmpty else { return }
        for (k, seat) in seats.enumerated() {
            try run("INSERT INTO holds(show, seat, position) VALUES (?, ?, ?)", [.text(show), .text(seat), .int(Int64(k))])
        }
        try run("INSERT INTO hold_expiry(show, expires_at) VALUES (?, ?)", [.text(show), .int(Int64(until.timeIntervalSince1970.rounded(.up)))])
    }

    /// Forgets a show's held seats (the order went through, or the hold expired).
    public func release(show: String) throws(SeatMapError) {
        try run("DELETE FROM holds WHERE show = ?", [.text(show)])
        try run("DELETE FROM hold_expiry WHERE show = ?", [.text(show)])
    }

    // MARK: Applied status batches

    /// The batch ids applied for a show, and the last sequence applied.
    public func appliedBatches(show: String) throws(SeatMapError) -> (ids: Set<String>, lastSequence: Int?) {
        let ids = try run("SELECT batch_id FROM applied_batches WHERE show = ?", [.text(show)]).compactMap { row -> String? in
            if case .text(let s)? = row.first { return s }
            return nil
        }
        var last: Int? = nil
        if case .int(let v)? = try run("SELECT sequence FROM last_sequence WHERE show = ?", [.text(show)]).first?.first { last = Int(v) }
        return (Set(ids), last)
    }

    /// Records a batch as applied for a show.
    public func recordBatch(show: String, batchId: String, sequence: Int) throws(SeatMapError) {
        try run("INSERT OR IGNORE INTO applied_batches(show, batch_id) VALUES (?, ?)", [.text(show), .text(batchId)])
        try run("INSERT INTO last_sequence(show, sequence) VALUES (?, ?) ON CONFLICT(show) DO UPDATE SET sequence = max(sequence, excluded.sequence)",
                [.text(show), .int(Int64(sequence))])
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
    /// database, once: under an exclusive lock on the file, so concurrent
    /// commands migrate it exactly once. Holds migrated this way expire a
    /// default hold time from now.
    private func migrateJSONIfNeeded(now: Date) throws(SeatMapError) {
        while FileManager.default.fileExists(atPath: path) && !SeatStore.isDatabase(path) {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw SeatMapError(file: path, "cannot read the store: \(String(cString: strerror(errno)))") }
            defer { Glibc.close(fd) }
            guard flock(fd, LOCK_EX) == 0 else { throw SeatMapError(file: path, "cannot lock the store: \(String(cString: strerror(errno)))") }
            // Still the file at PATH, and still not migrated?
            var mine = stat(), current = stat()
            guard fstat(fd, &mine) == 0, stat(path, &current) == 0, mine.st_ino == current.st_ino, !SeatStore.isDatabase(path) else { continue }
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
            let fresh = try SeatStore(path: temp, now: now)
            if readable {
                do {
                    try fresh.transaction {
                        for show in shows.keys.sorted() {
                            try fresh.hold(show: show, seats: shows[show] ?? [], until: now.addingTimeInterval(SeatStore.defaultHoldSeconds))
                        }
                    }
                } catch {
                    throw (error as? SeatMapError) ?? SeatMapError(file: path, "\(error)")
                }
            }
            fresh.close()
            let aside = try SeatStore.moveAside(path, suffix: readable ? "json-backup" : "corrupt", now: now)
            guard rename(temp, path) == 0 else { throw SeatMapError(file: path, "cannot install the migrated store: \(String(cString: strerror(errno)))") }
            unlink(temp + "-wal")
            unlink(temp + "-shm")
            notes.append(readable
                ? "\(path): migrated the JSON selection store to SQLite (\(shows.count) show(s)); the JSON is kept as \(aside)"
                : "\(path): the selection store was corrupt (\(ctx.errors.first?.description ?? "unreadable")); moved it to \(aside) and started empty")
        }
    }

    /// The version of the linked SQLite, as linked at run time.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// How long a pending selection is held unless `--hold-ttl` says otherwise.
    public static let defaultHoldSeconds: Double = 600
}
