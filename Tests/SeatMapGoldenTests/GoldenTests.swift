import Foundation
import Testing
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// One reference image: `Golden/<hall>-<theme>-z<zoom>-s<scale>[-<variant>].png`.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var hall: String
    var theme: String
    var zoom: Double
    var scale: Double
    var variant: String? = nil
    var selected: Set<SeatID> = []
    var highlighted: Set<SeatID> = []
    /// Viewport (points) and offset, for the phone-viewport case.
    var viewport: (w: Double, h: Double, x: Double, y: Double)? = nil
    var minimap = false
    /// A free venue's single level (`render --level N`).
    var level: Int? = nil
    /// `--locale`, and a hall from `Tests/Fixtures/` instead of `Examples/`.
    var locale: String? = nil
    var fixture: String? = nil
    /// `render --ticket` (and `--show-occupancy`).
    var ticket: [SeatID] = []
    var showOccupancy = false
    var pinRowLabels = false

    var name: String {
        let z = zoom == zoom.rounded() ? String(Int(zoom)) : String(zoom)
        let s = scale == scale.rounded() ? String(Int(scale)) : String(scale)
        return "\(hall)-\(theme)-z\(z)-s\(s)" + (variant.map { "-\($0)" } ?? "")
    }
    var testDescription: String { name }
}

let goldenCases: [GoldenCase] = {
    var cases: [GoldenCase] = []
    // Every example in every shipped theme at zoom 1, scale 2 (couples,
    // wheelchair seats, sections, right-to-left labels and CJK text included).
    for file in Fixtures.exampleNames {
        for theme in Theme.shippedNames {
            cases.append(GoldenCase(hall: String(file.dropLast(5)), theme: theme, zoom: 1, scale: 2))
        }
    }
    // Non-integer zooms catch seams.
    for hall in ["cinema-12x18", "labels-rtl"] {
        for zoom in [1.5, 2.37, 3] {
            cases.append(GoldenCase(hall: hall, theme: "light", zoom: zoom, scale: 1))
        }
    }
    cases.append(GoldenCase(hall: "cinema-12x18", theme: "dark", zoom: 1, scale: 2, variant: "selected",
                            selected: ["1-5-3", "1-5-4", "1-12-5", "1-12-6"], highlighted: ["1-8-8", "1-8-9"]))
    cases.append(GoldenCase(hall: "imax-3-sections", theme: "light", zoom: 2, scale: 2, variant: "viewport-minimap",
                            selected: ["2-5-12"], viewport: (375, 300, 300, 160), minimap: true))
    // A phone view scrolled right with its row labels pinned (and the minimap
    // showing the selection); the print theme's right-hand labels pinned too.
    cases.append(GoldenCase(hall: "imax-3-sections", theme: "light", zoom: 2, scale: 2, variant: "viewport-pinned",
                            selected: ["2-4-8", "2-5-8"], viewport: (375, 300, 500, 300), minimap: true, pinRowLabels: true))
    cases.append(GoldenCase(hall: "cinema-12x18", theme: "print", zoom: 1.5, scale: 2, variant: "viewport-pinned",
                            viewport: (320, 240, 150, 120), pinRowLabels: true))
    // E-tickets: the buyer's two seats in every theme, others neutral, the
    // screen's direction above; a non-integer zoom; a turned block of a
    // free venue with occupancy shown and the stage's direction; Arabic.
    for theme in Theme.shippedNames {
        cases.append(GoldenCase(hall: "cinema-12x18", theme: theme, zoom: 1, scale: 1, variant: "ticket", ticket: ["1-7-7", "1-7-8"]))
    }
    cases.append(GoldenCase(hall: "imax-3-sections", theme: "print", zoom: 1.37, scale: 2, variant: "ticket",
                            ticket: ["2-9-12", "2-9-13"]))
    cases.append(GoldenCase(hall: "arena-blocks", theme: "light", zoom: 1, scale: 1, variant: "ticket-occupancy",
                            locale: "de", ticket: ["1-2-2"], showOccupancy: true))
    cases.append(GoldenCase(hall: "theatre-curved", theme: "dark", zoom: 0.75, scale: 2, variant: "ticket-ar",
                            locale: "ar", ticket: ["2-9-11", "2-9-12"]))
    // Free venues (curved rows, turned blocks, round tables, areas, standing,
    // levels) at a second, non-integer zoom in every theme, one level alone,
    // a selection with an e-ticket outline, and a phone viewport with minimap.
    for file in Fixtures.freeExampleNames {
        for theme in Theme.shippedNames {
            cases.append(GoldenCase(hall: String(file.dropLast(5)), theme: theme, zoom: 0.75, scale: 1))
        }
    }
    cases.append(GoldenCase(hall: "theatre-curved", theme: "light", zoom: 1, scale: 2, variant: "level1", level: 1))
    cases.append(GoldenCase(hall: "arena-blocks", theme: "dark", zoom: 1, scale: 1, variant: "selected",
                            selected: ["1-2-4", "1-2-5", "3-14-6"], highlighted: ["2-9-2", "2-9-3"]))
    cases.append(GoldenCase(hall: "dinner-tables", theme: "light", zoom: 2, scale: 2, variant: "viewport-minimap",
                            selected: ["1-6-1", "1-6-2", "1-6-3", "1-6-4", "1-6-5", "1-6-6", "1-6-7", "1-6-8"],
                            viewport: (375, 300, 443, 740), minimap: true))
    // Text: a hall named and labelled in Arabic, Hebrew, Thai, Bengali,
    // Japanese and German with long labels (shaped, fallen back, shrunk,
    // cut), in two themes and two locales (German; Arabic, right to left).
    for theme in ["light", "dark"] {
        for locale in ["de", "ar"] {
            cases.append(GoldenCase(hall: "world-stage", theme: theme, zoom: 1, scale: 1, variant: locale, locale: locale,
                                    fixture: "text/world-stage.json"))
        }
    }
    return cases
}()

