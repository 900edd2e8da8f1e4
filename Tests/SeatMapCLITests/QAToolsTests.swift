import Foundation
import Testing
import SeatMapTestClients
import SeatMapTestSupport

/// The QA tools another team runs against its own app: taps with the seat
/// each must select (`probes`), a check of the app's answers with a report
/// (`verify-taps`), and a review of two folders of snapshots (`diff
/// OLD_DIR NEW_DIR`).
@Suite("QA tools: probes, verify-taps, folder diff")
struct QAToolsTests {
    static let flags = ["--zoom", "1.37", "--scale", "2", "--no-header", "--theme", "print"]
    static let cinema = Fixtures.examplePath("cinema-12x18.json")

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }

    static func probes(_ extra: [String] = [], hall: String = cinema) throws -> [[String: Any]] {
        let r = seatmap(["probes", hall, "--json"] + extra)
        try #require(r.code == 0, "\(r.err)")
        return try #require(try json(r.out) as? [[String: Any]])
    }

    /// A seat's rect in content pixels, from `layout --json`.
    static func rects(_ args: [String], hall: String = cinema) throws -> (width: Double, height: Double, seats: [String: [Double]]) {
        let r = seatmap(["layout", hall, "--json"] + args)
        let layout = try #require(try json(r.out) as? [String: Any])
        var seats: [String: [Double]] = [:]
        for s in try #require(layout["seats"] as? [[String: Any]]) {
            seats[s["id"] as! String] = ["x", "y", "w", "h"].map { s[$0] as! Double }
        }
        return (layout["width"] as! Double, layout["height"] as! Double, seats)
    }

    @Test("probes: the same seed gives the same taps, every kind where the hall has a place for it, each placed as its kind says")
    func probesByKind() throws {
        let probes = try Self.probes(["--count", "300", "--seed", "4"] + Self.flags)
        #expect(probes.count == 300)
        #expect(NSArray(array: probes).isEqual(to: try Self.probes(["--count", "300", "--seed", "4"] + Self.flags)), "deterministic for a seed")
        #expect(!NSArray(array: probes).isEqual(to: try Self.probes(["--count", "300", "--seed", "5"] + Self.flags)), "another seed, other taps")
        let kinds = Dictionary(grouping: probes, by: { $0["kind"] as! String })
        #expect(Set(kinds.keys) == ["centre", "edge", "corner", "gap", "aisle", "outside", "random"], "\(kinds.keys.sorted())")
        let layout = try Self.rects(Self.flags)
        let scale = 2.0
        for p in probes {
            let x = (p["x"] as! Double) * scale, y = (p["y"] as! Double) * scale, seat = p["seat"] as? String
            func inside(_ r: [Double]) -> Bool { x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3] }
            switch p["kind"] as! String {
            case "centre":
                let r = try #require(seat.flatMap { layout.seats[$0] }, "a centre tap names a seat: \(p)")
                #expect(abs(x - (r[0] + r[2] / 2)) <= 0.5 && abs(y - (r[1] + r[3] / 2)) <= 0.5, "\(p) is at the centre of \(r)")
            case "corner":
                let r = try #require(seat.flatMap { layout.seats[$0] }, "a corner tap names a seat: \(p)")
                let q = min(r[2], r[3]) / 3
                #expect(inside(r) && min(x - r[0], r[0] + r[2] - x) < q && min(y - r[1], r[1] + r[3] - y) < q, "\(p) is in a corner of \(r)")
            case "edge":
                // Half a pixel inside or outside a side of some seat.
                #expect(layout.seats.values.contains { r in
                    (abs(x - r[0]) == 0.5 || abs(x - (r[0] + r[2])) == 0.5) && y > r[1] && y < r[1] + r[3]
                        || (abs(y - r[1]) == 0.5 || abs(y - (r[1] + r[3])) == 0.5) && x > r[0] && x < r[0] + r[2]
                }, "\(p) is on a seat's edge")
                if let seat { #expect(inside(layout.seats[seat]!), "\(p) names the seat it is in") }
            case "gap", "aisle":
                #expect(seat == nil && !layout.seats.values.contains(where: inside), "\(p) is on no seat")
            case "outside":
                #expect(seat == nil && (x < 0 || y < 0 || x >= layout.width || y >= layout.height), "\(p) is beyond the map")
            default:
                if let seat { #expect(inside(layout.seats[seat]!), "\(p) names the seat it is in") }
                else { #expect(!layout.seats.values.contains(where: inside), "\(p) names no seat but is on one") }
            }
        }
    }

    @Test("probes: hit with the same flags answers every probe's seat, from the text form's taps; within a viewport too")
    func hitAgrees() throws {
        let dir = try Fixtures.tempFolder()
        for view in [[], ["--viewport", "200,150", "--offset", "120,90"]] {
            let text = seatmap(["probes", Self.cinema, "--count", "250", "--seed", "9"] + Self.flags + view)
            #expect(text.code == 0, "\(text.err)")
            let lines = text.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.count == 250 && lines.allSatisfy { $0.count == 3 }, "X,Y SEAT KIND a line")
            let taps = dir.appendingPathComponent("taps.txt")
            try lines.map { $0[0] + "\n" }.joined().write(to: taps, atomically: true, encoding: .utf8)
            let hit = seatmap(["hit", Self.cinema, "--points-file", taps.path, "--json"] + Self.flags + view)
            let answers = try #require(try Self.json(hit.out) as? [[String: Any]])
            #expect(answers.count == 250)
            for (line, answer) in zip(lines, answers) {
                let id = answer["kind"] as? String == "seat" ? answer["id"] as? String : nil
                #expect((id ?? "-") == line[1], "\(line): hit says \(answer)")
                if !view.isEmpty, line[2] != "outside" {
                    let xy = line[0].split(separator: ",").map { Double($0)! }
                    #expect(xy[0] >= 0 && xy[1] >= 0 && xy[0] < 200 && xy[1] < 150, "\(line) is in the viewport")
                }
            }
            #expect(lines.contains { $0[2] == "centre" } && lines.contains { $0[2] == "outside" })
        }
        #expect(seatmap(["probes", Self.cinema, "--count", "0"]).code == 2)
        #expect(seatmap(["probes", Self.cinema, "--slop", "3"]).code == 2, "a probe's truth has no slop")
    }

    @Test("verify-taps: right answers pass (by SeatMap or external id); wrong ones are listed and fail; the report marks each")
    func verifyTaps() throws {
        let dir = try Fixtures.tempFolder()
        let probes = try Self.probes(["--count", "120", "--seed", "2"] + Self.flags)
        func write(_ rows: [[String: Any]], _ name: String = "answers.jsonl") throws -> String {
            let path = dir.appendingPathComponent(name).path
            let lines = try rows.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let right = try write(probes.map { ["x": $0["x"]!, "y": $0["y"]!, "seat": $0["seat"] ?? NSNull()] })
        let pass = seatmap(["verify-taps", Self.cinema, "--answers", right] + Self.flags)
        #expect(pass.code == 0 && pass.out == "all 120 answers right\n", "\(pass)")

        // Three wrong: a seat for a gap, another seat, no seat for a seat.
        var rows = probes.map { ["x": $0["x"]!, "y": $0["y"]!, "seat": $0["seat"] ?? NSNull()] as [String: Any] }
        let gap = try #require(probes.firstIndex { $0["kind"] as? String == "gap" })
        let seats = probes.indices.filter { probes[$0]["seat"] is String }
        rows[gap]["seat"] = "1-1-1"
        rows[seats[0]]["seat"] = probes[seats[0]]["seat"] as? String == "1-2-2" ? "1-2-3" : "1-2-2"
        rows[seats[1]]["seat"] = NSNull()
        let wrongFile = try write(rows, "wrong.jsonl")
        let before = try Data(contentsOf: URL(fileURLWithPath: wrongFile))
        let report = dir.appendingPathComponent("taps.html").path
        let fail = seatmap(["verify-taps", Self.cinema, "--answers", wrongFile, "--report", report] + Self.flags)
        #expect(fail.code == 1)
        let lines = fail.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines.last == "3 of 120 answers wrong", "\(fail.out)")
        #expect(lines.contains { $0.contains("(line \(gap + 1)): expected none, got 1-1-1") }, "\(fail.out)")
        #expect(lines.contains { $0.contains("(line \(seats[1] + 1)): expected \(probes[seats[1]]["seat"]!), got none") }, "\(fail.out)")
        let json = try #require(try Self.json(seatmap(["verify-taps", Self.cinema, "--answers", wrongFile, "--json"] + Self.flags).out) as? [String: Any])
        #expect(json["checked"] as? Int == 120)
        let disagree = try #require(json["disagree"] as? [[String: Any]])
        #expect(disagree.count == 3 && disagree.allSatisfy { Set($0.keys) == ["x", "y", "expected", "got"] })
        #expect(disagree.contains { $0["expected"] is NSNull && $0["got"] as? String == "1-1-1" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: wrongFile)) == before, "the answers are not touched")
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.components(separatedBy: "<circle class=\"ring\"").count - 1 == 3, "a mark a wrong tap")
        #expect(page.components(separatedBy: "<tbody>")[1].components(separatedBy: "<tr>").count - 1 == 3, "a row a wrong tap")
        #expect(page.contains("<g id=\"seat-1-1-1\"") || page.contains("id=\"seat-"), "the map is drawn in the page")
        #expect(!page.contains("src=\"http") && !page.contains("href=\"http"), "self-contained")

        // External ids: an imported pretix plan answered by seat_guid.
        let plan = dir.appendingPathComponent("pretix.json").path
        #expect(seatmap("import", "pretix", Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-screenshots-plan-en.json").path,
                        "--price", "10", "-o", plan).code == 0)
        let layout = try #require(try Self.json(seatmap("layout", plan, "--json").out) as? [String: Any])
        var external = Dictionary(uniqueKeysWithValues: (layout["seats"] as! [[String: Any]]).map { ($0["id"] as! String, $0["externalId"] as! String) })
        // The plan gives some guids to two seats (the first answers to it): those are answered by SeatMap id.
        let shared = Set(Dictionary(grouping: external.values, by: { $0 }).filter { $0.value.count > 1 }.keys)
        external = external.filter { !shared.contains($0.value) }
        let pretixProbes = try Self.probes(["--count", "60"], hall: plan)
        let byGuid = try write(pretixProbes.map { p in
            ["x": p["x"]!, "y": p["y"]!, "seat": (p["seat"] as? String).map { external[$0] ?? $0 } ?? NSNull()]
        }, "guid.jsonl")
        #expect(pretixProbes.contains { ($0["seat"] as? String).map { external[$0] != nil } ?? false }, "some answers by guid")
        let guidCheck = seatmap("verify-taps", plan, "--answers", byGuid)
        #expect(guidCheck.code == 0, "\(guidCheck.out)")
    }

    @Test("verify-taps: a bad answers file or report path is an error (2) naming what and where")
    func verifyTapsErrors() throws {
        let dir = try Fixtures.tempFolder()
        let bad = dir.appendingPathComponent("bad.jsonl").path
        for (text, says) in [("{\"x\": 1, \"y\": 2, \"seat\": null}\n{\"x\": 1}\n", "\"y\" is missing (line 2"),
                             ("{\"x\": 1, \"y\": 2, \"seat\": 7}\n", "\"seat\" must be a seat id or null, found a number (line 1"),
                             ("[1, 2]\n", "expected an object"), ("nope\n", "not JSON"), ("\n\n", "no answers"),
                             ("{\"x\": 1e12, \"y\": 2, \"seat\": null}\n", "\"x\" must be a number within")] {
            try text.write(toFile: bad, atomically: true, encoding: .utf8)
            let r = seatmap("verify-taps", Self.cinema, "--answers", bad)
            #expect(r.code == 2 && r.err.contains(bad) && r.err.contains(says), "\(text): \(r.err)")
        }
        #expect(seatmap("verify-taps", Self.cinema).code == 2, "--answers is required")
        try "{\"x\": 1, \"y\": 2, \"seat\": null}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = seatmap("verify-taps", Self.cinema, "--answers", bad, "--report", dir.appendingPathComponent("no/such/r.html").path)
        #expect(r.code == 2 && r.err.contains("no/such/r.html"), "\(r.err)")
    }

    @Test("diff OLD_DIR NEW_DIR: one changed, one added, one removed, one unchanged; the report lists them in that order")
    func folderDiff() throws {
        let dir = try Fixtures.tempFolder()
        let old = dir.appendingPathComponent("old"), new = dir.appendingPathComponent("new")
        for d in [old, new] { try FileManager.default.createDirectory(at: d.appendingPathComponent("themes"), withIntermediateDirectories: true) }
        let seed = Fixtures.examplePath("seed.json")
        func render(_ to: URL, _ name: String, _ extra: String...) { #expect(seatmap(["render", seed, "-o", to.appendingPathComponent(name).path] + extra).code == 0) }
        render(old, "same.png"); render(new, "same.png")
        render(old, "themes/dark.png", "--theme", "dark"); render(new, "themes/dark.png", "--theme", "dark", "--select", "1-1-3")
        render(old, "gone.png", "--theme", "print"); render(new, "fresh.png", "--theme", "high-contrast")
        try "not a png".write(to: old.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("review.html").path
        let r = seatmap("diff", old.path, new.path, "--report", report)
        #expect(r.code == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5 && lines[0].hasPrefix("changed themes/dark.png: ") && lines[1] == "added fresh.png"
                && lines[2] == "removed gone.png" && lines[3] == "unchanged same.png" && lines[4].hasPrefix("FAIL: 3 of 4"), "\(r.out)")
        let json = try #require(try Self.json(seatmap("diff", old.path, new.path, "--json").out) as? [String: Any])
        #expect(json["pass"] as? Bool == false && json["changed"] as? [String] == ["themes/dark.png"] && json["added"] as? [String] == ["fresh.png"]
                && json["removed"] as? [String] == ["gone.png"] && json["unchanged"] as? [String] == ["same.png"], "\(json)")
        let page = try String(contentsOfFile: report, encoding: .utf8)
        let order = ["id=\"changed\"", "themes/dark.png", "id=\"unchanged\"", "same.png", "id=\"added\"", "fresh.png", "id=\"removed\"", "gone.png"]
            .map { page.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && zip(order, order.dropFirst()).allSatisfy { $0! < $1! }, "changed, unchanged, added, removed")
        #expect(page.components(separatedBy: "src=\"data:image/png;base64,").count - 1 == 7,
                "the changed one: old and new in the slider, then old, new, diff; the added and the removed one")
        #expect(page.contains("type=\"range\""), "a slider between old and new")

        // Gates loose enough for the change: only the one-sided files fail; without them it passes.
        #expect(seatmap("diff", old.path, new.path, "--max-diff-ratio", "0.5").code == 1)
        try FileManager.default.removeItem(at: old.appendingPathComponent("gone.png"))
        try FileManager.default.removeItem(at: new.appendingPathComponent("fresh.png"))
        let loose = seatmap("diff", old.path, new.path, "--max-diff-ratio", "0.5")
        #expect(loose.code == 0 && loose.out.hasSuffix("PASS: 2 images, none changed\n"), "\(loose.out)")
        #expect(seatmap("diff", old.path, old.path).code == 0)
        // A folder and a file, a broken PNG: errors (2) naming them.
        let mixed = seatmap("diff", old.path, old.appendingPathComponent("same.png").path)
        #expect(mixed.code == 2 && mixed.err.contains("is a folder"), "\(mixed.err)")
        try "broken".write(to: new.appendingPathComponent("same.png"), atomically: true, encoding: .utf8)
        let broken = seatmap("diff", old.path, new.path)
        #expect(broken.code == 2 && broken.err.contains(new.appendingPathComponent("same.png").path), "\(broken.err)")
    }
}
