import Foundation
import Testing
@testable import SeatMapCLI
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
import SeatMapRender
import SeatMapTestClients
import SeatMapTestSupport

/// The process's threads and the processors each may run on, as the
/// kernel lists them in /proc.
enum ProcessThreads {
    static func ids() -> Set<Int> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int($0) })
    }

    /// The threads that may run on one processor only.
    static func pinned() -> Set<Int> { ids().filter { processors(of: $0) == 1 } }

    /// How many processors thread `id` may run on; 0 when it is gone.
    static func processors(of id: Int) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return 0 }
        // "0-3,6": ranges and single processors.
        return line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").reduce(0) { count, part in
            let ends = part.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return count + (ends.count == 2 ? ends[1] - ends[0] + 1 : ends.count)
        }
    }
}

@Suite("CLI: validate and info")
struct ValidateInfoCLITests {
    @Test("valid examples exit 0")
    func valid() {
        let r = seatmap("validate", Fixtures.examplePath("seed.json"), Fixtures.examplePath("imax-3-sections.json"))
        #expect(r.code == 0)
        #expect(r.out.contains("seed.json: ok (5 seats in 2 rows)"))
    }

    @Test("an invalid file exits 1 with FILE: PATH: message on stderr; the others are still checked")
    func invalid() throws {
        let dir = try Fixtures.tempFolder()
        let bad = try Fixtures.write(#"{"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":7}]}]}"#, to: "bad.json", in: dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: bad))
        let r = seatmap("validate", bad, Fixtures.examplePath("seed.json"))
        #expect(r.code == 1)
        #expect(r.err.contains("\(bad): rows[0].seats[0].status: unknown status 7"))
        #expect(r.out.contains("seed.json: ok"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: bad)) == before, "inputs are never modified")
    }

    @Test("--strict fails on unknown keys")
    func strict() throws {
        let dir = try Fixtures.tempFolder()
        let f = try Fixtures.write(#"{"rows":[{"row":1,"price":1,"seats":[{"column":1,"status":0,"vip":true}]}]}"#, to: "extra.json", in: dir)
        #expect(seatmap("validate", f).code == 0)
        let r = seatmap("validate", f, "--strict")
        #expect(r.code == 1)
        #expect(r.err.contains("rows[0].seats[0].vip: unknown key \"vip\""))
    }

    @Test("usage errors exit 2", arguments: [["validate"], ["info"], ["info", "a", "b"], ["layout", "x", "--zoom"], ["nosuch"], ["layout", "x", "--zoom", "9"], ["hit", "x", "--point", "1"]])
    func usage(args: [String]) {
        let captured = CapturedConsole()
        #expect(SeatMapCLI.run(args, console: captured.console) == 2)
        #expect(!captured.stderr.isEmpty)
    }

    @Test("every command has --help", arguments: ["validate", "info", "layout", "hit", "render", "theme", "diff", "select", "recommend", "apply", "import"])
    func help(command: String) {
        let r = seatmap(command, "--help")
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("Usage: seatmap \(command)"))
    }

    @Test("help lists the output formats and importers from their tables; an unknown one is a usage error naming them")
    func registries() throws {
        let overview = seatmap("--help").out
        for format in OutputFormat.all { #expect(overview.contains("\(format.name) (\(format.summary))")) }
        for importer in HallImporters.all { #expect(overview.contains("\(importer.name) (\(importer.summary))")) }
        let render = seatmap("render", "--help").out
        #expect(OutputFormat.all.allSatisfy { render.contains("  \($0.name)  \($0.summary)") })
        let importHelp = seatmap("import", "--help").out
        #expect(HallImporters.all.flatMap(\.options).allSatisfy { importHelp.contains("--\($0.name)") })
        let unknown = seatmap("import", "seatsio", "x.json", "-o", "y.json")
        #expect(unknown.code == 2 && unknown.err.contains("unknown import format \"seatsio\" (expected maoyan or pretix)"))
        let dir = try Fixtures.tempFolder()
        let badFormat = seatmap("render", Fixtures.examplePath("seed.json"), "-o", dir.appendingPathComponent("x.gif").path)
        #expect(badFormat.code == 2 && badFormat.err.contains("use a .png, .svg, .pdf or .html name"))
    }

    @Test("a missing file is a clear error, exit 1")
    func missing() {
        let r = seatmap("info", "/nonexistent/hall.json")
        #expect(r.code == 1)
        #expect(r.err.contains("/nonexistent/hall.json: no such file"))
    }

    @Test("info --json has exactly the documented keys and counts")
    func infoJSON() throws {
        let r = seatmap("info", Fixtures.examplePath("imax-3-sections.json"), "--json")
        #expect(r.code == 0)
        let json = try parseJSON(r.out)
        guard case .object(let members) = json.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["cinemaName", "hallName", "movieStartTime", "maxSelectCount", "gridRows", "gridColumns",
                                       "rows", "seats", "available", "locked", "sold", "aisles", "couplePairs", "wheelchair",
                                       "sections", "priceTiers", "currency", "free", "areas", "standingAreas", "standingCapacity",
                                       "standingAvailable", "levels", "groups"])
        #expect(json["wheelchair"] == .int(4))
        #expect(json["gridRows"]?.value == .number("14"))
        guard case .array(let tiers) = json["priceTiers"]?.value else { Issue.record("no tiers"); return }
        #expect(tiers.compactMap { $0["price"] } == [.string("68"), .string("88"), .string("98"), .string("128")])
        guard case .array(let sections) = json["sections"]?.value else { Issue.record("no sections"); return }
        #expect(sections.compactMap { $0["name"] } == [.string("A区"), .string("B区"), .string("C区")])
    }
}

@Suite("CLI: layout and hit")
struct LayoutHitCLITests {
    @Test("layout --json lists integer rects for every seat")
    func layoutJSON() throws {
        let r = seatmap("layout", Fixtures.examplePath("seed.json"), "--zoom", "1.37", "--scale", "3", "--json")
        #expect(r.code == 0)
        let json = try parseJSON(r.out)
        #expect(json["seatWidth"] == .int(Int((32 * 1.37 * 3).rounded(.up))))
        guard case .array(let seats) = json["seats"]?.value else { Issue.record("no seats"); return }
        #expect(seats.count == 5, "aisles are not seats")
        #expect(seats.first?["id"] == .string("1-1-1"))
        #expect(seats.first?["price"] == .string("45"))
        #expect(json["screen"]?["centerX"] != nil)
    }

    @Test("layout --fit picks the zoom that shows the whole hall in the viewport")
    func fit() throws {
        let r = seatmap("layout", Fixtures.examplePath("imax-3-sections.json"), "--fit", "375,667", "--scale", "3", "--json")
        #expect(r.code == 0)
        let json = try parseJSON(r.out)
        guard case .number(let w) = json["width"]?.value, case .number(let z) = json["zoom"]?.value,
              let width = Double(w), let zoom = Double(z) else { Issue.record("no width"); return }
        #expect(width / 3 <= 375)
        #expect(zoom < 1)
        #expect(seatmap("layout", Fixtures.examplePath("seed.json"), "--fit", "375,667", "--zoom", "2").code == 2)
    }

    @Test("hit maps taps to the seats drawn under them, as text and JSON")
    func hit() throws {
        let file = Fixtures.examplePath("seed.json")
        let layout = try parseJSON(seatmap("layout", file, "--zoom", "2", "--scale", "2", "--json").out)
        guard case .array(let seats) = layout["seats"]?.value, let s = seats.last,
              case .number(let x) = s["x"]?.value, case .number(let y) = s["y"]?.value,
              let px = Double(x), let py = Double(y) else { Issue.record("no layout"); return }
        // Centre of the seat in view points with a 10,5 pt offset.
        let vx = (px + 20) / 2 - 10, vy = (py + 20) / 2 - 5
        let text = seatmap("hit", file, "--zoom", "2", "--scale", "2", "--offset", "10,5", "--point", "\(vx),\(vy)", "-1,-1")
        #expect(text.code == 0)
        let lines = text.out.split(separator: "\n")
        #expect(lines.first == "\(vx),\(vy) -> 1-2-3 2排3座 available ¥55.00")
        #expect(lines.last == "-1,-1 -> outside")
        let json = try parseJSON(seatmap("hit", file, "--zoom", "2", "--scale", "2", "--offset", "10,5", "--point", "\(vx),\(vy)", "--json").out)
        #expect(json == JSONNode.array([JSONNode.object([
            ("x", .number(Arguments_format(vx))), ("y", .number(Arguments_format(vy))), ("kind", .string("seat")),
            ("id", .string("1-2-3")), ("row", .int(2)), ("column", .int(3)), ("label", .string("2排3座")),
            ("status", .string("available")), ("partner", .null),
            ("rowLabel", .string("2")), ("seatLabel", .string("3")), ("type", .string("standard")), ("price", .string("55")),
            ("currency", .string("CNY")), ("priceText", .string("¥55.00")),
            ("rect", .object([("x", .number(x)), ("y", .number(y)), ("w", s["w"] ?? .null), ("h", s["h"] ?? .null)])),
        ])]))
    }

    @Test("--points-file replays taps; a bad line names its line number")
    func pointsFile() throws {
        let dir = try Fixtures.tempFolder()
        let f = dir.appendingPathComponent("taps.txt").path
        try "# taps\n0,0\n5,5\n".write(toFile: f, atomically: true, encoding: .utf8)
        let r = seatmap("hit", Fixtures.examplePath("seed.json"), "--points-file", f)
        #expect(r.code == 0)
        #expect(r.out.split(separator: "\n").count == 2)
        try "1,2\nnope\n".write(toFile: f, atomically: true, encoding: .utf8)
        let bad = seatmap("hit", Fixtures.examplePath("seed.json"), "--points-file", f)
        #expect(bad.code == 1)
        #expect(bad.err.contains("taps.txt: expected X,Y, found \"nope\" (line 2, column 1)"))
    }
}

