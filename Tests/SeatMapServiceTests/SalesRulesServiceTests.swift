import Foundation
import Testing
import SeatMapCore
import SeatMapService
@testable import SeatMapStore
import SeatMapTestClients
import SeatMapTestSupport

/// Sales rules, ticket types and channels end to end: the CLI on a real
/// store (SQLite, and PostgreSQL when the tests have one) and the HTTP
/// service, on the gala example (tables sold by seat or whole, a standing
/// bar with a minimum and maximum per order, adult and child tickets).
@Suite("Sales rules, ticket types and channels: CLI and service", .serialized)
struct SalesRulesServiceTests {
    /// The gala hall copied into a fresh folder (the show records its file).
    static func gala() throws -> (dir: URL, hall: String) {
        let dir = try Fixtures.tempFolder()
        let hall = dir.appendingPathComponent("gala.json").path
        try FileManager.default.copyItem(atPath: Fixtures.examplePath("gala.json"), toPath: hall)
        return (dir, hall)
    }

    static func json(_ r: (code: Int32, out: String, err: String)) throws -> JSONNode {
        #expect(r.code == 0, "\(r.out) \(r.err)")
        return try parseJSON(r.out)
    }

    static func results(_ node: JSONNode) -> [String] {
        guard case .array(let items)? = node["results"]?.value else { return [] }
        return items.compactMap { TestJSON.string($0["result"]) }
    }

    static func rules(_ node: JSONNode) -> [String] {
        guard case .array(let items)? = node["breaks"]?.value else { return [] }
        return items.compactMap { item in
            TestJSON.string(item["rule"]).map { "\($0)\(item["enforced"] == .bool(true) ? "!" : "")" }
        }
    }

