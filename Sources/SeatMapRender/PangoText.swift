import Foundation
import CCairo
import SeatMapCore
import SeatMapLayout

/// Text shaped once into glyph runs: the fonts, glyph ids and places Pango
/// (HarfBuzz shaping, bidirectional runs, font fallback through
/// fontconfig) gives a text at a size, kept for the process and drawn by
/// Cairo (`cairo_show_glyphs`; `cairo_show_text_glyphs` where the surface
/// keeps text, as PDF does; `cairo_glyph_path` for outlines). Every render,
/// canvas, tile and thread draws the same runs: nothing is shaped twice.
///
/// Shaping goes through one Pango font map for the process, under one lock
/// (a Pango font map is not safe to share between threads otherwise). The
/// runs hold Cairo's scaled fonts, which Cairo lets any thread draw with.
///
/// Deterministic: fixed font options (grey antialiasing, no hinting, no
/// hinted metrics, unrounded glyph positions), a fixed language (not the
/// process's `LANG`), sizes in pixels, shaping in user space (no device
/// transformation: places scale with a PDF page's scale), and the theme's
/// family list (`fontFamily` first, then `fontFallbacks`) before
/// fontconfig's own fallback.
package final class ShapedText: @unchecked Sendable {
    /// A run: one font, its glyphs in visual order. Places are in Pango's
    /// units from the text's origin and added up in Pango's renderer's order
    /// when drawn (the run's start from the origin, each glyph from the
    /// run's start), so each glyph lands where pango_cairo_show_layout puts
    /// it, to the bit.
    struct Run {
        let font: OpaquePointer
        let x: Int32, y: Int32
        let glyphs: [(index: UInt, x: Int32, y: Int32)]
        /// The run's text (UTF-8) and its clusters in logical order, for
        /// surfaces that keep text (PDF: copy, search, accessibility).
        let utf8: [CChar]
        let clusters: [cairo_text_cluster_t]
        let backward: Bool
    }
    let runs: [Run]
    /// Pango's logical and ink rectangles and baseline, in Pango's units.
    let logical: PangoRectangle, ink: PangoRectangle
    let baseline: Int32
    /// The family list the text was shaped with.
    let families: String
    /// The first character no font has (an unknown glyph), if any.
    let unknown: UInt32?
    /// Ellipsized text: the bytes of the text kept before the ellipsis.
    let kept: Int?

    init(runs: [Run], logical: PangoRectangle, ink: PangoRectangle, baseline: Int32, families: String, unknown: UInt32?, kept: Int?) {
        self.runs = runs
        self.logical = logical
        self.ink = ink
        self.baseline = baseline
        self.families = families
        self.unknown = unknown
        self.kept = kept
    }

    deinit { for run in runs { cairo_scaled_font_destroy(run.font) } }

    /// Shapes a layout's lines into runs (under the shaper's lock).
    fileprivate static func make(_ layout: OpaquePointer, families: String, ellipsized: Bool) -> ShapedText {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let baseline = pango_layout_get_baseline(layout)
        let text = pango_layout_get_text(layout)
        let flag = seatmap_pango_unknown_flag(), empty = seatmap_pango_glyph_empty()
        var runs: [Run] = [], unknown: UInt32? = nil, kept = 0
        if let iter = pango_layout_get_iter(layout) {
            repeat {
                var lineLogical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &lineLogical)
                let lineBaseline = pango_layout_iter_get_baseline(iter)
                var xOff: Int32 = 0
                var node = pango_layout_iter_get_line_readonly(iter)?.pointee.runs
                while let n = node {
                    node = n.pointee.next
                    guard let item = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                          let glyphString = item.pointee.glyphs, let pangoItem = item.pointee.item else { continue }
                    kept = max(kept, Int(pangoItem.pointee.offset))
                    let count = Int(glyphString.pointee.num_glyphs)
                    var glyphs: [(index: UInt, x: Int32, y: Int32)] = []
                    var position: Int32 = 0
                    var drawn: [Bool] = []
                    for g in 0..<count {
                        let info = glyphString.pointee.glyphs[g]
                        let known = info.glyph & flag == 0
                        if !known, unknown == nil { unknown = info.glyph & ~flag }
                        drawn.append(known && info.glyph != empty)
                        if known, info.glyph != empty { glyphs.append((UInt(info.glyph), position + info.geometry.x_offset, info.geometry.y_offset)) }
                        position += info.geometry.width
                    }
                    // As Pango's renderer moves a run: by its start offset before
                    // it, its end offset after, and up by its y offset (all 0
                    // unless a text has letter spacing or a baseline shift).
                    let runX = lineLogical.x + xOff + item.pointee.start_x_offset, runY = lineBaseline - item.pointee.y_offset
                    xOff += item.pointee.start_x_offset + pango_glyph_string_get_width(glyphString) + item.pointee.end_x_offset
                    guard !glyphs.isEmpty, let font = pangoItem.pointee.analysis.font,
                          let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(font)),
                          cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else { continue }
                    // Clusters as Pango's renderer hands them to Cairo, counting the glyphs drawn.
                    let backward = pangoItem.pointee.analysis.level & 1 == 1
                    var clusters: [cairo_text_cluster_t] = []
                    var utf8: [CChar] = []
                    if let text {
                        var clusterIter = PangoGlyphItemIter()
                        var more = pango_glyph_item_iter_init_start(&clusterIter, item, text) != 0
                        while more {
                            let a = Int(clusterIter.start_glyph), b = Int(clusterIter.end_glyph)
                            let range = backward ? (b + 1)..<(a + 1) : a..<b
                            let inCluster = range.filter { $0 >= 0 && $0 < drawn.count && drawn[$0] }.count
                            clusters.append(cairo_text_cluster_t(num_bytes: clusterIter.end_index - clusterIter.start_index, num_glyphs: Int32(inCluster)))
                            more = pango_glyph_item_iter_next_cluster(&clusterIter) != 0
                        }
                        let offset = Int(pangoItem.pointee.offset), length = Int(pangoItem.pointee.length)
                        utf8 = Array(UnsafeBufferPointer(start: text + offset, count: length))
                    }
                    runs.append(Run(font: cairo_scaled_font_reference(scaled), x: runX, y: runY,
                                    glyphs: glyphs, utf8: utf8, clusters: clusters, backward: backward))
                }
            } while pango_layout_iter_next_line(iter) != 0
            pango_layout_iter_free(iter)
        }
        return ShapedText(runs: runs, logical: logical, ink: ink, baseline: baseline, families: families, unknown: unknown,
                          kept: ellipsized ? kept : nil)
    }

    /// The glyphs of a run placed for an origin Cairo holds (its current point).
    private func placed(_ run: Run, _ cx: Double, _ cy: Double) -> [cairo_glyph_t] {
        let baseX = cx + Double(run.x) / PangoText.unit, baseY = cy + Double(run.y) / PangoText.unit
        return run.glyphs.map { g in
            cairo_glyph_t(index: g.index, x: baseX + Double(g.x) / PangoText.unit, y: g.y == 0 ? baseY : baseY + Double(g.y) / PangoText.unit)
        }
    }

    /// Draws the runs with their origin at `origin` (user space) in the
    /// context's source. `keepText`: with their text and clusters (a
    /// surface that keeps text). `path`: adds their outlines to the path instead.
    func draw(on cr: OpaquePointer, at origin: (x: Double, y: Double), keepText: Bool, path: Bool = false) {
        // Where Cairo holds the point (device space, 1/256 px), as Pango's renderer reads it.
        cairo_move_to(cr, origin.x, origin.y)
        var cx = 0.0, cy = 0.0
        cairo_get_current_point(cr, &cx, &cy)
        for run in runs {
            var glyphs = placed(run, cx, cy)
            cairo_set_scaled_font(cr, run.font)
            if path {
                cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
            } else if keepText, !run.utf8.isEmpty, !run.clusters.isEmpty {
                var clusters = run.clusters
                run.utf8.withUnsafeBufferPointer { text in
                    cairo_show_text_glyphs(cr, text.baseAddress, Int32(text.count), &glyphs, Int32(glyphs.count), &clusters, Int32(clusters.count),
                                           run.backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
                }
            } else {
                cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
            }
        }
        if !path { cairo_move_to(cr, cx, cy) }
    }
}

