import Foundation
import CCairo
import CPNG
import SeatMapCore
import SeatMapLayout

/// Facts about the Cairo library SeatMap renders with.
public enum CairoLibrary {
    /// The version of the linked Cairo, e.g. "1.16.0".
    public static var version: String { String(cString: cairo_version_string()) }
    /// The versions of the C libraries rendering uses, as loaded at run
    /// time: Cairo, libpng, fontconfig, Pango, HarfBuzz, and Cairo's own pixman and FreeType
    /// (found in the process, as Cairo loaded them).
    public static var linkedVersions: [(String, String)] {
        let fc = Int(FcGetVersion())
        var out = [("cairo", version), ("libpng", png_get_libpng_ver(nil).map { String(cString: $0) } ?? "?"),
                   ("fontconfig", "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)"),
                   ("pango", String(cString: pango_version_string())),
                   ("harfbuzz", String(cString: hb_version_string()))]
        typealias VersionString = @convention(c) () -> UnsafePointer<CChar>?
        if let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pixman_version_string"),
           let text = unsafeBitCast(f, to: VersionString.self)() {
            out.append(("pixman", String(cString: text)))
        }
        typealias Init = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
        typealias Version = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Void
        typealias Done = @convention(c) (OpaquePointer?) -> Int32
        if let i = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Init_FreeType"),
           let v = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Library_Version"),
           let d = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Done_FreeType") {
            var library: OpaquePointer? = nil
            if unsafeBitCast(i, to: Init.self)(&library) == 0 {
                var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
                unsafeBitCast(v, to: Version.self)(library, &major, &minor, &patch)
                _ = unsafeBitCast(d, to: Done.self)(library)
                out.append(("freetype", "\(major).\(minor).\(patch)"))
            }
        }
        return out
    }
    /// Cairo's image surfaces are limited to this many pixels a side.
    public static let maxSide = ImageLimits.maxSide
}

/// A Cairo surface, destroyed with its wrapper. Creation checks the status
/// (Cairo never returns NULL: it returns an object in an error state).
final class CairoSurface {
    let pointer: OpaquePointer

    init(adopting pointer: OpaquePointer?, what: String) throws(SeatMapError) {
        guard let pointer else { throw SeatMapError("Cairo could not create \(what)") }
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            throw SeatMapError("Cairo could not create \(what): \(String(cString: cairo_status_to_string(status)))")
        }
        self.pointer = pointer
    }

    /// An ARGB32 image surface.
    convenience init(width: Int, height: Int) throws(SeatMapError) {
        try self.init(adopting: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
                      what: "a \(width)×\(height) image")
        adviseHugePages()
    }

    /// Asks the kernel to back a large image's memory with 2 MB pages when
    /// it is first written (Linux `MADV_HUGEPAGE`; ignored where unsupported
    /// or switched off). A 60-megapixel render otherwise takes ~60,000 page
    /// faults; the pixels are the same either way.
    private func adviseHugePages() {
        #if os(Linux)
        guard let data = cairo_image_surface_get_data(pointer) else { return }
        let bytes = Int(cairo_image_surface_get_stride(pointer)) * Int(cairo_image_surface_get_height(pointer))
        let huge = 2 << 20
        guard bytes >= 2 * huge else { return }
        let start = (Int(bitPattern: data) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: data) + bytes) & ~(huge - 1)
        guard end > start, let base = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(base, end - start, MADV_HUGEPAGE)
        #endif
    }

    deinit { cairo_surface_destroy(pointer) }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// A Cairo drawing context with SeatMap's fixed font options, destroyed
/// with its wrapper.
final class CairoContext {
    let cr: OpaquePointer
    let surface: CairoSurface

    init(_ surface: CairoSurface) throws(SeatMapError) {
        guard let cr = cairo_create(surface.pointer) else { throw SeatMapError("Cairo could not create a context") }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cr)
            throw SeatMapError("Cairo could not create a context: \(String(cString: cairo_status_to_string(status)))")
        }
        self.cr = cr
        self.surface = surface
        CairoContext.withFixedFontOptions { cairo_set_font_options(cr, $0) }
    }

    deinit { cairo_destroy(cr) }

    /// SeatMap's fixed font options (grey antialiasing, no hinting, no
    /// hinted metrics): output must not drift with a machine's fontconfig
    /// settings (golden images depend on it). Cairo and Pango both get them.
    static func withFixedFontOptions(_ body: (OpaquePointer) -> Void) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT)
        body(options)
        cairo_font_options_destroy(options)
    }

    func check(_ what: String) throws(SeatMapError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw SeatMapError("Cairo failed while \(what): \(String(cString: cairo_status_to_string(status)))")
        }
        try surface.check(what)
    }
}