func Arguments_format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

@Suite("CLI: render and theme")
struct RenderCLITests {
    @Test("render writes PNG, SVG and PDF by extension")
    func formats() throws {
        let dir = try Fixtures.tempFolder()
        for ext in ["png", "svg", "pdf"] {
            let out = dir.appendingPathComponent("map.\(ext)").path
            let r = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out, "--theme", "dark", "--select", "1-2-2")
            #expect(r.code == 0, "\(r.err)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
            let magic: [String: [UInt8]] = ["png": [0x89, 0x50], "svg": Array("<?xml".utf8), "pdf": Array("%PDF".utf8)]
            #expect(bytes.starts(with: magic[ext] ?? []))
        }
    }

    @Test("batch renders every file, reports a bad one and still writes the rest")
    func batch() throws {
        let dir = try Fixtures.tempFolder()
        let bad = dir.appendingPathComponent("broken.json").path
        try "{".write(toFile: bad, atomically: true, encoding: .utf8)
        let outDir = dir.appendingPathComponent("out").path
        let r = seatmap("render", Fixtures.examplePath("seed.json"), bad, Fixtures.examplePath("labels-rtl.json"),
                        "--out-dir", outDir, "--format", "svg")
        #expect(r.code == 1)
        #expect(r.err.contains("broken.json: malformed JSON"))
        #expect(r.err.contains("1 of 3 failed"))
        let written = try FileManager.default.contentsOfDirectory(atPath: outDir).sorted()
        #expect(written == ["labels-rtl.svg", "seed.svg"])
        #expect(r.out.split(separator: "\n").count == 2 && r.out.contains("wrote \(outDir)/seed.svg"), "\(r.out)")
        // -q: only the problem and the exit status.
        let q = seatmap("render", Fixtures.examplePath("seed.json"), bad, "--out-dir", outDir, "--format", "svg", "-q")
        #expect(q.code == 1 && q.out.isEmpty && q.err.contains("broken.json: malformed JSON"), "\(q.out)")
        let one = seatmap("render", Fixtures.examplePath("seed.json"), "-o", dir.appendingPathComponent("one.png").path, "--quiet")
        #expect(one.code == 0 && one.out.isEmpty)
        // A file rendered but not written (its output's name is a folder):
        // said once, with its reason; the others written whole.
        let blocked = dir.appendingPathComponent("blocked").path
        try FileManager.default.createDirectory(atPath: blocked + "/labels-rtl.svg", withIntermediateDirectories: true)
        let w = seatmap("render", Fixtures.examplePath("labels-rtl.json"), Fixtures.examplePath("seed.json"), Fixtures.examplePath("gala.json"),
                        "--out-dir", blocked, "--format", "svg")
        #expect(w.code == 1)
        #expect(w.err.components(separatedBy: "labels-rtl.svg: is a folder; give a file name").count == 2 && w.err.contains("1 of 3 failed"), "\(w.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocked).sorted() == ["gala.svg", "labels-rtl.svg", "seed.svg"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocked + "/labels-rtl.svg").isEmpty)
        #expect(w.out.split(separator: "\n").count == 2, "\(w.out)")
        let gala = try Data(contentsOf: URL(fileURLWithPath: blocked + "/gala.svg"))
        #expect(String(decoding: gala, as: UTF8.self).hasSuffix("</svg>\n"), "gala.svg is not whole")
        // Two inputs named alike would write one output: refused before
        // anything is made (not even the missing folder), naming both.
        let twin = dir.appendingPathComponent("twin")
        try FileManager.default.createDirectory(at: twin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.examplePath("seed.json"), toPath: twin.appendingPathComponent("seed.json").path)
        let nested = dir.appendingPathComponent("made/on/demand").path
        let clash = seatmap("render", Fixtures.examplePath("seed.json"), twin.appendingPathComponent("seed.json").path, "--out-dir", nested)
        #expect(clash.code == 2 && clash.err.contains("\(Fixtures.examplePath("seed.json")) and \(twin.path)/seed.json would both write \(nested)/seed.png"),
                "\(clash.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("made").path))
        // Without the clash the missing folders are made, with their parents.
        let made = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", nested, "-q")
        #expect(made.code == 0 && FileManager.default.fileExists(atPath: nested + "/seed.png"), "\(made.err)")
    }

    @Test("a batch of every example, its workers each on a processor of its own, writes for each file the very bytes a render of that file alone writes, and leaves no thread of a process that lives on kept on one processor")
    func batchSameBytes() throws {
        let dir = try Fixtures.tempFolder()
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.examplesFolder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 8)
        let outDir = dir.appendingPathComponent("batch").path
        let pinnedBefore = ProcessThreads.pinned(), processors = ProcessorPin.current().count
        let r = seatmap(["render"] + names.map { Fixtures.examplePath($0) } + ["--out-dir", outDir, "--zoom", "1.37", "-q"])
        #expect(r.code == 0, "\(r.err)")
        // A process that lives on after the batch (a server, these tests)
        // gets its threads back with every processor they had: none is
        // left on the one processor a worker was kept on, neither the
        // workers nor threads born in the batch. (A thread another test,
        // or a batch running beside this one, pins for a while is not
        // counted: the check waits up to 10 s for it to end.) With 8
        // examples, workers are pinned on machines of up to 8 processors.
        if processors > 1 {
            let deadline = Date().addingTimeInterval(10)
            var left = ProcessThreads.pinned().subtracting(pinnedBefore)
            while !left.isEmpty, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                left = ProcessThreads.pinned().subtracting(pinnedBefore)
            }
            #expect(left.isEmpty, "threads left on one processor after the batch: \(left)")
        }
        for name in names {
            let base = String(name.dropLast(".json".count))
            let alone = dir.appendingPathComponent("\(base)-alone.png").path
            #expect(seatmap("render", Fixtures.examplePath(name), "-o", alone, "--zoom", "1.37", "-q").code == 0)
            let a = try Data(contentsOf: URL(fileURLWithPath: alone)), b = try Data(contentsOf: URL(fileURLWithPath: "\(outDir)/\(base).png"))
            #expect(a == b, "\(name): the batch wrote other bytes than a render alone")
        }
    }

    @Test("render usage errors exit 2", arguments: [
        ["render", "x.json"], ["render", "x.json", "-o", "a.gif"], ["render", "x.json", "-o", "a.png", "--page", "b5"],
        ["render", "x.json", "-o", "a.png", "--png-compression", "max"], ["render", "x.json", "-o", "a.png", "--minimap"],
    ])
    func usage(args: [String]) {
        let captured = CapturedConsole()
        #expect(SeatMapCLI.run(args, console: captured.console) == 2)
    }

    @Test("an unknown theme or seat id is a clear error, exit 1")
    func badInputs() throws {
        let dir = try Fixtures.tempFolder()
        let out = dir.appendingPathComponent("m.png").path
        let theme = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out, "--theme", "sepia")
        #expect(theme.code == 1)
        #expect(theme.err.contains("unknown theme \"sepia\""))
        let seat = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out, "--select", "1-9-9")
        #expect(seat.code == 1)
        #expect(seat.err.contains("no such seat 1-9-9"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("hit --pin-row-labels answers the pinned row label render --pin-row-labels draws")
    func pinnedHit() throws {
        let hall = Fixtures.examplePath("cinema-12x18.json")
        let flags = ["--zoom", "2", "--viewport", "375,300", "--offset", "600,200"]
        let out = try Fixtures.tempFolder().appendingPathComponent("v.png").path
        #expect(seatmap(["render", hall, "-o", out, "--pin-row-labels"] + flags).code == 0)
        // The pinned pill sits `rowLabelSpacing` (4 pt) plus its inset from the view's left edge.
        let pinned = seatmap(["hit", hall, "--pin-row-labels", "--point", "20,40", "--json"] + flags)
        #expect(pinned.code == 0)
        #expect(pinned.out.contains("\"kind\":\"rowLabel\""), "\(pinned.out)")
        let plain = seatmap(["hit", hall, "--point", "20,40", "--json"] + flags)
        #expect(!plain.out.contains("rowLabel\","))
        #expect(seatmap(["render", hall, "-o", out, "--pin-row-labels"]).code == 2)
        #expect(seatmap(["hit", hall, "--pin-row-labels", "--point", "20,40"]).code == 2)
        let ticket = seatmap(["render", hall, "-o", out, "--ticket", "1-7-7", "--select", "1-7-6"])
        #expect(ticket.code == 2 && ticket.err.contains("--ticket"))
    }

    @Test("theme check passes the shipped themes and names failing pairs, misspelled keys and fonts that are not installed")
    func themeCheck() throws {
        for name in ["light", "dark", "print", "high-contrast"] {
            #expect(seatmap("theme", "check", name).code == 0)
        }
        let dir = try Fixtures.tempFolder()
        let path = dir.appendingPathComponent("pale.json").path
        var text = try String(contentsOf: Fixtures.root.appendingPathComponent("Themes/light.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"sold\": \"#737373\"", with: "\"sold\": \"#F0F0F0\"")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = seatmap("theme", "check", path)
        #expect(r.code == 1)
        #expect(r.err.contains("non-text contrast: sold #F0F0F0 on background #FFFFFF: 1.14:1, needs 3.0:1"))
        #expect(r.err.contains("checks failed"))
        let ok = seatmap("theme", "check", "light")
        #expect(ok.out.contains("light: ok") && ok.out.contains("weakest colour difference"))
        // A misspelled key and a font that is not installed fail it too, named.
        let light = try String(contentsOf: Fixtures.root.appendingPathComponent("Themes/light.json"), encoding: .utf8)
        let typo = dir.appendingPathComponent("typo.json").path
        try light.replacingOccurrences(of: "\"cornerRadius\"", with: "\"cornerRadious\"").write(toFile: typo, atomically: true, encoding: .utf8)
        let t = seatmap("theme", "check", typo)
        #expect(t.code == 1 && t.err.contains("unknown key \"cornerRadious\"") && !t.out.contains(": ok"), "\(t.err)")
        let font = dir.appendingPathComponent("font.json").path
        try light.replacingOccurrences(of: "\"WenQuanYi Micro Hei\"", with: "\"No Such Font Family\"").write(toFile: font, atomically: true, encoding: .utf8)
        let f = seatmap("theme", "check", font)
        #expect(f.code == 1 && f.err.contains("\"No Such Font Family\" is not installed"), "\(f.err)")
        // A fallback the theme lists but the machine lacks is named too, by its place in the list
        // (a warning: rendering does not need it).
        let fallback = dir.appendingPathComponent("fallback.json").path
        try light.replacingOccurrences(of: "\"Noto Sans Thai\"", with: "\"No Such Thai Font\"").write(toFile: fallback, atomically: true, encoding: .utf8)
        let b = seatmap("theme", "check", fallback)
        #expect(b.code == 0 && b.err.contains("warning: fontFamily (fallback 4): font \"No Such Thai Font\" is not installed"), "\(b.err)")
        #expect(!b.err.contains("fonts-wqy-microhei"), "no other font's package is suggested")
    }
}

