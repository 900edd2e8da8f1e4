import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// A theme colour as the opaque ARGB32 pixel Cairo writes for it.
func argb(_ c: Color) -> UInt32 {
    func b(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
    return 0xFF00_0000 | b(c.r) << 16 | b(c.g) << 8 | b(c.b)
}

func mostCommonPixel(_ image: RasterImage, in r: PixelRect) -> UInt32? {
    var counts: [UInt32: Int] = [:]
    for y in r.y..<r.maxY { for x in r.x..<r.maxX { if let p = image.pixel(x, y) { counts[p, default: 0] += 1 } } }
    return counts.max { $0.value < $1.value }?.key
}

func close(_ a: UInt32?, _ b: UInt32, tolerance: Int = 2) -> Bool {
    guard let a else { return false }
    for shift in [0, 8, 16, 24] as [UInt32] {
        if abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) > tolerance { return false }
    }
    return true
}

@Suite("Rendering")
struct RenderTests {
    @Test("each seat's centre pixel has its status or tier colour", arguments: Theme.shippedNames)
    func seatColours(themeName: String) throws {
        let theme = try Theme.search(themeName)
        for name in Fixtures.exampleNames {
            let hall = try Fixtures.example(name)
            // 0.6 × 32 pt = 20 px seats: below the 22 px level of detail, so no
            // seat numbers cover the centre.
            let scene = try Scene(hall: hall, theme: theme, zoom: 0.6, scale: 1)
            let image = try Renderer.raster(scene)
            var wrong: [String] = []
            for cell in scene.layout.seats {
                // Marks (print themes) and wheelchair icons cover the centre: sample beside them.
                let marked = (cell.status == .sold && theme.soldMark != .none) || (cell.status == .locked && theme.lockedMark != .none)
                    || cell.type == .wheelchair || cell.type == .companion
                let expected: Color
                switch cell.kind {
                // A category's own colour where the hall gives one, else the theme's palette.
                case .seat(.available): expected = theme.tierColor(cell.tier, scene.layout.tiers)
                case .seat(.locked): expected = theme.locked
                case .seat(.sold): expected = theme.sold
                case .aisle: continue
                }
                // A marked seat must still be mostly its colour.
                let got = marked ? mostCommonPixel(image, in: cell.seatRect) : image.pixel(Int(cell.rect.centerX), Int(cell.rect.centerY))
                if !close(got, argb(expected)) { wrong.append(cell.id.description) }
            }
            #expect(wrong.isEmpty, "\(name) in \(themeName): wrong colour at \(wrong.prefix(5))")
        }
    }

    /// The seed's seam bug: at non-integer zooms the gap between neighbours
    /// must be clean background along the seat's middle row.
    @Test("gaps between neighbours are background at non-integer zooms (no seams)", arguments: [1.37, 2.37])
    func noSeams(zoom: Double) throws {
        let theme = try Theme.search("light")
        let bg = argb(theme.background)
        for name in Fixtures.gridExampleNames {
            let scene = try Scene(hall: try Fixtures.example(name), theme: theme, zoom: zoom, scale: 2)
            let image = try Renderer.raster(scene)
            let l = scene.layout
            var seams = 0
            var checked = 0
            for a in l.seats {
                guard let b = l.cell(row: a.row, column: a.column + 1), b.isSeat, a.type != .coupleLeft else { continue }
                let y = Int(a.rect.centerY)
                let lineWidth = max(1, Int((zoom * 2).rounded()))
                for x in a.rect.maxX..<b.rect.x where !(l.centerX..<(l.centerX + lineWidth)).contains(x) {
                    checked += 1
                    if image.pixel(x, y) != bg { seams += 1 }
                }
            }
            #expect(checked > 0)
            #expect(seams == 0, "\(name) at zoom \(zoom): \(seams) non-background gap pixels")
        }
    }

