import Foundation
import Testing
@testable import SeatMapCLI
import SeatMapCore
import SeatMapGolden
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

@Suite("CLI: what a user would expect")
struct ExpectationTests {
    @Test("PDF honours --viewport, --offset and --minimap")
    func pdfViewport() throws {
        let dir = try Fixtures.tempFolder()
        let full = dir.appendingPathComponent("full.pdf").path, phone = dir.appendingPathComponent("phone.pdf").path
        let map = dir.appendingPathComponent("map.pdf").path
        let hall = Fixtures.examplePath("imax-3-sections.json")
        #expect(seatmap("render", hall, "-o", full, "--zoom", "2").code == 0)
        #expect(seatmap("render", hall, "-o", phone, "--zoom", "2", "--viewport", "375,667", "--offset", "300,120").code == 0)
        #expect(seatmap("render", hall, "-o", map, "--zoom", "2", "--viewport", "375,667", "--offset", "300,120", "--minimap").code == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: full)), b = try Data(contentsOf: URL(fileURLWithPath: phone))
        let c = try Data(contentsOf: URL(fileURLWithPath: map))
        #expect(a != b && b != c)
        // The page is the viewport's size in points (fit).
        #expect(String(decoding: b, as: UTF8.self).contains("/MediaBox [ 0 0 375 667 ]"))
    }

    @Test("a points file with CRLF or CR line endings is read line by line")
    func crlf() throws {
        let dir = try Fixtures.tempFolder()
        for (name, ending) in [("crlf", "\r\n"), ("cr", "\r"), ("lf", "\n")] {
            let path = dir.appendingPathComponent("\(name).txt").path
            try ["10,10", "100,200", "# a comment", "50,60"].joined(separator: ending).write(toFile: path, atomically: true, encoding: .utf8)
            let r = seatmap("hit", Fixtures.examplePath("seed.json"), "--points-file", path)
            #expect(r.code == 0, "\(name): \(r.err)")
            #expect(r.out.split(separator: "\n").count == 3, "\(name): three taps")
        }
    }

    @Test("theme colours are CSS colours read strictly: no signs, prefixes, spaces or wide digits", arguments: ["#+FFFFF", "#-00000", "#0x1234", "#12345G", "#FFFFFF ", "#ＦＦＦＦＦＦ", "white "])
    func colourSigns(colour: String) throws {
        let light = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/light.json").path, encoding: .utf8)
        let path = try Fixtures.tempFolder().appendingPathComponent("t.json").path
        try light.replacingOccurrences(of: "\"background\": \"#FFFFFF\"", with: "\"background\": \"\(colour)\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = seatmap("theme", "check", path)
        #expect(r.code == 1 && r.err.contains("background: invalid colour"), "\(colour): \(r.err)")
    }

    @Test("a status change to one couple half applies to its partner too")
    func coupleHalves() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-12-5","status":2}]}"#, to: "u.json", in: dir)
        let out = dir.appendingPathComponent("new.json").path
        let r = seatmap("apply", Fixtures.examplePath("cinema-12x18.json"), updates, "-o", out)
        #expect(r.code == 0 && r.out.contains("a: 1-12-5 1-12-6"), "\(r.out)")
        let hall = try Files.readHall(out)
        #expect(hall.cell(id: "1-12-6")?.seat.status == .sold)
    }

    @Test("-h and help COMMAND give a command's help; a mistyped command or option is named with the nearest one, in one line")
    func helpAndSuggestions() throws {
        let dash = seatmap("render", "-h"), long = seatmap("render", "--help"), word = seatmap("help", "render")
        #expect(dash.code == 0 && word.code == 0 && dash.out == long.out && word.out == long.out && long.out.contains("--zoom"), "\(dash.err)")
        let top = seatmap("help")
        #expect(top.code == 0 && top.out != long.out)
        let typo = seatmap("rendr", "x.json")
        #expect(typo.code == 2 && typo.err.contains("unknown command \"rendr\" (did you mean \"render\"?)"), "\(typo.err)")
        #expect(typo.err.split(separator: "\n").count == 2, "one line and the commands: \(typo.err)")
        #expect(typo.err.contains("Commands: validate, info, layout, hit, render,") && !typo.err.contains("Usage:"), "\(typo.err)")
        let helpHelp = seatmap("help", "-h")
        #expect(helpHelp.code == 0 && helpHelp.out == top.out)
        // Subcommands, shells and formats suggest the nearest name too.
        let sub = seatmap("theme", "chek", "light")
        #expect(sub.code == 2 && sub.err.contains("unknown theme subcommand \"chek\" (did you mean \"check\"?; expected check, list or show)"), "\(sub.err)")
        #expect(seatmap("completions", "bsh").err.contains("(did you mean \"bash\"?; expected bash, zsh or fish)"))
        let format = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", "/tmp", "--format", "svgz")
        #expect(format.code == 2 && format.err.contains("unknown --format \"svgz\" (did you mean \"svg\"?; expected png, svg, pdf or html)"), "\(format.err)")
        #expect(!seatmap("qqqqqq").err.contains("did you mean"))
        let option = seatmap("render", "x.json", "-o", "x.png", "--zom", "2")
        #expect(option.code == 2 && option.err.contains("unknown option --zom (did you mean --zoom?)"), "\(option.err)")
        #expect(seatmap("help", "rendr").code == 2)
    }

