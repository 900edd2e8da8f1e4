import Foundation
import Testing
@testable import SeatMapCLI
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

/// Inputs a hostile or careless user gives, answered with a clear error and
/// the documented exit code (issue: reliability).
@Suite("CLI: strict input")
struct StrictInputTests {
    static let camel = Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/camel.json").path

    @Test("a price must be the whole token a decimal number", arguments: ["1,000", "0x10", "12abc", "45元", "45.5.5", "+5", "", "1e400"])
    func loosePrices(price: String) throws {
        let out = try Fixtures.tempFolder().appendingPathComponent("h.json").path
        let r = seatmap("import", "maoyan", StrictInputTests.camel, "-o", out, "--price", price)
        #expect(r.code == 2, "--price \(price)")
        #expect(r.err.contains("--price \"\(price)\" is not a price"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let map = seatmap("import", "maoyan", StrictInputTests.camel, "-o", out, "--prices", "1=\(price)")
        #expect(map.code == 2 && map.err.contains("--prices \"1=\(price)\""), "\(map.err)")
    }

    @Test("numbers typed on the command line are decimal numbers, whole tokens", arguments: ["0x1p1", "inf", "nan", "2x", "1,5", " 2"])
    func looseNumbers(zoom: String) {
        let r = seatmap("layout", Fixtures.examplePath("seed.json"), "--zoom", zoom)
        #expect(r.code == 2 && r.err.contains("--zoom expects a number, got \"\(zoom)\""), "\(r.err)")
        // Points allow spaces around their numbers ("1, 2"), nothing else.
        if zoom != " 2" {
            let p = seatmap("hit", Fixtures.examplePath("seed.json"), "--point", "\(zoom),3")
            #expect(p.code == 2, "--point \(zoom),3")
        }
    }

    @Test("render --select of a seat that is not available names it and its status")
    func selectTaken() throws {
        let out = try Fixtures.tempFolder().appendingPathComponent("x.png").path
        let r = seatmap("render", Fixtures.examplePath("imax-3-sections.json"), "-o", out, "--select", "2-5-13,2-5-12")
        #expect(r.code == 1)
        #expect(r.err.contains("--select: 2-5-12 is sold; only available seats can be selected"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(seatmap("render", Fixtures.examplePath("imax-3-sections.json"), "-o", out, "--select", "2-5-13,2-5-14").code == 0)
    }

