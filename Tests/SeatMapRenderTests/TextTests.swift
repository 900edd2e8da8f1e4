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
            let scene = try Scene(hall: try TextTests.hall(named: name), theme: try Theme.load(themeName), zoom: 1, scale: 2)
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
            let scene = try Scene(hall: try TextTests.hall(named: name), theme: try Theme.load("light"), zoom: 1, scale: 2)
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
        let scene = try Scene(hall: try TextTests.hall(named: "Hall \u{2FFFD}"), theme: try Theme.load("light"), zoom: 1, scale: 1)
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
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: try Theme.load("light"), zoom: 1, scale: 1)
        let svg = try Renderer.svg(scene)
        #expect(svg.contains("font-family=\"'WenQuanYi Micro Hei', 'Noto Sans', 'Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans Thai', 'Noto Sans Devanagari', 'Noto Sans Bengali', sans-serif\""))
    }
}