    @Test("couple halves are drawn as one joined piece")
    func couplesJoined() throws {
        let theme = try Theme.search("light")
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: theme, zoom: 1.37, scale: 2)
        let image = try Renderer.raster(scene)
        let bg = argb(theme.background)
        var pairs = 0
        for left in scene.layout.seats where left.type == .coupleLeft {
            let right = try #require(scene.layout.cell(row: left.row, column: left.column + 1))
            #expect(left.rect.maxX == right.rect.x)
            // Just below the top edge, across the whole pair: no background.
            let y = left.rect.y + 2 * scene.layout.seatHeight / 10
            let gapPixels = (left.rect.x + 8..<right.rect.maxX - 8).filter { image.pixel($0, y) == bg }
            #expect(gapPixels.isEmpty, "\(left.id): background inside the pair at \(gapPixels.prefix(3))")
            pairs += 1
        }
        #expect(pairs == 8)
    }

    @Test("a viewport image is exactly the same region of the full render", arguments: [(1.0, 2.0), (1.37, 3.0), (2.5, 1.0)])
    func viewportIsCrop(zoom: Double, scale: Double) throws {
        let theme = try Theme.search("dark")
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: theme, zoom: zoom, scale: scale,
                              selected: ["2-5-10"], highlighted: ["2-5-11"])
        let full = try Renderer.raster(scene).rows()
        let t = ViewTransform(layout: scene.layout, viewportWidth: 375, viewportHeight: 300, offsetX: 101.3, offsetY: 57)
        let view = try Renderer.raster(scene, viewport: t).rows()
        let v = t.visiblePixels
        var differing = 0
        for j in 0..<v.h {
            for i in 0..<v.w {
                let x = v.x + i, y = v.y + j
                let expected: UInt32 = (y < full.count && x < full[0].count) ? full[y][x] : 0
                if view[j][i] != expected {
                    differing += 1
                    if differing <= 5 { Issue.record("pixel \(x),\(y): viewport \(String(view[j][i], radix: 16)), full \(String(expected, radix: 16))") }
                }
            }
        }
        #expect(differing == 0)
    }

    @Test("the minimap is drawn in the viewport's corner")
    func minimap() throws {
        let theme = try Theme.search("light")
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: theme, zoom: 2, scale: 2)
        let t = ViewTransform(layout: scene.layout, viewportWidth: 375, viewportHeight: 300, offsetX: 300, offsetY: 200)
        let plain = try Renderer.raster(scene, viewport: t).rows()
        let withMap = try Renderer.raster(scene, viewport: t, minimap: true).rows()
        let w = plain[0].count
        let corner = (0..<plain.count / 3).filter { j in (w * 2 / 3..<w).contains { plain[j][$0] != withMap[j][$0] } }
        #expect(!corner.isEmpty, "the top-right corner changes")
        #expect(plain.suffix(plain.count / 2) == withMap.suffix(plain.count / 2), "the rest is untouched")
    }

    @Test("CJK text renders as glyphs: different characters give different pixels")
    func cjkGlyphs() throws {
        let theme = try Theme.search("light")
        let seed = try Fixtures.example("seed.json")
        let hallA = try Hall(cinemaName: "银幕中央", rows: seed.rows)
        let hallB = try Hall(cinemaName: "情侣座位", rows: seed.rows)
        let a = try Renderer.raster(try Scene(hall: hallA, theme: theme, zoom: 1, scale: 2)).rows()
        let b = try Renderer.raster(try Scene(hall: hallB, theme: theme, zoom: 1, scale: 2)).rows()
        // Missing glyphs are drawn as identical boxes; real glyphs differ.
        #expect(a != b)
        let inkRows = a.prefix(120).filter { row in row.contains { $0 != argb(theme.background) } }
        #expect(!inkRows.isEmpty, "the header has text")
    }

    @Test("PNG, SVG, PDF and the picker page are the same bytes every time", arguments: OutputFormat.all)
    func deterministic(format: OutputFormat) throws {
        let theme = try Theme.search("print")
        let make = {
            let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: theme, zoom: 1, scale: 1, selected: ["1-3-3"])
            return try format.bytes(scene, RenderOptions(page: .a4))
        }
        let first = try make()
        #expect(try make() == first)
        let magic = ["png": [0x89, 0x50, 0x4E, 0x47], "pdf": Array("%PDF".utf8), "svg": Array("<?xml".utf8), "html": Array("<!doctype html>".utf8)]
        #expect(first.starts(with: try #require(magic[format.name])))
    }

    @Test("PNG compression levels trade size for speed, same pixels")
    func compression() throws {
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: try Theme.search("light"), zoom: 1, scale: 2)
        let image = try Renderer.raster(scene)
        let fast = try image.pngData(compression: .fast)
        let best = try image.pngData(compression: .best)
        #expect(fast.count > best.count)
    }
}