/// The process's shaping: one Pango font map, one context per family list,
/// language and direction, the shaped texts they made, all under one lock.
final class TextShaper: @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var map: OpaquePointer?
    nonisolated(unsafe) private static var shapers: [String: TextShaper] = [:]
    /// At most this many shaped texts are kept a shaper, and fonts and
    /// metrics for at most `sizeLimit` sizes (sizes follow zoom and scale,
    /// which a service's clients choose): when full, they start again.
    static let limit = 65_536, sizeLimit = 256

    private let context: OpaquePointer
    private let families: OpaquePointer, primary: OpaquePointer
    private let familyList: String, primaryFamily: String
    private let rightToLeft: Bool
    private var shaped: [Key: ShapedText] = [:]
    private var primaryFonts: [Double: UnsafeMutablePointer<PangoFont>?] = [:]
    private var metrics: [Double: (ascent: Double, descent: Double)] = [:]

    struct Key: Hashable {
        let text: String
        let size: Double
        let list: Bool
        /// The width an ellipsized text was cut to (Pango units), or -1.
        let cut: Int32
    }

    /// Loads Pango's font map for the process now (fontconfig's
    /// configuration and caches): what the first text would otherwise wait for.
    package static func prepare() {
        _ = lock.withLock { loadedMap() }
    }

    private static func loadedMap() -> OpaquePointer? {
        if map == nil { map = pango_cairo_font_map_new().map(OpaquePointer.init) }
        return map
    }

    /// The shaper of a family list, language and direction.
    static func shaper(font: ResolvedFont, fallbacks: [String], language: String, rightToLeft: Bool) throws(SeatMapError) -> TextShaper {
        let list = ([font.family] + fallbacks).map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0 == "," ? " " : $0 })) }.joined(separator: ",")
        let key = [list, font.family, language, rightToLeft ? "rtl" : "ltr"].joined(separator: "\u{0}")
        lock.lock()
        defer { lock.unlock() }
        if let known = shapers[key] { return known }
        guard let map = loadedMap(), let context = pango_font_map_create_context(UnsafeMutablePointer(map)) else {
            throw SeatMapError("Pango could not create a text context")
        }
        let shaper = TextShaper(context: context, list: list, primary: font.family, language: language, rightToLeft: rightToLeft)
        shapers[key] = shaper
        return shaper
    }

    private init(context: OpaquePointer, list: String, primary: String, language: String, rightToLeft: Bool) {
        self.context = context
        self.rightToLeft = rightToLeft
        familyList = list
        primaryFamily = primary
        // SeatMap's fixed options over what an image surface asks for (as
        // pango_cairo_update_context merges them for an image).
        if let probe = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), let options = cairo_font_options_create() {
            cairo_surface_get_font_options(probe, options)
            CairoContext.withFixedFontOptions { cairo_font_options_merge(options, $0) }
            pango_cairo_context_set_font_options(context, options)
            cairo_font_options_destroy(options)
            cairo_surface_destroy(probe)
        }
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string(language))
        if rightToLeft { pango_context_set_base_dir(context, PANGO_DIRECTION_RTL) }
        families = pango_font_description_new()
        pango_font_description_set_family(families, list)
        self.primary = pango_font_description_new()
        pango_font_description_set_family(self.primary, primary)
    }

    /// `text` shaped at `size` px in the primary family alone or the whole
    /// list; `cut`: ellipsized at the end to that width (px).
    func shape(_ text: String, size: Double, list: Bool, cut: Double? = nil) -> ShapedText? {
        let cutUnits = cut.map { Int32(max(1, min(Double(Int32.max / 2), $0 * PangoText.unit))) } ?? -1
        let key = Key(text: text, size: size, list: list, cut: cutUnits)
        return TextShaper.lock.withLock {
            if let known = shaped[key] { return known }
            guard let layout = pango_layout_new(context) else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let description = list ? families : primary
            pango_font_description_set_absolute_size(description, size * PangoText.unit)
            pango_layout_set_font_description(layout, description)
            if rightToLeft { pango_layout_set_auto_dir(layout, 0) }
            pango_layout_set_text(layout, PangoText.bounded(text, size: size), -1)
            if cut != nil {
                pango_layout_set_width(layout, cutUnits)
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
                pango_layout_set_single_paragraph_mode(layout, 1)
            }
            let made = ShapedText.make(layout, families: list ? familyList : primaryFamily, ellipsized: cut != nil)
            // Full: the kept texts start again (renders holding them keep
            // theirs), so memory stays bounded and new texts are still kept.
            if shaped.count >= TextShaper.limit { shaped.removeAll() }
            shaped[key] = made
            return made
        }
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
    func primaryCovers(_ text: String, size: Double) -> Bool {
        TextShaper.lock.withLock {
            guard let font = primaryFont(size: size) else { return false }
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
    }

    /// Asks for the primary family's fonts at `sizes` (in the order given):
    /// Pango matches and sorts each size's fonts on threads of its own, and
    /// the first text at that size waits for the match.
    func loadAhead(_ sizes: [Double]) {
        TextShaper.lock.withLock {
            guard let map = pango_context_get_font_map(context) else { return }
            let language = pango_context_get_language(context)
            for size in sizes where size > 0 && size.isFinite && primaryFonts[size] == nil {
                pango_font_description_set_absolute_size(primary, size * PangoText.unit)
                if let fontset = pango_font_map_load_fontset(map, context, primary, language) { g_object_unref(UnsafeMutableRawPointer(fontset)) }
            }
        }
    }

    /// The primary family's font at a size (its fontset's first); under the lock.
    private func primaryFont(size: Double) -> UnsafeMutablePointer<PangoFont>? {
        if let known = primaryFonts[size] { return known }
        if primaryFonts.count >= TextShaper.sizeLimit {
            for case let font? in primaryFonts.values { g_object_unref(UnsafeMutableRawPointer(font)) }
            primaryFonts.removeAll()
        }
        pango_font_description_set_absolute_size(primary, size * PangoText.unit)
        var font: UnsafeMutablePointer<PangoFont>? = nil
        if let map = pango_context_get_font_map(context) { font = pango_font_map_load_font(map, context, primary) }
        primaryFonts[size] = font
        return font
    }

    /// The primary font's ascent and descent at a size (pixels).
    func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        TextShaper.lock.withLock {
            if let m = metrics[size] { return m }
            var out = (ascent: size * 0.8, descent: size * 0.2)
            if let font = primaryFont(size: size), let m = pango_font_get_metrics(font, pango_context_get_language(context)) {
                out = (Double(pango_font_metrics_get_ascent(m)) / PangoText.unit, Double(pango_font_metrics_get_descent(m)) / PangoText.unit)
                pango_font_metrics_unref(m)
            }
            if metrics.count >= TextShaper.sizeLimit { metrics.removeAll() }
            metrics[size] = out
            return out
        }
    }
}

