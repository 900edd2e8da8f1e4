import Foundation
import CCairo
import SeatMapCore
import SeatMapLayout

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
package final class PangoText {
    let context: OpaquePointer
    /// Every family of the theme, as a Pango family list.
    private let families: OpaquePointer
    /// The primary family alone (its metrics place every line).
    private let primary: OpaquePointer
    private var layouts: [Key: OpaquePointer] = [:]
    private var metrics: [Double: (ascent: Double, descent: Double)] = [:]
    /// Coverages of the shaped texts drawn again (kept with them).
    let sprites = TextSprites()
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

    init(font: ResolvedFont, fallbacks: [String], language: String, rightToLeft: Bool) throws(SeatMapError) {
        self.rightToLeft = rightToLeft
        guard let map = pango_cairo_font_map_get_default(),
              let context = pango_font_map_create_context(map) else {
            throw SeatMapError("Pango could not create a text context")
        }
        self.context = context
        CairoContext.withFixedFontOptions { pango_cairo_context_set_font_options(context, $0) }
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string(language))
        if rightToLeft { pango_context_set_base_dir(context, PANGO_DIRECTION_RTL) }
        let list = ([font.family] + fallbacks).map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0 == "," ? " " : $0 })) }.joined(separator: ",")
        families = pango_font_description_new()
        pango_font_description_set_family(families, list)
        primary = pango_font_description_new()
        pango_font_description_set_family(primary, font.family)
    }

    /// The engine for a theme: its font must be installed.
    package convenience init(_ theme: Theme, locale: SeatMapLocale) throws(SeatMapError) {
        try self.init(font: FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage), fallbacks: theme.fontFallbacks,
                      language: locale.language, rightToLeft: locale.rightToLeft)
    }

    /// Throws the first character no installed font has.
    func check() throws(SeatMapError) {
        if let missing { throw missing }
    }

    deinit {
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        for layout in cut { g_object_unref(UnsafeMutableRawPointer(layout)) }
        dropPrimaryFonts()
        if let seen {
            cairo_font_options_destroy(seen.surface)
            cairo_font_options_destroy(seen.draw)
        }
        pango_font_description_free(families)
        pango_font_description_free(primary)
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// As `update(for:)`, skipped when the last update was for the same
    /// canvas in the same state (`CairoCanvas.textState`: nothing it can
    /// read has changed since): a seat map draws thousands of texts on one
    /// canvas between two changes.
    func update(for cr: OpaquePointer, canvas: UInt64, state: Int) {
        if let matched, matched.canvas == canvas, matched.state == state { return }
        update(for: cr)
        matched = (canvas, state)
    }
    private var matched: (canvas: UInt64, state: Int)?

    /// Matches the text context to a Cairo context's transformation (a
    /// scaled PDF page shapes for its own resolution); drops shaped text
    /// when it changed.
    func update(for cr: OpaquePointer) {
        matched = nil
        // pango_cairo_update_context sets the context's matrix every time,
        // and Pango counts each set as a change: every layout would then be
        // shaped again before it is drawn, and this cache emptied, text
        // after text. So it is called only when what it reads changed: the
        // matrix's linear part (Pango drops the translation) and the font
        // options of the context and of its surface.
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let surfaceOptions = cairo_font_options_create(), drawOptions = cairo_font_options_create()
        cairo_surface_get_font_options(cairo_get_target(cr), surfaceOptions)
        cairo_get_font_options(cr, drawOptions)
        let linear = SIMD4(m.xx, m.yx, m.xy, m.yy)
        if let seen, seen.linear == linear, cairo_font_options_equal(seen.surface, surfaceOptions) != 0,
           cairo_font_options_equal(seen.draw, drawOptions) != 0 {
            cairo_font_options_destroy(surfaceOptions)
            cairo_font_options_destroy(drawOptions)
            return
        }
        if let seen {
            cairo_font_options_destroy(seen.surface)
            cairo_font_options_destroy(seen.draw)
        }
        seen = (linear, surfaceOptions, drawOptions)
        pango_cairo_update_context(cr, context)
        if pango_context_get_serial(context) != serial {
            serial = pango_context_get_serial(context)
            for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
            for layout in cut { g_object_unref(UnsafeMutableRawPointer(layout)) }
            sprites.removeAll()
            layouts.removeAll()
            cut.removeAll()
            fits.removeAll()
            metrics.removeAll()
            dropPrimaryFonts()
        }
    }
    private var serial: UInt32 = 0
    /// What `update(for:)` last handed to Pango.
    private var seen: (linear: SIMD4<Double>, surface: OpaquePointer?, draw: OpaquePointer?)?

    /// The shaped text at a size in pixels (kept for reuse: seat numbers repeat).
    func layout(_ text: String, size: Double, what: String) -> OpaquePointer? {
        let key = Key(text: text, size: size)
        if let known = layouts[key] { return known }
        guard let layout = pango_layout_new(context) else { return nil }
        let shown = PangoText.bounded(text, size: size)
        let description = primaryCovers(shown, size: size) ? primary : families
        pango_font_description_set_absolute_size(description, size * PangoText.unit)
        pango_layout_set_font_description(layout, description)
        if rightToLeft { pango_layout_set_auto_dir(layout, 0) }
        pango_layout_set_text(layout, shown, -1)
        if missing == nil, pango_layout_get_unknown_glyphs_count(layout) > 0 { missing = PangoText.unknown(in: layout, text, what) }
        layouts[key] = layout
        return layout
    }

    /// Text fitted to a box: at its size when it fits, else smaller (down to
    /// `minSize`), else at `minSize` cut with an ellipsis (Pango's, so a
    /// cluster is never split); nil when not even the ellipsis fits. Height
    /// counts the primary font's ascent and descent.
    /// The width is what the box leaves from the text's anchor `x` in its
    /// alignment (all of it right of a left-aligned anchor, twice the nearer
    /// side of a centred one).
    func fitted(_ text: String, size: Double, minSize: Double, box: PixelRect?, x: Double, align: TextAlign, what: String) -> Fitted? {
        guard let box else { return layout(text, size: size, what: what).map { Fitted(layout: $0, size: size, ellipsized: false) } }
        let room: Double
        switch align {
        case .left: room = Double(box.maxX) - x
        case .right: room = x - Double(box.x)
        case .center: room = 2 * min(x - Double(box.x), Double(box.maxX) - x)
        }
        let width = max(0, min(Double(box.w), room))
        let key = FitKey(text: text, size: size, minSize: minSize, w: width, h: box.h)
        if let known = fits[key] { return known }
        let result = fit(text, size: size, minSize: min(minSize, size), width: width, height: Double(box.h), what: what)
        fits[key] = result
        return result
    }

    struct Fitted {
        let layout: OpaquePointer
        let size: Double
        let ellipsized: Bool
    }

    private struct FitKey: Hashable {
        let text: String
        let size: Double, minSize: Double
        let w: Double, h: Int
    }
    private var fits: [FitKey: Fitted?] = [:]
    private var cut: [OpaquePointer] = []

    private func fit(_ text: String, size: Double, minSize: Double, width: Double, height: Double, what: String) -> Fitted? {
        var s = size
        let m = lineMetrics(size: s)
        let line = m.ascent + m.descent
        if line > height { s = max(minSize, s * height / line) }
        guard let first = layout(text, size: s, what: what) else { return nil }
        let w = PangoText.width(of: first)
        if w <= width { return Fitted(layout: first, size: s, ellipsized: false) }
        // Unhinted advances scale with the size: one step lands on the width.
        let shrunk = max(minSize, s * width / w * 0.999)
        if shrunk < s, let second = layout(text, size: shrunk, what: what), PangoText.width(of: second) <= width {
            return Fitted(layout: second, size: shrunk, ellipsized: false)
        }
        guard let cutLayout = pango_layout_new(context) else { return nil }
        cut.append(cutLayout)
        pango_font_description_set_absolute_size(families, minSize * PangoText.unit)
        pango_layout_set_font_description(cutLayout, families)
        if rightToLeft { pango_layout_set_auto_dir(cutLayout, 0) }
        pango_layout_set_text(cutLayout, PangoText.bounded(text, size: minSize), -1)
        pango_layout_set_width(cutLayout, Int32(max(1, min(Double(Int32.max / 2), width * PangoText.unit))))
        pango_layout_set_ellipsize(cutLayout, PANGO_ELLIPSIZE_END)
        pango_layout_set_single_paragraph_mode(cutLayout, 1)
        guard PangoText.width(of: cutLayout) <= width else { return nil }
        return Fitted(layout: cutLayout, size: minSize, ellipsized: true)
    }

    /// The longest text handed to Pango at a size: Pango measures in 32-bit
    /// units (a line over about 2 million pixels would wrap around), so a
    /// longer text is cut to what a million pixels hold (it is then fitted
    /// to its box, or drawn with an ellipsis where it has none).
    static func bounded(_ text: String, size: Double) -> String {
        let limit = max(1, Int(1_000_000 / max(size, 1)))
        guard text.unicodeScalars.count > limit else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
    }

    /// The text a fitted layout shows (with its ellipsis).
    static func shownText(of f: Fitted, _ text: String) -> String {
        guard f.ellipsized else { return text }
        // Pango cuts whole clusters at the end: the ellipsis is the logically
        // last run, and its item starts where the cut text starts.
        var kept = 0
        if let iter = pango_layout_get_iter(f.layout) {
            repeat {
                if let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item {
                    kept = max(kept, Int(item.pointee.offset))
                }
            } while pango_layout_iter_next_run(iter) != 0
            pango_layout_iter_free(iter)
        }
        let bytes = Array(text.utf8)
        let prefix = String(decoding: bytes.prefix(min(kept, bytes.count)), as: UTF8.self)
        return prefix + "…"
    }

    private func dropPrimaryFonts() {
        for case let font? in primaryFonts.values { g_object_unref(UnsafeMutableRawPointer(font)) }
        primaryFonts.removeAll()
    }

    /// Whether the primary font has every character of the text, none of
    /// them one Pango never picks a font for (controls, formats, separators,
    /// variation selectors). Such a text is laid out with the primary family
    /// alone: the family list would give every character the same font (its
    /// fontset's first, which fontconfig matches to the installed
    /// `fontFamily` either way), and the primary family's fontset is loaded
    /// anyway (Pango measures every font's line height by laying out a
    /// sample in the font's own family), so fontconfig matches and sorts the
    /// fonts once a size instead of twice. Any other text takes the family
    /// list, so a fallback font is found as before.
    private func primaryCovers(_ text: String, size: Double) -> Bool {
        guard primaryAlone, let font = primaryFont(size: size) else { return false }
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator, .unassigned, .privateUse:
                if scalar != " " { return false }
            default:
                if (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value) { return false }
            }
            if pango_font_has_char(font, scalar.value) == 0 { return false }
        }
        return true
    }

    /// Off: every text takes the family list (tests compare the two).
    var primaryAlone = true

    /// Asks now for the primary family's fonts at `sizes` (in the order
    /// given), as drawn through `cr`: Pango matches and sorts each size's
    /// fonts on threads of its own, and its first text at that size waits
    /// for the match. Asked for together before the drawing, the matches
    /// run on another core while the drawing goes on, instead of one wait a
    /// size when its first text comes. Changes nothing drawn: the same
    /// fonts, asked for earlier (Pango keeps them for the context, whose
    /// state `update(for:)` sets here as the drawing will find it).
    func loadFontsAhead(_ sizes: [Double], for cr: OpaquePointer) {
        update(for: cr)
        guard primaryAlone, let map = pango_context_get_font_map(context) else { return }
        let language = pango_context_get_language(context)
        for size in sizes where size > 0 && size.isFinite && primaryFonts[size] == nil {
            pango_font_description_set_absolute_size(primary, size * PangoText.unit)
            if let fontset = pango_font_map_load_fontset(map, context, primary, language) { g_object_unref(UnsafeMutableRawPointer(fontset)) }
        }
    }

    /// The primary family's font at a size (its fontset's first).
    private func primaryFont(size: Double) -> UnsafeMutablePointer<PangoFont>? {
        if let known = primaryFonts[size] { return known }
        pango_font_description_set_absolute_size(primary, size * PangoText.unit)
        var font: UnsafeMutablePointer<PangoFont>? = nil
        if let map = pango_context_get_font_map(context) { font = pango_font_map_load_font(map, context, primary) }
        primaryFonts[size] = font
        return font
    }
    private var primaryFonts: [Double: UnsafeMutablePointer<PangoFont>?] = [:]
    /// The sizes whose primary font the drawing has loaded so far (tests).
    var loadedSizes: Set<Double> { Set(primaryFonts.keys) }

    /// The primary font's ascent and descent at a size (pixels): every line
    /// is placed by them, so a fallback glyph never moves its line.
    func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        if let m = metrics[size] { return m }
        var out = (ascent: size * 0.8, descent: size * 0.2)
        if let font = primaryFont(size: size), let m = pango_font_get_metrics(font, pango_context_get_language(context)) {
            out = (Double(pango_font_metrics_get_ascent(m)) / PangoText.unit, Double(pango_font_metrics_get_descent(m)) / PangoText.unit)
            pango_font_metrics_unref(m)
        }
        metrics[size] = out
        return out
    }

    /// Where to put a fitted layout's origin so that its text is aligned at
    /// `x` and its line centred on `y` by the primary font's ascent and
    /// descent (so a fallback glyph never moves its line).
    func origin(of f: Fitted, x: Double, y: Double, align: TextAlign) -> (x: Double, y: Double) {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(f.layout, &ink, &logical)
        let width = Double(logical.width) / PangoText.unit
        let left: Double
        switch align {
        case .left: left = x
        case .center: left = x - width / 2
        case .right: left = x - width
        }
        let m = lineMetrics(size: f.size)
        let baseline = y + (m.ascent - m.descent) / 2
        return (left - Double(logical.x) / PangoText.unit, baseline - Double(pango_layout_get_baseline(f.layout)) / PangoText.unit)
    }

    /// The inked extents of a layout drawn at `origin` (pixels).
    static func ink(of layout: OpaquePointer, at origin: (x: Double, y: Double)) -> (x: Double, y: Double, w: Double, h: Double) {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return (origin.x + Double(ink.x) / unit, origin.y + Double(ink.y) / unit, Double(ink.width) / unit, Double(ink.height) / unit)
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
        // An invisible or control character is named by its code point alone.
        let visible = Unicode.Scalar(code).map { !$0.properties.isWhitespace && $0.properties.generalCategory != .control
            && $0.properties.generalCategory != .format && $0.properties.generalCategory != .unassigned } ?? false
        let character = visible ? Unicode.Scalar(code).map { "\"\(Character($0))\" " } ?? "" : ""
        let hex = String(code, radix: 16, uppercase: true)
        let shown = text.unicodeScalars.count > 200 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(200))) + "…" : text
        return SeatMapError("no installed font has the character \(character)(U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)) in \(what) \"\(shown)\"; install a font that covers it (the setup installs fonts-noto-core; emoji need an emoji font) or name one in the theme's fontFallbacks")
    }
}

