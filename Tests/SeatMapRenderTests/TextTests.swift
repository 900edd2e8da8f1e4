import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// Text through Pango: every script the setup's fonts promise is shaped and
/// drawn (a missing glyph would be an error, never a box), and a character
/// no installed font has is an error naming it.
@Suite("Text")
struct TextTests {
    static let scripts: [(String, String)] = [
        ("Latin", "Théâtre Ærø"), ("Greek", "Θέατρο Ωδείο"), ("Cyrillic", "Большой зал"),
        ("Chinese", "环球影城 巨幕厅"), ("Japanese", "シネマ ひかり 劇場"), ("Korean", "서울 극장"),
        ("Arabic", "مسرح المدينة"), ("Hebrew", "תיאטרון הבימה"), ("Thai", "โรงละครแห่งชาติ"),
        ("Devanagari", "राष्ट्रीय रंगमंच"), ("Bengali", "জাতীয় নাট্যশালা"),
    ]

    static func hall(named name: String) throws -> Hall {
        try Hall(cinemaName: name, hallName: "1", movieStartTime: "2026-01-01 20:00",
                 rows: [Row(number: 1, price: 10, seats: [Seat(column: 1, status: .available), Seat(column: 2, status: .sold)])])
    }

    @Test("every script the setup's fonts cover renders in every shipped theme, PNG and PDF", arguments: TextTests.scripts.map(\.0))
    func everyScript(script: String) throws {
        let name = try #require(TextTests.scripts.first { $0.0 == script }?.1)
        for themeName in Theme.shippedNames {
            let scene = try Scene(hall: try TextTests.hall(named: name), theme: try Theme.search(themeName), zoom: 1, scale: 2)
            let image = try Renderer.raster(scene)
            // The header is drawn: its box holds pixels of the text colour's side.
            let box = try #require(scene.layout.header)
            var inked = 0
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX where image.pixel(x, y) != image.pixel(box.x, box.y) { inked += 1 }
            }
            #expect(inked > 20 * name.count / 2, "\(script) in \(themeName): \(inked) inked pixels")
            _ = try Renderer.pdf(scene)
        }
    }

    @Test("shaping: Arabic letters join, so a word is narrower than its letters drawn apart")
    func joining() throws {
        func inkWidth(_ name: String) throws -> Int {
            let scene = try Scene(hall: try TextTests.hall(named: name), theme: try Theme.search("light"), zoom: 1, scale: 2)
            let image = try Renderer.raster(scene)
            let box = try #require(scene.layout.header)
            var xs: [Int] = []
            for y in box.y..<box.maxY {
                for x in box.x..<box.maxX where image.pixel(x, y) != image.pixel(box.x, box.y) { xs.append(x) }
            }
            return (xs.max() ?? 0) - (xs.min() ?? 0)
        }
        // The same letters, joined (contextual forms) and isolated (ZWNJ between).
        let joined = try inkWidth("سلسلة")
        let apart = try inkWidth("س\u{200C}ل\u{200C}س\u{200C}ل\u{200C}ة")
        #expect(joined < apart, "joined \(joined) px, isolated \(apart) px")
    }

    @Test("a character no installed font has is an error naming it, its code point and the text")
    func missingGlyph() throws {
        // U+2FFFD is unassigned: no font has it.
        let scene = try Scene(hall: try TextTests.hall(named: "Hall \u{2FFFD}"), theme: try Theme.search("light"), zoom: 1, scale: 1)
        for render in [{ _ = try Renderer.raster(scene) }, { _ = try Renderer.pdf(scene) }] as [() throws -> Void] {
            #expect {
                try render()
            } throws: { error in
                let text = "\(error)"
                return text.contains("U+2FFFD") && text.contains("the header") && text.contains("Hall")
            }
        }
    }

    @Test("a theme's fontFamily may be a list: the first must be installed, the rest are fallbacks")
    func familyList() throws {
        let json = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/light.json").path, encoding: .utf8)
        let theme = try Theme.decode(SourceText(name: "list.json", bytes: Array(json.utf8)))
        #expect(theme.fontFamily == "WenQuanYi Micro Hei")
        #expect(theme.fontFallbacks.contains("Noto Sans Arabic"))
        let single = json.replacingOccurrences(of: #""fontFamily": \[[^\]]*\]"#, with: #""fontFamily": "WenQuanYi Micro Hei""#,
                                               options: .regularExpression)
        #expect(try Theme.decode(SourceText(name: "single.json", bytes: Array(single.utf8))).fontFallbacks.isEmpty)
        let empty = json.replacingOccurrences(of: #""fontFamily": \[[^\]]*\]"#, with: #""fontFamily": []"#, options: .regularExpression)
        #expect { try Theme.decode(SourceText(name: "empty.json", bytes: Array(empty.utf8))) } throws: { "\($0)".contains("at least one font family") }
    }

    @Test("the SVG names the theme's families and then a generic family")
    func svgFamilies() throws {
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let svg = try Renderer.svg(scene)
        #expect(svg.contains("font-family=\"'WenQuanYi Micro Hei', 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans Thai', 'Noto Sans Devanagari', 'Noto Sans Bengali', sans-serif\""))
    }

    /// The legend's texts and every seat title of an SVG render.
    static func svgTexts(_ svg: String) -> (texts: [String], titles: [String]) {
        func all(_ pattern: String) -> [String] {
            guard let re = try? NSRegularExpression(pattern: pattern) else { return [] }
            return re.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).compactMap {
                Range($0.range(at: 1), in: svg).map { String(svg[$0]) }
            }
        }
        // A text cut to fit keeps its whole text in a <title> inside <text>.
        let texts = all(#"<text [^>]*>([^<]*)</text>"#) + all(#"<text [^>]*>[^<]*<title>([^<]*)</title></text>"#)
        // Names: <title>s (texts, areas, the document) and seats' aria-labels.
        return (texts, all(#"<title>([^<]*)</title>"#) + all(#"<g id="seat-[^"]*"[^>]* aria-label="([^"]*)""#))
    }

    @Test("each locale's words reach the image: legend, screen label, seat titles with sections and prices", arguments: SeatMapLocale.codes)
    func locales(code: String) throws {
        let locale = try SeatMapLocale.named(code)
        var style = try Theme.search("light").style
        style.locale = locale
        let hall = try Fixtures.example("imax-3-sections.json")
        let scene = try Scene(layout: Layout(hall: hall, style: style, zoom: 1, scale: 1), theme: try Theme.search("light"))
        let (texts, titles) = TextTests.svgTexts(try Renderer.svg(scene))
        for key in ["status.locked", "status.sold", "status.selected", "kind.wheelchair"] {
            #expect(texts.contains(SVGEscape.text(locale.text(key))), "\(code): legend has \(key)")
        }
        for price in PriceTiers(hall).prices {
            #expect(texts.contains(SVGEscape.text(locale.money(price, currency: "CNY"))), "\(code): legend has \(price)")
        }
        // Every seat's title names its section (three sections), row, seat, price and status.
        let seat = try #require(scene.layout.seats.first { $0.status == .sold && $0.section == 3 })
        let expected = locale.list([locale.seat(row: seat.rowLabel, seat: seat.seatLabel, section: hall.sectionName(3)),
                                    locale.money(try #require(seat.price), currency: "CNY"), locale.status(.sold)])
        #expect(titles.contains(SVGEscape.text(expected)), "\(code): \(expected)")
        // And the PNG draws every word with a font that has it.
        _ = try Renderer.raster(scene)
        #expect(try Renderer.svg(scene).contains("xml:lang=\"\(locale.language)\" direction=\"\(locale.rightToLeft ? "rtl" : "ltr")\""))
    }

    @Test("prices in the legend in JPY, EUR (de), USD (en), KWD (ar) and CNY (zh-Hans)", arguments: [
        ("JPY", "ja", ["￥1,500", "￥2,000"]), ("EUR", "de", ["12,50\u{a0}€", "1.250,00\u{a0}€"]), ("USD", "en", ["$12.50", "$1,250.00"]),
        ("KWD", "ar", ["3.250\u{a0}د.ك.\u{200f}", "4.000\u{a0}د.ك.\u{200f}"]), ("CNY", "zh-Hans", ["¥35.00", "¥1,250.00"]),
    ])
    func currencies(_ c: (String, String, [String])) throws {
        let prices: [String] = switch c.0 {
        case "JPY": ["1500", "2000"]
        case "KWD": ["3.25", "4"]
        case "CNY": ["35", "1250"]
        default: ["12.5", "1250"]
        }
        let rows = try prices.enumerated().map { k, p in
            let price: Decimal = try #require(DecodeContext.exactDecimal(p))
            return Row(number: k + 1, price: price, seats: [Seat(column: 1, status: .available), Seat(column: 2, status: .sold)])
        }
        let hall = try Hall(cinemaName: "Money", rows: rows, currency: c.0, locale: c.1)
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        #expect(scene.layout.locale.code == c.1, "the hall's locale applies without --locale")
        let (texts, _) = TextTests.svgTexts(try Renderer.svg(scene))
        for money in c.2 { #expect(texts.contains(money), "\(c.0): \(texts)") }
        _ = try Renderer.raster(scene)
    }

    @Test("right-to-left locales lay the legend out from the right; the map is not mirrored")
    func rightToLeft() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        var style = try Theme.search("light").style
        let ltr = try Layout(hall: hall, style: style, zoom: 1, scale: 1)
        style.locale = try SeatMapLocale.named("he")
        let rtl = try Layout(hall: hall, style: style, zoom: 1, scale: 1)
        #expect(rtl.cells == ltr.cells, "seats stay where they are")
        #expect(rtl.rowLabels == ltr.rowLabels)
        let a = ltr.legendItems, b = rtl.legendItems
        #expect(a.map(\.kind) == b.map(\.kind))
        for (l, r) in zip(a, b) {
            // Items mirrored about the legend's centre, the swatch after the text.
            #expect(abs(l.rect.x + r.rect.maxX - ltr.width) <= 1, "\(l.kind): \(l.rect) mirrors to \(r.rect)")
            #expect(l.rect.y == r.rect.y)
            #expect(r.text.align == .right && l.text.align == .left)
            #expect(r.text.x < Double(r.markBox.x), "the text ends before the swatch")
        }
    }
}


@Suite("Text fitting")
struct TextFitTests {
    /// Halls with long texts in many scripts: a header, labels and names far
    /// wider than their boxes.
    static func longHall() throws -> Hall {
        let long = "Reihe mit einem sehr langen Namen"
        var rows: [Row] = []
        for r in 1...4 {
            rows.append(Row(number: r, label: ["A", "مسرح طويل جدا", "שורה ארוכה מאוד", long][r - 1], section: r <= 2 ? 1 : 2, price: Decimal(r * 1000 + 5),
                            seats: (1...6).map { Seat(column: $0, status: .available, label: $0 == 3 ? "12345" : nil) }))
        }
        return try Hall(cinemaName: "Национальный театр · المسرح الوطني · โรงละครแห่งชาติ · জাতীয় নাট্যশালা", hallName: "劇場ホール · Großer Saal mit Überlänge",
                        movieStartTime: "2026-01-01 20:00", sections: [Section(id: 1, name: "Parkett links vorne"), Section(id: 2, name: "בלקון")],
                        rows: rows, currency: "EUR")
    }

    @Test("no text's ink leaves its box, at zooms 0.25, 1 and 3, in every example and a hall of long texts", arguments: [0.25, 1, 3])
    func inBoxes(zoom: Double) throws {
        var halls = try Fixtures.exampleNames.map { ($0, try Fixtures.example($0)) }
        halls.append(("long", try TextFitTests.longHall()))
        for (name, hall) in halls {
            for code in ["zh-Hans", "de", "ar"] {
                var style = try Theme.search("light").style
                style.locale = try SeatMapLocale.named(code)
                let scene = try Scene(layout: Layout(hall: hall, style: style, zoom: zoom, scale: 2), theme: try Theme.search("light"))
                let drawn = try Renderer.drawnTexts(scene)
                #expect(!drawn.isEmpty)
                var outside: [String] = []
                for t in drawn {
                    guard let b = t.box, t.inkWidth > 0 else { continue }
                    let slack = 0.5
                    if t.inkX < Double(b.x) - slack || t.inkY < Double(b.y) - slack || t.inkX + t.inkWidth > Double(b.maxX) + slack
                        || t.inkY + t.inkHeight > Double(b.maxY) + slack {
                        outside.append("\(t.what) \"\(t.text)\" size \(t.size): ink \(t.inkX),\(t.inkY) \(t.inkWidth)×\(t.inkHeight) box \(b)")
                    }
                }
                #expect(outside.isEmpty, "\(name) \(code) z\(zoom): \(outside.prefix(3))")
            }
        }
    }

    @Test("chrome text keeps 9 pt × scale at any zoom; the layout makes room for it")
    func chromeMinimum() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let theme = try Theme.search("light")
        for scale in [1.0, 2] {
            let small = try Scene(hall: hall, theme: theme, zoom: 0.25, scale: scale)
            let drawn = try Renderer.drawnTexts(small)
            for what in ["the header", "the legend", "the screen label"] {
                let sizes = drawn.filter { $0.what == what }.map(\.size)
                #expect(!sizes.isEmpty && sizes.allSatisfy { $0 >= 9 * scale - 1e-9 }, "\(what) at scale \(scale): \(sizes)")
            }
            let header = try #require(small.layout.header)
            #expect(Double(header.h) >= 9 * scale * 36 / 14 - 1, "the header band grew with its text")
        }
        // At zoom 1 nothing grows: the images stay as they were.
        let one = try Layout(hall: hall, style: theme.style, zoom: 1, scale: 2)
        #expect(one.header?.h == Layout.pixels(theme.style.headerHeight, zoom: 1, scale: 2))
    }

    @Test("found by a hostile review: odd theme sizes cannot grow chrome bands without bound")
    func boundedGrowth() throws {
        var style = try Theme.search("light").style
        style.screenTextSize = 0.000001
        style.legendTextSize = 0.000001
        style.headerTextSize = 0.000001
        style.chromeMinTextSize = 1000
        let l = try Layout(hall: try Fixtures.example("seed.json"), style: style, zoom: 1, scale: 2)
        let plain = try Layout(hall: try Fixtures.example("seed.json"), style: try Theme.search("light").style, zoom: 1, scale: 2)
        #expect(l.height <= plain.height * Int(Layout.maxChromeGrowth) + 100, "\(l.width)×\(l.height)")
        #expect(l.centerLine.count < 1000)
    }

    @Test("found by a hostile review: a 100,000-character name is cut, not drawn past the image (Pango's 32-bit widths)")
    func hugeText() throws {
        let hall = try Hall(cinemaName: String(repeating: "W", count: 100_000),
                            rows: [Row(number: 1, price: 5, seats: [Seat(column: 1, status: .available)])])
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        let header = try #require(try Renderer.drawnTexts(scene).first { $0.what == "the header" })
        #expect(header.ellipsized && header.shown.count < 200)
        let box = try #require(header.box)
        #expect(header.inkX >= Double(box.x) - 0.5 && header.inkX + header.inkWidth <= Double(box.maxX) + 0.5)
        let svg = try Renderer.svg(scene)
        #expect(svg.contains(">\(header.shown)<title>"), "the SVG shows what the PNG shows")
    }

    @Test("a long text is shrunk, then cut with an ellipsis, and the SVG keeps the whole text in a title")
    func ellipsis() throws {
        let scene = try Scene(hall: try TextFitTests.longHall(), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let drawn = try Renderer.drawnTexts(scene)
        let header = try #require(drawn.first { $0.what == "the header" })
        #expect(header.ellipsized && header.size >= 9 - 1e-9)
        let label = try #require(drawn.first { $0.what == "a row label" && $0.text.hasPrefix("Reihe") })
        #expect(label.ellipsized || label.size < scene.layout.rowLabels[0].text.size)
        let svg = try Renderer.svg(scene)
        #expect(svg.contains(">\(SVGEscape.text(header.shown))<title>\(SVGEscape.text(scene.layout.title))</title></text>"))
        // The SVG shows the same cut text as the PNG, shorter than the whole.
        #expect(header.shown.hasSuffix("…") && header.shown.count < header.text.count)
        #expect(header.text.hasPrefix(String(header.shown.dropLast())))
        #expect(svg.contains(">\(SVGEscape.text(label.shown))<title>"))
        // Row-label pills grew for the long labels, up to four gutters.
        let gutter = Layout.pixels(scene.theme.style.rowLabelGutter, zoom: 1, scale: 1)
        let pill = try #require(scene.layout.rowLabels.first).rect
        #expect(pill.w > gutter && pill.w <= 4 * gutter)
    }

    @Test("no example, in any locale, draws a missing glyph", arguments: SeatMapLocale.codes)
    func allLocales(code: String) throws {
        var style = try Theme.search("light").style
        style.locale = try SeatMapLocale.named(code)
        for name in Fixtures.exampleNames {
            let scene = try Scene(layout: Layout(hall: try Fixtures.example(name), style: style, zoom: 0.5, scale: 1), theme: try Theme.search("light"))
            _ = try Renderer.drawnTexts(scene)
            _ = try Renderer.raster(scene)
        }
    }
}

@Suite("SVG and PDF text")
struct VectorTextTests {
    static func world() throws -> Hall {
        try Files.readHall(Fixtures.root.appendingPathComponent("Tests/Fixtures/text/world-stage.json").path)
    }

    @Test("--svg-text paths: every text becomes the outline of the glyphs the PNG draws, labelled with its text")
    func outlines() throws {
        let scene = try Scene(hall: try VectorTextTests.world(), theme: try Theme.search("light"), zoom: 1, scale: 2)
        let svg = try Renderer.svg(scene, textAsPaths: true)
        #expect(!svg.contains("<text"), "no text elements are left")
        let drawn = try Renderer.drawnTexts(scene)
        let header = try #require(drawn.first { $0.what == "the header" })
        // The header's outline spans where its ink lands in the PNG.
        let re = try NSRegularExpression(pattern: #"<path class="text" role="img" aria-label="([^"]*)" d="([^"]*)""#)
        var found = false
        for m in re.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)) {
            guard let l = Range(m.range(at: 1), in: svg), let d = Range(m.range(at: 2), in: svg),
                  svg[l] == SVGEscape.text(header.text) else { continue }
            let numbers = svg[d].split(whereSeparator: { "MLCZ ".contains($0) }).compactMap { Double($0) }
            let xs = stride(from: 0, to: numbers.count, by: 2).map { numbers[$0] }
            let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
            // Curve control points may stand a little outside the ink.
            let box = (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0)
            let ink = (header.inkX, header.inkY, header.inkX + header.inkWidth, header.inkY + header.inkHeight)
            #expect(abs(box.0 - ink.0) < 2 && abs(box.1 - ink.1) < 2 && abs(box.2 - ink.2) < 2 && abs(box.3 - ink.3) < 2, "path \(box), ink \(ink)")
            found = true
        }
        #expect(found, "the header is one labelled path")
        #expect(svg.contains("<title>\(SVGEscape.text(header.text))</title>"))
        // The same bytes for the same input.
        #expect(try Renderer.svg(scene, textAsPaths: true) == svg)
    }

    @Test("PDF text stays extractable: pdftotext reads the shaped header back, fonts subset and embedded")
    func pdfText() throws {
        let scene = try Scene(hall: try VectorTextTests.world(), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let pdf = try Renderer.pdf(scene, page: .a4)
        let text = String(decoding: pdf, as: UTF8.self)
        #expect(text.contains("/FontFile"), "fonts are embedded")
        #expect(text.contains("/ToUnicode"), "glyphs map back to text")
        let dir = try Fixtures.tempFolder()
        let file = dir.appendingPathComponent("world.pdf")
        try Data(pdf).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        p.arguments = ["-enc", "UTF-8", file.path, "-"]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // Shaped scripts come back as their characters (Hebrew, Thai, Bengali).
        for word in ["Großes", "Festspielhaus", "東京オペラシティ", "2026-12-31", "90.00", "תיאטרון", "โรงละครแห่งชาติ", "নাট্যশালা"] {
            #expect(out.contains(word), "\(word) in \(out.prefix(300))")
        }
    }
}

/// The SVG's escaping of text content (what the tests look for).
enum SVGEscape {
    static func text(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

@Suite("True legend")
struct LegendTests {
    /// The most frequent colour in a box (a mark or number covers less of a
    /// swatch or seat than its fill).
    static func fill(_ image: RasterImage, _ r: PixelRect) -> UInt32? {
        var counts: [UInt32: Int] = [:]
        for y in r.y..<r.maxY { for x in r.x..<r.maxX { if let p = image.pixel(x, y) { counts[p, default: 0] += 1 } } }
        return counts.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key
    }

    @Test("each legend swatch has exactly the fill of the seats it names, in every example and theme (read from the pixels)",
          arguments: Fixtures.exampleNames)
    func swatches(name: String) throws {
        let hall = try Fixtures.example(name)
        for themeName in Theme.shippedNames {
            let theme = try Theme.search(themeName)
            let plain = try Layout(hall: hall, style: theme.style, zoom: 1, scale: 2)
            // One available standard seat selected, so "selected" names a drawn seat.
            let chosen = plain.seats.first { $0.status == .available && $0.type == .standard }
            let scene = try Scene(layout: plain, theme: theme, selected: chosen.map { [$0.id] } ?? [])
            let image = try Renderer.raster(scene)
            var checked = 0
            for item in scene.layout.legendItems {
                let seat: LaidOutCell?
                let available = scene.layout.seats.filter { $0.status == .available && $0.id != chosen?.id }
                switch item.kind {
                case .tier(let t, _): seat = available.first { $0.tier == t && $0.type == .standard }
                case .locked: seat = scene.layout.seats.first { $0.status == .locked && $0.type == .standard }
                case .sold: seat = scene.layout.seats.first { $0.status == .sold && $0.type == .standard }
                case .selected: seat = chosen
                case .wheelchair(let t): seat = available.first { $0.tier == t && $0.type == .wheelchair }
                case .couple(let t): seat = available.first { $0.tier == t && $0.type == .coupleLeft }
                case .companion(let t): seat = available.first { $0.tier == t && $0.type == .companion }
                case .standing, .section: seat = nil
                }
                guard let seat else { continue }
                let swatch = LegendTests.fill(image, item.markBox), drawn = LegendTests.fill(image, scene.layout.markBox(of: seat))
                #expect(swatch == drawn, "\(name) \(themeName): \(item.kind) swatch \(swatch.map { String($0, radix: 16) } ?? "-") but seat \(seat.id) is \(drawn.map { String($0, radix: 16) } ?? "-")")
                checked += 1
            }
            #expect(checked >= 3, "\(name) \(themeName)")
        }
    }

    @Test("the legend lists every status (they change live) and only the seat types the hall has, unless --legend-all")
    func onlyPresent() throws {
        let hall = try Hall(rows: [Row(number: 1, price: 10, seats: [Seat(column: 1, status: .available), Seat(column: 2, status: .available)])])
        var style = try Theme.search("light").style
        let kinds = try Layout(hall: hall, style: style, zoom: 1, scale: 1).legendItems.map(\.kind)
        #expect(kinds == [.tier(0, 10), .locked, .sold, .selected])
        style.legendAll = true
        #expect(try Layout(hall: hall, style: style, zoom: 1, scale: 1).legendItems.map(\.kind)
                == [.tier(0, 10), .locked, .sold, .selected, .wheelchair(0), .couple(0), .companion(0)])
    }

    @Test("one level's legend lists the prices drawn on it, each swatch in the colour that price has in the whole hall")
    func levelLegend() throws {
        let hall = try Fixtures.example("theatre-curved.json")
        let theme = try Theme.search("light")
        let whole = try Scene(layout: Layout(hall: hall, style: theme.style, zoom: 1, scale: 2), theme: theme)
        let wholeImage = try Renderer.raster(whole)
        var wholeSwatch: [Int: UInt32] = [:]
        for item in whole.layout.legendItems { if case .tier(let t, _) = item.kind { wholeSwatch[t] = LegendTests.fill(wholeImage, item.markBox) } }
        #expect(hall.levels.count >= 2)
        var listed: Set<Int> = []
        for level in hall.levels {
            var style = theme.style
            style.level = level
            let scene = try Scene(layout: Layout(hall: hall, style: style, zoom: 1, scale: 2), theme: theme)
            let image = try Renderer.raster(scene)
            let drawn = Set(scene.layout.seats.compactMap(\.tier))
            var tiers: [Int] = []
            for item in scene.layout.legendItems {
                guard case .tier(let t, _) = item.kind else { continue }
                tiers.append(t)
                #expect(LegendTests.fill(image, item.markBox) == wholeSwatch[t], "level \(level): tier \(t) swatch")
            }
            #expect(tiers == drawn.sorted(), "level \(level) lists \(tiers), draws \(drawn.sorted())")
            #expect(tiers.count < whole.layout.tiers.prices.count, "level \(level) has fewer prices than the hall (else this checks nothing)")
            listed.formUnion(tiers)
        }
        #expect(listed == Set(whole.layout.tiers.prices.indices), "every price is listed on some level")
    }

    @Test("companion seats have their own mark, legend entry (in their tier's colour) and words in titles")
    func companion() throws {
        let seats = (1...4).map { Seat(column: $0, status: .available, type: $0 == 1 ? .wheelchair : $0 == 2 ? .companion : .standard) }
        let hall = try Hall(rows: [Row(number: 1, price: 30, seats: seats), Row(number: 2, price: 50, seats: [Seat(column: 1, status: .available)])])
        var style = try Theme.search("light").style
        style.locale = try SeatMapLocale.named("en")
        let scene = try Scene(layout: Layout(hall: hall, style: style, zoom: 1, scale: 2), theme: try Theme.search("light"))
        let item = try #require(scene.layout.legendItems.first { if case .companion(0) = $0.kind { return true } else { return false } })
        let image = try Renderer.raster(scene)
        let companion = try #require(scene.layout.cell(id: "1-1-2"))
        // Same fill as its tier, and drawn apart from the same seat as a standard one.
        #expect(LegendTests.fill(image, item.markBox) == LegendTests.fill(image, scene.layout.markBox(of: companion)))
        var standardSeats = seats
        standardSeats[1] = Seat(column: 2, status: .available, type: .standard)
        let standardHall = try Hall(rows: [Row(number: 1, price: 30, seats: standardSeats), Row(number: 2, price: 50, seats: [Seat(column: 1, status: .available)])])
        let standard = try Renderer.raster(try Scene(layout: Layout(hall: standardHall, style: style, zoom: 1, scale: 2), theme: try Theme.search("light")))
        func pixels(_ i: RasterImage, _ r: PixelRect) -> [UInt32] { (r.y..<r.maxY).flatMap { y in (r.x..<r.maxX).compactMap { i.pixel($0, y) } } }
        #expect(pixels(image, companion.seatRect) != pixels(standard, companion.seatRect))
        let svg = try Renderer.svg(scene)
        #expect(svg.contains("aria-label=\"Row 1, Seat 2, Companion seat, CN¥30.00, Available\""))
        #expect(svg.contains(">Companion seat</text>"))
    }

    @Test("couple seats in two tiers get two entries, each in its tier's colour and named with its price")
    func coupleTiers() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let scene = try Scene(hall: hall, theme: try Theme.search("light"), zoom: 1, scale: 1)
        let couples = scene.layout.legendItems.filter { if case .couple = $0.kind { return true } else { return false } }
        let coupleSeatTiers = Set(scene.layout.seats.filter { $0.type == .coupleLeft }.compactMap(\.tier))
        #expect(couples.count == coupleSeatTiers.count)
    }
}