@Suite("CLI: diff")
struct DiffCLITests {
    let a = Fixtures.root.appendingPathComponent("Tests/SeatMapGoldenTests/Fixtures/seed-a.png").path
    let b = Fixtures.root.appendingPathComponent("Tests/SeatMapGoldenTests/Fixtures/seed-b.png").path

    @Test("identical images pass, exit 0")
    func same() {
        let r = seatmap("diff", a, a)
        #expect(r.code == 0)
        #expect(r.out == "0 differing pixels (0.0000 %), 0 anti-aliased\nPASS\n")
    }

    @Test("differences beyond the gates exit 1; within them exit 0")
    func gates() throws {
        let r = seatmap("diff", a, b)
        #expect(r.code == 1)
        #expect(r.out == "3521 differing pixels (1.1462 %), 236 anti-aliased\nFAIL: max-diff-pixels (3521 > 0)\n")
        #expect(seatmap("diff", a, b, "--max-diff-pixels", "3521", "--max-diff-ratio", "0.02").code == 0)
        let alone = seatmap("diff", a, b, "--max-diff-pixels", "3521")
        #expect(alone.code == 0 && alone.out.hasSuffix("PASS\n"), "a gate given alone is the only gate")
        let ratio = seatmap("diff", a, b, "--max-diff-ratio", "0.01")
        #expect(ratio.code == 1 && ratio.out.contains("FAIL: max-diff-ratio (0.011"), "\(ratio.out)")
        let both = seatmap("diff", a, b, "--max-diff-pixels", "100", "--max-diff-ratio", "0.02", "--json")
        #expect(both.code == 1)
        #expect(try parseJSON(both.out)["failedGates"] == .array([.string("maxDiffPixels")]))
    }

