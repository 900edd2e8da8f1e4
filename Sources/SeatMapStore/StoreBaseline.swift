import Dispatch
import Foundation
import SeatMapCore

/// The database's own speed at what a hold is, measured beside SeatMap's in
/// one run (`seatmap-bench --only sale`): one-row conditional updates, each
/// its own transaction, from several connections at once, on a table of
/// its own with as many rows as the show has seats. The limit a hold can
/// approach: SeatMap's figure divided by it says what its own work costs.
public enum StoreBaseline {
    /// Writes per second and the transactions' latencies (ms).
    public struct Rate: Sendable {
        public var writesPerSecond: Double
        public var p50: Double
        public var p99: Double

        /// The rate of writes whose latencies (ms) were measured in `seconds`.
        public init(_ latencies: [Double], seconds: Double) {
            let sorted = latencies.sorted()
            writesPerSecond = sorted.isEmpty ? 0 : Double(sorted.count) / seconds
            p50 = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        }
    }

    /// The statement a hold is, on a table of its own: take the row when
    /// it is free, expired or already the taker's.
    static let update = "UPDATE baseline_seats SET holder = $1, expires_ms = $2 WHERE id = $3 AND (holder IS NULL OR expires_ms < $4 OR holder = $1)"

    /// The rate on a SQLite file at `path` (created; WAL, as the store opens its file).
    public static func sqlite(path: String, rows: Int, clients: Int, seconds: Double) throws(SeatMapError) -> Rate {
        do {
            let setup = try SQLiteConnection(path: path)
            try setup.exec("CREATE TABLE IF NOT EXISTS baseline_seats(id INTEGER PRIMARY KEY, holder TEXT, expires_ms BIGINT NOT NULL DEFAULT 0)")
            try setup.exec("BEGIN IMMEDIATE")
            for id in 0..<rows { try setup.rows("INSERT OR IGNORE INTO baseline_seats(id) VALUES (?)", [.int(Int64(id))]) }
            try setup.exec("COMMIT")
            let connections = Shared(try (0..<clients).map { _ throws(SQLiteFailure) in try SQLiteConnection(path: path) })
            return try run(clients: clients, rows: rows, seconds: seconds) { client, args in
                let c = connections.value[client]
                try c.exec("BEGIN IMMEDIATE")
                try c.rows(update, args, dollarArguments: true)
                try c.exec("COMMIT")
            }
        } catch let e as SQLiteFailure {
            throw e.error
        } catch {
            throw SeatMapError(file: path, "the baseline failed: \(error)")
        }
    }

    /// The rate on a PostgreSQL database (a table `baseline_seats` made in it):
    /// each update one autocommitted transaction, as `pgbench -N` runs its own.
    public static func postgres(url: String, rows: Int, clients: Int, seconds: Double) throws(SeatMapError) -> Rate {
        let location = PostgresInventoryStore.redacted(url)
        do {
            let setup = try PGConnection(conninfo: url, location: location)
            try setup.exec("DROP TABLE IF EXISTS baseline_seats")
            try setup.exec("CREATE TABLE baseline_seats(id INTEGER PRIMARY KEY, holder TEXT, expires_ms BIGINT NOT NULL DEFAULT 0)")
            try setup.q("INSERT INTO baseline_seats(id) SELECT g FROM generate_series(0, $1) g", [.int(Int64(rows - 1))])
            let connections = Shared(try (0..<clients).map { _ in try PGConnection(conninfo: url, location: location) })
            return try run(clients: clients, rows: rows, seconds: seconds) { client, args in
                try connections.value[client].q(update, args)
            }
        } catch {
            throw PostgresInventoryStore.seatMapError(error, location)
        }
    }

    /// A fresh, empty database on the PostgreSQL server `adminURL` reaches
    /// (its user may create databases); returns its URL.
    public static func freshPostgresDatabase(_ adminURL: String, prefix: String = "seatmap_bench_") throws(SeatMapError) -> String {
        guard let slash = adminURL.range(of: "/", options: .backwards), adminURL.hasPrefix("postgres") else {
            throw SeatMapError(.init(verbatim: "expected a postgresql:// URL ending in a database name: \(PostgresInventoryStore.redacted(adminURL))"))
        }
        let name = prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        do {
            try PGConnection(conninfo: adminURL, location: PostgresInventoryStore.redacted(adminURL)).exec("CREATE DATABASE \(name)")
        } catch {
            throw PostgresInventoryStore.seatMapError(error, PostgresInventoryStore.redacted(adminURL))
        }
        return String(adminURL[..<slash.upperBound]) + name
    }

    /// `clients` threads, each updating its own rows in turn for `seconds`
    /// (client k uses only its own connection).
    private static func run(clients: Int, rows: Int, seconds: Double,
                            _ write: @escaping @Sendable (Int, [SQLValue]) throws -> Void) throws -> Rate {
        let results = Collected()
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        StoreBaseline.threads(clients) { client in
            var mine: [Double] = []
            var k = 0
            let token = String(repeating: "0", count: 24) + String(format: "%08x", client)
            while DispatchTime.now().uptimeNanoseconds < end {
                let row = (client + k * clients) % max(1, rows)
                k += 1
                let t0 = DispatchTime.now().uptimeNanoseconds
                let ms = Int64(Date().timeIntervalSince1970 * 1000)
                do {
                    try write(client, [.text(token), .int(ms + 600_000), .int(Int64(row)), .int(ms)])
                } catch {
                    results.add([], error)
                    return
                }
                mine.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            results.add(mine, nil)
        }
        if let failure = results.failure { throw failure }
        return Rate(results.latencies, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// What the clients measured, gathered under a lock.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var latencies: [Double] = []
        private(set) var failure: Error?
        func add(_ values: [Double], _ error: Error?) {
            lock.lock()
            latencies += values
            if let error { failure = error }
            lock.unlock()
        }
    }

    /// Connections handed to client threads, each used by one thread only.
    final class Shared<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    /// Runs `body(i)` for each of `count` clients on threads of their own
    /// (clients wait on I/O: more of them than cores), and waits for all.
    public static func threads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            let t = Thread {
                body(i)
                group.leave()
            }
            t.stackSize = 1 << 20
            t.start()
        }
        group.wait()
    }
}
