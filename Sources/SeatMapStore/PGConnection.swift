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
        try db.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
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
final class PGConnection: SQLRunner {
    let conn: OpaquePointer
    let location: String

    init(conninfo: String, location: String) throws(PGFailure) {
        // A dead server is noticed within seconds, not after TCP's minutes.
        let info = conninfo.contains("connect_timeout") ? conninfo
            : conninfo + (conninfo.contains("://") ? (conninfo.contains("?") ? "&" : "?") + "connect_timeout=5" : " connect_timeout=5")
        if let why = seatmap_libpq_load() {
            throw PGFailure(message: "cannot reach the store: libpq (Debian libpq5) cannot be loaded: \(String(cString: why))",
                            sqlstate: "", connectionLost: false)
        }
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
