import Dispatch
import Foundation
import SeatMapCore
import SeatMapServer
import SeatMapService
import SeatMapStore

/// `--only sale`: selling over HTTP against the store's own rate, in one run.
///
/// For each store (SQLite; PostgreSQL when `SEATMAP_BENCH_POSTGRES` names
/// a server whose user may create databases) the service runs in this
/// process (8 workers) on shows of a 216-, a 10,000- and a 100,000-seat
/// hall. 16 and then 64 clients, each on its own keep-alive connection
/// with its own token, hold one seat and then hold and release another
/// over and over (`POST /shows/S/select`, each request one write). Beside
/// it, in the same run, the database's own rate at the conditional
/// one-row update a hold is (`StoreBaseline`, 16 connections), and the
/// same hold and release after 20,000 orders on the 100,000-seat show.
/// Then a flash sale (`flashSale`).
extension Bench {
    /// The sale's halls: the name a show gets, the scene.
    static let saleHalls = [("cinema-216", "cinema-200"), ("arena-10k", "arena-10k"), ("stadium-100k", "stadium-100k")]

    /// `sqlite`: SQLite too (else PostgreSQL alone). `holdsOnly`: hold/release
    /// at 16 clients, the HTTP layer alone and the store's own rate, nothing else.
    mutating func sale(sqlite: Bool = true, holdsOnly: Bool = false) throws {
        let dir = try Bench.scratchFolder("seatmap-bench-sale-")
        defer { try? FileManager.default.removeItem(at: dir) }
        var halls: [(String, Hall)] = []
        for (name, scene) in Bench.saleHalls where !quick || name == "cinema-216" {
            guard let hall = try BenchScenes.make(scene) else { continue }
            try Files.writeAtomically(HallFormat.encodeText(hall), to: dir.appendingPathComponent("\(name).json").path)
            halls.append((name, hall))
        }
        var stores: [(String, String, String)] = sqlite ? [("SQLite", dir.appendingPathComponent("shows.db").path, dir.appendingPathComponent("baseline.db").path)] : []
        if let admin = ProcessInfo.processInfo.environment["SEATMAP_BENCH_POSTGRES"], !admin.isEmpty {
            stores.append(("PostgreSQL", try StoreBaseline.freshPostgresDatabase(admin), try StoreBaseline.freshPostgresDatabase(admin)))
        } else {
            log("sale: PostgreSQL skipped (set SEATMAP_BENCH_POSTGRES to a server's URL; make bench-sale does)")
        }
        let seconds = quick ? 0.5 : 4.0
        for (kind, store, baseline) in stores {
            log("… sale on \(kind)")
            // As `seatmap serve` runs by default.
            // Every client runs in this process: one address, so no per-address token limit.
            let service = try SeatMapHTTPService(halls: dir.path, store: store, tokenLimits: ShowService.TokenLimits(perAddress: 0),
                                                 workers: SeatMapHTTPService.defaultWorkers)
            defer { service.stop() }
            let admin = try BenchHTTP(port: service.port)
            for (name, _) in halls + (quick || holdsOnly ? [] : [("history", halls[halls.count - 1].1)]) {
                let created = try admin.request("POST", "/shows/\(name)", json: #"{"hall": "\#(name == "history" ? "stadium-100k" : name)"}"#)
                guard created.status == 201 || created.status == 200 else { throw SeatMapError("creating show \(name): \(created.status)") }
            }
            // A short run first: the first requests of a process pay for its caches.
            _ = try holdAndRelease(port: service.port, show: halls[0].0, hall: halls[0].1, clients: 4, seconds: quick ? 0.2 : 1)
            var rates: [String: Double] = [:]
            if holdsOnly {
                // What HTTP alone costs: an answer made on the server's I/O thread, no store.
                let r = try repeatedRequest(port: service.port, path: "/healthz", clients: 16, seconds: seconds)
                add("http", "GET /healthz over HTTP (the HTTP layer alone), 16 clients", Stat(median: r.writesPerSecond, min: r.writesPerSecond, max: r.writesPerSecond, unit: "requests/s"),
                    "p50 \(fmt(r.p50)) ms, p99 \(fmt(r.p99)) ms")
            }
            for clients in (quick ? [4] : holdsOnly ? [16] : [16, 64]) {
                for (name, hall) in halls {
                    let r = try holdAndRelease(port: service.port, show: name, hall: hall, clients: clients, seconds: seconds)
                    add(name, "hold/release over HTTP, \(kind), \(clients) clients", Stat(median: r.writesPerSecond, min: r.writesPerSecond, max: r.writesPerSecond, unit: "writes/s"),
                        "p50 \(fmt(r.p50)) ms, p99 \(fmt(r.p99)) ms")
                    rates["\(name)/\(clients)"] = r.writesPerSecond
                    if clients == 16 && name == "stadium-100k" {
                        target("\(kind): 100k-seat show, p99 of a hold at 16 clients (ms)", r.p99, "≤ 50", r.p99 <= 50)
                    }
                }
            }
            // The limit: the better of one connection and 16 (SQLite's writers
            // on several connections wait in its busy handler; one does not);
            // for PostgreSQL, `pgbench -N` (16 clients) when it is installed.
            var raw = StoreBaseline.Rate([], seconds: 1)
            if kind == "PostgreSQL", let tps = try Bench.pgbench(baseline, clients: 16, seconds: seconds) {
                add("store", "pgbench -N, 16 clients (its transactions: 3 updates, a select, an insert)", Stat(median: tps, min: tps, max: tps, unit: "tps"))
                raw.writesPerSecond = tps
            }
            for connections in [1, 16] {
                let r = kind == "SQLite"
                    ? try StoreBaseline.sqlite(path: baseline, rows: 100_000, clients: connections, seconds: seconds)
                    : try StoreBaseline.postgres(url: baseline, rows: 100_000, clients: connections, seconds: seconds)
                add("store", "\(kind)'s own conditional one-row update, \(connections) connection\(connections == 1 ? "" : "s")",
                    Stat(median: r.writesPerSecond, min: r.writesPerSecond, max: r.writesPerSecond, unit: "writes/s"),
                    "p50 \(fmt(r.p50)) ms, p99 \(fmt(r.p99)) ms")
                if kind == "SQLite" && r.writesPerSecond > raw.writesPerSecond || kind == "PostgreSQL" && raw.writesPerSecond == 0 { raw = r }
            }
            if let big = rates["stadium-100k/16"] {
                ratios.append(("\(kind): hold/release 100k-seat show / the store's own rate", big / raw.writesPerSecond))
            }
            guard !quick, !holdsOnly, let big = rates["stadium-100k/16"], let hall = halls.last?.1 else { continue }
            // The sizes side by side: rounds of the 216-seat and the 100k-seat show
            // back to back, the median of the rounds' ratios (the machine is noisy).
            var sizeRatios: [Double] = []
            for _ in 0..<5 {
                let small = try holdAndRelease(port: service.port, show: "cinema-216", hall: halls[0].1, clients: 16, seconds: 1.5)
                let large = try holdAndRelease(port: service.port, show: "stadium-100k", hall: hall, clients: 16, seconds: 1.5)
                sizeRatios.append(large.writesPerSecond / small.writesPerSecond)
            }
            let sizeRatio = sizeRatios.sorted()[sizeRatios.count / 2]
            ratios.append(("\(kind): hold/release 100k-seat / 216-seat show, 16 clients (median of 5 paired rounds)", sizeRatio))
            target("\(kind): hold/release 100k-seat / 216-seat show", sizeRatio, "≥ 0.8×", sizeRatio >= 0.8)
            target("\(kind): hold/release 100k-seat show / the store's own rate", big / raw.writesPerSecond, "≥ 0.25×", big / raw.writesPerSecond >= 0.25)
            // History must not matter: a second 100k-seat show with 20,000
            // orders, measured in rounds beside the fresh one (the median of
            // the rounds' ratios: the machine's noise weighs on both).
            let t0 = Bench.now()
            try orders(20_000, port: service.port, show: "history", hall: hall)
            log("  20,000 orders placed in \(fmt(Double(Bench.now() - t0) / 1e9)) s")
            var roundRatios: [Double] = [], afterRates: [Double] = []
            for _ in 0..<5 {
                let fresh = try holdAndRelease(port: service.port, show: "stadium-100k", hall: hall, clients: 16, seconds: 1.5, skip: 20_000)
                let after = try holdAndRelease(port: service.port, show: "history", hall: hall, clients: 16, seconds: 1.5, skip: 20_000)
                roundRatios.append(after.writesPerSecond / fresh.writesPerSecond)
                afterRates.append(after.writesPerSecond)
            }
            let ratio = roundRatios.sorted()[roundRatios.count / 2]
            let afterSorted = afterRates.sorted()
            add("stadium-100k", "hold/release over HTTP, \(kind), 16 clients, after 20,000 orders (5 rounds of 1.5 s)",
                Stat(median: afterSorted[afterSorted.count / 2], min: afterSorted[0], max: afterSorted[afterSorted.count - 1], unit: "writes/s"))
            ratios.append(("\(kind): hold/release after 20,000 orders / a fresh show (median of 5 paired rounds)", ratio))
            target("\(kind): hold/release after 20,000 orders / a fresh show", ratio, "≥ 0.8×", ratio >= 0.8)
            try deltaSize(port: service.port, hall: hall, kind: kind)
            try flashSale(port: service.port, hall: hall, kind: kind)
        }
    }

    /// A flash sale on a fresh 100,000-seat show: 2,000 buyers at once
    /// over 120 connections (the service takes 128 from one address), each
    /// holding 2 to 4 seats, every other one by best available and the rest
    /// by picking seats side by side at random (again elsewhere when some
    /// are taken), then ordering. Reported: seats sold, orders a second, the
    /// orders' p99; checked in the show's status afterwards: no seat in two
    /// orders, every order answered 200 kept with its seats.
    mutating func flashSale(port: UInt16, hall: Hall, kind: String, buyers: Int = 2_000) throws {
        let admin = try BenchHTTP(port: port)
        let created = try admin.request("POST", "/shows/flash", json: #"{"hall": "stadium-100k"}"#)
        guard created.status == 201 else { throw SeatMapError("creating the flash sale's show: \(created.status)") }
        let free = Bench.freeSeats(hall)
        let results = FlashResults()
        let next = FlashQueue(buyers)
        let start = Bench.now()
        StoreBaseline.threads(120) { k in
            var rng = BenchScenes.Random(state: UInt64(k) &* 7919 &+ 1)
            do {
                let http = try BenchHTTP(port: port)
                while let i = next.take() {
                    let count = 2 + i % 3
                    var token: String? = nil
                    if i % 2 == 0 {
                        let r = try http.request("POST", "/shows/flash/best", json: #"{"count": \#(count)}"#)
                        if r.status == 200 { token = BenchHTTP.string(BenchHTTP.json(r.body), "token") }
                    } else {
                        for _ in 0..<8 where token == nil {
                            let at = Int(rng.next() % UInt64(free.count - count))
                            let seats = free[at..<(at + count)].map { "\"\($0)\"" }.joined(separator: ", ")
                            let r = try http.request("POST", "/shows/flash/select", json: #"{"toggle": [\#(seats)]}"#)
                            guard r.status == 200, let answer = BenchHTTP.json(r.body) else { continue }
                            let held = BenchHTTP.string(answer, "token")
                            if case .array(let selected)? = answer["selected"]?.value, selected.count == count {
                                token = held
                            } else if let held {
                                // Some were taken: give back what was held, and look elsewhere.
                                _ = try http.request("POST", "/shows/flash/select", json: #"{"toggle": [\#(seats)], "token": "\#(held)"}"#)
                            }
                        }
                    }
                    guard let token else {
                        results.unserved()
                        continue
                    }
                    let t0 = Bench.now()
                    let sold = try http.request("POST", "/shows/flash/order", json: #"{"token": "\#(token)", "orderId": "flash-\#(i)"}"#)
                    let ms = Double(Bench.now() - t0) / 1e6
                    guard sold.status == 200, let answer = BenchHTTP.json(sold.body), case .array(let seats)? = answer["sold"]?.value else {
                        results.refused(ms)
                        continue
                    }
                    results.sold("flash-\(i)", seats.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }, ms)
                }
            } catch {
                results.fail(error)
            }
        }
        if let failure = results.failure { throw failure }
        let seconds = Double(Bench.now() - start) / 1e9
        // What the show says it sold.
        let status = try admin.request("GET", "/shows/flash/status")
        guard status.status == 200, case .array(let orders)? = BenchHTTP.json(status.body)?["orders"]?.value else {
            throw SeatMapError("the flash sale's status answered \(status.status)")
        }
        var stored: [String: [String]] = [:]
        var owners: [String: Int] = [:]
        for o in orders {
            guard let id = BenchHTTP.string(o, "orderId"), case .array(let seats)? = o["seats"]?.value else { continue }
            let ids = seats.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
            stored[id] = ids.sorted()
            for seat in ids { owners[seat, default: 0] += 1 }
        }
        let doubles = owners.values.filter { $0 > 1 }.count
        let lost = results.answered.filter { stored[$0.key] != $0.value.sorted() }.count
        let seatsSold = results.answered.values.reduce(0) { $0 + $1.count }
        let p99 = results.p99
        add("stadium-100k", "flash sale, \(kind): \(buyers) buyers, 120 connections", Stat(median: Double(results.answered.count) / seconds, min: 0, max: 0, unit: "orders/s"),
            "\(results.answered.count) orders, \(seatsSold) seats sold in \(fmt(seconds)) s; order p99 \(fmt(p99)) ms; \(results.refusedCount) refused, \(results.unservedCount) found no seats")
        target("\(kind): flash sale, seats sold twice", Double(doubles), "0", doubles == 0)
        target("\(kind): flash sale, answered orders lost", Double(lost), "0", lost == 0)
    }

    /// `pgbench -N`'s transactions a second on a database (initialised at
    /// scale 10 first), or nil when PostgreSQL's pgbench is not installed.
    static func pgbench(_ url: String, clients: Int, seconds: Double) throws -> Double? {
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed()
            .map { "/usr/lib/postgresql/\($0)/bin/pgbench" } + [Bench.which("pgbench")].compactMap { $0 }
        guard let pgbench = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        func run(_ args: [String]) throws -> String { try Bench.timedRun(pgbench, args).output }
        _ = try run(["-i", "-q", "-s", "10", url])
        let report = try run(["-N", "-c", String(clients), "-j", "2", "-T", String(max(1, Int(seconds))), url])
        guard let line = report.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
              let tps = Double(line.dropFirst(6).split(separator: " ").first ?? "") else { return nil }
        return tps
    }

    /// The free seats of a hall, in row order.
    static func freeSeats(_ hall: Hall) -> [SeatID] {
        hall.cells.filter { $0.seat.status == .available && $0.seat.isSeat && $0.seat.type == .standard }.map(\.id)
    }

    /// `clients` buyers, each holding one seat of its own and holding and
    /// releasing a second one for `seconds`; every request is one write.
    /// `skip`: free seats not to use (sold by earlier orders).
    func holdAndRelease(port: UInt16, show: String, hall: Hall, clients: Int, seconds: Double, skip: Int = 0) throws -> StoreBaseline.Rate {
        let seats = Array(Bench.freeSeats(hall).dropFirst(skip))
        guard seats.count >= 2 * clients else { throw SeatMapError("\(show): \(seats.count) free seats for \(clients) clients") }
        // Spread the clients over the hall: client k's seats are the k-th pair of equal shares.
        let share = seats.count / clients
        return try timedClients(port: port, clients: clients, seconds: seconds) { k, http, repeatUntilEnd in
            let anchor = seats[k * share], other = seats[k * share + 1]
            let first = try http.request("POST", "/shows/\(show)/select", json: #"{"toggle": ["\#(anchor)"]}"#)
            guard first.status == 200, let token = BenchHTTP.string(BenchHTTP.json(first.body), "token") else {
                throw SeatMapError("\(show): the first hold answered \(first.status): \(String(decoding: first.body, as: UTF8.self).prefix(200))")
            }
            let body = #"{"toggle": ["\#(other)"], "token": "\#(token)"}"#
            let mine = try repeatUntilEnd {
                let r = try http.request("POST", "/shows/\(show)/select", json: body)
                guard r.status == 200 else { throw SeatMapError("\(show): a hold answered \(r.status): \(String(decoding: r.body, as: UTF8.self).prefix(200))") }
            }
            // Give the anchor (and the other seat, if held) back.
            _ = try http.request("POST", "/shows/\(show)/select", json: #"{"toggle": ["\#(anchor)"], "token": "\#(token)"}"#)
            if mine.count % 2 == 1 { _ = try http.request("POST", "/shows/\(show)/select", json: body) }
            return mine
        }
    }

    /// `clients` connections each repeating `GET path` for `seconds`.
    func repeatedRequest(port: UInt16, path: String, clients: Int, seconds: Double) throws -> StoreBaseline.Rate {
        try timedClients(port: port, clients: clients, seconds: seconds) { _, http, repeatUntilEnd in
            try repeatUntilEnd {
                let r = try http.request("GET", path)
                guard r.status == 200 else { throw SeatMapError("\(path) answered \(r.status)") }
            }
        }
    }

    /// `clients` threads, each on a keep-alive connection of its own, run
    /// `body(k, connection, repeatUntilEnd)`; `repeatUntilEnd(request)`
    /// times `request` over and over until `seconds` have passed and gives
    /// the latencies (ms) that `body` returns. The rate of every timed request.
    func timedClients(port: UInt16, clients: Int, seconds: Double,
                      _ body: @escaping @Sendable (Int, BenchHTTP, (() throws -> Void) throws -> [Double]) throws -> [Double]) throws -> StoreBaseline.Rate {
        let results = SaleResults()
        let start = Bench.now()
        let end = start + UInt64(seconds * 1e9)
        StoreBaseline.threads(clients) { k in
            do {
                let http = try BenchHTTP(port: port)
                results.add(try body(k, http) { request in
                    var mine: [Double] = []
                    while Bench.now() < end {
                        let t0 = Bench.now()
                        try request()
                        mine.append(Double(Bench.now() - t0) / 1e6)
                    }
                    return mine
                })
            } catch {
                results.fail(error)
            }
        }
        if let failure = results.failure { throw failure }
        return results.rate(seconds: Double(Bench.now() - start) / 1e9)
    }

    /// `count` orders of one seat each (the hall's first free seats), by
    /// 16 clients: a hold, then the order.
    func orders(_ count: Int, port: UInt16, show: String, hall: Hall) throws {
        let seats = Array(Bench.freeSeats(hall).prefix(count))
        let results = SaleResults()
        StoreBaseline.threads(16) { k in
            do {
                let http = try BenchHTTP(port: port)
                for i in stride(from: k, to: seats.count, by: 16) {
                    let held = try http.request("POST", "/shows/\(show)/select", json: #"{"toggle": ["\#(seats[i])"]}"#)
                    guard held.status == 200, let token = BenchHTTP.string(BenchHTTP.json(held.body), "token") else { throw SeatMapError("hold \(seats[i]): \(held.status)") }
                    let sold = try http.request("POST", "/shows/\(show)/order", json: #"{"token": "\#(token)", "orderId": "history-\#(i)"}"#)
                    guard sold.status == 200 else { throw SeatMapError("order \(seats[i]): \(sold.status)") }
                }
            } catch {
                results.fail(error)
            }
        }
        if let failure = results.failure { throw failure }
    }

    /// After one hold on the 100,000-seat show, `?since=` the sequence
    /// before it: the answer's size and whether it names that seat.
    mutating func deltaSize(port: UInt16, hall: Hall, kind: String) throws {
        let http = try BenchHTTP(port: port)
        let seats = try http.request("GET", "/shows/stadium-100k/seats")
        guard case .number(let text)? = BenchHTTP.json(seats.body)?["sequence"]?.value, let before = Int(text) else {
            throw SeatMapError("no sequence in the seats answer")
        }
        let seat = Bench.freeSeats(hall)[50_000]
        let held = try http.request("POST", "/shows/stadium-100k/select", json: #"{"toggle": ["\#(seat)"]}"#)
        guard held.status == 200 else { throw SeatMapError("hold \(seat): \(held.status)") }
        let delta = try http.request("GET", "/shows/stadium-100k/seats?since=\(before)")
        let names = BenchHTTP.string(BenchHTTP.json(delta.body)?["changes"], seat.description) == "held"
        add("stadium-100k", "?since= after one hold, \(kind)", Stat(median: Double(delta.body.count), min: Double(delta.body.count), max: Double(delta.body.count), unit: "bytes"),
            "names the seat held: \(names); the full answer is \(seats.body.count) bytes")
        target("\(kind): ?since= after one hold on a 100k-seat show (bytes, names the seat)", Double(delta.body.count), "< 2048", delta.body.count < 2048 && names)
    }
}

/// What the sale's clients measured, gathered under a lock.
final class SaleResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var latencies: [Double] = []
    private(set) var failure: Error?

    func add(_ values: [Double]) {
        lock.lock()
        latencies += values
        lock.unlock()
    }

    func fail(_ error: Error) {
        lock.lock()
        failure = failure ?? error
        lock.unlock()
    }

    func rate(seconds: Double) -> StoreBaseline.Rate { StoreBaseline.Rate(latencies, seconds: seconds) }
}

/// The flash sale's buyers, each taken once.
final class FlashQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private let count: Int
    init(_ count: Int) {
        self.count = count
        left = count
    }
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard left > 0 else { return nil }
        left -= 1
        return count - left - 1
    }
}

/// What the flash sale's buyers got.
final class FlashResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var answered: [String: [String]] = [:]
    private(set) var refusedCount = 0
    private(set) var unservedCount = 0
    private var latencies: [Double] = []
    private(set) var failure: Error?

    func sold(_ order: String, _ seats: [String], _ ms: Double) {
        lock.lock()
        answered[order] = seats
        latencies.append(ms)
        lock.unlock()
    }
    func refused(_ ms: Double) {
        lock.lock()
        refusedCount += 1
        latencies.append(ms)
        lock.unlock()
    }
    func unserved() {
        lock.lock()
        unservedCount += 1
        lock.unlock()
    }
    func fail(_ error: Error) {
        lock.lock()
        failure = failure ?? error
        lock.unlock()
    }
    var p99: Double {
        let s = latencies.sorted()
        return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count) * 0.99))]
    }
}
