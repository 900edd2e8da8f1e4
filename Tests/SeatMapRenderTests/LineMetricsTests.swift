import CCairo
import Testing
import SeatMapCore
@testable import SeatMapRender

/// Every line is placed by the primary font's ascent and descent. They are
/// read from the first font of the theme's whole family list (the fontset
/// the texts are shaped with), which must be the primary family's own face
/// at every size a render asks for.
@Suite("Line metrics")
struct LineMetricsTests {
    /// The ascent and descent of `family` alone at `size` pixels, through a
    /// context set up as the text engine's.
    static func alone(_ family: String, size: Double, in text: PangoText) throws -> (ascent: Double, descent: Double) {
        let description = try #require(pango_font_description_new())
        defer { pango_font_description_free(description) }
        pango_font_description_set_family(description, family)
        pango_font_description_set_absolute_size(description, size * PangoText.unit)
        let map = try #require(pango_context_get_font_map(text.context))
        let font = try #require(pango_font_map_load_font(map, text.context, description))
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let metrics = try #require(pango_font_get_metrics(font, pango_context_get_language(text.context)))
        defer { pango_font_metrics_unref(metrics) }
        return (Double(pango_font_metrics_get_ascent(metrics)) / PangoText.unit, Double(pango_font_metrics_get_descent(metrics)) / PangoText.unit)
    }

    @Test("the family list's first font has the primary family's ascent and descent, in every shipped theme and locale")
    func primaryFirst() throws {
        for name in Theme.shippedNames {
            let theme = try Theme.search(name)
            for code in SeatMapLocale.codes {
                let locale = try SeatMapLocale.named(code)
                let text = try PangoText(theme, locale: locale)
                for size in [4.0, 7.5, 11, 12.25, 16, 23, 31.5, 48, 96] {
                    let listed = text.lineMetrics(size: size)
                    let primary = try LineMetricsTests.alone(theme.fontFamily, size: size, in: text)
                    #expect(listed.ascent == primary.ascent && listed.descent == primary.descent,
                            "\(name), \(locale.language), \(size) px: \(listed) from the list, \(primary) from \(theme.fontFamily) alone")
                    #expect(listed.ascent > size / 2, "\(name), \(size) px: ascent \(listed.ascent)")
                }
            }
        }
    }
}
