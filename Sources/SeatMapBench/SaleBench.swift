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

    mutating func sale() throws {
        let dir = try Bench.scratchFolder("seatmap-bench-sale-")
        defer { try? FileManager.default.removeItem(at: dir) }
        var halls: [(String, Hall)] = []
        for (name, scene) in Bench.saleHalls where !quick || name == "cinema-216" {
            guard let hall = try BenchScenes.make(scene) else { continue }
            try Files.writeAtomically(HallFormat.encodeText(hall), to: dir.appendingPathComponent("\(name).json").path)
            halls.append((name, hall))
        }
        var stores: [(String, String, String)] = [("SQLite", dir.appendingPathComponent("shows.db").path, dir.appendingPathComponent("baseline.db").path)]
        if let admin = ProcessInfo.processInfo.environment["SEATMAP_BENCH_POSTGRES"], !admin.isEmpty {
            stores.append(("PostgreSQL", try StoreBaseline.freshPostgresDatabase(admin), try StoreBaseline.freshPostgresDatabase(admin)))
        } else {
            log("sale: PostgreSQL skipped (set SEATMAP_BENCH_POSTGRES to a server's URL; make bench-sale does)")
        }
        let seconds = quick ? 0.5 : 4.0
        for (kind, store, baseline) in stores {
            log("… sale on \(kind)")
            let service = try SeatMapHTTPService(halls: dir.path, store: store, workers: 8)
            defer { service.stop() }
            let admin = try BenchHTTP(port: service.port)
            for (name, _) in halls {
                let created = try admin.request("POST", "/shows/\(name)", json: #"{"hall": "\#(name)"}"#)
                guard created.status == 201 || created.status == 200 else { throw SeatMapError("creating show \(name): \(created.status)") }
            }
            var rates: [String: Double] = [:]
            for clients in (quick ? [4] : [16, 64]) {
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
            // on several connections wait in its busy handler; one does not).
            var raw = StoreBaseline.Rate(writesPerSecond: 0, p50: 0, p99: 0)
            for connections in [1, 16] {
                let r = kind == "SQLite"
                    ? try StoreBaseline.sqlite(path: baseline, rows: 100_000, clients: connections, seconds: seconds)
                    : try StoreBaseline.postgres(url: baseline, rows: 100_000, clients: connections, seconds: seconds)
                add("store", "\(kind)'s own conditional one-row update, \(connections) connection\(connections == 1 ? "" : "s")",
                    Stat(median: r.writesPerSecond, min: r.writesPerSecond, max: r.writesPerSecond, unit: "writes/s"),
                    "p50 \(fmt(r.p50)) ms, p99 \(fmt(r.p99)) ms")
                if r.writesPerSecond > raw.writesPerSecond { raw = r }
            }
            guard !quick, let big = rates["stadium-100k/16"], let small = rates["cinema-216/16"], let hall = halls.last?.1 else { continue }
            ratios.append(("\(kind): hold/release 100k-seat / 216-seat show, 16 clients", big / small))
            ratios.append(("\(kind): hold/release 100k-seat show / the store's own rate", big / raw.writesPerSecond))
            target("\(kind): hold/release 100k-seat / 216-seat show", big / small, "≥ 0.8×", big / small >= 0.8)
            target("\(kind): hold/release 100k-seat show / the store's own rate", big / raw.writesPerSecond, "≥ 0.25×", big / raw.writesPerSecond >= 0.25)
            // History must not matter: 20,000 orders, then the same run.
            let t0 = Bench.now()
            try orders(20_000, port: service.port, show: "stadium-100k", hall: hall)
            log("  20,000 orders placed in \(fmt(Double(Bench.now() - t0) / 1e9)) s")
            let after = try holdAndRelease(port: service.port, show: "stadium-100k", hall: hall, clients: 16, seconds: seconds, skip: 20_000)
            add("stadium-100k", "hold/release over HTTP, \(kind), 16 clients, after 20,000 orders",
                Stat(median: after.writesPerSecond, min: after.writesPerSecond, max: after.writesPerSecond, unit: "writes/s"),
                "p50 \(fmt(after.p50)) ms, p99 \(fmt(after.p99)) ms")
            ratios.append(("\(kind): hold/release after 20,000 orders / before", after.writesPerSecond / big))
            target("\(kind): hold/release after 20,000 orders / before", after.writesPerSecond / big, "≥ 0.8×", after.writesPerSecond / big >= 0.8)
            try deltaSize(port: service.port, hall: hall, kind: kind)
        }
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
        let results = SaleResults()
        let start = Bench.now()
        let end = start + UInt64(seconds * 1e9)
        // Spread the clients over the hall: client k's seats are the k-th pair of equal shares.
        let share = seats.count / clients
        StoreBaseline.threads(clients) { k in
            do {
                let http = try BenchHTTP(port: port)
                let anchor = seats[k * share], other = seats[k * share + 1]
                let first = try http.request("POST", "/shows/\(show)/select", json: #"{"toggle": ["\#(anchor)"]}"#)
                guard first.status == 200, let token = BenchHTTP.string(BenchHTTP.json(first.body), "token") else {
                    throw SeatMapError("\(show): the first hold answered \(first.status): \(String(decoding: first.body, as: UTF8.self).prefix(200))")
                }
                var mine: [Double] = []
                let body = #"{"toggle": ["\#(other)"], "token": "\#(token)"}"#
                while Bench.now() < end {
                    let t0 = Bench.now()
                    let r = try http.request("POST", "/shows/\(show)/select", json: body)
                    guard r.status == 200 else { throw SeatMapError("\(show): a hold answered \(r.status): \(String(decoding: r.body, as: UTF8.self).prefix(200))") }
                    mine.append(Double(Bench.now() - t0) / 1e6)
                }
                // Give the anchor (and the other seat, if held) back.
                _ = try http.request("POST", "/shows/\(show)/select", json: #"{"toggle": ["\#(anchor)"], "token": "\#(token)"}"#)
                if mine.count % 2 == 1 { _ = try http.request("POST", "/shows/\(show)/select", json: body) }
                results.add(mine)
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

    func rate(seconds: Double) -> StoreBaseline.Rate {
        let s = latencies.sorted()
        guard !s.isEmpty else { return StoreBaseline.Rate(writesPerSecond: 0, p50: 0, p99: 0) }
        return StoreBaseline.Rate(writesPerSecond: Double(s.count) / seconds, p50: s[s.count / 2], p99: s[min(s.count - 1, Int(Double(s.count) * 0.99))])
    }
}