    @Test("gala from the CLI: a show's enforced rules refuse an order naming them; seats by seat or by table; adult and child totals; the bar's minimum and maximum",
          arguments: Backend.available)
    func galaCLI(_ backend: Backend) throws {
        let (dir, hall) = try Self.gala()
        let db = try backend.fresh(dir)
        let create = seatmap("show", "create", "--store", db, "--show", "nye", "--hall", hall, "--rules", #"{"noOrphans": "enforce", "consecutive": "enforce"}"#)
        #expect(create.code == 0, "\(create.err)")
        // Seats 1 and 3 of table T1: apart, and seat 2 left alone. Reported, then refused by order.
        let a = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--toggle", "1-1-1,1-1-3", "--json"))
        #expect(Self.rules(a) == ["noOrphans!", "consecutive!"])
        let token = try #require(TestJSON.string(a["token"]))
        let refused = seatmap("order", "--store", db, "--show", "nye", "--token", token, "--order-id", "o1")
        #expect(refused.code == 1 && refused.err.contains("consecutive: 1-1-1, 1-1-3 are not side by side")
                && refused.err.contains("noOrphans: would leave 1-1-2") && refused.err.contains("nothing was sold"), "\(refused.err)")
        // Side by side instead, one of them a child: sold, at 120 + 60.
        let b = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--token", token, "--toggle", "1-1-3,1-1-2", "--type", "1-1-2=Child", "--json"))
        #expect(TestJSON.string(b["total"]) == "180" && Self.rules(b).isEmpty, "\(b)")
        #expect(TestJSON.strings(b["descriptions"]) == ["Row T1, Seat 1 (Adult)", "Row T1, Seat 2 (Child)"])
        let sold = try Self.json(seatmap("order", "--store", db, "--show", "nye", "--token", token, "--order-id", "o1", "--json"))
        #expect(TestJSON.strings(sold["sold"]) == ["1-1-1", "1-1-2"] && TestJSON.string(sold["total"]) == "180")
        #expect(sold["ticketTypes"]?["1-1-2"].flatMap(TestJSON.string) == "Child")
        // A whole table at once (the hall's "either"), two children: 6 × 120 + 2 × 60.
        let t = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--toggle", "table:T3", "--type", "1-3-1=Child,1-3-2=Child", "--json"))
        #expect(TestJSON.strings(t["selected"]).count == 8 && TestJSON.string(t["total"]) == "840", "\(t)")
        // The bar: 7 places pass its maximum of 6; 1 is under its minimum of 2 (and the order's).
        let bar = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--area", "bar=7", "--json", "--locale", "en"))
        #expect(Self.results(bar) == ["reachLimit"] && TestJSON.strings(bar["messages"]) == ["Bar (standing): an order takes at most 6 places"])
        #expect(bar["token"] == nil, "a token that holds nothing is not kept, nor given")
        let one = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--area", "bar=1", "--json"))
        let barToken = try #require(TestJSON.string(one["token"]))
        #expect(Self.rules(one) == ["minPerOrder!", "areaMinimum!"])
        let under = seatmap("order", "--store", db, "--show", "nye", "--token", barToken, "--order-id", "bar-1")
        #expect(under.code == 1 && under.err.contains("area bar: an order takes at least 2 places"), "\(under.err)")
        _ = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--token", barToken, "--area", "bar=2", "--json"))
        let barSold = try Self.json(seatmap("order", "--store", db, "--show", "nye", "--token", barToken, "--order-id", "bar-1", "--json"))
        #expect(barSold["areas"]?["bar"] == .int(2) && TestJSON.string(barSold["total"]) == "70")
        let status = seatmap("show", "status", "--store", db, "--show", "nye")
        #expect(status.out.contains("area bar: 46 for sale") && status.out.contains("order o1: 1-1-1 1-1-2"), "\(status.out)")
        // The show's rules are its own: the hall file's stay, another show of it is not strict.
        let other = try Self.json(seatmap("select", hall, "--store", db, "--show", "matinee", "--toggle", "1-5-1,1-5-3", "--json"))
        #expect(Self.rules(other) == ["noOrphans"], "the hall only warns; consecutive is off")
        // Creating the show again with other rules is refused; with the same, no change.
        #expect(seatmap("show", "create", "--store", db, "--show", "nye", "--hall", hall, "--rules", #"{"noOrphans": "off"}"#).code == 1)
        #expect(seatmap("show", "create", "--store", db, "--show", "nye", "--hall", hall, "--rules", #"{"noOrphans": "enforce", "consecutive": "enforce"}"#).out.contains("exists"))
        let bad = seatmap("show", "create", "--store", db, "--show", "x", "--hall", hall, "--rules", #"{"minPerOrder": 9}"#)
        #expect(bad.code == 2 && bad.err.contains("rules.minPerOrder: the minimum per order (9) is over the maximum (maxSelectCount 8)"), "\(bad.err)")
        // Moved away, the hall must be named again for the order's rules.
        try FileManager.default.moveItem(atPath: hall, toPath: dir.appendingPathComponent("moved.json").path)
        let lost = seatmap("order", "--store", db, "--show", "nye", "--token", token, "--order-id", "o9")
        #expect(lost.code == 2 && lost.err.contains("pass --hall gala.json"), "\(lost.err)")
    }

    @Test("a sponsor channel from the CLI: reserved seats are locked to the public, held and sold by the channel's token, released in one batch",
          arguments: Backend.available)
    func channelCLI(_ backend: Backend) throws {
        let (dir, hall) = try Self.gala()
        let db = try backend.fresh(dir)
        #expect(seatmap("show", "create", "--store", db, "--show", "nye", "--hall", hall).code == 0)
        let reserved = try Self.json(seatmap("show", "reserve", "--store", db, "--show", "nye", "--channel", "sponsors", "--seats", "1-4-1,1-4-2,1-4-3,1-4-4", "--json"))
        #expect(TestJSON.strings(reserved["reserved"]) == ["1-4-1", "1-4-2", "1-4-3", "1-4-4"])
        let soldSeat = seatmap("show", "reserve", "--store", db, "--show", "nye", "--channel", "press", "--seats", "1-2-1,1-2-4")
        #expect(soldSeat.code == 1 && soldSeat.err.contains("sold, locked or held by a buyer of another channel, not reserved: 1-2-1; nothing was reserved"), "\(soldSeat.err)")
        let public_ = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--toggle", "1-4-1,1-4-2", "--json"))
        #expect(Self.results(public_) == ["notAvailable", "notAvailable"])
        let opened = try Self.json(seatmap("show", "token", "--store", db, "--show", "nye", "--channel", "sponsors", "--json"))
        let token = try #require(TestJSON.string(opened["token"]))
        let mine = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--token", token, "--toggle", "1-4-1,1-4-2", "--json"))
        #expect(Self.results(mine) == ["selected", "selected"])
        #expect(seatmap("order", "--store", db, "--show", "nye", "--token", token, "--order-id", "sp-1").code == 0)
        let status = seatmap("show", "status", "--store", db, "--show", "nye")
        #expect(status.out.contains("channel sponsors: 2 seats reserved"), "\(status.out)")
        let released = try Self.json(seatmap("show", "release", "--store", db, "--show", "nye", "--channel", "sponsors", "--json"))
        #expect(TestJSON.strings(released["released"]) == ["1-4-3", "1-4-4"])
        let after = try Self.json(seatmap("select", hall, "--store", db, "--show", "nye", "--toggle", "1-4-3,1-4-4", "--json"))
        #expect(Self.results(after) == ["selected", "selected"], "released to the public")
        #expect(seatmap("show", "token", "--store", db, "--show", "nye", "--channel", "bad channel").code == 2)
    }

    @Test("over HTTP: a show's rules at creation, ticket types in select, orders refused naming the rule, channels by the back office")
    func overHTTP() throws {
        let key = "gala-admin-key-0123456789"
        let (service, http, _) = try TestServer.startWithStore(adminKey: key)
        defer { service.stop() }
        let admin = ["Authorization": "Bearer \(key)"]
        func post(_ path: String, _ json: String, headers: [String: String] = [:]) throws -> TestHTTP.Answer {
            try http.request("POST", path, headers: headers, body: Array(json.utf8))
        }
        let created = try post("/shows/gala", #"{"hall": "gala", "rules": {"consecutive": "enforce", "minPerOrder": 3}}"#, headers: admin)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.text.contains(#""rules":{"consecutive":"enforce","minPerOrder":3,"maxSelectCount":8,"tables":"either"}"#), "\(created.text)")
        #expect(try post("/shows/g2", #"{"hall": "gala", "rules": {"tables": "round"}}"#, headers: admin).status == 400)
        let a = try post("/shows/gala/select", #"{"toggle": ["1-5-1", "1-5-2", "1-5-4"], "types": {"1-5-2": "Child", "1-5-4": "Senior"}, "locale": "en"}"#)
        #expect(a.status == 200, "\(a.text)")
        let aj = try a.json()
        #expect(Self.results(aj) == ["selected", "selected", "selected", "selected", "noSuchType"])
        #expect(TestJSON.string(aj["total"]) == "225" && Self.rules(aj) == ["noOrphans", "consecutive!"], "90 + 45 + 90; seat 3 left alone is only warned of")
        #expect(TestJSON.strings(aj["messages"]).contains("Row T5, Seat 4 has no ticket type Senior"), "\(aj)")
        #expect(a.text.contains(#""ticketType":"Child""#))
        let token = try #require(TestJSON.string(aj["token"]))
        let refused = try post("/shows/gala/order", #"{"token": "\#(token)", "orderId": "w1"}"#, headers: admin)
        #expect(refused.status == 409 && refused.text.contains("consecutive: 1-5-1, 1-5-2, 1-5-4 are not side by side"), "\(refused.text)")
        _ = try post("/shows/gala/select", #"{"token": "\#(token)", "toggle": ["1-5-4", "1-5-3"]}"#)
        let sold = try post("/shows/gala/order", #"{"token": "\#(token)", "orderId": "w1"}"#, headers: admin)
        #expect(sold.status == 200 && sold.text.contains(#""total":"225""#), "\(sold.text)")
        // Channels are the back office's.
        #expect(try post("/shows/gala/channels/press", #"{"seats": ["1-6-1", "1-6-2", "1-6-3"]}"#).status == 401)
        let reserve = try post("/shows/gala/channels/press", #"{"seats": ["1-6-1", "1-6-2", "1-6-3"]}"#, headers: admin)
        #expect(reserve.status == 200 && reserve.text.contains(#""reserved":["1-6-1","1-6-2","1-6-3"]"#), "\(reserve.text)")
        let seats = try http.request("GET", "/shows/gala/seats").json()
        #expect(seats["seats"]?["1-6-1"].flatMap(TestJSON.string) == "locked")
        let b = try post("/shows/gala/select", #"{"toggle": ["1-6-1", "1-6-2", "1-6-3"]}"#).json()
        #expect(Self.results(b) == ["notAvailable", "notAvailable", "notAvailable"])
        let opened = try post("/shows/gala/channels/press", #"{"token": true, "holdSeconds": 120}"#, headers: admin)
        #expect(opened.status == 201, "\(opened.text)")
        let press = try #require(TestJSON.string(try opened.json()["token"]))
        let p = try post("/shows/gala/select", #"{"token": "\#(press)", "toggle": ["1-6-1", "1-6-2", "1-6-3"]}"#).json()
        #expect(Self.results(p) == ["selected", "selected", "selected"])
        let release = try post("/shows/gala/channels/press", #"{"release": true}"#, headers: admin)
        #expect(release.status == 200 && release.text.contains(#""released":["1-6-1","1-6-2","1-6-3"]"#), "\(release.text)")
        #expect(try post("/shows/gala/channels/press", #"{"release": true, "seats": []}"#, headers: admin).status == 400)
    }

    @Test("a store of the previous schema takes the new migration and keeps its shows, holds and orders")
    func migration() throws {
        let dir = try Fixtures.tempFolder()
        let db = dir.appendingPathComponent("v2.db").path
        do {
            let old = try SQLiteConnection(path: db)
            try old.exec("CREATE TABLE schema_migrations(name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
            for m in InventorySchema.migrations.prefix(2) {
                try old.exec(m.sql)
                try old.rows("INSERT INTO schema_migrations(name, applied_at) VALUES ('\(m.name)', 0)")
            }
            try old.rows("INSERT INTO shows(show, hall, last_sequence, created_at) VALUES ('S', 'gala', NULL, 0)")
            try old.rows("INSERT INTO show_seats(show, seat, state, ref) VALUES ('S', '1-1-1', 'held', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')")
            try old.rows("INSERT INTO show_tokens(show, token, expires_ms) VALUES ('S', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 4000000000000)")
            try old.rows("INSERT INTO orders(show, order_id, token, seats) VALUES ('S', 'o', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', '1-1-5,1-1-6')")
        }
        let store = try SQLiteInventoryStore(path: db)
        #expect(try store.appliedMigrations() == InventorySchema.migrations.map(\.name))
        let inv = try #require(try store.show("S"))
        #expect(inv.holder(of: "1-1-1") == "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" && inv.orders["o"]?.seats == ["1-1-5", "1-1-6"])
        #expect(inv.rules == nil && inv.ticketTypes.isEmpty && inv.channels.isEmpty && inv.hallFile == nil)
    }
}
