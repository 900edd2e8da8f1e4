import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

/// A one-row hall from a picture (see `row`) with a `rules` member.
func ruledRow(_ picture: String, rules: String, max: Int = 8) throws -> Hall {
    let plain = try row(picture, max: max)
    let text = HallFormat.encodeText(plain)
    let ruled = text.replacingOccurrences(of: "\"maxSelectCount\": \(max),", with: "\"maxSelectCount\": \(max), \"rules\": \(rules),")
    guard ruled != text else { throw SeatMapError("the hall text has no maxSelectCount to put the rules after") }
    return try HallFormat.decode(ruled)
}

@Suite("Sales rules")
struct SalesRulesTests {
    @Test("the hall file's rules are read, checked with their path, and written back only where they differ from the defaults")
    func fileRules() throws {
        let hall = try ruledRow("......", rules: #"{"noOrphans": "enforce", "allowUnavoidable": true, "consecutive": "warn", "minPerOrder": 2, "tables": "bySeat"}"#)
        #expect(hall.rules.noOrphans == .enforce && hall.rules.allowUnavoidable && hall.rules.consecutive == .warn)
        #expect(hall.rules.minPerOrder == 2 && hall.rules.tables == .bySeat && hall.maxSelectCount == 8)
        let again = try HallFormat.decode(HallFormat.encodeText(hall))
        #expect(again == hall, "the rules survive writing and reading")
        #expect(HallFormat.encodeText(try row("..")).contains("\"rules\"") == false, "default rules are not written")
        #expect(HallFormat.encodeText(hall).contains(#""minPerOrder": 2"#))
        // Problems name the member.
        for (rules, path, words) in [
            (#"{"noOrphans": "always"}"#, "rules.noOrphans", #"expected "off", "warn" or "enforce""#),
            (#"{"minPerOrder": 0}"#, "rules.minPerOrder", "a whole number from 1"),
            (#"{"minPerOrder": 9}"#, "rules.minPerOrder", "over the maximum (maxSelectCount 8)"),
            (#"{"tables": "whole"}"#, "rules.tables", #""byTable", "bySeat" or "either""#),
            (#"{"maxSelectCount": 3}"#, "rules.maxSelectCount", "unknown rule"),
            (#"{"orphans": "off"}"#, "rules.orphans", "unknown rule (known: noOrphans, allowUnavoidable, consecutive, minPerOrder, tables)"),
        ] {
            let e = try #require(throws: SeatMapError.self) { try ruledRow("....", rules: rules) }
            #expect(e.diagnostics.contains { $0.path == path && $0.message.contains(words) }, "\(rules): \(e.diagnostics)")
        }
    }

    @Test("no single empty seat: warn reports, enforce is enforced, off is silent; an unavoidable one is allowed on request")
    func noOrphans() throws {
        // Picking seats 2-3 of six leaves seat 1 alone: avoidable (1-2 would not).
        for (check, expected) in [("off", 0), ("warn", 1), ("enforce", 1)] {
            let hall = try ruledRow("......", rules: #"{"noOrphans": "\#(check)"}"#)
            let breaks = hall.rules.breaks(Selection(ids: ["1-1-2", "1-1-3"], in: hall), in: hall)
            #expect(breaks.count == expected, "\(check)")
            #expect(breaks.allSatisfy { $0.rule == .noOrphans && $0.seats == ["1-1-1"] && $0.enforced == (check == "enforce") })
        }
        // Three free seats between sold ones, a buyer of two: one is left alone whatever they pick.
        let gap = try ruledRow("S...S..", rules: #"{"noOrphans": "enforce", "allowUnavoidable": true}"#)
        #expect(gap.rules.breaks(Selection(ids: ["1-1-2", "1-1-3"], in: gap), in: gap).isEmpty, "unavoidable: allowed")
        // Seats 6-7 of the same hall: the two-seat gap 6–7 is taken whole, no orphan.
        #expect(gap.rules.breaks(Selection(ids: ["1-1-6", "1-1-7"], in: gap), in: gap).isEmpty)
        // Two of a four-seat gap taken from its middle leaves two orphans that could have been avoided.
        let wide = try ruledRow("S....S", rules: #"{"noOrphans": "enforce", "allowUnavoidable": true}"#)
        let b = wide.rules.breaks(Selection(ids: ["1-1-3", "1-1-4"], in: wide), in: wide)
        #expect(b.map(\.seats) == [["1-1-2", "1-1-5"]])
        // Without allowUnavoidable, the unavoidable one is a break too.
        let strict = try ruledRow("S...S", rules: #"{"noOrphans": "enforce"}"#)
        #expect(strict.rules.breaks(Selection(ids: ["1-1-2", "1-1-3"], in: strict), in: strict).map(\.seats) == [["1-1-4"]])
        // reportOrphans false hides a warning but never an enforced rule.
        let warned = try ruledRow("......", rules: #"{"noOrphans": "warn"}"#)
        #expect(warned.rules.breaks(Selection(ids: ["1-1-2"], in: warned), in: warned, reportOrphans: false).isEmpty)
        #expect(!strict.rules.breaks(Selection(ids: ["1-1-2", "1-1-3"], in: strict), in: strict, reportOrphans: false).isEmpty)
    }

    @Test("consecutive seats: a gap or an aisle inside one row's selection breaks it; two rows do not")
    func consecutive() throws {
        let hall = try ruledRow("...._...", rules: #"{"consecutive": "enforce", "noOrphans": "off"}"#)
        func breaks(_ ids: [SeatID]) -> [RuleBreak] { hall.rules.breaks(Selection(ids: ids, in: hall), in: hall) }
        #expect(breaks(["1-1-1", "1-1-2", "1-1-3"]).isEmpty)
        #expect(breaks(["1-1-1", "1-1-3"]) == [RuleBreak(rule: .consecutive, seats: ["1-1-1", "1-1-3"], enforced: true)])
        #expect(breaks(["1-1-4", "1-1-6"]).map(\.rule) == [.consecutive], "an aisle between them")
        let two = try HallFormat.decode(#"{"maxSelectCount": 6, "rules": {"consecutive": "enforce", "noOrphans": "off"}, "rows": [{"row": 1, "price": 10, "count": 4}, {"row": 2, "price": 10, "count": 4}]}"#)
        #expect(two.rules.breaks(Selection(ids: ["1-1-2", "1-1-3", "1-2-2", "1-2-3"], in: two), in: two).isEmpty, "two blocks in two rows")
    }

    @Test("minimum per order: fewer seats and places than it is an enforced break; an empty selection breaks nothing")
    func minimum() throws {
        let hall = try ruledRow("......", rules: #"{"minPerOrder": 3, "noOrphans": "off"}"#)
        #expect(hall.rules.breaks(Selection(ids: ["1-1-1", "1-1-2"], in: hall), in: hall)
                == [RuleBreak(rule: .minPerOrder, seats: ["1-1-1", "1-1-2"], limit: 3, enforced: true)])
        #expect(hall.rules.breaks(Selection(ids: ["1-1-1", "1-1-2", "1-1-3"], in: hall), in: hall).isEmpty)
        #expect(hall.rules.breaks(Selection(), in: hall).isEmpty)
    }

    @Test("tables by table, by seat or either: one seat takes the table, itself, or itself with table:ID for the whole")
    func tables() throws {
        let gala = try Fixtures.example("gala.json")
        #expect(gala.rules.tables == .either)
        var s = Selection()
        #expect(s.toggle("1-1-1", in: gala) == .selected && s.ids == ["1-1-1"], "either: a seat alone")
        #expect(s.toggle(named: "table:T3", in: gala) == .reachLimit, "1 + 8 seats pass maxSelectCount 8")
        #expect(s.toggle("1-1-1", in: gala) == .deselected)
        #expect(s.toggle(named: "table:T3", in: gala) == .selected && s.count == 8, "the whole table T3")
        #expect(s.toggle(named: "table:T3", in: gala) == .deselected && s.isEmpty)
        #expect(s.toggle(named: "table:T2", in: gala) == .notAvailable, "T2 has sold seats")
        #expect(s.toggle(named: "table:T99", in: gala) == .noSuchSeat)
        var byTable = gala
        var rules = gala.rules
        rules.tables = .byTable
        byTable.setRules(rules)
        var t = Selection()
        #expect(t.toggle("1-1-1", in: byTable) == .selected && t.count == 8, "byTable: one seat selects all eight")
        #expect(t.toggle("1-3-4", in: byTable) == .reachLimit, "a second table passes maxSelectCount 8")
        rules.tables = .bySeat
        byTable.setRules(rules)
        var u = Selection()
        #expect(u.toggle("1-1-1", in: byTable) == .selected && u.count == 1)
        #expect(byTable.members(of: "1-1-1") == ["1-1-1"] && gala.members(of: "1-1-1") == ["1-1-1"])
    }

    @Test("standing areas: at most maxPerOrder places (reachLimit), fewer than minPerOrder is an enforced break; both checked")
    func standing() throws {
        let gala = try Fixtures.example("gala.json")
        var s = Selection()
        #expect(s.setQuantity(7, ofArea: "bar", in: gala) == .reachLimit, "maxPerOrder 6")
        #expect(s.setQuantity(1, ofArea: "bar", in: gala) == .selected)
        #expect(gala.rules.breaks(s, in: gala).map(\.rule) == [.minPerOrder, .areaMinimum], "1 place: under 2 per order and under the bar's 2")
        #expect(s.setQuantity(6, ofArea: "bar", in: gala) == .selected)
        #expect(gala.rules.breaks(s, in: gala).isEmpty)
        for (member, value, words) in [("minPerOrder", "0", "minPerOrder 0 is less than 1"), ("minPerOrder", "61", "minPerOrder 61 is more than 60")] {
            let text = #"{"rows": [], "areas": [{"id": "bar", "shape": "rect", "x": 0, "y": 0, "w": 9, "h": 9, "capacity": 60, "price": 5, "\#(member)": \#(value)}]}"#
            let e = try #require(throws: SeatMapError.self) { try HallFormat.decode(text) }
            #expect(e.diagnostics.contains { $0.path == "areas[0].\(member)" && $0.message.contains(words) }, "\(e.diagnostics)")
        }
        let under = #"{"rows": [], "areas": [{"id": "bar", "shape": "rect", "x": 0, "y": 0, "w": 9, "h": 9, "capacity": 60, "price": 5, "minPerOrder": 4, "maxPerOrder": 3}]}"#
        let e = try #require(throws: SeatMapError.self) { try HallFormat.decode(under) }
        #expect(e.diagnostics.contains { $0.path == "areas[0].maxPerOrder" && $0.message.contains("maxPerOrder 3 is less than 4") })
        let seated = #"{"rows": [], "areas": [{"id": "stage", "shape": "rect", "x": 0, "y": 0, "w": 9, "h": 9, "maxPerOrder": 3}]}"#
        let f = try #require(throws: SeatMapError.self) { try HallFormat.decode(seated) }
        #expect(f.diagnostics.contains { $0.path == "areas[0].maxPerOrder" && $0.message.contains("needs a \"capacity\"") })
    }

    @Test("ticket types: one per seat, the first by default; totals, descriptions and the legend's price range use them")
    func ticketTypes() throws {
        let gala = try Fixtures.example("gala.json")
        var s = Selection(ids: ["1-1-1", "1-1-2", "1-5-1"], in: gala)
        #expect(s.total(in: gala).plainText == "330", "Adult by default: 120 + 120 + 90")
        #expect(s.setTicketType("Child", of: "1-1-2", in: gala) == .selected)
        #expect(s.setTicketType("Child", of: "1-5-1", in: gala) == .selected)
        #expect(s.total(in: gala).plainText == "225", "120 + 60 + 45")
        #expect(s.descriptions(in: gala, locale: try SeatMapLocale.named("en"))
                == ["Row T1, Seat 1 (Adult)", "Row T1, Seat 2 (Child)", "Row T5, Seat 1 (Child)"])
        #expect(s.setTicketType("Senior", of: "1-1-1", in: gala) == .noSuchType)
        #expect(s.setTicketType("Child", of: "1-1-3", in: gala) == .notSelected)
        #expect(s.setTicketType("Child", of: "9-9-9", in: gala) == .noSuchSeat)
        #expect(s.setTicketType("Adult", of: "1-1-2", in: gala) == .selected && s.ticketTypes["1-1-2"] == nil, "the default is not stored")
        #expect(s.toggle("1-5-1", in: gala) == .deselected && s.ticketTypes.isEmpty, "a deselected seat forgets its type")
        // A seat's price without a type chosen is its category's first type's.
        #expect(gala.cell(id: "1-5-1")?.price == 90)
        let tiers = PriceTiers(gala)
        #expect(tiers.ranges.compactMap { $0 }.map { "\($0.lowerBound)-\($0.upperBound)" }.sorted() == ["45-90", "60-120"])
        // A category with types and a price of its own, or a type named twice, is refused.
        let both = #"{"categories": [{"name": "A", "price": 5, "ticketTypes": [{"name": "Adult", "price": 5}]}], "rows": [{"row": 1, "seats": [{"column": 1, "status": 0, "category": "A"}]}]}"#
        let e = try #require(throws: SeatMapError.self) { try HallFormat.decode(both) }
        #expect(e.diagnostics.contains { $0.path == "categories[0].price" && $0.message.contains("has ticket types") })
        let twice = #"{"categories": [{"name": "A", "ticketTypes": [{"name": "Adult", "price": 5}, {"name": "Adult", "price": 3}]}], "rows": [{"row": 1, "seats": [{"column": 1, "status": 0, "category": "A"}]}]}"#
        let f = try #require(throws: SeatMapError.self) { try HallFormat.decode(twice) }
        #expect(f.diagnostics.contains { $0.path == "categories[0].ticketTypes[1].name" && $0.message.contains("listed twice") }, "\(f.diagnostics)")
    }

    @Test("best available passes over a step whose seats break an enforced rule")
    func recommenderKeepsEnforcedRules() throws {
        // Row 1: three free seats between sold ones (any two of them leave one alone); row 2: sold out.
        let text = #"{"maxSelectCount": 4, "rules": {"noOrphans": "enforce"}, "rows": [{"row": 1, "price": 10, "seats": [{"column": 1, "status": 2}, {"column": 2, "status": 0}, {"column": 3, "status": 0}, {"column": 4, "status": 0}, {"column": 5, "status": 2}]}, {"row": 2, "price": 10, "seats": [{"column": 1, "status": 2}, {"column": 2, "status": 2}, {"column": 3, "status": 2}]}]}"#
        let hall = try HallFormat.decode(text)
        // Every two seats of row 1 leave an orphan: no step answers.
        let e = try #require(throws: Recommender.Failure.self) { try Recommender.best(.init(count: 2), in: hall) }
        #expect(e.message.contains("break the hall's enforced sales rules (noOrphans"), "\(e.message)")
        // Warned only, the orphan step answers as before.
        let warned = try HallFormat.decode(text.replacingOccurrences(of: "\"enforce\"", with: "\"warn\""))
        #expect(try Recommender.best(.init(count: 2), in: warned).fallback == .orphan)
        // Three seats fill the gap: no orphan, allowed.
        #expect(try Recommender.best(.init(count: 3), in: hall).seats == ["1-1-2", "1-1-3", "1-1-4"])
    }
}

@Suite("Shows: rules, ticket types and channels in the inventory")
struct ShowRulesInventoryTests {
    static let t0 = Date(timeIntervalSince1970: 2_000_000_000)

    @Test("an order is refused while its holds break an enforced rule, naming it; kept rules sell")
    func orderEnforces() throws {
        let gala = try Fixtures.example("gala.json")
        var inv = ShowInventory(show: "S", hallName: "gala", plan: gala)
        var rules = gala.rules
        rules.consecutive = .enforce
        inv.rules = rules
        let token = inv.issueToken(now: Self.t0, ttl: 60)
        _ = try inv.select(token: token, toggles: ["1-1-1", "1-1-3"], areas: [], plan: gala, now: Self.t0, ttl: 60)
        guard case .failure(.rulesBroken(let breaks)) = inv.order(id: "o", token: token, plan: gala, now: Self.t0) else {
            Issue.record("sold seats that are not side by side")
            return
        }
        #expect(breaks.map(\.rule) == [.consecutive] && breaks[0].seats == ["1-1-1", "1-1-3"])
        #expect(inv.heldSeats(of: token) == ["1-1-1", "1-1-3"], "nothing sold, the holds stay")
        _ = try inv.select(token: token, toggles: ["1-1-3", "1-1-2"], areas: [], types: [("1-1-2", "Child")], plan: gala, now: Self.t0, ttl: 60)
        guard case .success(let (order, _)) = inv.order(id: "o", token: token, plan: gala, now: Self.t0) else {
            Issue.record("refused a selection that keeps the rules")
            return
        }
        #expect(order.seats == ["1-1-1", "1-1-2"] && order.ticketTypes == ["1-1-2": "Child"])
        // The minimum per order (2) is enforced without any override.
        let one = inv.issueToken(now: Self.t0, ttl: 60)
        _ = try inv.select(token: one, toggles: ["1-5-1"], areas: [], plan: gala, now: Self.t0, ttl: 60)
        guard case .failure(.rulesBroken(let b)) = inv.order(id: "p", token: one, plan: gala, now: Self.t0) else {
            Issue.record("sold one seat under a minimum of two")
            return
        }
        #expect(b.map(\.rule) == [.minPerOrder])
    }

    @Test("order refuses an orphan when noOrphans is enforced, and sells an unavoidable one when allowUnavoidable says so")
    func orderOrphans() throws {
        for allow in [false, true] {
            // Seats 2–4 free between sold ones: two of them leave one alone, whichever two.
            let hall = try ruledRow("S...S....", rules: #"{"noOrphans": "enforce", "allowUnavoidable": \#(allow)}"#)
            var inv = ShowInventory(show: "S", hallName: "h", plan: hall)
            let token = inv.issueToken(now: Self.t0, ttl: 60)
            _ = try inv.select(token: token, toggles: ["1-1-2", "1-1-3"], areas: [], plan: hall, now: Self.t0, ttl: 60)
            let result = inv.order(id: "o", token: token, plan: hall, now: Self.t0)
            if allow {
                guard case .success = result else { Issue.record("refused an unavoidable orphan: \(result)"); continue }
            } else {
                guard case .failure(.rulesBroken(let b)) = result else { Issue.record("sold an orphan under an enforced rule"); continue }
                #expect(b == [RuleBreak(rule: .noOrphans, seats: ["1-1-4"], enforced: true)])
            }
            // Seats 7–8 of the four free 6–9 leave 6 and 9 alone, where 6–7 would not: refused either way.
            let other = inv.issueToken(now: Self.t0, ttl: 60)
            _ = try inv.select(token: other, toggles: ["1-1-7", "1-1-8"], areas: [], plan: hall, now: Self.t0, ttl: 60)
            guard case .failure(.rulesBroken(let b)) = inv.order(id: "p", token: other, plan: hall, now: Self.t0) else {
                Issue.record("sold avoidable orphans (allowUnavoidable \(allow))")
                continue
            }
            #expect(b.map(\.seats) == [["1-1-6", "1-1-9"]])
        }
    }

    @Test("channel seats are locked to the public and to other channels, available to the channel's tokens, released in one go")
    func channels() throws {
        let gala = try Fixtures.example("gala.json")
        var inv = ShowInventory(show: "S", hallName: "gala", plan: gala)
        #expect(inv.reserve(["1-4-1", "1-4-2", "1-2-1"], for: "sponsors", plan: gala) == ["1-2-1"], "a sold seat is not reserved")
        #expect(inv.channels.isEmpty, "all or nothing")
        #expect(inv.reserve(["1-4-1", "1-4-2"], for: "sponsors", plan: gala).isEmpty)
        let public_ = inv.issueToken(now: Self.t0, ttl: 60)
        let press = inv.issueToken(now: Self.t0, ttl: 60, channel: "press")
        let sponsor = inv.issueToken(now: Self.t0, ttl: 60, channel: "sponsors")
        for token in [public_, press] {
            let a = try inv.select(token: token, toggles: ["1-4-1"], areas: [], plan: gala, now: Self.t0, ttl: 60)
            #expect(a.results.map(\.1) == [.notAvailable])
            #expect(inv.hall(gala, for: token).cell(id: "1-4-1")?.seat.status == .locked)
        }
        #expect(inv.statusWords(gala, for: nil).first { $0.0 == "1-4-1" }?.1 == "locked")
        let s = try inv.select(token: sponsor, toggles: ["1-4-1", "1-4-2"], areas: [], plan: gala, now: Self.t0, ttl: 60)
        #expect(s.results.map(\.1) == [.selected, .selected])
        #expect(inv.statusWords(gala, for: sponsor).filter { $0.0 == "1-4-1" || $0.0 == "1-4-2" }.map(\.1) == ["selected", "selected"])
        #expect(inv.releaseChannel("sponsors") == ["1-4-1", "1-4-2"])
        #expect(inv.channels.isEmpty)
        // Released, the seats the sponsor holds stay its own; they are no longer reserved.
        #expect(inv.holder(of: "1-4-1") == sponsor && inv.hall(gala, for: nil).cell(id: "1-4-3")?.seat.status == .available)
        // A status batch's hall sees reserved seats as available (they are not locked for sale).
        _ = inv.reserve(["1-4-5"], for: "press", plan: gala)
        #expect(inv.statusHall(gala).cell(id: "1-4-5")?.seat.status == .available)
    }
}
