import CLibPQ
import Dispatch
import Foundation

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
    /// `body` in one snapshot (a read-only transaction at REPEATABLE READ).
    func readConsistent<T>(_ body: (InventoryRows) throws -> T) throws -> T {
        try db.later("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", [])
        do {
            let result = try body(self)
            try db.exec("COMMIT")
            return result
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
///
/// Statements whose rows nobody reads (`later`: BEGIN, a savepoint, the
/// writes, the change log, the notification) wait on the connection and go
/// to the server in one pipeline with the next statement whose rows are
/// read (libpq's pipeline mode): one round trip for all of them, in order.
/// The first failure among them is what that read throws.
final class PGConnection: SQLRunner {
    let conn: OpaquePointer
    let location: String
    /// Statements sent with the next read.
    private var waiting: [(sql: String, args: [SQLValue])] = []
    /// A pipeline left half read (the connection lost in it): never reused.
    private var broken = false
    /// Statements with arguments are prepared on the server at their first
    /// use and named (parsed and planned once a connection, not once a
    /// call), up to `mostPrepared` of them; the names by SQL.
    private var prepared: [String: String] = [:]
    static let mostPrepared = 512

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

    var isUsable: Bool {
        !broken && waiting.isEmpty && unconfirmed == nil && PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE
    }

    /// Runs statements without arguments (DDL, BEGIN, COMMIT).
    func exec(_ sql: String) throws(PGFailure) {
        _ = try rows(sql, [])
    }

    func later(_ sql: String, _ args: [SQLValue]) throws(PGFailure) {
        waiting.append((sql, args))
        // A pipeline stays small enough for the socket's buffers either way
        // (a blocking client must not write while the server waits on it to read).
        if waiting.count >= PGConnection.longestPipeline { try flush() }
    }

    /// The most statements one pipeline carries.
    static let longestPipeline = 256

    func flush() throws(PGFailure) {
        if !waiting.isEmpty { _ = try pipeline([]) }
    }

    /// Shows whose expired holds this transaction swept already (one
    /// sweep a commit, made by its first update of the show).
    var swept = Set<String>()

    /// Shows whose change is announced when the transaction commits
    /// (`NOTIFY seatmap_shows, 'SHOW'`, once a show however many updates ask).
    var announced = Set<String>()

    /// Forgets the statements not sent yet and the announcements (a transaction being undone).
    func dropWaiting() {
        waiting.removeAll()
        swept.removeAll()
        unconfirmed = nil
        announced.removeAll()
    }

    func batch(_ statements: [(String, [SQLValue])]) throws(PGFailure) -> [[[SQLValue]]] {
        try pipeline(statements.map { (sql: $0.0, args: $0.1) })
    }

    @discardableResult
    func rows(_ sql: String, _ args: [SQLValue]) throws(PGFailure) -> [[SQLValue]] {
        if !waiting.isEmpty || !args.isEmpty { return try pipeline([(sql, args)])[0] }
        // Without arguments: the simple protocol (several statements may be one text).
        guard let result = PQexec(conn, sql) else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result) }
        return PGConnection.decode(result)
    }

    /// Sends the waiting statements and then `reads` in one pipeline with
    /// one sync; answers the reads' rows. After a failure the server skips
    /// the rest up to the sync (none of them ran); the first failure is thrown.
    ///
    /// When an update's writes wait unconfirmed (`confirmLater`) and one of
    /// them fails, that update alone is undone and told, and the statements
    /// queued after its own are sent again: they never ran.
    private func pipeline(_ reads: [(sql: String, args: [SQLValue])]) throws(PGFailure) -> [[[SQLValue]]] {
        let statements = waiting + reads
        let firstRead = waiting.count
        waiting.removeAll()
        let pending = unconfirmed
        unconfirmed = nil
        let (results, failed) = try send(statements)
        if let (failure, at) = failed {
            if let pending, at < pending.mark {
                pending.failed(failure)
                _ = try rows(pending.undo, [])
                waiting = Array(statements[pending.mark..<firstRead])
                return try pipeline(reads)
            }
            throw failure
        }
        return Array(results[firstRead...])
    }

    /// An update whose writes wait on the connection: the statements before
    /// `mark` are its own; `undo` undoes it; `failed` tells it.
    private struct Unconfirmed {
        var mark: Int
        var undo: String
        var failed: (any Error) -> Void
    }
    private var unconfirmed: Unconfirmed?

    func confirmLater(undo: String, onFailure: @escaping (any Error) -> Void) throws -> Bool {
        if unconfirmed != nil { try flush() }
        unconfirmed = Unconfirmed(mark: waiting.count, undo: undo, failed: onFailure)
        return true
    }

    /// Sends `statements` in one pipeline with one sync; each one's rows,
    /// and the first failure with the index of its statement (the server
    /// skips the rest up to the sync: none of them ran). Throws when the
    /// connection broke in the middle.
    private func send(_ statements: [(sql: String, args: [SQLValue])]) throws(PGFailure) -> ([[[SQLValue]]], (PGFailure, Int)?) {
        guard PQenterPipelineMode(conn) == 1 else { throw failure(nil) }
        var first: PGFailure? = nil, failedAt = 0
        var sent = 0
        // What each result answers: a statement (its index) or the preparing of a name.
        var answers: [(statement: Int, preparing: (sql: String, name: String)?)] = []
        var preparing: [String: String] = [:]
        for (i, s) in statements.enumerated() {
            let n = Int32(s.args.count)
            var name = prepared[s.sql] ?? preparing[s.sql]
            if name == nil && n > 0 && prepared.count + preparing.count < PGConnection.mostPrepared {
                let new = "seatmap_\(prepared.count + preparing.count)"
                guard PQsendPrepare(conn, new, s.sql, n, nil) == 1 else { first = failure(nil); break }
                preparing[s.sql] = new
                answers.append((i, (s.sql, new)))
                name = new
            }
            let ok = withCStrings(PGConnection.texts(s.args)) { pointers in
                name.map { PQsendQueryPrepared(conn, $0, n, pointers, nil, nil, 0) }
                    ?? PQsendQueryParams(conn, s.sql, n, nil, pointers, nil, nil, 0)
            }
            guard ok == 1 else { first = failure(nil); break }
            answers.append((i, nil))
            sent += 1
        }
        var out: [[[SQLValue]]] = []
        if PQpipelineSync(conn) == 1 {
            for answer in answers {
                var rows: [[SQLValue]] = []
                var answered = false, ok = false
                while let result = PQgetResult(conn) {
                    answered = true
                    let status = PQresultStatus(result)
                    if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK {
                        rows = PGConnection.decode(result)
                        ok = true
                    } else if status != PGRES_PIPELINE_ABORTED && first == nil {
                        first = failure(result)
                        failedAt = answer.statement
                    }
                    PQclear(result)
                }
                guard answered else { broken = true; break }
                if let p = answer.preparing {
                    if ok { prepared[p.sql] = p.name }
                } else {
                    out.append(rows)
                }
            }
            if !broken {
                // The sync point's own result.
                if let result = PQgetResult(conn) {
                    if PQresultStatus(result) != PGRES_PIPELINE_SYNC { broken = true }
                    PQclear(result)
                } else {
                    broken = true
                }
            }
        } else {
            broken = true
        }
        if broken || sent < statements.count {
            broken = true
            throw first ?? failure(nil)
        }
        guard PQexitPipelineMode(conn) == 1 else { broken = true; throw failure(nil) }
        return (out, first.map { ($0, failedAt) })
    }

    private static func texts(_ args: [SQLValue]) -> [String?] {
        args.map {
            switch $0 {
            case .int(let v): return String(v)
            case .text(let s): return s
            case .null: return nil
            }
        }
    }

    private static func decode(_ result: OpaquePointer) -> [[SQLValue]] {
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
