import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

func maoyan(_ name: String) throws -> SourceText {
    let url = Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/\(name)")
    return SourceText(name: name, bytes: [UInt8](try Data(contentsOf: url)))
}

func importText(_ json: String, prices: MaoyanImporter.Prices? = .all(10), lenient: Bool = false) throws(SeatMapError) -> MaoyanImporter.Imported {
    try MaoyanImporter.importHall(SourceText(name: "p.json", bytes: Array(json.utf8)), prices: prices, lenient: lenient)
}

/// Counts `st` codes in a payload by plain text search, independently of the importer.
func countCodes(_ source: SourceText) -> [String: Int] {
    let text = String(decoding: source.bytes, as: UTF8.self)
    var out: [String: Int] = [:]
    for code in ["N", "LK", "L", "R", "E", "X"] {
        out[code] = text.components(separatedBy: "\"st\": \"\(code)\"").count - 1
    }
    return out
}

@Suite("Maoyan import")
struct MaoyanTests {
    @Test("camelCase: labels, empties, aisles between seats, couples")
    func camel() throws {
        let hall = try MaoyanImporter.importHall(try maoyan("camel.json"), prices: .all(45)).hall
        #expect(hall.hallName == "普通区")
        let a = try #require(hall.rows.first)
        #expect(a.label == "A")
        #expect(a.seats.map(\.column) == [1, 2, 3, 4, 5])
        #expect(a.seats.map(\.kind) == [.seat(.available), .seat(.sold), .aisle, .seat(.available), .seat(.available)])
        #expect(a.seats.map(\.type) == [.standard, .standard, .standard, .coupleLeft, .coupleRight])
        #expect(a.seats[0].label == "01", "zero-padded labels stay text")
        let b = try #require(hall.cell(row: 2, column: 2))
        #expect(hall.describe(b) == "B排1座")
        #expect(hall.cell(row: 2, column: 1) == nil, "a null cell at a row's start is dropped")
    }

    @Test("a cell's seatNo is its seat's external id, and names the seat; an empty one is none")
    func seatNumbers() throws {
        let hall = try MaoyanImporter.importHall(try maoyan("camel.json"), prices: .all(45)).hall
        let first = try #require(hall.rows.first?.seats.first)
        #expect(first.externalID == "x#01#01")
        let id = try #require(hall.seatID(named: "x#01#01"))
        #expect(id.row == hall.rows[0].number && id.column == first.column)
        let text = String(decoding: try maoyan("camel.json").bytes, as: UTF8.self)
        let written = text.components(separatedBy: "\"seatNo\": \"").dropFirst().filter { !$0.hasPrefix("\"") }.count
        let kept = hall.rows.flatMap(\.seats).filter { $0.externalID != nil }.count
        #expect(written > 0 && kept > 0 && kept <= written, "\(kept) of \(written) seatNos kept")
    }

    @Test("snake_case under data: hall name, centre-out and right-to-left labels, trailing empties dropped")
    func snake() throws {
        let source = try maoyan("snake.json")
        let hall = try MaoyanImporter.importHall(source, prices: .all(Decimal(string: "39.9") ?? 0)).hall
        #expect(hall.hallName == "2号厅")
        #expect(hall.rows.map(\.number) == [1, 2, 4])
        #expect(hall.rows[0].seats.map(\.label) == ["7", "5", "3", "1", "2", "4", "6"], "centre-out")
        #expect(hall.rows[0].seats.first?.column == 2, "a leading empty cell keeps its place but is not an aisle")
        #expect(hall.rows[0].seats.last?.column == 8, "trailing empties are dropped")
        #expect(hall.rows[1].seats.map(\.label).prefix(3) == ["09", "08", "07"], "right to left")
        #expect(hall.cell(row: 2, column: 4)?.seat.kind == .aisle)
        #expect(hall.cell(row: 4, column: 2)?.partnerID == "1-4-3")
        // The counts match the payload.
        let codes = countCodes(source)
        let s = HallSummary(hall)
        #expect(s.available == (codes["N"] ?? 0) + (codes["L"] ?? 0) + (codes["R"] ?? 0))
        #expect(s.sold == codes["LK"])
        #expect(s.couplePairs == codes["L"])
        #expect(s.priceTiers.map { $0.price.plainText } == ["39.9"])
    }