@Suite("SVG")
struct SVGTests {
    @Test("one element per seat with its id, classes, data and one accessible name", arguments: Fixtures.exampleNames)
    func seatElements(name: String) throws {
        let hall = try Fixtures.example(name)
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1, selected: [])
        let svg = try Renderer.svg(scene)
        let reader = SVGSeatReader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse(), "the SVG is well-formed XML")
        #expect(reader.seats.count == scene.layout.seats.count)
        #expect(Set(reader.seats.map(\.id)).count == reader.seats.count, "ids are unique")
        var wrong: [String] = []
        for seat in reader.seats {
            guard seat.id.hasPrefix("seat-"), let cell = scene.layout.cell(id: SeatID(String(seat.id.dropFirst(5))) ?? "") else {
                wrong.append(seat.id)
                continue
            }
            let locale = scene.layout.locale
            let title = locale.list([scene.layout.describe(cell), locale.type(cell.type) ?? "", cell.price.map(scene.layout.money) ?? "",
                                     cell.status.map(locale.status) ?? ""])
            // Its name said once (aria-label, no <title> again); an available seat's status and a standard
            // seat's type go without a class; its tier and price are its run group's.
            if !seat.title.isEmpty || seat.classes.contains(cell.kind.name) == (cell.status == .available)
                || seat.classes.contains(cell.type.rawValue) != (cell.type != .standard) || seat.classes.contains("seat")
                || seat.price != cell.price?.plainText || seat.runClasses != (cell.tier.map { ["tier-\($0)"] } ?? [])
                || seat.row != nil || seat.column != nil {
                wrong.append(seat.id)
            }
            // Accessible: named by its words, reachable by keyboard when it can be bought.
            if seat.role != "img" || seat.label != title || (seat.tabindex == "0") != (cell.status == .available) {
                wrong.append(seat.id + " (accessibility)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(reader.rootAttributes["role"] == "group" && reader.rootAttributes["aria-labelledby"] == "seatmap-title"
                && reader.rootAttributes["aria-describedby"] == "seatmap-desc")
        #expect(reader.documentTitle == scene.title)
        let available = scene.layout.seats.filter { $0.status == .available }.count
        #expect(reader.documentDescription == scene.layout.locale.text("summary", ["seats": String(scene.layout.seats.count),
                                                                                   "available": String(available)]))
        #expect(reader.rootWidth == String(scene.layout.width), "user units are layout pixels")
    }
}

@Suite("SVG size")
struct SVGSizeTests {
    @Test("a seat drawn alike again (shape and mark) is one <use> of the first one's group; a hatch's clip is written once per look")
    func seatFragments() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1, selected: [])
        let svg = try Renderer.svg(scene)
        var defined: Set<String> = [], undefined: [String] = [], unmarked: [String] = []
        for chunk in svg.components(separatedBy: "<g id=\"seat-").dropFirst() {
            guard let end = chunk.firstIndex(of: "\"") else { continue }
            let id = String(chunk[..<end])
            let seat = chunk.components(separatedBy: "<g id=\"seat-")[0]
            for part in seat.components(separatedBy: "<g id=\"f").dropFirst() { defined.insert(String(part.prefix { $0 != "\"" })) }
            for part in seat.components(separatedBy: "<use href=\"#f").dropFirst() where !defined.contains(String(part.prefix { $0 != "\"" })) {
                undefined.append(id)
            }
            // Sold (cross) and locked (hatch) seats are a shape and a mark: one group or one <use> of it.
            if let cell = scene.layout.cell(id: SeatID(id) ?? ""), cell.status != .available,
               !seat.contains("<use href=\"#f") && !seat.contains("<g id=\"f") {
                unmarked.append(id)
            }
        }
        #expect(undefined.isEmpty, "a <use> before the group it places: \(undefined.prefix(3))")
        #expect(unmarked.isEmpty, "\(unmarked.prefix(3))")
        let locked = scene.layout.seats.filter { $0.status == .locked }.count
        let clips = svg.components(separatedBy: "<clipPath").count - 1
        #expect(locked >= 2 && clips >= 1 && clips < locked, "\(clips) clips for \(locked) locked seats")
    }
}

