import Foundation
import Testing
import SeatMapCLI
import SeatMapCore
import SeatMapRender
import SeatMapService
@testable import SeatMapStore
import SeatMapTestClients
import SeatMapTestSupport

/// One suite of the store contract, run on every implementation.
@Suite("Inventory stores: the same behaviour from each")
struct InventoryStoreContractTests {
    static let hall: Hall? = try? Fixtures.example("cinema-12x18.json")
    static let t0 = Date(timeIntervalSince1970: 2_000_000_000)

    /// The story every store must tell alike; its final inventory.
    static func story(_ store: any InventoryStore) throws -> ShowInventory {
        let hall = try #require(Self.hall)
        let plan = HallPlan(name: "cinema-12x18", hall: hall)
        let free = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id)
        let service = ShowService(store: store)
        #expect(try service.create(show: "S", plan: plan).created)
        #expect(try !service.create(show: "S", plan: plan).created, "creating again is no change")
        #expect(throws: ServiceError.self) { try service.create(show: "S", plan: HallPlan(name: "other", hall: hall)) }
        let a = try service.select(.init(show: "S", toggles: [free[0].description, free[1].description],
                                         ttl: 60, singleSeatRule: false), plan: plan, now: t0)
        #expect(a.results.map(\.1) == [.selected, .selected])
        let b = try service.select(.init(show: "S", toggles: [free[1].description, free[2].description],
                                         ttl: 5, singleSeatRule: false), plan: plan, now: t0)
        #expect(b.results.map(\.1) == [.held, .selected], "A's seat is held to B")
        // B's hold expires; A adds a seat and orders.
        _ = try service.select(.init(show: "S", token: a.token, toggles: [free[3].description], ttl: 60, singleSeatRule: false), plan: plan, now: t0 + 10)
        let order = try service.order(show: "S", token: a.token, orderId: "A", plan: plan, now: t0 + 10)
        #expect(order.order.seats == [free[0], free[1], free[3]].sorted())
        #expect(try service.order(show: "S", token: a.token, orderId: "A", plan: plan, now: t0 + 11).repeated)
        let layout = try GeometryOptions(try Arguments([], spec: CommandSpec(name: "", usage: "", summary: "", options: GeometryOptions.table))).layout(for: hall).layout
        let batch = StatusBatch(batchId: "x", sequence: 1, changes: [.init(seat: free[5], status: .locked)])
        let run = try service.apply(show: "S", plan: plan, batches: [batch, batch], layout: layout, updatesFile: "u")
        #expect(run.applied.count == 1, "a repeated batch id is a no-op")
        #expect(try store.showIDs() == ["S"])
        #expect(try store.show("nope") == nil)
        var inv = try service.inventory("S")
        inv.releaseExpired(now: t0 + 10)
        #expect(inv.seats[free[2]] == nil, "the expired hold was released")
        #expect(inv.seats[free[5]] == .locked && inv.batchIds == ["x"] && inv.lastSequence == 1)
        #expect(inv.orders["A"]?.seats == [free[0], free[1], free[3]].sorted())
        return inv
    }

    /// A store of `kind` with show "S" of the cinema, its standard free seats, and a service on it.
    static func cinemaShow(_ kind: StoreKind) throws -> (any InventoryStore, Hall, HallPlan, [SeatID], ShowService) {
        let store = try kind.open()
        let hall = try #require(Self.hall)
        let plan = HallPlan(name: "cinema-12x18", hall: hall)
        let free = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.map(\.id)
        let service = ShowService(store: store)
        _ = try service.create(show: "S", plan: plan)
        return (store, hall, plan, free, service)
    }

    @Test("48 updates at once, every third failing after its hold (by the use case, or by the database when its writes are sent): each kept or undone alone",
          arguments: StoreKind.available)
    func concurrentUpdates(_ kind: StoreKind) throws {
        let (store, hall, plan, free, service) = try Self.cinemaShow(kind)
        struct Refused: Error {}
        let kept = OutputBuffer(), refused = OutputBuffer(), wronglyKept = OutputBuffer()
        // 48 threads let go at once: updates queue up together.
        let gate = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { for _ in 0..<48 { gate.signal() } }
        StoreBaseline.threads(48) { k in
            gate.wait()
            let seat = free[k * 2]
            if k % 3 == 0 {
                // Half of them fail in the database itself, when their writes
                // are sent (a CHECK refuses negative places; PostgreSQL sends
                // them with the next update's first read or the commit).
                let byTheDatabase = kind != .memory && k % 6 == 0
                do {
                    _ = try store.update(show: "S", now: Date()) { tx in
                        try tx.read(seats: [seat])
                        let token = tx.inventory.issueToken(now: Date(), ttl: 60)
                        _ = try tx.inventory.select(token: token, toggles: [seat.description], areas: [], plan: hall, now: Date(), ttl: 60)
                        guard byTheDatabase else { throw Refused() }
                        tx.inventory.areaAvailable["no-such-area"] = -1
                    }
                    wronglyKept.append(seat.description)
                } catch is Refused {
                    refused.append(seat.description)
                } catch {
                    if byTheDatabase { refused.append(seat.description) }
                }
            } else if let a = try? service.select(.init(show: "S", toggles: [seat.description], singleSeatRule: false), plan: plan),
                      a.results.first?.1 == .selected {
                kept.append(seat.description)
            }
        }
        let inv = try service.inventory("S")
        let held = inv.seats.compactMap { id, state -> String? in
            if case .held = state { return id.description }
            return nil
        }
        #expect(refused.parts.count == 16 && wronglyKept.parts.isEmpty, "each failing update failed with its own error")
        #expect(kept.parts.count == 32 && Set(held) == Set(kept.parts), "held: exactly the 32 answered holds, none of the failed ones")
        #expect(inv.tokens.count == 32, "no token of a failed update stays")
    }

    @Test("rows read ahead (update expecting a token and seats) are the rows the use case would read; a wrong guess reads the rest",
          arguments: StoreKind.available)
    func readAhead(_ kind: StoreKind) throws {
        let (store, _, plan, free, service) = try Self.cinemaShow(kind)
        let a = try service.select(.init(show: "S", toggles: [free[0].description, free[1].description], singleSeatRule: false), plan: plan)
        let b = try service.select(.init(show: "S", toggles: [free[2].description], singleSeatRule: false), plan: plan)
        // What a use case reads: A's token and holds, and four seats (one of B's).
        func read(_ expecting: ShowTransaction.Expected?) throws -> ShowInventory {
            let body = { (tx: ShowTransaction) throws -> ShowInventory in
                try tx.read(token: a.token)
                try tx.read(seats: [free[1], free[2], free[3], free[4]])
                return tx.inventory
            }
            let seen = try expecting.map { try store.update(show: "S", now: Date(), expecting: $0, body) } ?? store.update(show: "S", now: Date(), body)
            return try #require(seen)
        }
        let plain = try read(nil)
        #expect(plain.seats[free[0]] == .held(token: a.token) && plain.seats[free[2]] == .held(token: b.token))
        #expect(plain.tokens[a.token] != nil && plain.tokens[b.token] != nil)
        let guesses: [ShowTransaction.Expected] = [
            .init(token: a.token, seats: [free[1], free[2], free[3], free[4]]),  // right
            .init(token: b.token, seats: [free[2], free[7]]),  // another token, some seats
            .init(token: nil, seats: []),  // nothing
        ]
        for guess in guesses {
            #expect(try read(guess) == plain, "expecting \(guess.token == a.token ? "A" : guess.token == nil ? "nothing" : "B")")
        }
    }

    @Test("create, hold, expire, order once, apply a batch once", arguments: StoreKind.available)
    func contract(_ kind: StoreKind) throws {
        _ = try Self.story(try kind.open())
    }

    @Test("every store ends the story with the same inventory")
    func agree() throws {
        let results = try StoreKind.available.map { try Self.story(try $0.open()) }
        // Tokens are random: compare with each store's tokens named by their order of issue.
        func normalised(_ inv: ShowInventory) -> String {
            var names: [String: String] = [:]
            for (i, t) in inv.orders.values.map(\.token).sorted().enumerated() { names[t] = "T\(i)" }
            let seats = inv.seats.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let orders = inv.orders.sorted { $0.key < $1.key }.map { "\($0.key):\(names[$0.value.token] ?? "?"):\($0.value.seats)" }
            return (seats + orders + inv.batchIds.sorted() + ["\(inv.lastSequence ?? -1)", "\(inv.tokens.count)"]).joined(separator: " ")
        }
        #expect(results.allSatisfy { normalised($0) == normalised(results[0]) }, "\(StoreKind.available)")
    }
}
