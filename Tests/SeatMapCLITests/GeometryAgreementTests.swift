import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestClients
import SeatMapTestSupport

/// One geometry: for the same flags, `layout --json`, the SVG and the PNG
/// that `render` draws, and `hit` all agree on where every seat is.
@Suite("One geometry across commands")
struct GeometryAgreementTests {
    struct SeatBox: Equatable {
        var x: Int, y: Int, w: Int, h: Int
        func contains(_ i: Int, _ j: Int) -> Bool { i >= x && i < x + w && j >= y && j < y + h }
    }

    /// Seat rects from `layout --json`, by id.
    static func layoutSeats(_ json: JSONNode) -> [String: SeatBox] {
        guard case .array(let seats) = json["seats"]?.value else { return [:] }
        var out: [String: SeatBox] = [:]
        for s in seats {
            guard case .string(let id) = s["id"]?.value,
                  case .number(let x) = s["x"]?.value, case .number(let y) = s["y"]?.value,
                  case .number(let w) = s["w"]?.value, case .number(let h) = s["h"]?.value,
                  let xi = Int(x), let yi = Int(y), let wi = Int(w), let hi = Int(h) else { continue }
            out[id] = SeatBox(x: xi, y: yi, w: wi, h: hi)
        }
        return out
    }

    /// The bounding box of each seat group's first shape in the SVG: its
    /// first `<path>`, or the `<use>` that places an earlier path (or an
    /// earlier seat's whole drawing, a `<g id="fN">`) moved by its x, y.
    static func svgSeats(_ svg: String) -> [String: SeatBox] {
        var out: [String: SeatBox] = [:]
        /// The first `<path>` or `<use>` in `text`: its path data and offset,
        /// following `<use>` through `byID`.
        func firstShape(_ text: Substring, _ byID: [String: (Substring, Double, Double)]) -> (Substring, Double, Double)? {
            let pathAt = text.range(of: "<path ")?.lowerBound, useAt = text.range(of: "<use ")?.lowerBound
            if let u = useAt, pathAt.map({ u < $0 }) ?? true {
                let use = text[u...].prefix { $0 != ">" }
                func attr(_ name: String) -> Substring? {
                    guard let r = use.range(of: " \(name)=\"") else { return nil }
                    return use[r.upperBound...].prefix { $0 != "\"" }
                }
                // A zero offset is left out.
                guard let href = attr("href"), let target = byID[String(href.dropFirst())] else { return nil }
                let x = attr("x").flatMap { Double($0) } ?? 0, y = attr("y").flatMap { Double($0) } ?? 0
                return (target.0, target.1 + x, target.2 + y)
            }
            guard let p = pathAt, let d = text[p...].range(of: " d=\"") else { return nil }
            let rest = text[d.upperBound...]
            guard let close = rest.firstIndex(of: "\"") else { return nil }
            return (rest[..<close], 0, 0)
        }
        // Every path and fragment group with an id, in document order (a
        // fragment's first shape may be a <use> of an earlier path).
        var byID: [String: (Substring, Double, Double)] = [:]
        var cursor = svg.startIndex
        while let r = svg.range(of: " id=\"", range: cursor..<svg.endIndex) {
            cursor = r.upperBound
            guard let idEnd = svg[r.upperBound...].firstIndex(of: "\"") else { break }
            let id = String(svg[r.upperBound..<idEnd])
            let tagStart = svg[..<r.lowerBound].lastIndex(of: "<") ?? r.lowerBound
            if svg[tagStart...].hasPrefix("<path") {
                let tagEnd = svg[idEnd...].firstIndex(of: ">") ?? svg.endIndex
                if let shape = firstShape(svg[tagStart..<tagEnd], byID) { byID[id] = shape }
            } else if svg[tagStart...].hasPrefix("<g") && id.hasPrefix("f") {
                if let shape = firstShape(svg[idEnd...], byID) { byID[id] = shape }
            }
        }
        // Seats are written relative to their run group (`<g class="tier-N" data-price="P"
        // transform="translate(0 Y)">`, a line of its own): the last one opened before a seat holds it.
        let chunks = svg.components(separatedBy: "<g id=\"seat-")
        var runY = 0.0
        for (k, chunk) in chunks.enumerated().dropFirst() {
            for line in chunks[k - 1].split(separator: "\n") where line.hasPrefix("<g") && !line.hasPrefix("<g id=") {
                runY = line.range(of: "translate(0 ").flatMap { r in Double(line[r.upperBound...].prefix { $0 != ")" }) } ?? 0
            }
            guard let idEnd = chunk.firstIndex(of: "\"") else { continue }
            let id = String(chunk[..<idEnd])
            guard let (data, dx, useY) = firstShape(chunk[idEnd...], byID) else { continue }
            let dy = useY + runY
            let rest = data
            let close = data.endIndex
            var numbers: [Double] = []
            var current = ""
            for ch in rest[..<close] {
                if ch.isNumber || ch == "." || (ch == "-" && current.isEmpty) {
                    current.append(ch)
                } else {
                    if let v = Double(current) { numbers.append(v) }
                    current = ch == "-" ? "-" : ""
                }
            }
            if let v = Double(current) { numbers.append(v) }
            let xs = stride(from: 0, to: numbers.count - 1, by: 2).map { numbers[$0] + dx }
            let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] + dy }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { continue }
            out[id] = SeatBox(x: Int(x0.rounded()), y: Int(y0.rounded()), w: Int((x1 - x0).rounded()), h: Int((y1 - y0).rounded()))
        }
        return out
    }

    /// 0xRRGGBB of an opaque colour.
    static func rgb(_ c: Color) -> UInt32 {
        UInt32((c.r * 255).rounded()) << 16 | UInt32((c.g * 255).rounded()) << 8 | UInt32((c.b * 255).rounded())
    }

    static func close(_ pixel: UInt32?, _ rgb: UInt32) -> Bool {
        guard let p = pixel else { return false }
        for shift: UInt32 in [0, 8, 16] where abs(Int((p >> shift) & 0xFF) - Int((rgb >> shift) & 0xFF)) > 1 { return false }
        return true
    }

    @Test("layout --json, the SVG, the PNG and hit agree for every theme, header/legend, zoom and scale",
          arguments: TestTier.sample(Fixtures.gridExampleNames, fast: 1), TestTier.sample(Theme.shippedNames, fast: 2))
    func agree(example: String, themeName: String) throws {
        let file = Fixtures.examplePath(example)
        let hall = try Fixtures.example(example)
        let theme = try Theme.search(themeName)
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var random = SeededRandom(seed: UInt64(example.utf8.count * 31 + themeName.utf8.count))
        for header in [true, false] {
            for legend in [true, false] {
                for zoom in ["1", "1.37", "2.5"] {
                    for scale in ["1", "2", "3"] {
                        var flags = ["--theme", themeName, "--zoom", zoom, "--scale", scale]
                        if !header { flags.append("--no-header") }
                        if !legend { flags.append("--no-legend") }
                        let what = "\(example) \(flags.joined(separator: " "))"
                        try check(file: file, hall: hall, theme: theme, flags: flags, dir: dir, what: what, random: &random)
                    }
                }
            }
        }
    }

    @Test("a theme's metrics move seats in layout and hit exactly as in render")
    func themeMetrics() throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let light = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/light.json").path, encoding: .utf8)
        let custom = light.replacingOccurrences(of: "\"cornerRadius\": 5", with: """
            "cornerRadius": 9, "rowLabelsRight": true,
            "metrics": {"seatWidth": 41, "seatHeight": 27, "gapX": 7.5, "rowGap": 11, "headerHeight": 60, "margin": 30, "screenBandHeight": 70}
            """)
        #expect(custom != light)
        let path = dir.appendingPathComponent("wide.json").path
        try custom.write(toFile: path, atomically: true, encoding: .utf8)
        let theme = try Theme.search(path)
        #expect(theme.style.seatWidth == 41 && theme.style.rowLabelsRight)
        let file = Fixtures.examplePath("cinema-12x18.json")
        let hall = try Fixtures.example("cinema-12x18.json")
        // The metrics really move seats: the default layout differs.
        let plain = GeometryAgreementTests.layoutSeats(try JSONParser.parse(Array(seatmap("layout", file, "--json").out.utf8)))
        let themed = GeometryAgreementTests.layoutSeats(try JSONParser.parse(Array(seatmap("layout", file, "--json", "--theme", path).out.utf8)))
        #expect(plain.count == themed.count && plain != themed)
        var random = SeededRandom(seed: 7)
        for (zoom, scale) in [("1", "2"), ("1.37", "3")] {
            let flags = ["--theme", path, "--zoom", zoom, "--scale", scale, "--no-legend"]
            try check(file: file, hall: hall, theme: theme, flags: flags, dir: dir, what: "custom theme \(flags)", random: &random)
        }
    }

    @Test("apply reports dirty rects and redraws images in the layout its geometry flags give (with --fit too)",
          arguments: [["--fit", "375,667", "--no-header"], ["--theme", "print", "--zoom", "1.37", "--scale", "3", "--no-legend"]])
    func apply(flags: [String]) throws {
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = Fixtures.examplePath("imax-3-sections.json")
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-3","status":2},{"id":"2-9-12","status":1}]}"#, to: "updates.json", in: dir)
        let old = dir.appendingPathComponent("old.png").path, new = dir.appendingPathComponent("new.png").path
        let hall = dir.appendingPathComponent("new.json").path
        #expect(seatmap(["render", file, "-o", old] + flags).code == 0)
        let run = seatmap(["apply", file, updates, "-o", hall, "--image", old, "--image-out", new, "--json"] + flags)
        try #require(run.code == 0, "\(run.err)")
        let seats = GeometryAgreementTests.layoutSeats(try JSONParser.parse(Array(seatmap(["layout", file, "--json"] + flags).out.utf8)))
        guard case .array(let reports) = try JSONParser.parse(Array(run.out.utf8)).value,
              case .array(let dirty)? = reports.first?["dirty"]?.value else { Issue.record("no dirty rects"); return }
        #expect(dirty.count == 2)
        for d in dirty {
            guard case .string(let id) = d["id"]?.value, case .number(let x) = d["x"]?.value, case .number(let y) = d["y"]?.value,
                  case .number(let w) = d["w"]?.value, case .number(let h) = d["h"]?.value else { Issue.record("bad dirty rect"); continue }
            #expect(seats[id] == SeatBox(x: Int(x) ?? -1, y: Int(y) ?? -1, w: Int(w) ?? -1, h: Int(h) ?? -1), "\(id): dirty rect is its layout rect")
        }
        // The redrawn image equals a fresh render of the new hall with the same flags.
        let fresh = dir.appendingPathComponent("fresh.png").path
        #expect(seatmap(["render", hall, "-o", fresh] + flags).code == 0)
        let a = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: new))))
        let b = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: fresh))))
        #expect(a.width == b.width && a.height == b.height && a.rows() == b.rows())
    }

    func check(file: String, hall: Hall, theme: Theme, flags: [String], dir: URL, what: String,
               random: inout SeededRandom) throws {
        let layoutRun = seatmap(["layout", file, "--json"] + flags)
        try #require(layoutRun.code == 0, "\(what): layout failed: \(layoutRun.err)")
        let json = try JSONParser.parse(Array(layoutRun.out.utf8))
        let seats = GeometryAgreementTests.layoutSeats(json)
        #expect(seats.count == hall.rows.reduce(0) { $0 + $1.seats.filter(\.isSeat).count }, "\(what): every seat in the layout")
        guard case .number(let wText) = json["width"]?.value, case .number(let hText) = json["height"]?.value,
              let width = Int(wText), let height = Int(hText),
              case .number(let cText) = json["screen"]?["centerX"]?.value, let centerX = Int(cText),
              let zoom = Double(flags[3]), let scale = Double(flags[5]) else {
            Issue.record("\(what): layout JSON without width, height or centre")
            return
        }

        // The SVG: every seat's shape has exactly its layout rect as bounds.
        let svgPath = dir.appendingPathComponent("map.svg").path
        let svgRun = seatmap(["render", file, "-o", svgPath] + flags)
        try #require(svgRun.code == 0, "\(what): render svg failed: \(svgRun.err)")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        let sized = svg.contains("width=\"\(width)\" height=\"\(height)\"")
        #expect(sized, "\(what): the SVG is not the layout's size \(width)×\(height)")
        let drawn = GeometryAgreementTests.svgSeats(svg)
        #expect(drawn == seats, "\(what): SVG seat shapes differ from layout --json")

        // The PNG: the image is the layout's size; each seat's fill reaches
        // the middle of each inner edge of its rect, and the pixel just
        // outside is background (unless another seat or the centre line is there).
        let pngPath = dir.appendingPathComponent("map.png").path
        let pngRun = seatmap(["render", file, "-o", pngPath, "--png-compression", "fast"] + flags)
        try #require(pngRun.code == 0, "\(what): render png failed: \(pngRun.err)")
        let image = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: pngPath))))
        #expect(image.width == width && image.height == height, "\(what): PNG \(image.width)×\(image.height), layout \(width)×\(height)")
        let library = try Layout(hall: hall, style: {
            var s = theme.style
            s.header = !flags.contains("--no-header")
            s.legend = !flags.contains("--no-legend")
            return s
        }(), zoom: zoom, scale: scale)
        let dash = max(1, Int((zoom * scale).rounded()))
        let background = GeometryAgreementTests.rgb(theme.background)
        var failures = 0
        for cell in library.seats {
            guard let r = seats[cell.id.description], failures < 5 else { continue }
            let fill: Color = cell.status == .available ? theme.tierColor(cell.tier) : cell.status == .sold ? theme.sold : theme.locked
            let marked = (cell.status == .sold && theme.soldMark == .hatch) || (cell.status == .locked && theme.lockedMark == .hatch)
            let cx = r.x + r.w / 2, cy = r.y + r.h / 2
            for (i, j) in [(r.x, cy), (r.x + r.w - 1, cy), (cx, r.y), (cx, r.y + r.h - 1)] where !marked {
                if !GeometryAgreementTests.close(image.pixel(i, j), GeometryAgreementTests.rgb(fill)) {
                    Issue.record("\(what): \(cell.id) pixel (\(i),\(j)) is not its fill")
                    failures += 1
                }
            }
            for (i, j) in [(r.x - 1, cy), (r.x + r.w, cy), (cx, r.y - 1), (cx, r.y + r.h)] {
                if seats.values.contains(where: { $0.contains(i, j) }) || (centerX..<(centerX + dash)).contains(i) { continue }
                if !GeometryAgreementTests.close(image.pixel(i, j), background) {
                    Issue.record("\(what): pixel (\(i),\(j)) just outside \(cell.id) is not background")
                    failures += 1
                }
            }
        }

        // hit: at device-pixel centres (seat corners and edges, and random
        // pixels), the seat named is the one whose rect contains the pixel.
        var pixels: [(Int, Int)] = []
        for (k, r) in seats.values.sorted(by: { ($0.y, $0.x) < ($1.y, $1.x) }).enumerated() where k % 5 == 0 {
            pixels += [(r.x, r.y), (r.x + r.w - 1, r.y + r.h - 1), (r.x - 1, r.y + r.h / 2), (r.x + r.w, r.y)]
        }
        for _ in 0..<150 { pixels.append((Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random))) }
        let points = pixels.map { "\((Double($0.0) + 0.5) / scale),\((Double($0.1) + 0.5) / scale)" }
        let hitRun = seatmap(["hit", file, "--json"] + flags + ["--point"] + points)
        try #require(hitRun.code == 0, "\(what): hit failed: \(hitRun.err)")
        guard case .array(let results) = try JSONParser.parse(Array(hitRun.out.utf8)).value, results.count == pixels.count else {
            Issue.record("\(what): hit gave no result per point")
            return
        }
        for ((i, j), result) in zip(pixels, results) {
            let expected = seats.first(where: { $0.value.contains(i, j) })?.key
            var got: String? = nil
            if case .string(let id) = result["id"]?.value, case .string("seat") = result["kind"]?.value { got = id }
            if got != expected {
                Issue.record("\(what): hit at pixel (\(i),\(j)) named \(got ?? "no seat"), the layout has \(expected ?? "no seat") there")
                return
            }
        }
    }
}
