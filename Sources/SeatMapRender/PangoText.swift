import Foundation
import CCairo
import SeatMapCore

/// Text through Pango: HarfBuzz shaping, bidirectional runs and font
/// fallback through fontconfig, drawn with pangocairo. One engine serves one
/// render (one thread: Pango's default font map is per thread).
///
/// Deterministic: fixed font options (grey antialiasing, no hinting, no
/// hinted metrics, unrounded glyph positions), a fixed language (not the
/// process's `LANG`), sizes in pixels, and the theme's family list
/// (`fontFamily` first, then `fontFallbacks`) before fontconfig's own
/// fallback. A character no installed font has is an error naming it, its
/// code point and the text it is in; it is never drawn as a box.
final class PangoText {
    let context: OpaquePointer
    /// Every family of the theme, as a Pango family list.
    private let families: OpaquePointer
    /// The primary family alone (its metrics place every line).
    private let primary: OpaquePointer
    private var layouts: [Key: OpaquePointer] = [:]
    private var metrics: [Double: (ascent: Double, descent: Double)] = [:]
    /// The first character found that no font has.
    private(set) var missing: SeatMapError?

    private struct Key: Hashable {
        let text: String
        let size: Double
    }

    /// Pango's fixed-point unit.
    static let unit = Double(seatmap_pango_scale())

    /// Right to left: every text's paragraph runs right to left (a
    /// left-to-right locale takes each text's direction from its first
    /// strong character).
    let rightToLeft: Bool

    init(font: ResolvedFont, fallbacks: [String], language: String = "zh-cn", rightToLeft: Bool = false) throws(SeatMapError) {
        self.rightToLeft = rightToLeft
        guard let map = pango_cairo_font_map_get_default(),
              let context = pango_font_map_create_context(map) else {
            throw SeatMapError("Pango could not create a text context")
        }
        self.context = context
        if let options = cairo_font_options_create() {
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
        }
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string(language))
        if rightToLeft { pango_context_set_base_dir(context, PANGO_DIRECTION_RTL) }
        let list = ([font.family] + fallbacks).map { $0.replacingOccurrences(of: ",", with: " ") }.joined(separator: ",")
        families = pango_font_description_new()
        pango_font_description_set_family(families, list)
        primary = pango_font_description_new()
        pango_font_description_set_family(primary, font.family)
    }

    /// The engine for a theme: its font must be installed.
    convenience init(_ theme: Theme, locale: SeatMapLocale) throws(SeatMapError) {
        try self.init(font: FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage), fallbacks: theme.fontFallbacks,
                      language: locale.language, rightToLeft: locale.rightToLeft)
    }

    /// Throws the first character no installed font has.
    func check() throws(SeatMapError) {
        if let missing { throw missing }
    }

    deinit {
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_font_description_free(families)
        pango_font_description_free(primary)
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Matches the text context to a Cairo context's transformation (a
    /// scaled PDF page shapes for its own resolution); drops shaped text
    /// when it changed.
    func update(for cr: OpaquePointer) {
        pango_cairo_update_context(cr, context)
        if pango_context_get_serial(context) != serial {
            serial = pango_context_get_serial(context)
            for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
            layouts.removeAll()
            metrics.removeAll()
        }
    }
    private var serial: UInt32 = 0

    /// The shaped text at a size in pixels (kept for reuse: seat numbers repeat).
    func layout(_ text: String, size: Double, what: String) -> OpaquePointer? {
        let key = Key(text: text, size: size)
        if let known = layouts[key] { return known }
        guard let layout = pango_layout_new(context) else { return nil }
        pango_font_description_set_absolute_size(families, size * PangoText.unit)
        pango_layout_set_font_description(layout, families)
        if rightToLeft { pango_layout_set_auto_dir(layout, 0) }
        pango_layout_set_text(layout, text, -1)
        if missing == nil, pango_layout_get_unknown_glyphs_count(layout) > 0 { missing = PangoText.unknown(in: layout, text, what) }
        layouts[key] = layout
        return layout
    }

    /// The primary font's ascent and descent at a size (pixels): every line
    /// is placed by them, so a fallback glyph never moves its line.
    func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        if let m = metrics[size] { return m }
        pango_font_description_set_absolute_size(primary, size * PangoText.unit)
        var out = (ascent: size * 0.8, descent: size * 0.2)
        if let map = pango_context_get_font_map(context), let font = pango_font_map_load_font(map, context, primary),
           let m = pango_font_get_metrics(font, pango_context_get_language(context)) {
            out = (Double(pango_font_metrics_get_ascent(m)) / PangoText.unit, Double(pango_font_metrics_get_descent(m)) / PangoText.unit)
            pango_font_metrics_unref(m)
            g_object_unref(UnsafeMutableRawPointer(font))
        }
        metrics[size] = out
        return out
    }

    /// The logical width of shaped text (pixels).
    static func width(of layout: OpaquePointer) -> Double {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Double(logical.width) / unit
    }

    /// The first character of the text that came out as an unknown glyph.
    static func unknown(in layout: OpaquePointer, _ text: String, _ what: String) -> SeatMapError {
        let flag = seatmap_pango_unknown_flag()
        var found: UInt32? = nil
        if let iter = pango_layout_get_iter(layout) {
            repeat {
                if let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs {
                    let n = Int(glyphs.pointee.num_glyphs)
                    for g in 0..<n where found == nil {
                        let glyph = glyphs.pointee.glyphs[g].glyph
                        if glyph & flag != 0 { found = glyph & ~flag }
                    }
                }
            } while found == nil && pango_layout_iter_next_run(iter) != 0
            pango_layout_iter_free(iter)
        }
        let code = found ?? 0xFFFD
        let character = Unicode.Scalar(code).map { String(Character($0)) } ?? "?"
        let hex = String(code, radix: 16, uppercase: true)
        return SeatMapError("no installed font has the character \"\(character)\" (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) in \(what) \"\(text)\"; install a font that covers it (the setup installs fonts-noto-core) or name one in the theme's fontFallbacks")
    }
}
