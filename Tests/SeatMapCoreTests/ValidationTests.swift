import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

/// One bad input and the problem it must be reported as.
struct BadInput: CustomTestStringConvertible, Sendable {
    var name: String
    var json: String
    var path: String
    var message: String
    var testDescription: String { name }
}

private let seat = #"{"column":1,"status":0}"#

private let badInputs: [BadInput] = [
    BadInput(name: "malformed JSON", json: "{\"rows\": [\n  {\"row\": 1,, }]}", path: "", message: "malformed JSON: unexpected ','"),
    BadInput(name: "truncated JSON", json: #"{"rows": ["#, path: "", message: "malformed JSON: unexpected end of input"),
    BadInput(name: "missing rows", json: #"{"hallName":"x"}"#, path: "rows", message: "missing required field \"rows\""),
    BadInput(name: "missing row", json: #"{"rows":[{"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0]", message: "missing required field \"row\""),
    BadInput(name: "missing price", json: #"{"rows":[{"row":1,"seats":[\#(seat)]}]}"#, path: "rows[0]", message: "missing required field \"price\""),
    BadInput(name: "missing column", json: #"{"rows":[{"row":1,"price":1,"seats":[{"status":0}]}]}"#, path: "rows[0].seats[0]", message: "missing required field \"column\""),
    BadInput(name: "missing status", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":1}]}]}"#, path: "rows[0].seats[0]", message: "missing required field \"status\""),
    BadInput(name: "wrong type", json: #"{"rows":[{"row":"1","price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].row", message: "expected a whole number, found a string"),
    BadInput(name: "rows not an array", json: #"{"rows":{}}"#, path: "rows", message: "expected an array, found an object"),
    BadInput(name: "fractional column", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":1.5,"status":0}]}]}"#, path: "rows[0].seats[0].column", message: "expected a whole number, found 1.5"),
    BadInput(name: "unknown status", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat),{"column":2,"status":7}]}]}"#, path: "rows[0].seats[1].status", message: "unknown status 7 (expected 0 available, 1 locked, 2 sold, 3 aisle)"),
    BadInput(name: "row below 1", json: #"{"rows":[{"row":0,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].row", message: "row 0 is less than 1"),
    BadInput(name: "column below 1", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":-2,"status":0}]}]}"#, path: "rows[0].seats[0].column", message: "column -2 is less than 1"),
    BadInput(name: "duplicate row", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat)]},{"row":1,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[1].row", message: "row 1 appears twice (first at rows[0])"),
    BadInput(name: "two seats in one cell", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat),\#(seat)]}]}"#, path: "rows[0].seats[1].column", message: "two seats in one cell: column 1 is already used by rows[0].seats[0]"),
    BadInput(name: "couple left without partner", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0,"type":"coupleLeft"}]}]}"#, path: "rows[0].seats[0].type", message: "coupleLeft at column 1 has no coupleRight partner at column 2"),
    BadInput(name: "couple right without partner", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat),{"column":2,"status":0,"type":"coupleRight"}]}]}"#, path: "rows[0].seats[1].type", message: "coupleRight at column 2 has no coupleLeft partner at column 1"),
    BadInput(name: "negative price", json: #"{"rows":[{"row":1,"price":-5,"seats":[\#(seat)]}]}"#, path: "rows[0].price", message: "negative price -5"),
    BadInput(name: "negative seat price", json: #"{"rows":[{"row":1,"price":5,"seats":[{"column":1,"status":0,"price":-0.5}]}]}"#, path: "rows[0].seats[0].price", message: "negative price -0.5"),
    BadInput(name: "maxSelectCount below 1", json: #"{"maxSelectCount":0,"rows":[{"row":1,"price":1,"seats":[\#(seat)]}]}"#, path: "maxSelectCount", message: "maxSelectCount 0 is less than 1"),
    BadInput(name: "undeclared section", json: #"{"sections":[{"id":1,"name":"A"}],"rows":[{"row":1,"section":2,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].section", message: "section 2 is not declared in \"sections\""),
    BadInput(name: "empty hall", json: #"{"rows":[]}"#, path: "rows", message: "the hall has no seats"),
    BadInput(name: "only aisles", json: #"{"rows":[{"row":1,"seats":[{"column":1,"status":3}]}]}"#, path: "rows", message: "the hall has no seats"),
    BadInput(name: "grid too wide", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":2001,"status":0}]}]}"#, path: "rows[0].seats[0].column", message: "column 2001 is more than 2000"),
    BadInput(name: "grid too deep", json: #"{"rows":[{"row":2001,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].row", message: "row 2001 is more than 2000"),
    BadInput(name: "unknown seat type", json: #"{"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0,"type":"vip"}]}]}"#, path: "rows[0].seats[0].type", message: "unknown seat type \"vip\""),
    BadInput(name: "duplicate key", json: #"{"rows":[{"row":1,"row":2,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].row", message: "duplicate key \"row\""),
    BadInput(name: "huge number", json: #"{"rows":[{"row":99999999999999999999999,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].row", message: "number 99999999999999999999999 is out of range"),
    BadInput(name: "couple half at the largest column", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat),{"column":9223372036854775807,"status":0,"type":"coupleLeft"}]}]}"#, path: "rows[0].seats[1].column", message: "column 9223372036854775807 is more than 2000"),
    BadInput(name: "couple half at the smallest column", json: #"{"rows":[{"row":1,"price":1,"seats":[\#(seat),{"column":-9223372036854775808,"status":0,"type":"coupleRight"}]}]}"#, path: "rows[0].seats[1].column", message: "column -9223372036854775808 is less than 1"),
    BadInput(name: "row in an undeclared section", json: #"{"sections":[{"id":2,"name":"B"}],"rows":[{"row":1,"price":1,"seats":[\#(seat)]}]}"#, path: "rows[0].section", message: "section 1 is not declared in \"sections\""),
    BadInput(name: "deep nesting", json: String(repeating: "[", count: 100) + String(repeating: "]", count: 100), path: "", message: "malformed JSON: nesting deeper than 64 levels"),
]

@Suite("Validation")
struct ValidationTests {
    @Test("each bad input is reported with its path and message", arguments: badInputs)
    func reported(_ bad: BadInput) {
        do {
            _ = try HallFormat.decode(bad.json, name: "hall.json")
            Issue.record("\(bad.name) was accepted")
        } catch {
            let match = error.diagnostics.first { $0.path == bad.path && $0.message.hasPrefix(bad.message) }
            #expect(match != nil, "expected \(bad.path): \(bad.message); got \(error.message)")
            #expect(match?.line != nil, "every problem names its line:column")
            #expect(error.message.hasPrefix("hall.json: "), "every line names the file")
        }
    }

    @Test("a problem's line and column point at the offending value")
    func lineAndColumn() {
        let json = "{\"rows\": [\n  {\"row\": 1, \"price\": 1,\n   \"seats\": [{\"column\": 1, \"status\": 9}]}]}"
        #expect(throws: SeatMapError.self) { try HallFormat.decode(json) }
        do { _ = try HallFormat.decode(json) } catch {
            #expect(error.diagnostics.first?.line == 3)
            #expect(error.diagnostics.first?.column == 38)
            #expect(error.message.contains("rows[0].seats[0].status: unknown status 9"))
        }
    }

    @Test("text that is not UTF-8 is refused with its position")
    func notUTF8() {
        var bytes = Array("{\"hallName\": \"".utf8)
        bytes += [0xE5, 0x28, 0x22, 0x7D]
        do {
            _ = try HallFormat.decode(SourceText(name: "bad.json", bytes: bytes))
            Issue.record("invalid UTF-8 accepted")
        } catch {
            #expect(error.message == "bad.json: not valid UTF-8 (byte 0xE5) (line 1, column 15)")
        }
    }

    @Test("every error is collected, at most 50 listed and the rest counted")
    func collectsAll() {
        let seats = (1...60).map { #"{"column":\#($0),"status":9}"# }.joined(separator: ",")
        do {
            _ = try HallFormat.decode(#"{"rows":[{"row":1,"price":1,"seats":[\#(seats)]}]}"#, name: "h.json")
        } catch {
            #expect(error.diagnostics.count == 60)
            let lines = error.message.split(separator: "\n")
            #expect(lines.count == 51)
            #expect(lines.last == "h.json: and 10 more")
        }
    }

    @Test("unknown keys are ignored, and errors only when strict")
    func unknownKeys() throws {
        let json = #"{"rows":[{"row":1,"price":1,"colour":"red","seats":[{"column":1,"status":0}]}]}"#
        let decoded = try HallFormat.decode(SourceText(name: "h", bytes: Array(json.utf8)))
        #expect(decoded.warnings.map(\.path) == ["rows[0].colour"])
        #expect(throws: SeatMapError.self) {
            try HallFormat.decode(SourceText(name: "h", bytes: Array(json.utf8)), strict: true)
        }
    }
}

@Suite("Mutation sweep")
struct MutationTests {
    /// Mutates the examples thousands of ways; each must decode to a hall or
    /// to a non-empty list of errors, never crash.
    @Test("mutated examples never crash and always end in a hall or errors", arguments: Fixtures.exampleNames)
    func sweep(name: String) throws {
        let original = try Fixtures.exampleBytes(name)
        var rng = SeededRandom(seed: UInt64(name.utf8.count) &* 7919)
        let swaps: [(String, String)] = [("0", "\"0\""), ("\"", "'"), (":", ","), ("[", "{"), ("}", "]"), ("1", "-1"),
                                         ("price", "prize"), ("column", "col"), ("status", "state"), ("2", "2.5"), ("3", "1e99"), (",", "")]
        var valid = 0, invalid = 0
        for round in 0..<900 {
            var bytes = original
            switch round % 4 {
            case 0:  // truncate
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 1:  // flip bytes
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[i] ^= UInt8.random(in: 1...255, using: &rng)
                }
            case 2:  // swap a token for another type or shape
                let (from, to) = swaps[Int.random(in: 0..<swaps.count, using: &rng)]
                var text = String(decoding: bytes, as: UTF8.self)
                let ranges = text.ranges(of: from)
                if !ranges.isEmpty {
                    text.replaceSubrange(ranges[Int.random(in: 0..<ranges.count, using: &rng)], with: to)
                }
                bytes = Array(text.utf8)
            default:  // delete a key with its value
                var text = String(decoding: bytes, as: UTF8.self)
                let keys = ["\"row\": ", "\"column\": ", "\"status\": ", "\"price\": ", "\"seats\": ", "\"rows\": "]
                let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
                let ranges = text.ranges(of: key)
                if let r = ranges.isEmpty ? nil : ranges[Int.random(in: 0..<ranges.count, using: &rng)] {
                    text.replaceSubrange(r, with: "\"deleted\": ")
                }
                bytes = Array(text.utf8)
            }
            do {
                let hall = try HallFormat.decode(SourceText(name: name, bytes: bytes)).hall
                #expect(hall.cells.contains { $0.seat.isSeat })
                valid += 1
            } catch {
                #expect(!error.diagnostics.isEmpty)
                invalid += 1
            }
        }
        #expect(valid + invalid == 900)
        #expect(invalid > 0, "the sweep exercised the error paths")
    }
}