/// Collects the seat groups of an SVG document.
final class SVGSeatReader: NSObject, XMLParserDelegate {
    struct SeatElement {
        var id: String
        var classes: [String]
        var row: String?
        var column: String?
        var price: String?
        /// The classes of the run group around the seat (its tier).
        var runClasses: [String] = []
        var title = ""
        var role: String?
        var label: String?
        var tabindex: String?
    }
    var seats: [SeatElement] = []
    var rootWidth: String?
    var rootAttributes: [String: String] = [:]
    /// The document's own <title> and <desc>.
    var documentTitle = "", documentDescription = ""
    private var inTitle = false, inDesc = false, inSeat = false, depth = 0, seatDepth = 0
    /// The open groups' `data-price` and classes, innermost last.
    private var groups: [(price: String?, classes: [String])] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        depth += 1
        if name == "svg" {
            rootWidth = attributes["width"]
            rootAttributes = attributes
        }
        if name == "g", let id = attributes["id"], id.hasPrefix("seat-") {
            seats.append(SeatElement(id: id, classes: (attributes["class"] ?? "").split(separator: " ").map(String.init),
                                     row: attributes["data-row"], column: attributes["data-column"],
                                     price: attributes["data-price"] ?? groups.last?.price, runClasses: groups.last?.classes ?? [],
                                     role: attributes["role"], label: attributes["aria-label"], tabindex: attributes["tabindex"]))
            inSeat = true
            seatDepth = depth
        }
        if name == "title" { inTitle = true }
        if name == "desc" { inDesc = true }
        if name == "g" { groups.append((attributes["data-price"], (attributes["class"] ?? "").split(separator: " ").map(String.init))) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle, inSeat, !seats.isEmpty { seats[seats.count - 1].title += string }
        if inTitle, depth == 2 { documentTitle += string }
        if inDesc, depth == 2 { documentDescription += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "title" { inTitle = false }
        if name == "desc" { inDesc = false }
        if name == "g", inSeat, depth == seatDepth { inSeat = false }
        if name == "g" { groups.removeLast() }
        depth -= 1
    }
}

@Suite("Render errors")
struct RenderErrorTests {
    @Test("a missing font is an error naming the font and its package")
    func missingFont() throws {
        var theme = try Theme.search("light")
        theme.fontFamily = "No Such Font Family 42"
        theme.fontPackage = "fonts-nosuch"
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: theme, zoom: 1, scale: 1)
        #expect {
            try Renderer.raster(scene)
        } throws: { error in
            "\(error)".contains("font \"No Such Font Family 42\" is not installed") && "\(error)".contains("fonts-nosuch")
        }
    }

    @Test("an image over Cairo's limit is refused with advice in the library's words, which a face says its own way")
    func oversize() throws {
        let hall = try Hall(rows: [Row(number: 1, price: 1, seats: [Seat(column: 1, status: .available), Seat(column: 1000, status: .available)])])
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 3, scale: 3)
        let error = try #require(throws: SeatMapError.self) { try Renderer.raster(scene) }
        #expect(error.message.contains("use a lower zoom or scale, or render a viewport"), "\(error.message)")
        #expect(error.naming { "--" + $0 }.message.contains("use a lower --zoom or --scale, or render a --viewport"))
        // A named input in a message is marked; text that only looks like a mark is left alone.
        #expect(Diagnostic(path: "", message: "{{level}} 3 and {{not a name}} and {{").message == "level 3 and {{not a name}} and {{")
    }

    @Test("a value that looks like a mark stays as the user wrote it, in the library's words and in a face's")
    func valuesAreNotMarks() throws {
        let key = "{{zoom}}", text = "{ {{scale}} }"
        let error = SeatMapError("unknown key \"\(key)\" beside \(text); use a lower {{zoom}}")
        #expect(error.message == "unknown key \"{{zoom}}\" beside { {{scale}} }; use a lower zoom")
        #expect(error.naming { "--" + $0 }.message == "unknown key \"{{zoom}}\" beside { {{scale}} }; use a lower --zoom")
        // A message without marks keeps no template; a verbatim text marks nothing.
        #expect(Diagnostic(path: "", message: "key \(key)").template == nil)
        #expect(Diagnostic(path: "", message: .init(verbatim: "{{zoom}}")).naming { "--" + $0 }.message == "{{zoom}}")
        // Through the decoder: a hall file's own key is quoted back as written.
        let json = #"{"rows": [{"row": 1, "price": 1, "seats": [{"column": 1, "status": 0}]}], "{{zoom}}": 1}"#
        let decoded = try HallFormat.decode(SourceText(name: "hall.json", bytes: Array(json.utf8)))
        let warning = try #require(decoded.warnings.first)
        #expect(warning.naming { "--" + $0 }.message.contains("\"{{zoom}}\""), "\(warning.message)")
    }

    @Test("the geometry group refuses what no layout takes, in the library's words")
    func geometryChecks() throws {
        let hall = try Fixtures.example("seed.json")
        let zoom = try #require(throws: SeatMapError.self) { try GeometryOptions(zoom: 9) }
        #expect(zoom.message == "zoom 9 is outside 0.25…8")
        #expect(zoom.naming { "--" + $0 }.message == "--zoom 9 is outside 0.25…8")
        let scale = try #require(throws: SeatMapError.self) { try GeometryOptions(scale: 0.5) }
        #expect(scale.message == "scale 0.5 is outside 1…4")
        let both = try #require(throws: SeatMapError.self) { try GeometryOptions(zoom: 2, fit: .init(width: 390, height: 844)) }
        #expect(both.message == "use either zoom or fit")
        // The one layout: the group's equals a layout built by hand with the same style.
        let g = try GeometryOptions(zoom: 1.5, header: false)
        let byHand = try Layout(hall: hall, style: try Theme.builtIn("light").style.with(header: false), zoom: 1.5, scale: 2)
        #expect(LayoutJSON.json(try g.layout(for: hall).layout) == LayoutJSON.json(byHand))
        let fitted = try GeometryOptions(fit: .init(width: 390, height: 844)).layout(for: hall)
        #expect(fitted.fitted != nil)
        #expect(Double(fitted.layout.width) / 2 <= 390)
    }

    @Test("a failed render leaves an existing output untouched and no temp files")
    func atomic() throws {
        let dir = try Fixtures.tempFolder()
        let out = dir.appendingPathComponent("map.png").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: out))
        var theme = try Theme.search("light")
        theme.fontFamily = "No Such Font Family 42"
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: theme, zoom: 1, scale: 1)
        #expect(throws: SeatMapError.self) { try Renderer.write(scene, to: out) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("previous".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["map.png"])
    }

    @Test("unknown --select ids are refused by name")
    func unknownSelection() throws {
        #expect(throws: SeatMapError.self) {
            try Scene(hall: try Fixtures.example("seed.json"), theme: try Theme.search("light"), zoom: 1, scale: 1, selected: ["1-9-9"])
        }
    }
}

