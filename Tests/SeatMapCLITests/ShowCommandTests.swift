import Foundation
import Testing
import SeatMapCLI
import SeatMapCore
import SeatMapGolden
import SeatMapService
@testable import SeatMapStore
import SeatMapTestClients
import SeatMapTestSupport

/// Shows own their inventory: per-show seats, exclusive holds by token,
/// atomic and idempotent orders, status batches on the show. Real SQLite
/// files, real processes.
@Suite("Shows: holds, orders and the SQLite store")
struct ShowStoreTests {



    /// `select ... --json` in this process; its answer.
    static func select(_ hall: String, _ db: String, _ show: String, _ toggle: String, token: String? = nil,
                       extra: [String] = []) throws -> (code: Int32, json: JSONNode?, err: String) {
        let r = seatmap(["select", hall, "--store", db, "--show", show, "--toggle", toggle, "--json", "--no-single-seat-rule"]
                        + (token.map { ["--token", $0] } ?? []) + extra)
        return (r.code, r.code == 0 ? try parseJSON(r.out) : nil, r.err)
    }

    @Test("two shows of one hall sell the same seat independently; the hall file is never written")
    func showsAreIndependent() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: hall))
        let db = dir.appendingPathComponent("s.db").path
        #expect(seatmap("show", "create", "--store", db, "--show", "matinee", "--hall", hall).code == 0)
        #expect(seatmap("show", "create", "--store", db, "--show", "evening", "--hall", hall).code == 0)
        for show in ["matinee", "evening"] {
            let a = try Self.select(hall, db, show, "1-1-5")
            let token = try #require(TestJSON.string(a.json?["token"]))
            #expect(TestJSON.strings(a.json?["selected"]) == ["1-1-5"], "\(show)")
            let order = seatmap("order", "--store", db, "--show", show, "--token", token, "--order-id", "o-\(show)", "--json")
            #expect(order.code == 0, "\(order.err)")
            #expect(TestJSON.strings(try parseJSON(order.out)["sold"]) == ["1-1-5"])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: hall)) == before, "the plan is untouched")
        // A third show still has it for sale; the sold shows do not.
        #expect(TestJSON.strings(try Self.select(hall, db, "late", "1-1-5").json?["selected"]) == ["1-1-5"])
        let resold = try Self.select(hall, db, "matinee", "1-1-5").json?["results"]
        #expect(resold == JSONNode.array([.object([("id", .string("1-1-5")), ("result", .string("notAvailable"))])]))
        // Same hall again: no change; another hall: refused.
        let again = seatmap("show", "create", "--store", db, "--show", "matinee", "--hall", hall)
        #expect(again.code == 0 && again.out.contains("exists"))
        let other = try TestHalls.wideRow(dir, name: "other")
        let clash = seatmap("show", "create", "--store", db, "--show", "matinee", "--hall", other)
        #expect(clash.code == 1 && clash.err.contains("exists for the hall wide, not other"), "\(clash.err)")
    }

    @Test("a seat held by one token is held to every other, in select, hit and the show's status")
    func holdsAreExclusive() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let db = dir.appendingPathComponent("s.db").path
        let a = try Self.select(hall, db, "S", "1-1-3,1-1-4")
        let tokenA = try #require(TestJSON.string(a.json?["token"]))
        #expect(HoldToken.isValid(tokenA))
        let b = try Self.select(hall, db, "S", "1-1-4,1-1-5")
        let tokenB = try #require(TestJSON.string(b.json?["token"]))
        #expect(tokenA != tokenB)
        #expect(b.json?["results"] == .array([.object([("id", .string("1-1-4")), ("result", .string("held"))]),
                                              .object([("id", .string("1-1-5")), ("result", .string("selected"))])]))
        // B cannot deselect A's seat: toggling it again is still "held", and A keeps it.
        #expect(TestJSON.strings(try Self.select(hall, db, "S", "1-1-4", token: tokenB).json?["selected"]) == ["1-1-5"])
        #expect(TestJSON.strings(try Self.select(hall, db, "S", "1-1-6", token: tokenA).json?["selected"]) == ["1-1-3", "1-1-4", "1-1-6"])
        // Hit tests name the hold.
        let layout = try parseJSON(seatmap("layout", hall, "--json").out)
        guard case .array(let seats)? = layout["seats"]?.value else { Issue.record("no seats"); return }
        let rect = try #require(seats.first { TestJSON.string($0["id"]) == "1-1-4" })
        guard case .number(let xs)? = rect["x"]?.value, case .number(let ys)? = rect["y"]?.value, let x = Int(xs), let y = Int(ys) else {
            Issue.record("no rect"); return
        }
        let point = "\(Double(x) / 2 + 5),\(Double(y) / 2 + 5)"
        let asB = try parseJSON(seatmap("hit", hall, "--store", db, "--show", "S", "--token", tokenB, "--point", point, "--json").out)
        let asA = try parseJSON(seatmap("hit", hall, "--store", db, "--show", "S", "--token", tokenA, "--point", point, "--json").out)
        guard case .array(let hb) = asB.value, case .array(let ha) = asA.value else { Issue.record("not arrays"); return }
        #expect(TestJSON.string(hb.first?["id"]) == "1-1-4" && TestJSON.string(hb.first?["status"]) == "held")
        #expect(TestJSON.string(ha.first?["status"]) == "selected")
        let status = try parseJSON(seatmap("show", "status", "--store", db, "--show", "S", "--json").out)
        #expect(TestJSON.strings(status["seats"]?["held"]) == ["1-1-3", "1-1-4", "1-1-5", "1-1-6"])
    }

    /// The pixels of `rect` (device pixels) in a PNG.
    static func crop(_ png: String, _ rect: (Int, Int, Int, Int)) throws -> [UInt32] {
        let image = try RGBAImage(png: [UInt8](Data(contentsOf: URL(fileURLWithPath: png))))
        var out: [UInt32] = []
        for yy in rect.1..<(rect.1 + rect.3) { for xx in rect.0..<(rect.0 + rect.2) { out.append(image.pixels[yy * image.width + xx]) } }
        return out
    }

    @Test("a held seat is drawn locked in another token's render and selected in its own (pixels at the seat)")
    func heldSeatsDrawn() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let db = dir.appendingPathComponent("s.db").path
        let token = try #require(TestJSON.string(try Self.select(hall, db, "S", "1-1-7").json?["token"]))
        let other = try #require(TestJSON.string(try Self.select(hall, db, "S", "1-1-1").json?["token"]))
        let layout = try parseJSON(seatmap("layout", hall, "--json").out)
        guard case .array(let seats)? = layout["seats"]?.value,
              let seat = seats.first(where: { TestJSON.string($0["id"]) == "1-1-7" }),
              case .number(let xs)? = seat["x"]?.value, case .number(let ys)? = seat["y"]?.value,
              case .number(let ws)? = seat["w"]?.value, case .number(let hs)? = seat["h"]?.value,
              let x = Int(xs), let y = Int(ys), let w = Int(ws), let h = Int(hs) else { Issue.record("no seat rect"); return }
        let rect = (x, y, w, h)
        func out(_ name: String) -> String { dir.appendingPathComponent(name).path }
        #expect(seatmap("render", hall, "--store", db, "--show", "S", "--token", token, "-o", out("own.png")).code == 0)
        #expect(seatmap("render", hall, "--store", db, "--show", "S", "--token", other, "-o", out("other.png")).code == 0)
        #expect(seatmap("render", hall, "--store", db, "--show", "S", "-o", out("public.png")).code == 0)
        // References: the plan with the seat selected, and with it locked.
        #expect(seatmap("render", hall, "--select", "1-1-7", "-o", out("selected.png")).code == 0)
        let locked = try String(contentsOfFile: hall, encoding: .utf8).replacingOccurrences(of: #"{"column":7,"status":0}"#, with: #"{"column":7,"status":1}"#)
        let lockedDir = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: lockedDir, withIntermediateDirectories: true)
        let lockedHall = try Fixtures.write(locked, to: "wide.json", in: lockedDir)
        #expect(seatmap("render", lockedHall, "-o", out("locked.png")).code == 0)
        #expect(seatmap("render", hall, "-o", out("plan.png")).code == 0)
        let own = try Self.crop(out("own.png"), rect), others = try Self.crop(out("other.png"), rect)
        #expect(own == (try Self.crop(out("selected.png"), rect)), "its own token sees it selected")
        #expect(others == (try Self.crop(out("locked.png"), rect)), "another token sees it locked")
        #expect(try Self.crop(out("public.png"), rect) == (try Self.crop(out("locked.png"), rect)), "a render without a token: locked")
        #expect(own != (try Self.crop(out("plan.png"), rect)) && others != own)
    }

    @Test("an order whose holds partly expired sells nothing; a repeated order id sells nothing more; standing places are sold")
    func orders() throws {
        let dir = try Fixtures.tempFolder()
        let db = dir.appendingPathComponent("s.db").path
        let store = try SQLiteInventoryStore(path: db)
        let service = ShowService(store: store)
        let venue = try Fixtures.example("arena-blocks.json")
        let plan = HallPlan(name: "arena-blocks", hall: venue)
        _ = try service.create(show: "S", plan: plan)
        let seats = venue.cells.filter { $0.seat.status == .available }.map(\.id)
        let area = try #require(venue.areas.first { $0.isStanding && $0.remaining >= 3 })
        let t0 = Date()
        // A holds seat 0 for 1 s; it expires; B takes it; A then holds seat 1.
        let a = try service.select(.init(show: "S", toggles: [seats[0].description], ttl: 1, singleSeatRule: false), plan: plan, now: t0)
        let b = try service.select(.init(show: "S", toggles: [seats[0].description], singleSeatRule: false), plan: plan, now: t0 + 2)
        #expect(b.results.first?.1 == .selected, "the expired hold was released")
        // A's expired token is unknown now; A starts again with a new one and holds seat 1.
        #expect(throws: ServiceError.self) {
            try service.select(.init(show: "S", token: a.token, toggles: [seats[1].description], singleSeatRule: false), plan: plan, now: t0 + 2)
        }
        let a2 = try service.select(.init(show: "S", toggles: [seats[1].description], singleSeatRule: false), plan: plan, now: t0 + 2)
        // A's cart still lists seat 0: the order sells nothing.
        #expect(throws: ServiceError.self) {
            try service.order(show: "S", token: a2.token, orderId: "A-1", expecting: [seats[0], seats[1]], plan: plan, now: t0 + 2)
        }
        // A cart missing a held seat sells nothing either.
        _ = try service.select(.init(show: "S", token: a2.token, toggles: [seats[2].description], singleSeatRule: false), plan: plan, now: t0 + 2)
        #expect(throws: ServiceError.self) {
            try service.order(show: "S", token: a2.token, orderId: "A-1", expecting: [seats[1]], plan: plan, now: t0 + 2)
        }
        var inv = try service.inventory("S")
        #expect(inv.holder(of: seats[1]) == a2.token && inv.holder(of: seats[2]) == a2.token && inv.orders.isEmpty, "nothing sold, the rest still held")
        // B orders its seat and two standing places; repeating the id sells nothing more.
        _ = try service.select(.init(show: "S", token: b.token, toggles: [], areas: [(area.id, 2)], singleSeatRule: false), plan: plan, now: t0 + 3)
        let first = try service.order(show: "S", token: b.token, orderId: "B-1", plan: plan, now: t0 + 3)
        #expect(first.order.seats == [seats[0]] && first.order.areas == [area.id: 2] && !first.repeated)
        let again = try service.order(show: "S", token: b.token, orderId: "B-1", plan: plan, now: t0 + 4)
        #expect(again.repeated && again.order == first.order)
        inv = try service.inventory("S")
        #expect(inv.seats[seats[0]] == .sold(order: "B-1"))
        #expect(inv.areaAvailable[area.id] == area.remaining - 2)
        #expect(inv.orders.count == 1)
        // A second order by B, with nothing held, sells nothing.
        #expect(throws: ServiceError.self) { try service.order(show: "S", token: b.token, orderId: "B-2", plan: plan, now: t0 + 4) }
        // Another token's order id is refused.
        #expect(throws: ServiceError.self) { try service.order(show: "S", token: a2.token, orderId: "B-1", plan: plan, now: t0 + 4) }
        // Standing places count towards maxSelectCount with the seats; held places are never dropped unseen.
        let c = try service.select(.init(show: "S", toggles: [], areas: [(area.id, venue.maxSelectCount)], singleSeatRule: false), plan: plan, now: t0 + 4)
        let more = try service.select(.init(show: "S", token: c.token, toggles: [seats[5].description], singleSeatRule: false), plan: plan, now: t0 + 4)
        #expect(more.results.first?.1 == .reachLimit && more.selection.standing == [area.id: venue.maxSelectCount])
        // A token of another show is unknown here.
        _ = try service.create(show: "T", plan: plan)
        #expect(throws: ServiceError.self) {
            try service.select(.init(show: "T", token: c.token, toggles: [seats[6].description], singleSeatRule: false), plan: plan, now: t0 + 4)
        }
        // Made up tokens hold nothing.
        #expect(throws: ServiceError.self) {
            try service.select(.init(show: "S", token: String(repeating: "0", count: 32), toggles: [seats[6].description]), plan: plan, now: t0 + 4)
        }
    }

    @Test("40 tokens racing for 10 seats in one process: each seat held by one token, sold once, every answered order stored",
          arguments: Backend.available)
    func raceInProcess(_ backend: Backend) throws {
        let dir = try Fixtures.tempFolder()
        let hallPath = try TestHalls.wideRow(dir)
        let plan = HallPlan(name: "wide", hall: try Files.readHall(hallPath))
        // Two store objects on one store: two connections (pools), as two instances would have.
        let location = try backend.fresh(dir)
        let stores = [try InventoryStores.open(location), try InventoryStores.open(location)]
        _ = try ShowService(store: stores[0]).create(show: "S", plan: plan)
        let sold = OutputBuffer(), held = OutputBuffer()
        DispatchQueue.concurrentPerform(iterations: 40) { k in
            let service = ShowService(store: stores[k % 2])
            let seat = "1-1-\(k % 10 + 1)"
            guard let a = try? service.select(.init(show: "S", toggles: [seat], singleSeatRule: false), plan: plan),
                  a.results.first?.1 == .selected else { return }
            held.append(seat)
            if let o = try? service.order(show: "S", token: a.token, orderId: "order-\(k)", plan: plan) {
                sold.append(o.order.seats.map(\.description).joined(separator: ",") + "|order-\(k)")
            }
        }
        let inv = try #require(try stores[0].show("S"))
        let soldSeats = sold.parts.map { String($0.split(separator: "|")[0]) }
        #expect(Set(held.parts).count == held.parts.count, "no seat held by two tokens: \(held.parts.sorted())")
        #expect(Set(soldSeats).count == soldSeats.count, "no seat sold twice: \(soldSeats.sorted())")
        #expect(soldSeats.count == 10, "every seat sold once: \(soldSeats.sorted())")
        for answer in sold.parts {
            let parts = answer.split(separator: "|").map(String.init)
            #expect(SeatID(parts[0]).flatMap { inv.seats[$0] } == .sold(order: parts[1]), "answered order \(parts[1]) is in the store")
        }
    }

    /// Starts `seatmap ARGS` as a process, output discarded unless piped.
    static func start(_ exe: URL, _ args: [String], pipe: Bool = false) throws -> (Process, Pipe?) {
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        let out = pipe ? Pipe() : nil
        p.standardOutput = out ?? FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return (p, out)
    }

    @Test("40 CLI processes racing for 10 seats: each seat held by one token and sold once; every answered order stored",
          arguments: Backend.available)
    func raceAcrossProcesses(_ backend: Backend) throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let db = try backend.fresh(dir)
        #expect(seatmap("show", "create", "--store", db, "--show", "S", "--hall", hall).code == 0)
        let selects = try (0..<40).map { k in
            try Self.start(exe, ["select", hall, "--store", db, "--show", "S", "--toggle", "1-1-\(k % 10 + 1)", "--json", "--no-single-seat-rule"], pipe: true)
        }
        var winners: [(seat: String, token: String)] = []
        for (k, (p, pipe)) in selects.enumerated() {
            let data = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            let json = try JSONParser.parse([UInt8](data))
            if TestJSON.strings(json["selected"]) == ["1-1-\(k % 10 + 1)"], let t = TestJSON.string(json["token"]) { winners.append(("1-1-\(k % 10 + 1)", t)) }
        }
        #expect(winners.count == 10 && Set(winners.map(\.seat)).count == 10, "one token per seat: \(winners.map(\.seat).sorted())")
        // Every winner and a loser per seat order at once; only holders sell.
        let orders = try winners.enumerated().map { i, w in
            try Self.start(exe, ["order", "--store", db, "--show", "S", "--token", w.token, "--order-id", "o\(i)", "--json"], pipe: true)
        }
        var answered: [(String, String)] = []
        for (i, (p, pipe)) in orders.enumerated() {
            let data = pipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
            p.waitUntilExit()
            if p.terminationStatus == 0 { answered.append((TestJSON.strings(try JSONParser.parse([UInt8](data))["sold"]).joined(), "o\(i)")) }
        }
        #expect(answered.count == 10)
        let inv = try #require(try InventoryStores.open(db).show("S"))
        for (seat, order) in answered { #expect(SeatID(seat).flatMap { inv.seats[$0] } == .sold(order: order), "\(seat) \(order)") }
        #expect(inv.orders.count == 10 && !inv.seats.values.contains { if case .held = $0 { return true } else { return false } })
    }

    @Test("SIGKILL at random moments of 50 orders: the store stays whole (SQLite: integrity_check) and no order is half applied",
          arguments: Backend.available)
    func killedOrders(_ backend: Backend) throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        let seats = (1...20).map { #"{"column":\#($0),"status":0}"# }.joined(separator: ",")
        let rows = (1...10).map { #"{"row":\#($0),"price":10,"seats":[\#(seats)]}"# }.joined(separator: ",")
        let hall = try Fixtures.write(#"{"maxSelectCount":4,"rows":[\#(rows)]}"#, to: "big.json", in: dir)
        let db = try backend.fresh(dir)
        // 50 tokens hold 4 seats each (rows 1-10, 5 blocks of 4 per row).
        var tokens: [String] = []
        for k in 0..<50 {
            let row = k / 5 + 1, first = k % 5 * 4 + 1
            let ids = (first..<(first + 4)).map { "1-\(row)-\($0)" }.joined(separator: ",")
            let r = try Self.select(hall, db, "S", ids)
            tokens.append(try #require(TestJSON.string(r.json?["token"])))
        }
        // The kill window is this machine's own: up to twice as long as a
        // whole command on this store takes here, now.
        let t0 = DispatchTime.now().uptimeNanoseconds
        let (probe, _) = try Self.start(exe, ["show", "status", "--store", db, "--show", "S"])
        probe.waitUntilExit()
        let window = max(10_000, (DispatchTime.now().uptimeNanoseconds - t0) / 1000 * 2)
        var rng = SeededRandom(seed: 25)
        var killed = 0
        for (k, token) in tokens.enumerated() {
            let (p, _) = try Self.start(exe, ["order", "--store", db, "--show", "S", "--token", token, "--order-id", "o\(k)"])
            usleep(UInt32(UInt64.random(in: 0...window, using: &rng)))
            if p.isRunning { kill(p.processIdentifier, SIGKILL); killed += 1 }
            p.waitUntilExit()
        }
        let store = try InventoryStores.open(db)
        if let sqlite = store as? SQLiteInventoryStore { #expect(try sqlite.integrityCheck() == "ok") }
        let inv = try #require(try store.show("S"))
        for (k, token) in tokens.enumerated() {
            let row = k / 5 + 1, first = k % 5 * 4 + 1
            let ids = (first..<(first + 4)).map { SeatID(section: 1, row: row, column: $0) }
            let states = ids.map { inv.seats[$0] }
            if let order = inv.orders["o\(k)"] {
                #expect(order.seats == ids && states.allSatisfy { $0 == .sold(order: "o\(k)") }, "o\(k) whole")
                #expect(inv.tokens[token] == nil)
            } else {
                #expect(states.allSatisfy { $0 == .held(token: token) }, "o\(k) not applied at all: \(states)")
            }
        }
        // Whatever was killed, the orders can be finished: each sells exactly once.
        for (k, token) in tokens.enumerated() {
            #expect(seatmap("order", "--store", db, "--show", "S", "--token", token, "--order-id", "o\(k)").code == 0)
        }
        #expect(try #require(try store.show("S")).orders.count == 50)
        #expect(killed > 0, "no order process was killed mid-way (the machine is faster than the kill window)")
        print("killed \(killed) of 50 order processes; \(inv.orders.count) orders had committed")
    }

    @Test("apply --store --show: batches change the show, not the hall; held seats a batch sells are dropped with their tokens")
    func applyToShow() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: hall))
        let db = dir.appendingPathComponent("s.db").path
        let token = try #require(TestJSON.string(try Self.select(hall, db, "S", "1-1-2,1-1-3").json?["token"]))
        let updates = try Fixtures.write(#"{"batchId":"feed-1","sequence":1,"changes":[{"id":"1-1-2","status":2},{"id":"1-1-9","status":1}]}"#,
                                         to: "u.json", in: dir)
        let r = seatmap("apply", hall, updates, "--store", db, "--show", "S", "--json")
        #expect(r.code == 0, "\(r.err)")
        guard case .array(let reports) = try parseJSON(r.out).value else { Issue.record("not an array: \(r.out)"); return }
        #expect(reports.first?["dropped"] == .array([.object([("id", .string("1-1-2")), ("token", .string(token))])]))
        #expect(TestJSON.strings(reports.first?["changed"]) == ["1-1-2", "1-1-9"])
        let again = seatmap("apply", hall, updates, "--store", db, "--show", "S", "--json")
        #expect(again.out.contains("\"duplicate\""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: hall)) == before, "the plan is untouched")
        let inv = try #require(try SQLiteInventoryStore(path: db).show("S"))
        #expect(inv.seats["1-1-2"] == .sold(order: "") && inv.seats["1-1-9"] == .locked && inv.holder(of: "1-1-3") == token)
        #expect(seatmap("apply", hall, updates, "--store", db, "--show", "S", "-o", dir.appendingPathComponent("x.json").path).code == 2)
    }

    @Test("apply --store with a store that cannot be written writes no output and changes nothing")
    func unwritableStore() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let db = dir.appendingPathComponent("s.db").path
        #expect(seatmap("show", "create", "--store", db, "--show", "S", "--hall", hall).code == 0)
        let png = dir.appendingPathComponent("old.png").path
        #expect(seatmap("render", hall, "-o", png).code == 0)
        let updates = try Fixtures.write(#"{"batchId":"b","sequence":1,"changes":[{"id":"1-1-2","status":2}]}"#, to: "u.json", in: dir)
        let out = dir.appendingPathComponent("new.png").path
        let args = ["apply", hall, updates, "--store", db, "--show", "S", "--image", png, "--image-out", out]
        if getuid() != 0 {
            // Read-only file and folder (root writes through modes, so this part needs an ordinary user).
            chmod(db, 0o444)
            chmod(dir.path, 0o555)
            let r = seatmap(args)
            chmod(dir.path, 0o755)
            chmod(db, 0o644)
            #expect(r.code == 1, "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: out), "no output when the store is read-only")
        }
        // Another writer holds the store past the busy timeout: the same for every user.
        let other = try SQLiteConnection(path: db)
        try other.exec("BEGIN EXCLUSIVE")
        let r = seatmap(args)
        try other.exec("ROLLBACK")
        #expect(r.code == 1 && r.err.contains("locked"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out), "no output before the store commits")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains("seatmap-tmp") }, "no temporary left")
        #expect(try #require(try SQLiteInventoryStore(path: db).show("S")).batchIds.isEmpty)
        // And once the store is free, the same command works.
        #expect(seatmap(args).code == 0 && FileManager.default.fileExists(atPath: out))
    }
}
