import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

/// A one-row hall from a compact picture: `.` available, `L` locked,
/// `S` sold, `_` aisle, ` ` empty floor, `(` `)` an available couple pair.
func row(_ picture: String, max: Int = 4, price: String = "10") throws -> Hall {
    var seats: [String] = []
    for (i, ch) in picture.enumerated() {
        let c = i + 1
        switch ch {
        case ".": seats.append(#"{"column":\#(c),"status":0}"#)
        case "L": seats.append(#"{"column":\#(c),"status":1}"#)
        case "S": seats.append(#"{"column":\#(c),"status":2}"#)
        case "_": seats.append(#"{"column":\#(c),"status":3}"#)
        case "(": seats.append(#"{"column":\#(c),"status":0,"type":"coupleLeft"}"#)
        case ")": seats.append(#"{"column":\#(c),"status":0,"type":"coupleRight"}"#)
        default: break
        }
    }
    return try HallFormat.decode(#"{"maxSelectCount":\#(max),"rows":[{"row":1,"price":\#(price),"seats":[\#(seats.joined(separator: ","))]}]}"#)
}

@Suite("Selection")
struct SelectionTests {
    @Test("toggling gives selected, deselected, notAvailable, noSuchSeat and reachLimit")
    func results() throws {
        let hall = try row("..LS_...", max: 2)
        var s = Selection()
        #expect(s.toggle("1-1-1", in: hall) == .selected)
        #expect(s.toggle("1-1-3", in: hall) == .notAvailable, "locked")
        #expect(s.toggle("1-1-4", in: hall) == .notAvailable, "sold")
        #expect(s.toggle("1-1-5", in: hall) == .notAvailable, "aisle")
        #expect(s.toggle("1-9-9", in: hall) == .noSuchSeat)
        #expect(s.toggle(row: 1, column: 2, in: hall) == .selected)
        #expect(s.toggle("1-1-6", in: hall) == .reachLimit)
        #expect(s.toggle("1-1-1", in: hall) == .deselected)
        #expect(s.ids == ["1-1-2"])
    }

    @Test("couple halves are selected and deselected together and count as two")
    func couples() throws {
        let hall = try row(".().", max: 3)
        var s = Selection()
        #expect(s.toggle("1-1-3", in: hall) == .selected)
        #expect(s.ids == ["1-1-2", "1-1-3"])
        #expect(s.toggle("1-1-1", in: hall) == .selected)
        #expect(s.toggle("1-1-4", in: hall) == .reachLimit, "the pair counts as two")
        #expect(s.toggle("1-1-2", in: hall) == .deselected)
        #expect(s.ids == ["1-1-1"])
    }

    @Test("totals are exact decimals and descriptions sorted by row then column with display labels")
    func totals() throws {
        let hall = try Fixtures.example("labels-rtl.json")
        var s = Selection()
        for id: SeatID in ["1-4-3", "1-3-12", "1-3-11"] { _ = s.toggle(id, in: hall) }
        #expect(s.total(in: hall) == Decimal(string: "121.5"))
        #expect(s.descriptions(in: hall) == ["C排4座", "C排3座", "D排11座"], "grid order, display labels")
        #expect(s.descriptions(in: hall, locale: try SeatMapLocale.named("en")) == ["Row C, Seat 4", "Row C, Seat 3", "Row D, Seat 11"])
        #expect(s.descriptions(in: hall, locale: try SeatMapLocale.named("de-AT")) == ["Reihe C, Platz 4", "Reihe C, Platz 3", "Reihe D, Platz 11"])
        let cheap = try row("...", price: "28.88")
        var t = Selection()
        for id: SeatID in ["1-1-1", "1-1-2", "1-1-3"] { _ = t.toggle(id, in: cheap) }
        #expect(t.total(in: cheap) == Decimal(string: "86.64"))
    }
}

@Suite("No single empty seat")
struct SingleSeatTests {
    /// (picture, selected columns, expected violating columns)
    static let cases: [(String, [Int], [Int])] = [
        (".....", [2], [1]),          // leaves seat 1 alone against the row's end
        (".....", [1], []),
        (".....", [2, 4], [1, 3, 5]),
        ("S....", [3], [2]),          // between sold and selected
        ("._...", [3], []),           // seat 1 was already alone before the selection
        (".._..", [1], [2]),          // against an aisle
        (".. ..", [4], [5]),          // against empty floor
        ("L.L..", [], []),            // already isolated: not the buyer's fault
        ("()...", [3], []),           // the couple pair is not a single seat
    ]

    @Test("violations are the seats the selection leaves alone", arguments: 0..<cases.count)
    func violations(_ k: Int) throws {
        let (picture, selected, expected) = SingleSeatTests.cases[k]
        let hall = try row(picture, max: 6)
        let ids = selected.map { SeatID(section: 1, row: 1, column: $0) }
        #expect(SingleSeatRule.violations(selected: Set(ids), in: hall) == expected.map { SeatID(section: 1, row: 1, column: $0) },
                "\(picture) with \(selected)")
    }
}

@Suite("Recommended seats")
struct RecommendTests {
    @Test("a recommendation is adjacent, available, in one row, and leaves no single seat", arguments: Fixtures.exampleNames)
    func valid(name: String) throws {
        let hall = try Fixtures.example(name)
        for count in 1...hall.maxSelectCount {
            guard let ids = Recommender.recommend(count: count, in: hall) else { continue }
            let cells = ids.compactMap { hall.cell(id: $0) }
            #expect(cells.count == count)
            #expect(Set(cells.map(\.row.number)).count == 1)
            #expect(cells.allSatisfy { $0.seat.status == .available })
            #expect(zip(cells, cells.dropFirst()).allSatisfy { $1.seat.column == $0.seat.column + 1 })
            #expect(SingleSeatRule.violations(selected: Set(ids), in: hall).isEmpty)
            #expect(cells.filter { $0.seat.type.isCoupleHalf }.allSatisfy { c in c.partnerID.map(ids.contains) == true })
        }
    }

    @Test("no block beats the recommendation's score (brute force over every block)")
    func optimal() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let centre = Double(hall.gridColumns + 1) / 2, sweet = 1 + Double(hall.gridRows - 1) * 2 / 3
        func score(_ ids: [SeatID]) -> Double {
            let cells = ids.compactMap { hall.cell(id: $0) }
            let dx = Double(cells[0].seat.column + cells[cells.count - 1].seat.column) / 2 - centre
            let dy = Double(cells[0].row.number) - sweet
            return dx * dx + dy * dy
        }
        for count in 1...4 {
            let best = try #require(Recommender.recommend(count: count, in: hall))
            for r in hall.rows {
                for c in 1...hall.gridColumns {
                    let ids = (c..<(c + count)).map { SeatID(section: r.section, row: r.number, column: $0) }
                    let cells = ids.compactMap { hall.cell(id: $0) }
                    guard cells.count == count, cells.allSatisfy({ $0.seat.status == .available }),
                          cells.filter({ $0.seat.type.isCoupleHalf }).allSatisfy({ $0.partnerID.map(ids.contains) == true }),
                          SingleSeatRule.violations(selected: Set(ids), in: hall).isEmpty else { continue }
                    #expect(score(ids) >= score(best), "\(ids) beats \(best)")
                }
            }
        }
    }

    @Test("nothing when no block fits, and couples only as whole pairs")
    func impossible() throws {
        #expect(Recommender.recommend(count: 3, in: try row("..S..")) == nil)
        #expect(Recommender.recommend(count: 1, in: try row("()")) == nil)
        #expect(Recommender.recommend(count: 2, in: try row("()")) == ["1-1-1", "1-1-2"])
        #expect(Recommender.recommend(count: 5, in: try row(".....")) == nil, "over maxSelectCount")
    }
}

@Suite("Live status updates")
struct StatusUpdateTests {
    func batch(_ id: String, _ seq: Int, _ changes: [(String, SeatStatus)]) -> StatusBatch {
        StatusBatch(batchId: id, sequence: seq, changes: changes.map { StatusBatch.Change(id: $0.0, status: $0.1) })
    }

    @Test("a batch applies; seats that became unavailable leave the selection with a message")
    func applies() throws {
        let hall = try Fixtures.example("seed.json")
        var sync = StatusSync(hall: hall)
        var selection = Selection(ids: ["1-2-2", "1-2-3"], in: hall)
        let outcome = try sync.apply(batch("b1", 1, [("1-2-2", .sold), ("1-1-1", .locked)]), selection: &selection)
        #expect(outcome == .applied(changed: ["1-1-1", "1-2-2"], dropped: ["2排2座刚刚售出"]))
        #expect(selection.ids == ["1-2-3"])
        // The message is in the sync's locale.
        var english = StatusSync(hall: hall, locale: try SeatMapLocale.named("en"))
        var again = Selection(ids: ["1-2-2", "1-2-3"], in: hall)
        #expect(try english.apply(batch("b1", 1, [("1-2-2", .sold)]), selection: &again) == .applied(changed: ["1-2-2"], dropped: ["Row 2, Seat 2 was just sold"]))
        #expect(sync.hall.cell(id: "1-2-2")?.seat.status == .sold)
    }

    @Test("an unknown seat rejects the whole batch and leaves the hall unchanged")
    func allOrNothing() throws {
        let hall = try Fixtures.example("seed.json")
        var sync = StatusSync(hall: hall)
        var selection = Selection()
        #expect(throws: SeatMapError.self) {
            try sync.apply(batch("b1", 1, [("1-2-2", .sold), ("9-9-9", .sold)]), selection: &selection)
        }
        #expect(sync.hall == hall)
        #expect(throws: SeatMapError.self) {
            try sync.apply(batch("b2", 2, [("1-1-2", .sold)]), selection: &selection)
        }
        #expect(sync.hall == hall, "an aisle cannot be updated")
    }

    @Test("a repeated batch id is a no-op; a stale sequence is ignored")
    func idempotent() throws {
        var sync = StatusSync(hall: try Fixtures.example("seed.json"))
        var selection = Selection()
        _ = try sync.apply(batch("b1", 5, [("1-2-2", .locked)]), selection: &selection)
        let after = sync.hall
        #expect(try sync.apply(batch("b1", 6, [("1-2-3", .sold)]), selection: &selection) == .duplicate)
        #expect(try sync.apply(batch("b0", 5, [("1-2-3", .sold)]), selection: &selection) == .stale(last: 5))
        #expect(sync.hall == after)
    }

    @Test("batch files: an invalid status is refused with its path")
    func decoding() throws {
        let json = #"[{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":3}]}]"#
        #expect {
            try StatusBatch.decode(SourceText(name: "u.json", bytes: Array(json.utf8)))
        } throws: { error in
            "\(error)".contains("[0].changes[0].status: invalid status 3 for an update")
        }
    }
}