@Suite("Themes")
struct ThemeTests {
    @Test("every shipped theme loads and passes every check of theme check", arguments: Theme.shippedNames)
    func shipped(name: String) throws {
        let theme = try Theme.search(name)
        let report = theme.check()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(theme.tierPalette.count >= 4)
    }

    @Test("print and high-contrast tell sold from locked by a mark, not only colour", arguments: ["print", "high-contrast"])
    func marks(name: String) throws {
        let theme = try Theme.search(name)
        #expect(theme.soldMark != .none && theme.lockedMark != .none && theme.soldMark != theme.lockedMark)
    }

    @Test("a bad theme file reports its path and problem")
    func badThemeFile() {
        let json = #"{"background":"whitish","tierPalette":[]}"#
        #expect {
            try Theme.decode(SourceText(name: "bad.json", bytes: Array(json.utf8)))
        } throws: { error in
            let m = "\(error)"
            return m.contains("bad.json: background: invalid colour \"whitish\"") && m.contains("tierPalette: needs at least one colour")
                && m.contains("missing required field \"locked\"")
        }
    }
}

@Suite("Phone views")
struct PhoneViewTests {
    @Test("the minimap is drawn only when the hall does not fit the viewport, and never larger than half the map")
    func minimapSize() throws {
        let hall = try Fixtures.example("seed.json")
        let theme = try Theme.search("light")
        let scene = try Scene(hall: hall, theme: theme, zoom: 1, scale: 2)
        let l = scene.layout
        // A viewport larger than the whole (small) hall: nothing to find, no minimap.
        let whole = ViewTransform(layout: l, viewportWidth: 2000, viewportHeight: 2000, offsetX: 0, offsetY: 0)
        #expect(l.minimap(visible: whole.visiblePixels) == nil)
        let plain = try Renderer.raster(scene, viewport: whole, minimap: false)
        let asked = try Renderer.raster(scene, viewport: whole, minimap: true)
        #expect(plain.rgbaPixels() == asked.rgbaPixels(), "--minimap draws nothing when the hall is all in view")
        // A phone viewport showing part of a larger hall: a thumbnail in its corner.
        let big = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: theme, zoom: 2, scale: 2)
        let phone = ViewTransform(layout: big.layout, viewportWidth: 375, viewportHeight: 300, offsetX: 100, offsetY: 100)
        let m = try #require(big.layout.minimap(visible: phone.visiblePixels))
        #expect(m.factor <= Layout.maxMinimapFactor)
        #expect(m.box.w <= big.layout.width / 2 && m.box.h <= big.layout.height / 2)
        #expect(phone.visiblePixels.intersection(m.box) == m.box, "inside the viewport")
        // Its aspect is the hall's.
        #expect(abs(Double(m.box.w) / Double(m.box.h) - Double(big.layout.width) / Double(big.layout.height)) < 0.05)
    }
}