    @Test("--ignore leaves regions out of the count; --diff-mask and the colours shape the diff image")
    func ignoreAndColours() throws {
        let whole = seatmap("diff", a, b, "--ignore", "0,0,100000,100000")
        #expect(whole.code == 0 && whole.out.hasPrefix("0 differing pixels"), "\(whole.out)")
        let part = seatmap("diff", a, b, "--ignore", "0,0,100,100", "--json")
        guard case .number(let n)? = try parseJSON(part.out)["diffPixels"]?.value, let count = Int(n) else { Issue.record("no count"); return }
        #expect(count <= 3521)
        #expect(seatmap("diff", a, b, "--ignore", "1,2,3").code == 2)
        let dir = try Fixtures.tempFolder()
        let mask = dir.appendingPathComponent("m.png").path
        #expect(seatmap("diff", a, b, "--out", mask, "--diff-mask", "--diff-color", "00FF00", "--aa-color", "0000FF").code == 1)
        let image = try RGBAImage(contentsOf: mask)
        let colours = Set(image.pixels)
        #expect(colours.isSubset(of: [0, RGBAImage.pack(0, 255, 0), RGBAImage.pack(0, 0, 255)]), "only differences, in the given colours")
        #expect(image.pixels.filter { $0 == RGBAImage.pack(0, 255, 0) }.count == 3521)
        #expect(seatmap("diff", a, b, "--out", mask, "--diff-color", "red").code == 2)
    }