/// Draws on a Cairo context (image or PDF surface); text through Pango.
final class CairoCanvas: Canvas {
    let context: CairoContext
    private var cr: OpaquePointer { context.cr }
    private let pango: PangoText
    /// Whether structure elements become Cairo tags (PDF only).
    private let tagged: Bool

    /// Opaque fills stamped (image surfaces, when asked for).
    let stamps: Stamps?
    /// The translation drawing is under, and whether it is only that.
    private var dx = 0.0, dy = 0.0, scaled = false
    /// The device rects drawing is clipped to, innermost last.
    private var clips: [PixelRect] = []

    init(_ context: CairoContext, text: PangoText, tagged: Bool = false, stamping: Bool = false) {
        self.context = context
        pango = text
        self.tagged = tagged
        stamps = stamping ? Stamps(context.surface) : nil
    }

    func beginStructure(_ tag: String) { if tagged { cairo_tag_begin(cr, tag, "") } }
    func endStructure(_ tag: String) { if tagged { cairo_tag_end(cr, tag) } }

    private func setColor(_ c: Color) {
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
    }

    private func addPath(_ path: Path) {
        cairo_new_path(cr)
        for e in path.elements {
            switch e {
            case .move(let x, let y): cairo_move_to(cr, x, y)
            case .line(let x, let y): cairo_line_to(cr, x, y)
            case .curve(let a, let b, let c, let d, let x, let y): cairo_curve_to(cr, a, b, c, d, x, y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    func fill(_ path: Path, _ color: Color) {
        if let stamps, !scaled, stamps.fill(path, color, dx: dx, dy: dy, clip: clips.last) { return }
        addPath(path)
        setColor(color)
        cairo_fill(cr)
    }

    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) {
        addPath(path)
        setColor(color)
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        if !dash.isEmpty { dash.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32(dash.count), 0) } }
        cairo_stroke(cr)
        if !dash.isEmpty { cairo_set_dash(cr, nil, 0, 0) }
    }

    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        guard !string.isEmpty, style.size > 0 else { return }
        pango.update(for: cr)
        guard let fitted = pango.fitted(string, size: style.size, minSize: style.minSize, box: style.box, x: x, align: align, what: style.what) else { return }
        let origin = pango.origin(of: fitted, x: x, y: y, align: align)
        if style.rotation != 0 {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_rotate(cr, style.rotation * .pi / 180)
            cairo_translate(cr, -x, -y)
        }
        cairo_move_to(cr, origin.x, origin.y)
        setColor(style.color)
        pango_cairo_show_layout(cr, fitted.layout)
        cairo_new_path(cr)
        if style.rotation != 0 { cairo_restore(cr) }
    }

    func pushClip(_ rect: PixelRect) {
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.w), Double(rect.h))
        cairo_clip(cr)
        // A clip at whole device pixels bounds stamps; any other stops them.
        let x0 = Double(rect.x) + dx, y0 = Double(rect.y) + dy
        var device = PixelRect(x: Int(x0), y: Int(y0), w: rect.w, h: rect.h)
        if scaled || x0 != x0.rounded() || y0 != y0.rounded() { device = PixelRect(x: 0, y: 0, w: 0, h: 0) }
        clips.append(clips.last.map { $0.intersection(device) } ?? device)
    }

    func popClip() {
        cairo_restore(cr)
        clips.removeLast()
    }

    var wantsSeatTags: Bool { false }
    func beginSeat(_ tag: SeatTag) {}
    func endSeat() {}

    func translate(_ x: Double, _ y: Double) {
        cairo_translate(cr, x, y)
        dx += x
        dy += y
    }
    func scale(_ s: Double) {
        cairo_scale(cr, s, s)
        scaled = true
    }
}

/// A font family checked to be installed.
public struct ResolvedFont: Sendable, Equatable {
    public let family: String
    /// The font file fontconfig matched ("" when it names none).
    public let file: String
}

/// Resolves theme fonts through fontconfig and refuses missing ones: a
/// silent fallback would change every golden image.
public enum FontResolver {
    private static let lock = NSLockBox()

    /// The family if fontconfig has it installed; otherwise an error naming
    /// the font and the Debian package that provides it.
    public static func resolve(family: String, package: String) throws(SeatMapError) -> ResolvedFont {
        let found: String? = lock.withLock {
            guard FcInit() != 0, let pattern = FcNameParse(family) else { return nil }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(match) }
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>? = nil
            while FcPatternGetString(match, "family", n, &value) == FcResultMatch {
                if let value, String(cString: value).caseInsensitiveCompare(family) == .orderedSame {
                    var file: UnsafeMutablePointer<FcChar8>? = nil
                    guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return "" }
                    return String(cString: file)
                }
                n += 1
            }
            return nil
        }
        guard let found else {
            throw SeatMapError("font \"\(family)\" is not installed; install the Debian package \(package) (apt-get install \(package))")
        }
        return ResolvedFont(family: family, file: found)
    }
}