/// One text as a render draws it: the box the layout gave it and where its
/// ink lands (pixels), after fitting.
public struct DrawnText: Sendable {
    public let text: String
    /// What the text is ("the header", "a row label", …).
    public let what: String
    public let box: PixelRect?
    public let size: Double
    public let ellipsized: Bool
    /// The text as drawn: cut, with its ellipsis, when `ellipsized`.
    public let shown: String
    public let inkX: Double, inkY: Double, inkWidth: Double, inkHeight: Double
}

/// Records the sizes of the texts a drawing asks for, each once, in the
/// order it first asks (see `PangoText.loadFontsAhead`).
final class TextSizeCanvas: Canvas {
    private(set) var sizes: [Double] = []
    private var seen = Set<Double>()
    func fill(_ path: Path, _ color: Color) {}
    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) {}
    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        if !string.isEmpty, style.size > 0, seen.insert(style.size).inserted { sizes.append(style.size) }
    }
    func pushClip(_ rect: PixelRect) {}
    func popClip() {}
    var wantsSeatTags: Bool { false }
    func beginSeat(_ tag: SeatTag) {}
    func endSeat() {}
}

/// Records where each text's ink lands, fitted and placed exactly as the
/// Cairo canvas draws it (for tests and tools that check text stays in its box).
final class InkCanvas: Canvas {
    let pango: PangoText
    var drawn: [DrawnText] = []