    @Test("--json has the documented keys; --out and --composite write images")
    func json() throws {
        let dir = try Fixtures.tempFolder()
        let out = dir.appendingPathComponent("d.png").path, comp = dir.appendingPathComponent("c.png").path
        let r = seatmap("diff", a, b, "--json", "--out", out, "--composite", comp)
        let json = try parseJSON(r.out)
        guard case .object(let members) = json.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["width", "height", "diffPixels", "aaPixels", "diffRatio", "pass", "failedGates"])
        #expect(json["diffPixels"] == .int(3521))
        #expect(json["pass"] == .bool(false))
        #expect(FileManager.default.fileExists(atPath: out) && FileManager.default.fileExists(atPath: comp))
    }

    @Test("an unreadable or non-PNG file exits 2 with a clear message")
    func errors() {
        let r = seatmap("diff", a, Fixtures.examplePath("seed.json"))
        #expect(r.code == 2)
        #expect(r.err.contains("seed.json: not a readable PNG"))
        #expect(seatmap("diff", a, "/nonexistent.png").code == 2)
    }

    @Test("a size mismatch fails naming both sizes")
    func sizes() {
        let other = Fixtures.root.appendingPathComponent("Tests/SeatMapGoldenTests/Fixtures/shapes-a.png").path
        let r = seatmap("diff", a, other)
        #expect(r.code == 1)
        #expect(r.err.contains("is 640×480") && r.err.contains("is 240×160"))
    }
}

