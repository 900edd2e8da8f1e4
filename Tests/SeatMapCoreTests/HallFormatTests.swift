import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

@Suite("Hall JSON format")
struct HallFormatTests {
    @Test("the seed's sample decodes to the expected hall")
    func seedSample() throws {
        let hall = try Fixtures.example("seed.json")
        #expect(hall.cinemaName == "示例影城")
        #expect(hall.hallName == "3号厅")
        #expect(hall.movieStartTime == "2025-06-10 19:30")
        #expect(hall.maxSelectCount == 4)
        #expect(hall.screenLabel == "银幕中央")
        #expect(hall.rows.map(\.number) == [1, 2])
        #expect(hall.rows.map(\.price) == [45, 55])
        #expect(hall.rows[0].seats.map(\.kind) == [.seat(.available), .aisle, .seat(.available)])
        #expect(hall.rows[1].seats.map(\.kind) == [.seat(.locked), .seat(.available), .seat(.available)])
        let cell = try #require(hall.cell(id: "1-2-3"))
        #expect(hall.describe(cell) == "2排3座")
        #expect(cell.price == Decimal(55))
        #expect(hall.cell(id: "1-1-2")?.price == nil, "aisles have no price")
    }

    @Test("defaults apply where the optional extensions are absent")
    func defaults() throws {
        let hall = try HallFormat.decode(#"{"rows":[{"row":7,"price":30,"seats":[{"column":2,"status":0}]}]}"#)
        #expect(hall.maxSelectCount == 4)
        #expect(hall.screenLabel == "银幕中央")
        let cell = try #require(hall.cell(row: 7, column: 2))
        #expect(cell.id == "1-7-2")
        #expect(cell.row.label == "7" && cell.seat.label == "2")
        #expect(cell.seat.type == .standard)
    }

    @Test("prices stay exact decimals: three seats at 28.88 total 86.64")
    func exactPrices() throws {
        let hall = try HallFormat.decode(#"{"rows":[{"row":1,"price":28.88,"seats":[{"column":1,"status":0},{"column":2,"status":0},{"column":3,"status":0}]}]}"#)
        let total = hall.cells.compactMap(\.price).reduce(Decimal(0), +)
        #expect(total == Decimal(string: "86.64"))
        #expect(total.plainText == "86.64")
    }

    @Test("extensions: labels, sections, seat prices and types are read", arguments: ["imax-3-sections.json", "labels-rtl.json"])
    func extensions(name: String) throws {
        let hall = try Fixtures.example(name)
        if name.hasPrefix("imax") {
            #expect(hall.sections.map(\.name) == ["A区", "B区", "C区"])
            #expect(hall.screenLabel == "IMAX 银幕")
            #expect(hall.cell(id: "2-5-10")?.price == Decimal(128), "seat price overrides the row's")
            #expect(hall.cell(id: "3-14-1")?.seat.type == .wheelchair)
            #expect(hall.cell(row: 7, column: 1) == nil, "row 7 is a cross aisle")
        } else {
            #expect(hall.cell(id: "1-3-1").map { hall.describe($0) } == "C排13座", "seats are numbered right to left")
            #expect(hall.cell(id: "1-3-14").map { hall.describe($0) } == "C排1座")
            #expect(hall.cell(id: "1-1-1") == nil, "front rows are narrower")
        }
    }

    @Test("decode → encode → decode gives the same hall", arguments: Fixtures.exampleNames)
    func roundTrip(name: String) throws {
        let hall = try Fixtures.example(name)
        let text = HallFormat.encodeText(hall)
        let again = try HallFormat.decode(text)
        #expect(again == hall)
        #expect(HallFormat.encodeText(again) == text, "encoding is deterministic")
    }

    @Test("info counts what a person would count")
    func summary() throws {
        let s = HallSummary(try Fixtures.example("cinema-12x18.json"))
        #expect(s.gridRows == 12 && s.gridColumns == 19)
        #expect(s.aisles == 12)
        #expect(s.couplePairs == 8)
        #expect(s.seats == s.available + s.locked + s.sold)
        #expect(s.seats == 11 * 18 + 16)
        #expect(s.priceTiers.map(\.price) == [35, 45, 99])
        #expect(s.priceTiers.map(\.seats).reduce(0, +) == s.seats)
    }
}
