import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

@Suite("Seat ids")
struct SeatIDTests {
    @Test("an id is three whole numbers; its text form is the one way to write it")
    func parse() {
        let text = "2-13-5"
        let id = SeatID(text)
        #expect(id == SeatID(section: 2, row: 13, column: 5))
        #expect(id?.description == "2-13-5")
        for bad in ["", "1-3", "1-3-5-7", "a-3-5", "1--5", "01-3-5", "1-03-5", "1-3-005", "1-3-5 ", "-1-3-5", "1234567890-1-1"] {
            #expect(SeatID(bad) == nil, "\"\(bad)\" is not an id")
        }
        let zeros = "0-0-0"
        #expect(SeatID(zeros) == SeatID(section: 0, row: 0, column: 0), "a lone zero is a number, not a leading zero")
    }

    @Test("ids sort in grid order: row, then column")
    func order() {
        let ids: [SeatID] = ["1-2-1", "2-1-9", "1-1-10", "1-1-2"]
        #expect(ids.sorted() == ["1-1-2", "2-1-9", "1-1-10", "1-2-1"])
    }
}

@Suite("A hall is always valid")
struct HallModelTests {
    @Test("building a hall from parts reports every broken rule with the part's path")
    func invalidParts() {
        let rows = [
            Row(number: 1, price: 10, seats: [Seat(column: 1, status: .available), Seat(column: 1, status: .sold)]),
            Row(number: 2, price: -1, seats: [Seat(column: 3, status: .available, type: .coupleLeft), .aisle(column: 4)]),
            Row(number: 1, price: 10, seats: [Seat(column: 2001, status: .available)]),
        ]
        do {
            _ = try Hall(maxSelectCount: 0, rows: rows)
            Issue.record("an invalid hall was built")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "maxSelectCount: maxSelectCount 0 is less than 1",
                "rows[0].seats[1].column: two seats in one cell: column 1 is already used by rows[0].seats[0]",
                "rows[1].price: negative price -1",
                "rows[1].seats[0].type: coupleLeft at column 3 has no coupleRight partner at column 4",
                "rows[2].seats[0].column: column 2001 is more than 2000",
                "rows[2].row: row 1 appears twice (first at rows[0])",
            ])
        }
    }

    @Test("a hall from valid parts equals the same hall read from JSON; empty sections mean none declared")
    func validParts() throws {
        let read = try Fixtures.example("cinema-12x18.json")
        let built = try Hall(cinemaName: read.cinemaName, hallName: read.hallName, movieStartTime: read.movieStartTime,
                             maxSelectCount: read.maxSelectCount, screenLabel: read.screenLabel, sections: [], rows: read.rows.reversed())
        #expect(built == read, "rows are sorted by number whatever the order given")
        #expect(try HallFormat.decode(HallFormat.encodeText(built)) == built)
        let aisle = try #require(built.cells.first { !$0.seat.isSeat })
        #expect(aisle.seat.kind == .aisle && aisle.seat.status == nil && aisle.price == nil)
        var changed = built
        let set = changed.setStatus(.sold, of: aisle.id)
        #expect(!set, "an aisle has no sale status")
        #expect(changed == built)
    }
}