@Suite("CLI: select, recommend, apply")
struct RulesCLITests {
    @Test("select prints results, total, descriptions and violations as JSON")
    func select() throws {
        let r = seatmap("select", Fixtures.examplePath("cinema-12x18.json"), "--toggle", "1-6-3,1-6-4,1-6-2,1-99-9", "--json")
        #expect(r.code == 0)
        let json = try parseJSON(r.out)
        guard case .array(let results) = json["results"]?.value else { Issue.record("no results"); return }
        #expect(results.compactMap { $0["result"] } == [.string("selected"), .string("selected"), .string("notAvailable"), .string("noSuchSeat")])
        #expect(json["total"] == .string("90"))
        #expect(json["descriptions"] == .array([.string("6排3座"), .string("6排4座")]))
        #expect(json["violations"] == .array([.string("1-6-5")]))
    }

    @Test("with a store, a token keeps its selection between runs; without one a select gets a new token")
    func store() throws {
        let path = try Fixtures.tempFolder().appendingPathComponent("s.db").path
        let file = Fixtures.examplePath("cinema-12x18.json")
        let first = try parseJSON(seatmap("select", file, "--toggle", "1-6-3", "--store", path, "--show", "A", "--json").out)
        guard case .string(let token)? = first["token"]?.value else { Issue.record("no token"); return }
        let r = seatmap("select", file, "--toggle", "1-6-4", "--store", path, "--show", "A", "--token", token, "--json")
        #expect(try parseJSON(r.out)["selected"] == .array([.string("1-6-3"), .string("1-6-4")]))
        let other = seatmap("select", file, "--toggle", "1-6-5", "--store", path, "--show", "A", "--json")
        #expect(try parseJSON(other.out)["selected"] == .array([.string("1-6-5")]))
        #expect(seatmap("select", file, "--toggle", "1-6-5", "--store", path, "--show", "A", "--token", "nope").code == 2)
        #expect(seatmap("select", file, "--toggle", "1-6-5", "--token", token).code == 2)
    }

