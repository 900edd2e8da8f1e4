import CCairo
import Testing
import SeatMapCore
import SeatMapLayout
@testable import SeatMapRender
import SeatMapTestSupport

/// Text is shaped once into glyph runs and drawn from them by Cairo. The
/// runs must draw the bytes Pango's own drawing of the same text gives
/// (pango_cairo_show_layout on a layout made here, as the renderer drew
/// before): texts of every kind (kerned, ligatures, marks, right to left,
/// CJK, fallback fonts, glyphs that touch) at many fractions of a pixel,
/// in opaque and translucent colours, on several grounds.
@Suite("Text drawn from glyph runs")
struct GlyphRunTests {
    static let texts = ["1", "57", "100", "388", "Row 12", "AVAVA", "Wy", "ffi", "____", "———", "1\u{301}\u{301}", "שלום", "مرحبا",
                        "漢字", "C-12", "مسرح Hall 2", "Большой зал"]

    /// Every text at 4 sizes and 6 fractions of a pixel, drawn by `draw`
    /// (text, size, origin) in a colour over banded grounds.
    static func image(_ draw: (OpaquePointer, String, Double, (x: Double, y: Double)) -> Void) throws -> RasterImage {
        let sizes = [9.5, 12.6, 14, 25.3]
        let colors = [Color(r: 1, g: 1, b: 1), Color(r: 0.1, g: 0.2, b: 0.15), Color(r: 0.8, g: 0.2, b: 0.1, a: 0.55)]
        let grounds = [Color(r: 0, g: 0.5, b: 0.33), Color(r: 0.95, g: 0.9, b: 0.2), Color(r: 0.2, g: 0.3, b: 0.9, a: 0.6)]
        let image = try RasterImage(width: 1000, height: texts.count * sizes.count * 34 + 40)
        let context = try CairoContext(image.surface)
        let cr = context.cr
        let band = Double(image.height) / Double(grounds.count)
        for (k, ground) in grounds.enumerated() {
            cairo_set_source_rgba(cr, ground.r, ground.g, ground.b, ground.a)
            cairo_rectangle(cr, 0, Double(k) * band, Double(image.width), band)
            cairo_fill(cr)
        }
        var row = 0
        for (t, text) in texts.enumerated() {
            for (s, size) in sizes.enumerated() {
                let c = colors[(t + s) % colors.count]
                for f in 0..<6 {
                    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
                    draw(cr, text, size, (x: 10 + Double(f) * 160 + Double(f) * 0.1337, y: 20 + Double(row * 34) + Double(f * 5 % 8) / 8))
                }
                row += 1
            }
        }
        try context.check("drawing")
        return image
    }

    @Test("glyph runs draw the bytes pango_cairo_show_layout draws for the same text, at every fraction of a pixel, in every colour, on every ground")
    func sameAsPango() throws {
        let theme = try Theme.builtIn("light")
        let text = try PangoText(theme, locale: .standard)
        text.primaryAlone = false
        let ours = try Self.image { cr, string, size, origin in
            guard let shaped = text.layout(string, size: size, what: "a test text") else { return }
            shaped.draw(on: cr, at: origin, keepText: false)
            cairo_new_path(cr)
        }
        try text.check()
        // Pango's drawing: a layout of the same family list, size and options.
        let map = try #require(pango_cairo_font_map_new())
        defer { g_object_unref(UnsafeMutableRawPointer(map)) }
        let context = try #require(pango_font_map_create_context(map))
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let pango = try Self.image { cr, string, size, origin in
            let layout = pango_layout_new(context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let description = pango_font_description_new()
            defer { pango_font_description_free(description) }
            pango_font_description_set_family(description, ([theme.fontFamily] + theme.fontFallbacks).joined(separator: ","))
            pango_font_description_set_absolute_size(description, size * PangoText.unit)
            CairoContext.withFixedFontOptions { pango_cairo_context_set_font_options(context, $0) }
            pango_context_set_round_glyph_positions(context, 0)
            pango_context_set_language(context, pango_language_from_string(SeatMapLocale.standard.language))
            pango_cairo_update_context(cr, context)
            pango_layout_set_font_description(layout, description)
            pango_layout_set_text(layout, string, -1)
            cairo_move_to(cr, origin.x, origin.y)
            pango_cairo_show_layout(cr, layout)
            cairo_new_path(cr)
        }
        let differing = ours.differingPixels(from: pango) ?? -1
        #expect(differing == 0, "\(differing) pixels differ")
        // Something was drawn: the texts' pixels differ from the grounds alone.
        let grounds = try Self.image { _, _, _, _ in }
        #expect((ours.differingPixels(from: grounds) ?? 0) > 10_000)
    }

    @Test("a text is shaped once for the process: engines of two renders on two threads get the same runs")
    func shapedOnce() async throws {
        let theme = try Theme.builtIn("light")
        async let a = Task.detached { try PangoText(theme, locale: .standard).layout("Row 12", size: 13.5, what: "test").map(ObjectIdentifier.init) }.value
        async let b = Task.detached { try PangoText(theme, locale: .standard).layout("Row 12", size: 13.5, what: "test").map(ObjectIdentifier.init) }.value
        let (first, second) = try await (a, b)
        #expect(first != nil && first == second)
    }
}