    @Test("control characters in names and labels are refused with their JSON path", arguments: [
        (#"{"cinemaName":"A\u0007B","rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0}]}]}"#, "cinemaName", "U+0007"),
        (#"{"rows":[{"row":1,"label":"x\ny","price":1,"seats":[{"column":1,"status":0}]}]}"#, "rows[0].label", "U+000A"),
        (#"{"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0,"label":"\t"}]}]}"#, "rows[0].seats[0].label", "U+0009"),
        (#"{"sections":[{"id":1,"name":"\u0000"}],"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0}]}]}"#, "sections[0].name", "U+0000"),
    ])
    func controlCharacters(json: String, path: String, code: String) throws {
        let file = try Fixtures.tempFolder().appendingPathComponent("h.json").path
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let r = seatmap("validate", file)
        #expect(r.code == 1)
        #expect(r.err.contains("\(path): contains the control character \(code) (not allowed in names and labels)"), "\(r.err)")
    }
}

@Suite("Diagnostics stay linear")
struct LinearDiagnosticsTests {
    @Test("locating every problem of a file scans it about once, not once per problem")
    func linear() throws {
        // 20,000 seats on one line, each reported: 20,000 positions to locate.
        let seats = (1...2000).map { #"{"column":\#($0),"status":0,"vip":1}"# }.joined(separator: ",")
        let rows = (1...10).map { #"{"row":\#($0),"price":1,"seats":[\#(seats)]}"# }.joined(separator: ",\n")
        let text = #"{"rows":[\#(rows)]}"#
        let source = SourceText(name: "big.json", bytes: Array(text.utf8))
        var ctx = DecodeContext(source: source)
        let parsed = ctx.parse()
        let root = try #require(parsed)
        guard case .array(let rowNodes)? = root["rows"]?.value else { Issue.record("no rows"); return }
        var nodes: [JSONNode] = []
        for row in rowNodes {
            guard case .array(let seatNodes)? = row["seats"]?.value else { continue }
            nodes += seatNodes.compactMap { $0["vip"] }
        }
        #expect(nodes.count == 20_000)
        for node in nodes { ctx.warning(node, "vip", "unknown key") }
        // One backwards jump (to the first row) at most; otherwise each byte once.
        #expect(ctx.locator.scanned <= text.utf8.count, "scanned \(ctx.locator.scanned) bytes for a \(text.utf8.count)-byte file")
        for k in [0, 1, 1999, 2000, 12_345, 19_999] {
            let expected = source.location(of: nodes[k].offset)
            #expect(ctx.warnings[k].line == expected.line && ctx.warnings[k].column == expected.column)
        }
        // Out of order too (a validator's problems after the reader's).
        let back = ctx.location(of: nodes[3].offset)
        #expect(back == source.location(of: nodes[3].offset))
    }
}

@Suite("CLI: smaller reliability cases")
struct SmallReliabilityTests {
    @Test("a FIFO given as input is read like a file (no 'permission denied?')")
    func fifo() throws {
        let dir = try Fixtures.tempFolder()
        let fifo = dir.appendingPathComponent("hall.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = try String(contentsOfFile: Fixtures.examplePath("seed.json"), encoding: .utf8)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(text.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let r = seatmap("validate", fifo)
        #expect(r.code == 0 && r.out.contains("ok (5 seats in 2 rows)"), "\(r.err)")
    }

    @Test("a FIFO nothing writes to and a device named as inputs are refused, never waited on unbounded")
    func silentFifoAndDevice() throws {
        let dir = try Fixtures.tempFolder()
        let fifo = dir.appendingPathComponent("silent.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = Date()
        let r = seatmap("validate", fifo)
        #expect(r.code == 1 && r.err.contains("is a FIFO that nothing wrote to within 5 s"), "\(r.err)")
        #expect(Date().timeIntervalSince(start) < 15, "the read waited \(Date().timeIntervalSince(start)) s")
        let device = seatmap("validate", "/dev/null")
        #expect(device.code == 1 && device.err.contains("is a device or socket, not a file"), "\(device.err)")
    }

    @Test("a duplicate or stale batch naming an unknown seat is still an error")
    func duplicateWithUnknownSeat() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"[{"batchId":"a","sequence":2,"changes":[{"id":"1-1-1","status":2}]},{"batchId":"a","sequence":3,"changes":[{"id":"9-9-9","status":2}]}]"#, to: "u.json", in: dir)
        let r = seatmap("apply", Fixtures.examplePath("seed.json"), updates, "-o", dir.appendingPathComponent("o.json").path)
        #expect(r.code == 1 && r.err.contains("batch \"a\" rejected: no such seat \"9-9-9\""), "\(r.err)")
    }

    @Test("a show keeps its own statuses: a hall file sold elsewhere later does not change it")
    func showOwnsStatuses() throws {
        let dir = try Fixtures.tempFolder()
        let db = dir.appendingPathComponent("s.db").path
        let seed = try Fixtures.write(String(contentsOfFile: Fixtures.examplePath("seed.json"), encoding: .utf8), to: "seed.json", in: dir)
        #expect(seatmap("select", seed, "--toggle", "1-1-1", "--store", db, "--show", "A").code == 0)
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-3","status":2}]}"#, to: "u.json", in: dir)
        #expect(seatmap("apply", seed, updates, "-o", seed).code == 0)
        // The show was created before: 1-1-3 is still for sale in it.
        let r = seatmap("select", seed, "--toggle", "1-1-3", "--store", db, "--show", "A", "--json")
        #expect(r.code == 0)
        #expect(try parseJSON(r.out)["selected"] == .array([.string("1-1-3")]))
    }
}

@Suite("CLI: small follow-ups")
struct FollowUpTests {
    @Test("--max-input-bytes may come before the command too")
    func limitFirst() {
        #expect(seatmap("--max-input-bytes", "10", "validate", Fixtures.examplePath("seed.json")).code == 1)
        #expect(seatmap("--max-input-bytes", "100000", "validate", Fixtures.examplePath("seed.json")).code == 0)
        #expect(seatmap("--max-input-bytes", "x", "validate", Fixtures.examplePath("seed.json")).code == 2)
    }

    @Test("an error in the second of several batches names it: [1].changes[0].id")
    func batchIndex() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"[{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]},{"batchId":"b","sequence":2,"changes":[{"id":"9-9-9","status":2}]}]"#, to: "u.json", in: dir)
        let r = seatmap("apply", Fixtures.examplePath("seed.json"), updates, "-o", dir.appendingPathComponent("o.json").path)
        #expect(r.code == 1 && r.err.contains("[1].changes[0].id: batch \"b\" rejected"), "\(r.err)")
    }
}