    @Test("order sells the token's holds once; the text names what was sold")
    func orderText() throws {
        let path = try Fixtures.tempFolder().appendingPathComponent("s.db").path
        let file = Fixtures.examplePath("seed.json")
        let held = try parseJSON(seatmap("select", file, "--toggle", "1-2-2", "--store", path, "--show", "A", "--json").out)
        guard case .string(let token)? = held["token"]?.value else { Issue.record("no token"); return }
        let r = seatmap("order", "--store", path, "--show", "A", "--token", token, "--order-id", "web-1")
        #expect(r.code == 0 && r.out == "order web-1: sold 1-2-2\n", "\(r.out)")
        #expect(seatmap("order", "--store", path, "--show", "A", "--token", token, "--order-id", "web-1").out == "order web-1: already placed 1-2-2\n")
        let none = seatmap("order", "--store", path, "--show", "A", "--token", token, "--order-id", "web-2")
        #expect(none.code == 1 && none.err.contains("holds nothing"), "\(none.err)")
        #expect(seatmap("order", "--store", path, "--show", "A", "--token", token).code == 2)
        let missing = seatmap("order", "--store", path, "--show", "nope", "--token", token, "--order-id", "x")
        #expect(missing.code == 1 && missing.err.contains("no such show: nope"), "\(missing.err)")
    }

    @Test("apply --json lists each batch's outcome, changed ids and their dirty rects in the layout")
    func applyJSON() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"[{"batchId":"a","sequence":2,"changes":[{"id":"1-2-3","status":1}]},{"batchId":"a","sequence":3,"changes":[]},{"batchId":"b","sequence":1,"changes":[]}]"#, to: "u.json", in: dir)
        let r = seatmap("apply", Fixtures.examplePath("seed.json"), updates, "-o", dir.appendingPathComponent("n.json").path,
                        "--zoom", "2", "--scale", "3", "--json")
        #expect(r.code == 0, "\(r.err)")
        let json = try parseJSON(r.out)
        guard case .array(let batches) = json.value, batches.count == 3 else { Issue.record("three batches"); return }
        #expect(batches.map { $0["outcome"] } == [.string("applied"), .string("duplicate"), .string("stale")])
        let layout = try Layout(hall: try Fixtures.example("seed.json"), zoom: 2, scale: 3)
        let rect = try #require(layout.cell(id: "1-2-3")?.rect)
        #expect(batches[0]["dirty"] == .array([.object([("id", .string("1-2-3")), ("x", .int(rect.x)), ("y", .int(rect.y)),
                                                       ("w", .int(rect.w)), ("h", .int(rect.h))])]))
    }

    @Test("recommend finds a block, falls back near sell-out, or exits 1 naming why nothing fits")
    func recommend() throws {
        let r = seatmap("recommend", Fixtures.examplePath("cinema-12x18.json"), "--count", "2", "--json")
        #expect(r.code == 0)
        guard case .array(let seats) = try parseJSON(r.out)["seats"]?.value else { Issue.record("no seats"); return }
        #expect(seats.count == 2)
        // seed.json has no 3 together: two rows answer, or nothing with --together.
        let split = seatmap("recommend", Fixtures.examplePath("seed.json"), "--count", "3", "--json")
        #expect(split.code == 0)
        #expect(try parseJSON(split.out)["fallback"] == .string("split"))
        let together = seatmap("recommend", Fixtures.examplePath("seed.json"), "--count", "3", "--together")
        #expect(together.code == 1)
        #expect(together.err.contains("seed.json: no 3 adjacent seats are available in one row"))
        let tables = seatmap("recommend", Fixtures.examplePath("dinner-tables.json"), "--count", "3")
        #expect(tables.code == 1)
        #expect(tables.err.contains("booked whole in groups (tables, boxes, couple seats) of 8"))
        let unknown = seatmap("recommend", Fixtures.examplePath("imax-3-sections.json"), "--count", "2", "--section", "Z")
        #expect(unknown.code == 2)
        #expect(unknown.err.contains("no section \"Z\": the hall's sections are 1 (A区), 2 (B区), 3 (C区)"))
        let cheap = seatmap("recommend", Fixtures.examplePath("imax-3-sections.json"), "--count", "2", "--section", "C区", "--accessible", "1", "--json")
        #expect(cheap.code == 0)
        let picked = try parseJSON(cheap.out)
        #expect(picked["fallback"] == .string("none"))
        #expect(picked["total"] != nil && picked["descriptions"] != nil)
        // The recommender's words name the request's inputs; the CLI says them as its flags.
        let tooMany = seatmap("recommend", Fixtures.examplePath("seed.json"), "--count", "9")
        #expect(tooMany.code == 2)
        #expect(tooMany.err.contains("--count 9 is outside 1…"), "\(tooMany.err)")
        let accessible = seatmap("recommend", Fixtures.examplePath("seed.json"), "--count", "2", "--accessible", "3")
        #expect(accessible.code == 2)
        #expect(accessible.err.contains("--accessible 3 is outside 0…2 (the --count)"), "\(accessible.err)")
    }

    @Test("apply writes the new hall and redraws the image; a rejected batch touches nothing")
    func apply() throws {
        let dir = try Fixtures.tempFolder()
        let file = Fixtures.examplePath("seed.json")
        let updates = try Fixtures.write(#"{"batchId":"x","sequence":1,"changes":[{"id":"1-2-2","status":2}]}"#, to: "u.json", in: dir)
        let old = dir.appendingPathComponent("old.png").path, new = dir.appendingPathComponent("new.png").path
        let out = dir.appendingPathComponent("new.json").path
        #expect(seatmap("render", file, "-o", old, "--zoom", "1.37").code == 0)
        let r = seatmap("apply", file, updates, "-o", out, "--image", old, "--image-out", new, "--zoom", "1.37")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("x: 1-2-2"))
        #expect(try Files.readHall(out).cell(id: "1-2-2")?.seat.status == .sold)
        let full = dir.appendingPathComponent("full.png").path
        #expect(seatmap("render", out, "-o", full, "--zoom", "1.37").code == 0)
        #expect(seatmap("diff", new, full).code == 0, "incremental equals full")

        try #"{"batchId":"y","sequence":2,"changes":[{"id":"1-2-3","status":2},{"id":"7-7-7","status":2}]}"#
            .write(toFile: updates, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: out))
        let bad = seatmap("apply", out, updates, "-o", out, "--image", new, "--image-out", new)
        #expect(bad.code == 1)
        #expect(bad.err.contains("changes[1].id: batch \"y\" rejected: no such seat \"7-7-7\""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before)
    }
}

