import Testing
import SeatMapCore
import SeatMapLayout
@testable import SeatMapRender
import SeatMapTestSupport

/// Text drawn again from its coverage must give the bytes Cairo's drawing
/// of the text gives: texts of every kind (kerned, ligatures, marks, right
/// to left, CJK, glyphs that touch) at many fractions of a pixel, in opaque
/// and translucent colours, on several grounds; and whole halls whose seat
/// numbers are small enough for neighbouring glyphs to share a pixel.
@Suite("Text stamped from its coverage")
struct TextSpriteTests {
    @Test("texts drawn again and again at each of 8 fractions of a pixel, 4 sizes, opaque and translucent colours, on 5 grounds: the bytes Cairo gives; glyphs that share a pixel go to Cairo")
    func sameAsCairo() throws {
        let theme = try Theme.builtIn("light")
        let texts = ["1", "57", "100", "388", "Row 12", "AVAVA", "Wy", "ffi", "____", "———", "1\u{301}\u{301}", "שלום", "مرحبا", "漢字", "C-12"]
        let sizes = [9.5, 12.6, 14, 25.3]
        let colors = [Color(r: 1, g: 1, b: 1), Color(r: 0.1, g: 0.2, b: 0.15), Color(r: 0.8, g: 0.2, b: 0.1, a: 0.55)]
        let grounds = [Color(r: 0, g: 0.5, b: 0.33), Color(r: 0.5, g: 0.5, b: 0.5), Color(r: 0.95, g: 0.9, b: 0.2),
                       Color(r: 0.2, g: 0.3, b: 0.9, a: 0.6), Color(r: 1, g: 1, b: 1)]
        let fractions = 8, copies = TextSprites.makeAt + 3, rowHeight = 30
        let rows = texts.count * sizes.count * fractions
        let before = TextSprites.totals, textsBefore = Stamps.totalStampedTexts
        func draw(_ stamping: Stamping) throws -> RasterImage {
            // One engine a drawing, as one render has: sprites are the engine's.
            let text = try PangoText(theme, locale: .standard)
            let image = try RasterImage(width: 40 + copies * 80, height: rows * rowHeight + 40)
            let context = try CairoContext(image.surface)
            let canvas = CairoCanvas(context, text: text, stamping: stamping)
            let band = Double(image.height) / Double(grounds.count)
            for (k, ground) in grounds.enumerated() {
                canvas.fill(Path.rect(0, Double(k) * band, Double(image.width), band), ground)
            }
            var row = 0
            for (t, string) in texts.enumerated() {
                for (s, size) in sizes.enumerated() {
                    let color = colors[(t + s) % colors.count]
                    for f in 0..<fractions {
                        // Fractions of a pixel; each place drawn again and again.
                        let fx = Double(f) * 0.1337, fy = Double(f * 5 % 8) / 8
                        let y = Double(20 + row * rowHeight) + fy
                        for copy in 0..<copies {
                            canvas.text(string, x: Double(30 + copy * 80) + fx, y: y, align: [.left, .center, .right][f % 3],
                                        style: TextStyle(size: size, color: color, what: "a test text", box: nil, minSize: size, rotation: 0))
                        }
                        row += 1
                    }
                }
            }
            try context.check("drawing")
            try text.check()
            return image
        }
        let stamped = try draw(.all), plain = try draw(.none)
        #expect(stamped.differingPixels(from: plain) == 0)
        let after = TextSprites.totals
        #expect(after.made > before.made, "sprites made")
        // Each text at each place is stamped from its sprite after the
        // requests that make it, unless it was refused.
        #expect(Stamps.totalStampedTexts - textsBefore >= rows * 2 / 3, "texts stamped: \(Stamps.totalStampedTexts - textsBefore)")
        // Underscores and dashes in a row touch: a pixel shared by two glyphs.
        #expect(after.refused > before.refused, "some texts left to Cairo")
    }

    @Test("rows of 400 seats numbered 1…400 at scale 1 (numbers 12.6 px, as at stadium-100k) and of 150 at zoom 1.37, scale 2: the same pixels stamped and filled", arguments: [(1.0, 1.0, 400), (1.37, 2.0, 150)])
    func smallNumbers(zoom: Double, scale: Double, seats: Int) throws {
        var rows: [Row] = []
        // Enough rows for each number's sprite to be made and used.
        for r in 1...(TextSprites.makeAt + 4) {
            rows.append(Row(number: r, price: 45, seats: (1...seats).map { Seat(column: $0, status: ($0 * 7 + r) % 10 < 3 ? .sold : .available) }))
        }
        let hall = try Hall(cinemaName: "Test", hallName: "Stadium rows", rows: rows)
        for theme in ["light", "dark"] {
            let scene = try GeometryOptions(theme: Theme.builtIn(theme), zoom: zoom, scale: scale).scene(for: hall)
            // On one core: one text engine sees every row of a number (on
            // two, a tile row's boundary may leave each engine too few of them
            // to make its sprite).
            let n = try Renderer.$cores.withValue(1) { try StampTests.differing(scene) }
            #expect(n == 0, "\(theme) z\(zoom) s\(scale): \(n) pixels differ")
        }
        // (That such numbers are drawn from sprites at all is the test above:
        // "100" and "388" at 12.6 px. The process's count of stamped texts
        // is no measure here: it came out 250 with this test alone and
        // 104 with the stamp tests running beside.)
    }
}
