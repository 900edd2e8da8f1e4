import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapServer
import SeatMapService
import SeatMapTestClients
import SeatMapTestSupport

/// Every store keeps a change log: each commit that changes what buyers
/// see appends its seats under the show's next sequence, and a reader asks
/// for what changed after a sequence. The sale's defects found from
/// outside stay fixed. Run on the memory, SQLite and PostgreSQL stores.
@Suite("Shows: the change log, deltas and the sale's defects")
struct ChangeLogTests {
    static let t0 = Date(timeIntervalSince1970: 2_000_000_000)

    /// A fresh store with show "S" of the 12 × 18 cinema; its plan and free seats.
    static func show(_ kind: StoreKind) throws -> (ShowService, HallPlan, [SeatID]) {
        let hall: Hall = try Fixtures.example("cinema-12x18.json")
        let plan = HallPlan(name: "cinema-12x18", hall: hall)
        let service = ShowService(store: try kind.open())
        _ = try service.create(show: "S", plan: plan)
        let free = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id)
        return (service, plan, free)
    }

    /// The hall's layout with the default geometry (what a batch's dirty rects are in).
    static func layout(_ hall: Hall) throws -> Layout {
        try GeometryOptions(try Arguments([], spec: CommandSpec(name: "", usage: "", summary: "", options: GeometryOptions.table))).layout(for: hall).layout
    }

    static func words(_ c: ShowService.SeatChanges?) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (c?.changes ?? []).map { ($0.0.description, $0.1) })
    }

    @Test("a hold, an order and a batch each add one sequence naming only their seats, as each buyer sees them", arguments: StoreKind.available)
    func deltas(_ kind: StoreKind) throws {
        let (service, plan, free) = try Self.show(kind)
        let start = try #require(try service.changes(show: "S", since: 0, token: nil, plan: plan, now: Self.t0))
        #expect(start.sequence == 0 && start.changes.isEmpty, "a new show has no change")
        let a = try service.select(.init(show: "S", toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0)
        let held = try #require(try service.changes(show: "S", since: 0, token: nil, plan: plan, now: Self.t0))
        #expect(held.sequence == 1 && Self.words(held) == [free[0].description: "held"])
        #expect(Self.words(try service.changes(show: "S", since: 0, token: a.token, plan: plan, now: Self.t0)) == [free[0].description: "selected"],
                "the holder sees its own seat selected")
        #expect(try service.changes(show: "S", since: 1, token: nil, plan: plan, now: Self.t0)?.changes.isEmpty == true, "nothing after 1")
        _ = try service.order(show: "S", token: a.token, orderId: "o1", plan: plan, now: Self.t0)
        #expect(Self.words(try service.changes(show: "S", since: 1, token: nil, plan: plan, now: Self.t0)) == [free[0].description: "sold"])
        let layout = try Self.layout(plan.hall)
        _ = try service.apply(show: "S", plan: plan, batches: [StatusBatch(batchId: "b", sequence: 1, changes: [.init(seat: free[9], status: .locked)])],
                              layout: layout, updatesFile: "u")
        let after = try #require(try service.changes(show: "S", since: 2, token: nil, plan: plan, now: Self.t0))
        #expect(after.sequence == 3 && Self.words(after) == [free[9].description: "locked"])
        // A read-back select (no toggle) and a refused toggle change nothing buyers see.
        let b = try service.select(.init(show: "S", toggles: [free[1].description], singleSeatRule: false), plan: plan, now: Self.t0)
        _ = try service.select(.init(show: "S", token: b.token, toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0)
        #expect(try service.changes(show: "S", since: 4, token: nil, plan: plan, now: Self.t0)?.sequence == 4)
    }

    @Test("an expired hold reaches delta readers as available; a sequence the log no longer has, or never had, asks for the whole show",
          arguments: StoreKind.available)
    func expiryAndOldSequences(_ kind: StoreKind) throws {
        let (service, plan, free) = try Self.show(kind)
        _ = try service.select(.init(show: "S", toggles: [free[3].description], ttl: 5, singleSeatRule: false), plan: plan, now: Self.t0)
        let later = try #require(try service.changes(show: "S", since: 1, token: nil, plan: plan, now: Self.t0 + 6))
        #expect(later.sequence == 2 && Self.words(later) == [free[3].description: "available"], "the sweep logged the expiry")
        #expect(try service.changes(show: "S", since: 99, token: nil, plan: plan, now: Self.t0 + 6) == nil, "a future sequence: the whole show")
        #expect(try service.view(show: "S", token: nil, plan: plan, now: Self.t0 + 6).inventory.changeSequence == 2)
    }

    @Test("a status batch may not free or lock a seat an order sold: 409 naming the order, nothing applied, never sold twice",
          arguments: StoreKind.available)
    func batchCannotFreeAnOrderedSeat(_ kind: StoreKind) throws {
        let (service, plan, free) = try Self.show(kind)
        let a = try service.select(.init(show: "S", toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0)
        _ = try service.order(show: "S", token: a.token, orderId: "web-7", plan: plan, now: Self.t0)
        let layout = try Self.layout(plan.hall)
        for status in [SeatStatus.available, .locked] {
            let batch = StatusBatch(batchId: "free-\(status)", sequence: 1, changes: [.init(seat: free[5], status: .sold), .init(seat: free[0], status: status)])
            let error = #expect(throws: ServiceError.self) {
                try service.apply(show: "S", plan: plan, batches: [batch], layout: layout, updatesFile: "u")
            }
            #expect(error?.kind == .conflict && error?.message.contains("\(free[0]) (order web-7)") == true, "\(String(describing: error))")
        }
        let inv = try service.inventory("S", now: Self.t0)
        #expect(inv.seats[free[0]] == .sold(order: "web-7") && inv.seats[free[5]] == nil && inv.batchIds.isEmpty, "nothing applied")
        let b = try service.select(.init(show: "S", toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0)
        #expect(b.results.map(\.1) == [.notAvailable] && !b.kept)
    }

    @Test("a reservation over a seat another buyer holds is refused, and that buyer still buys it; the channel's own holds may be reserved",
          arguments: StoreKind.available)
    func reservationOverHolds(_ kind: StoreKind) throws {
        let (service, plan, free) = try Self.show(kind)
        let buyer = try service.select(.init(show: "S", toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0)
        let press = try service.openChannelToken(show: "S", channel: "press", plan: plan, now: Self.t0)
        _ = try service.select(.init(show: "S", token: press.token, toggles: [free[1].description], singleSeatRule: false), plan: plan, now: Self.t0)
        for (channel, seat) in [("sponsors", free[0]), ("sponsors", free[1])] {
            let error = #expect(throws: ServiceError.self) { try service.reserve(show: "S", channel: channel, seats: [seat.description, free[2].description], plan: plan) }
            #expect(error?.kind == .conflict && error?.message.contains("not reserved: \(seat)") == true)
        }
        #expect(try service.inventory("S", now: Self.t0).channels.isEmpty, "nothing reserved")
        #expect(try service.reserve(show: "S", channel: "press", seats: [free[1].description], plan: plan) == [free[1]], "its own channel's hold")
        #expect(try service.order(show: "S", token: buyer.token, orderId: "o", plan: plan, now: Self.t0).order.seats == [free[0]])
        let status = ShowJSON.status(try service.inventory("S", now: Self.t0), now: Self.t0)
        #expect(status["channels"] == .object([("press", .array([.string(free[1].description)]))]), "status names channels")
    }

    @Test("a select without a token that holds nothing makes none; a token that gives back its last seat stays until its hold time ends",
          arguments: StoreKind.available)
    func emptyTokensAreNotKept(_ kind: StoreKind) throws {
        let (service, plan, free) = try Self.show(kind)
        let a = try service.select(.init(show: "S", toggles: ["99-99-99"], singleSeatRule: false), plan: plan, now: Self.t0)
        #expect(!a.kept)
        #expect(try service.inventory("S", now: Self.t0).tokens.isEmpty, "no token row for a select that held nothing")
        let b = try service.select(.init(show: "S", toggles: [free[0].description], ttl: 60, singleSeatRule: false), plan: plan, now: Self.t0)
        let tokens = try service.inventory("S", now: Self.t0).tokens.count
        #expect(b.kept && tokens == 1)
        let c = try service.select(.init(show: "S", token: b.token, toggles: [free[0].description], ttl: 60, singleSeatRule: false), plan: plan, now: Self.t0)
        #expect(c.kept && c.selection.isEmpty)
        let again = try service.select(.init(show: "S", token: b.token, toggles: [free[1].description], ttl: 60, singleSeatRule: false), plan: plan, now: Self.t0 + 30)
        #expect(again.selection.ids == [free[1]], "the buyer picks again with the same token")
        _ = try service.select(.init(show: "S", token: b.token, toggles: [free[1].description], ttl: 60, singleSeatRule: false), plan: plan, now: Self.t0 + 30)
        #expect(try service.inventory("S", now: Self.t0 + 91).tokens.isEmpty, "gone once its hold time is over")
        #expect(throws: ServiceError.self) {
            try service.select(.init(show: "S", token: b.token, toggles: [free[0].description], singleSeatRule: false), plan: plan, now: Self.t0 + 91)
        }
    }

    @Test("tokens are bounded per client address and per show: one more is refused (tooMany) until holds expire", arguments: StoreKind.available)
    func tokenLimits(_ kind: StoreKind) throws {
        let hall: Hall = try Fixtures.example("cinema-12x18.json")
        let plan = HallPlan(name: "cinema-12x18", hall: hall)
        let service = ShowService(store: try kind.open(), tokenLimits: .init(perShow: 4, perAddress: 2))
        _ = try service.create(show: "S", plan: plan)
        let free = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id.description)
        func select(_ seat: String, _ address: String?, token: String? = nil, at t: Date = Self.t0) throws -> ShowService.SelectAnswer {
            try service.select(.init(show: "S", token: token, toggles: [seat], ttl: 5, singleSeatRule: false, address: address), plan: plan, now: t)
        }
        let a1 = try select(free[0], "10.0.0.1")
        _ = try select(free[2], "10.0.0.1")
        let third = #expect(throws: ServiceError.self) { try select(free[4], "10.0.0.1") }
        #expect(third?.kind == .tooMany && third?.httpStatus == 429 && third?.message.contains("10.0.0.1 has 2 live tokens") == true, "\(String(describing: third))")
        #expect(try select(free[4], "10.0.0.1", token: a1.token).results.first?.1 == .selected, "a token it has still selects")
        _ = try select(free[6], "10.0.0.2")
        _ = try select(free[8], nil)
        let full = #expect(throws: ServiceError.self) { try select(free[10], "10.0.0.3") }
        #expect(full?.kind == .tooMany && full?.message.contains("show S has 4 buyers' tokens") == true, "\(String(describing: full))")
        #expect(throws: ServiceError.self) { try select(free[10], nil) }
        // A token that gives back its seats still counts until its hold time ends; then they are swept.
        _ = try select(free[0], "10.0.0.1", token: a1.token)
        _ = try select(free[4], "10.0.0.1", token: a1.token)
        #expect(throws: ServiceError.self) { try select(free[10], "10.0.0.3", at: Self.t0 + 1) }
        #expect(try select(free[10], "10.0.0.1", at: Self.t0 + 10).results.first?.1 == .selected, "after expiry the address and the show have room")
        // Best available makes tokens under the same limits.
        _ = try select(free[12], "10.0.0.1", at: Self.t0 + 10)
        let best = #expect(throws: ServiceError.self) {
            try service.best(show: "S", token: nil, request: .init(count: 1), plan: plan, ttl: 5, now: Self.t0 + 10, address: "10.0.0.1")
        }
        #expect(best?.kind == .tooMany)
    }

    @Test("over HTTP: 429 naming the address; behind a trusted proxy each X-Forwarded-For client is counted apart, and nobody else's header is believed")
    func tokenLimitsOverHTTP() throws {
        let dir = try Fixtures.tempFolder()
        try FileManager.default.copyItem(at: Fixtures.examplesFolder.appendingPathComponent("cinema-12x18.json"), to: dir.appendingPathComponent("cinema-12x18.json"))
        let free = try Fixtures.example("cinema-12x18.json").cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id.description)
        for trusted in [true, false] {
            let service = try SeatMapHTTPService(halls: dir.path, store: dir.appendingPathComponent("store-\(trusted).db").path,
                                                 tokenLimits: .init(perShow: 100, perAddress: 2), trustedProxies: trusted ? ["127.0.0.1"] : [],
                                                 port: 0, workers: 2)
            defer { service.stop() }
            let http = TestHTTP(port: service.port)
            #expect(try http.request("POST", "/shows/E", body: Array(#"{"hall": "cinema-12x18"}"#.utf8)).status == 201)
            func select(_ k: Int, from client: String? = nil) throws -> TestHTTP.Answer {
                try http.request("POST", "/shows/E/select", headers: client.map { ["X-Forwarded-For": "\($0), 127.0.0.1"] } ?? [:],
                                 body: Array(#"{"toggle": ["\#(free[k * 2])"], "singleSeatRule": false}"#.utf8))
            }
            #expect(try select(0).status == 200 && (try select(1).status) == 200)
            let refused = try select(2)
            #expect(refused.status == 429 && refused.text.contains("127.0.0.1 has 2 live tokens for show E"), "\(refused.status) \(refused.text)")
            let best = try http.request("POST", "/shows/E/best", body: Array(#"{"count": 1}"#.utf8))
            #expect(best.status == 429, "best available too: \(best.text)")
            // Through a proxy the service trusts, the client it names is another address.
            let forwarded = try select(3, from: "203.0.113.7")
            #expect(forwarded.status == (trusted ? 200 : 429), "trusted \(trusted): \(forwarded.text)")
        }
    }

    @Test("GET /shows/S/seats?since=N: only the seats changed after N, small; the whole show when N is unknown; a long poll answers at the change")
    func deltasOverHTTP() throws {
        let (service, http, _) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try http.request("POST", "/shows/E", body: Array(#"{"hall": "cinema-12x18"}"#.utf8)).status == 201)
        let hall: Hall = try Fixtures.example("cinema-12x18.json")
        let free = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id.description)
        let (one, two) = (free[40], free[60])
        let full = try http.request("GET", "/shows/E/seats")
        let sequence = try full.json()["sequence"]
        #expect(sequence == .int(0))
        let held = try http.request("POST", "/shows/E/select", body: Array(#"{"toggle": ["\#(one)"]}"#.utf8))
        let token = try #require(TestJSON.string(try held.json()["token"]))
        let delta = try http.request("GET", "/shows/E/seats?since=0")
        #expect(delta.status == 200 && delta.body.count < 300, "\(delta.text)")
        #expect(try delta.json()["changes"] == .object([(one, .string("held"))]) && (try delta.json()["sequence"]) == .int(1))
        #expect(try http.request("GET", "/shows/E/seats?since=0&token=\(token)").json()["changes"] == .object([(one, .string("selected"))]))
        let unknown = try http.request("GET", "/shows/E/seats?since=7")
        #expect(try unknown.json()["full"] == .bool(true) && unknown.body.count > 1000)
        #expect(try http.request("GET", "/shows/E/seats?since=x").status == 400)
        // A long poll from 1 answers when another buyer holds a seat.
        let answer = LockedAnswer()
        let poller = Thread {
            answer.set(try? http.request("GET", "/shows/E/seats?since=1&wait=20"))
        }
        poller.start()
        Thread.sleep(forTimeInterval: 0.5)
        let t = Date()
        _ = try http.request("POST", "/shows/E/select", body: Array(#"{"toggle": ["\#(two)"]}"#.utf8))
        while answer.value == nil && Date().timeIntervalSince(t) < 10 { Thread.sleep(forTimeInterval: 0.02) }
        let polled = try #require(answer.value)
        #expect(Date().timeIntervalSince(t) < 5)
        #expect(try polled.json()["changes"] == .object([(two, .string("held"))]))
    }
}