@Suite("Golden images")
struct GoldenTests {
    static let folder = Fixtures.root.appendingPathComponent("Golden").path
    static let artifacts = GoldenFile.artifactsFolder(default: Fixtures.root.appendingPathComponent(".build/golden-artifacts").path)

    @Test("renderings match their reference images", arguments: goldenCases)
    func matches(_ c: GoldenCase) throws {
        let theme = try Theme.search(c.theme)
        var style = theme.style
        style.level = c.level
        style.locale = try c.locale.map(SeatMapLocale.named)
        if !c.ticket.isEmpty { style.legend = false }
        let hall = try c.fixture.map { try Files.readHall(Fixtures.root.appendingPathComponent("Tests/Fixtures/" + $0).path) }
            ?? Fixtures.example(c.hall + ".json")
        var scene = try Scene(layout: Layout(hall: hall, style: style, zoom: c.zoom, scale: c.scale),
                              theme: theme, selected: c.selected, highlighted: c.highlighted)
        scene.pinRowLabels = c.pinRowLabels
        if !c.ticket.isEmpty { try scene.makeTicket(for: c.ticket, showOccupancy: c.showOccupancy) }
        let viewport = c.viewport.map {
            ViewTransform(layout: scene.layout, viewportWidth: $0.w, viewportHeight: $0.h, offsetX: $0.x, offsetY: $0.y)
        }
        let raster = try Renderer.raster(scene, viewport: viewport, minimap: c.minimap)
        let image = RGBAImage(width: raster.width, height: raster.height, pixels: raster.rgbaPixels())
        let outcome = try GoldenFile.check(image, png: { try raster.pngData(compression: .best) }, name: c.name,
                                           folder: GoldenTests.folder, artifacts: GoldenTests.artifacts)
        switch outcome {
        case .matched(let r):
            #expect(r.diffPixels == 0)
        case .recorded(let message), .mismatch(let message):
            Issue.record(Comment(rawValue: message))
        }
    }

    @Test("the references stay under 8 MB in total")
    func budget() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: GoldenTests.folder).filter { $0.hasSuffix(".png") }
        let total = try names.reduce(0) { sum, name in
            let attributes = try FileManager.default.attributesOfItem(atPath: GoldenTests.folder + "/" + name)
            return sum + ((attributes[.size] as? Int) ?? 0)
        }
        #expect(total < 8_000_000, "Golden/ holds \(total) bytes")
        #expect(Set(names) == Set(goldenCases.map { $0.name + ".png" }), "every reference belongs to a case")
    }
}