    @Test("several sections become sections 1, 2 with their names and prices, stacked when rows collide")
    func sections() throws {
        let imported = try MaoyanImporter.importHall(try maoyan("sections.json"), prices: .bySection([1: 45, 2: 60]), lenient: true)
        let hall = imported.hall
        #expect(hall.sections.map(\.name) == ["前区", "后区"])
        #expect(hall.rows.map(\.number) == [1, 2, 4, 5])
        #expect(hall.rows.map(\.section) == [1, 1, 2, 2])
        #expect(hall.cell(id: "2-4-1")?.price == 60)
        // Both sections have a row 1: descriptions name the section.
        #expect(hall.cell(id: "2-4-1").map { hall.describe($0) } == "后区 1排1座")
        #expect(hall.cell(id: "1-1-1").map { hall.describe($0) } == "前区 1排1座")
        let en = try SeatMapLocale.named("en")
        #expect(hall.cell(id: "2-4-1").map { hall.describe($0, in: en) } == "后区, Row 1, Seat 1")
        #expect(hall.cell(id: "2-4-2")?.seat.status == .locked, "lenient: unknown code imported as locked")
        #expect(imported.warnings.map(\.path) == ["data.sections[1].seats[0].columns[1].st"])
    }

    @Test("the imported hall passes validation and round-trips", arguments: ["camel.json", "snake.json"])
    func valid(name: String) throws {
        let hall = try MaoyanImporter.importHall(try maoyan(name), prices: .all(30)).hall
        #expect(try HallFormat.decode(HallFormat.encodeText(hall)) == hall)
    }

    static let errors: [(String, String, String)] = [
        (#"{"sections":[{"sectionName":"x","seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"Q"}]}]}]}"#,
         "sections[0].seats[0].columns[0].st", "unknown seat code \"Q\""),
        (#"{"sections":[{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"L"},{"columnId":"2","st":"N"}]}]}]}"#,
         "sections[0].seats[0].columns[0].st", "coupleLeft at column 1 has no coupleRight partner at column 2"),
        (#"{"sections":[{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"N"},{"columnId":"2","st":"R"}]}]}]}"#,
         "sections[0].seats[0].columns[1].st", "coupleRight at column 2 has no coupleLeft partner at column 1"),
        (#"{"sections":[{"seats":{"rowNum":1}}]}"#, "sections[0].seats", "expected an array, found an object"),
        (#"{"sections":[{"seats":[{"rowId":"A","columns":[]}]}]}"#, "sections[0].seats[0]", "missing required field \"rowNum\""),
        (#"{"data":{"seats":[{"row_id":"1","row_num":"x","columns":[]}]}}"#, "data.seats[0].row_num", "expected a whole number, found a string"),
        (#"{"halls":[]}"#, "", "not a Maoyan seat payload"),
        (#"{"sections":[{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","seatNo":"a"}]}]}]}"#,
         "sections[0].seats[0].columns[0]", "missing required field \"st\""),
    ]

    @Test("malformed payloads give errors with their JSON path", arguments: 0..<errors.count)
    func malformed(_ k: Int) {
        let (json, path, message) = MaoyanTests.errors[k]
        do {
            _ = try importText(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.diagnostics.contains { $0.path == path && $0.message.hasPrefix(message) }, "\(error.message)")
        }
    }

    @Test("missing prices are an error that says what to give")
    func prices() throws {
        let json = #"{"sections":[{"seats":[{"rowId":"A","rowNum":1,"columns":[{"columnId":"1","st":"N"}]}]}]}"#
        #expect {
            try importText(json, prices: nil)
        } throws: { error in
            // The library's words; the CLI says the same with its flags.
            guard let e = error as? SeatMapError else { return false }
            return e.message.contains("give price P for all seats") && e.naming { "--" + $0 }.message.contains("give --price P")
        }
        #expect {
            try importText(json, prices: .bySection([2: 10]))
        } throws: { error in "\(error)".contains("no price for section 1") }
        #expect(MaoyanImporter.parsePrices("1=45,2=60.5") == .bySection([1: 45, 2: Decimal(string: "60.5") ?? 0]))
        #expect(MaoyanImporter.parsePrices("1=45,1=50") == nil)
        #expect(MaoyanImporter.parsePrices("a=1") == nil)
    }
}