    init(_ pango: PangoText) { self.pango = pango }

    func fill(_ path: Path, _ color: Color) {}
    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) {}
    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        guard !string.isEmpty, style.size > 0,
              let f = pango.fitted(string, size: style.size, minSize: style.minSize, box: style.box, x: x, align: align, what: style.what) else { return }
        let ink = PangoText.ink(of: f.layout, at: pango.origin(of: f, x: x, y: y, align: align))
        drawn.append(DrawnText(text: string, what: style.what, box: style.box, size: f.size, ellipsized: f.ellipsized,
                               shown: PangoText.shownText(of: f, string), inkX: ink.x, inkY: ink.y, inkWidth: ink.w, inkHeight: ink.h))
    }
    func pushClip(_ rect: PixelRect) {}
    func popClip() {}
    var wantsSeatTags: Bool { false }
    func beginSeat(_ tag: SeatTag) {}
    func endSeat() {}
}

extension Renderer {
    /// Every text a full render draws, with its box and where its ink lands.
    public static func drawnTexts(_ scene: Scene) throws(SeatMapError) -> [DrawnText] {
        let pango = try PangoText(scene.theme, locale: scene.layout.locale)
        let canvas = InkCanvas(pango)
        Painter(scene: scene, canvas: canvas).draw()
        try pango.check()
        return canvas.drawn
    }
}