@Suite("Status without colour")
struct StatusMarkTests {
    @Test("every shipped theme tells sold and locked from available and from each other by a mark, not only by hue",
          arguments: Theme.shippedNames)
    func marks(themeName: String) throws {
        let theme = try Theme.search(themeName)
        #expect(theme.soldMark != .none && theme.lockedMark != .none && theme.soldMark != theme.lockedMark)
        // And the marks are drawn: a sold seat's pixels differ from the same seat available, in shape, not only colour.
        let sold = try Hall(rows: [Row(number: 1, price: 10, seats: [Seat(column: 1, status: .sold)])])
        let locked = try Hall(rows: [Row(number: 1, price: 10, seats: [Seat(column: 1, status: .locked)])])
        func shape(_ hall: Hall) throws -> [Bool] {
            let scene = try Scene(hall: hall, theme: theme, zoom: 1, scale: 2)
            let image = try Renderer.raster(scene)
            let r = try #require(scene.layout.seats.first).seatRect
            // Where the seat is drawn in its fill colour (true) or in something else (a mark).
            let fill = mostCommonPixel(image, in: r)
            return (r.y..<r.maxY).flatMap { y in (r.x..<r.maxX).map { image.pixel($0, y) == fill } }
        }
        #expect(try shape(sold) != shape(locked), "\(themeName): sold and locked seats differ in shape")
        #expect(try shape(sold).contains(false) && shape(locked).contains(false), "\(themeName): both carry a mark")
    }
}

@Suite("Library API")
struct LibraryAPITests {
    @Test("Theme.builtIn gives the shipped theme by name only: no path, no search folder, a clear error for other names")
    func builtInThemes() throws {
        for name in Theme.shippedNames {
            let theme = try Theme.builtIn(name)
            #expect(theme.name == name)
        }
        #expect(throws: SeatMapError.self) { try Theme.builtIn("Themes/dark.json") }
        do {
            _ = try Theme.builtIn("drak")
            Issue.record("a theme that is not built in was found")
        } catch {
            #expect(error.message.contains("no built-in theme \"drak\"") && error.message.contains("dark"), "\(error.message)")
        }
    }

    @Test("hit(at:in:) answers the seat whose rect holds the tap's device pixel")
    func labelledHit() throws {
        let layout = try Layout(hall: try Fixtures.example("seed.json"), zoom: 1, scale: 2)
        let view = ViewTransform(layout: layout, viewportWidth: 320, viewportHeight: 240, offsetX: 0, offsetY: 0)
        let tester = HitTester(layout: layout)
        for (x, y) in [(10.0, 10.0), (120, 88), (160, 120), (300, 200)] {
            let c = view.contentPixel(of: ViewPoint(x, y))
            #expect(try tester.hit(at: ViewPoint(x, y), in: view) == tester.hit(pixelX: c.x, pixelY: c.y))
        }
    }
}