/// One render's view of the shaped text: the process's shaper for the
/// theme's families, the texts this render asked for (no lock for a text
/// asked for again), fitting, and the first missing character it met.
/// A character no installed font has is an error naming it, its code
/// point and the text it is in; it is never drawn as a box.
package final class PangoText {
    private let shaper: TextShaper
    private var layouts: [Key: ShapedText] = [:]
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

    init(font: ResolvedFont, fallbacks: [String], language: String, rightToLeft: Bool) throws(SeatMapError) {
        self.rightToLeft = rightToLeft
        shaper = try TextShaper.shaper(font: font, fallbacks: fallbacks, language: language, rightToLeft: rightToLeft)
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

    /// The shaped text at a size in pixels.
    func layout(_ text: String, size: Double, what: String) -> ShapedText? {
        let key = Key(text: text, size: size)
        if let known = layouts[key] { return known }
        let list = !(primaryAlone && primaryCovers(text, size: size))
        guard let shaped = shaper.shape(text, size: size, list: list) else { return nil }
        if missing == nil, shaped.unknown != nil { missing = PangoText.unknown(shaped, text, what) }
        layouts[key] = shaped
        return shaped
    }

    private func primaryCovers(_ text: String, size: Double) -> Bool {
        asked.insert(size)
        return shaper.primaryCovers(PangoText.bounded(text, size: size), size: size)
    }
    /// The sizes whose primary font this engine has asked for (tests).
    private var asked = Set<Double>()
    var loadedSizes: Set<Double> { asked }

    /// Text fitted to a box: at its size when it fits, else smaller (down to
    /// `minSize`), else at `minSize` cut with an ellipsis (Pango's, so a
    /// cluster is never split); nil when not even the ellipsis fits. Height
    /// counts the primary font's ascent and descent.
    /// The width is what the box leaves from the text's anchor `x` in its
    /// alignment (all of it right of a left-aligned anchor, twice the nearer
    /// side of a centred one).
    func fitted(_ text: String, size: Double, minSize: Double, box: PixelRect?, x: Double, align: TextAlign, what: String) -> Fitted? {
        guard let box else { return layout(text, size: size, what: what).map { Fitted(shaped: $0, size: size, ellipsized: false) } }
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
        let shaped: ShapedText
        let size: Double
        let ellipsized: Bool
    }

    private struct FitKey: Hashable {
        let text: String
        let size: Double, minSize: Double
        let w: Double, h: Int
    }
    private var fits: [FitKey: Fitted?] = [:]

    private func fit(_ text: String, size: Double, minSize: Double, width: Double, height: Double, what: String) -> Fitted? {
        var s = size
        let m = lineMetrics(size: s)
        let line = m.ascent + m.descent
        if line > height { s = max(minSize, s * height / line) }
        guard let first = layout(text, size: s, what: what) else { return nil }
        let w = PangoText.width(of: first)
        if w <= width { return Fitted(shaped: first, size: s, ellipsized: false) }
        // Unhinted advances scale with the size: one step lands on the width.
        let shrunk = max(minSize, s * width / w * 0.999)
        if shrunk < s, let second = layout(text, size: shrunk, what: what), PangoText.width(of: second) <= width {
            return Fitted(shaped: second, size: shrunk, ellipsized: false)
        }
        guard let cut = shaper.shape(text, size: minSize, list: true, cut: width), PangoText.width(of: cut) <= width else { return nil }
        return Fitted(shaped: cut, size: minSize, ellipsized: true)
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
        let bytes = Array(text.utf8)
        let prefix = String(decoding: bytes.prefix(min(f.shaped.kept ?? bytes.count, bytes.count)), as: UTF8.self)
        return prefix + "…"
    }

    /// Off: every text takes the family list (tests compare the two).
    var primaryAlone = true

    /// Asks now for the primary family's fonts at `sizes` (in the order
    /// given): Pango matches and sorts each size's fonts on threads of its
    /// own, and its first text at that size waits for the match. Asked for
    /// together before the drawing, the matches run on another core while
    /// the drawing goes on, instead of one wait a size when its first text
    /// comes. Changes nothing drawn: the same fonts, asked for earlier.
    func loadFontsAhead(_ sizes: [Double]) {
        guard primaryAlone else { return }
        shaper.loadAhead(sizes)
    }

    /// The primary font's ascent and descent at a size (pixels): every line
    /// is placed by them, so a fallback glyph never moves its line.
    func lineMetrics(size: Double) -> (ascent: Double, descent: Double) {
        if let m = metrics[size] { return m }
        let m = shaper.lineMetrics(size: size)
        metrics[size] = m
        return m
    }

    /// Where to put a fitted layout's origin so that its text is aligned at
    /// `x` and its line centred on `y` by the primary font's ascent and
    /// descent (so a fallback glyph never moves its line).
    func origin(of f: Fitted, x: Double, y: Double, align: TextAlign) -> (x: Double, y: Double) {
        let logical = f.shaped.logical
        let width = Double(logical.width) / PangoText.unit
        let left: Double
        switch align {
        case .left: left = x
        case .center: left = x - width / 2
        case .right: left = x - width
        }
        let m = lineMetrics(size: f.size)
        let baseline = y + (m.ascent - m.descent) / 2
        return (left - Double(logical.x) / PangoText.unit, baseline - Double(f.shaped.baseline) / PangoText.unit)
    }

    /// The inked extents of shaped text drawn at `origin` (pixels).
    static func ink(of shaped: ShapedText, at origin: (x: Double, y: Double)) -> (x: Double, y: Double, w: Double, h: Double) {
        let ink = shaped.ink
        return (origin.x + Double(ink.x) / unit, origin.y + Double(ink.y) / unit, Double(ink.width) / unit, Double(ink.height) / unit)
    }

    /// The logical width of shaped text (pixels).
    static func width(of shaped: ShapedText) -> Double { Double(shaped.logical.width) / unit }

    /// The first character of the text that came out as an unknown glyph.
    static func unknown(_ shaped: ShapedText, _ text: String, _ what: String) -> SeatMapError {
        let code = shaped.unknown ?? 0xFFFD
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
        let ink = PangoText.ink(of: f.shaped, at: pango.origin(of: f, x: x, y: y, align: align))
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