@Suite("CLI: import")
struct ImportCLITests {
    let camel = Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/camel.json").path

    @Test("import maoyan writes a hall that validates; info counts match")
    func imports() throws {
        let out = try Fixtures.tempFolder().appendingPathComponent("h.json").path
        let r = seatmap("import", "maoyan", camel, "-o", out, "--price", "45")
        #expect(r.code == 0, "\(r.err)")
        #expect(seatmap("validate", out).code == 0)
        let info = try parseJSON(seatmap("info", out, "--json").out)
        #expect(info["seats"] == .int(5) && info["sold"] == .int(1) && info["couplePairs"] == .int(1) && info["aisles"] == .int(1))
    }

    @Test("import errors: no prices, unknown codes without --lenient, bad usage")
    func errors() throws {
        let dir = try Fixtures.tempFolder()
        let out = dir.appendingPathComponent("h.json").path
        let noPrice = seatmap("import", "maoyan", camel, "-o", out)
        #expect(noPrice.code == 1)
        #expect(noPrice.err.contains("--price"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let sections = Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/sections.json").path
        let strict = seatmap("import", "maoyan", sections, "-o", out, "--prices", "1=45,2=60")
        #expect(strict.code == 1)
        #expect(strict.err.contains("data.sections[1].seats[0].columns[1].st: unknown seat code \"X\""))
        let lenient = seatmap("import", "maoyan", sections, "-o", out, "--prices", "1=45,2=60", "--lenient")
        #expect(lenient.code == 0)
        #expect(lenient.err.contains("warning: data.sections[1].seats[0].columns[1].st"))
        #expect(seatmap("import", "maoyan", camel, "-o", out, "--price", "1", "--prices", "1=2").code == 2)
        #expect(seatmap("import", "cinemax", camel, "-o", out).code == 2)
    }
}

@Suite("CLI: extreme inputs")
struct ExtremeInputTests {
    @Test("huge or odd numbers are refused cleanly, never trap", arguments: [
        ["hit", "SEED", "--point", "1e300,1"], ["hit", "SEED", "--point", "nan,1"], ["hit", "SEED", "--offset", "1e300,0", "--point", "1,1"],
        ["render", "SEED", "-o", "OUT", "--viewport", "1e300,10"], ["layout", "SEED", "--zoom", "inf"],
        ["hit", "SEED", "--slop", "-1", "--point", "1,1"],
    ])
    func refused(args: [String]) throws {
        let out = try Fixtures.tempFolder().appendingPathComponent("x.png").path
        let real = args.map { $0 == "SEED" ? Fixtures.examplePath("seed.json") : $0 == "OUT" ? out : $0 }
        let captured = CapturedConsole()
        #expect(SeatMapCLI.run(real, console: captured.console) == 2)
    }

    @Test("a viewport too large to render is refused with advice, exit 1")
    func hugeViewport() throws {
        let out = try Fixtures.tempFolder().appendingPathComponent("x.png").path
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out, "--viewport", "100000000,100", "--scale", "4")
        #expect(r.code == 1)
        #expect(r.err.contains("render a --viewport") || r.err.contains("lower --zoom"))
    }
}