    @Test("a single-dash word that is not -o is an unknown option, not a FILE")
    func singleDash() {
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "-z", "-o", "x.png")
        #expect(r.code == 2 && r.err.contains("unknown option -z"))
    }

    @Test("a batch folder that cannot be created says why")
    func outDir() {
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", "/proc/seatmap-test/x")
        #expect(r.code == 1 && r.err.contains("cannot create the folder /proc/seatmap-test"), "\(r.err)")
        #expect(!r.err.contains("Error Domain"))
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

@Suite("CLI: found by a hostile run")
struct HostileRunTests {
    @Test("--ignore with huge values is a usage error, never an overflow trap")
    func ignoreOverflow() {
        let a = Fixtures.imagePath("seed-a.png"), b = Fixtures.imagePath("seed-b.png")
        #expect(seatmap("diff", a, b, "--ignore", "1,0,9223372036854775807,10").code == 2)
        #expect(seatmap("diff", a, b, "--ignore", "-1000000000,-1000000000,1000000000,1000000000").code == 1, "allowed bounds, no trap")
    }

    @Test("two outputs naming one file are refused, nothing written")
    func sameOutputTwice() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]}"#, to: "u.json", in: dir)
        let old = dir.appendingPathComponent("old.png").path, out = dir.appendingPathComponent("new.json").path
        let seed = Fixtures.examplePath("seed.json")
        #expect(seatmap("render", seed, "-o", old).code == 0)
        let r = seatmap("apply", seed, updates, "-o", out, "--image", old, "--image-out", dir.path + "/./new.json")
        #expect(r.code == 1 && r.err.contains("two outputs name this same file"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let d = dir.appendingPathComponent("d.png").path
        #expect(seatmap("diff", Fixtures.imagePath("seed-a.png"), Fixtures.imagePath("seed-b.png"), "--out", d, "--composite", d).code == 2)
    }

    @Test("diff --out - keeps standard output for the image; the report goes to stderr")
    func diffToStdout() throws {
        let r = try SeatmapProcess.run(["diff", Fixtures.imagePath("seed-a.png"), Fixtures.imagePath("seed-b.png"), "--out", "-"])
        #expect(r.code == 1)
        #expect(r.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]) && RGBAImage.pngSize(r.stdout) != nil)
        #expect(r.stderr.contains("FAIL: max-diff-pixels"))
    }

    @Test("standard output that cannot be written is an error (exit 1), not a trap")
    func fullDisk() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full"), let exe = SeatmapProcess.executable else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" info \"$1\" > /dev/full", exe.path, Fixtures.examplePath("seed.json")]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1 && text.contains("cannot write standard output"), "\(p.terminationStatus): \(text)")
    }

    @Test("a folder given as --store is named as such; --hold-ttl needs --store")
    func storeMistakes() throws {
        let dir = try Fixtures.tempFolder()
        let seed = Fixtures.examplePath("seed.json")
        let r = seatmap("select", seed, "--toggle", "1-1-1", "--store", dir.path, "--show", "S")
        #expect(r.code == 1 && r.err.contains("is a folder"), "\(r.err)")
        #expect(seatmap("select", seed, "--toggle", "1-1-1", "--hold-ttl", "5").code == 2)
        // One hold time for every command: a day at most, the same words everywhere.
        let store = dir.appendingPathComponent("shows.db").path
        for args in [["select", seed, "--toggle", "1-1-1"], ["recommend", seed, "--count", "1"]] {
            let long = seatmap(args + ["--store", store, "--show", "S", "--hold-ttl", "86401"])
            #expect(long.code == 2 && long.err.contains("--hold-ttl 86401 is outside 1…86400"), "\(long.err)")
        }
        #expect(seatmap("select", seed, "--toggle", "1-1-1", "--store", store, "--show", "S", "--hold-ttl", "86400").code == 0)
    }

    @Test("the batch progress line names the file and, while files are left, the time they should take at the pace so far")
    func progressLine() {
        let start = DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds - 2_000_000_000)
        let line = SeatMapCLI.progressBar(done: 2, of: 6, last: "b.json", since: start)
        #expect(line.hasPrefix("[##########                    ] 2/6 b.json ETA "), "\(line)")
        #expect(line.hasSuffix("ETA 4 s") || line.hasSuffix("ETA 5 s"), "\(line)")
        #expect(!SeatMapCLI.progressBar(done: 6, of: 6, last: "f.json", since: start).contains("ETA"))
    }

    @Test("info --json says a free venue's shape without a grid's size")
    func freeVenueInfo() throws {
        let free = try parseJSON(seatmap("info", Fixtures.examplePath("arena-blocks.json"), "--json").out)
        let grid = try parseJSON(seatmap("info", Fixtures.examplePath("seed.json"), "--json").out)
        #expect(free["gridRows"] == nil && free["gridColumns"] == nil && free["free"]?.value == .bool(true) && free["areas"] != nil)
        #expect(grid["gridRows"] != nil && grid["free"]?.value == .bool(false))
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
