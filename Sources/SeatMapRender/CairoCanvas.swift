import Foundation
import CCairo
import CPNG
import SeatMapLayout

/// Draws on a Cairo context (image or PDF surface); text as shaped glyph runs.
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

    init(_ context: CairoContext, text: PangoText, tagged: Bool = false, stamping: Stamping = .none) {
        self.context = context
        pango = text
        self.tagged = tagged
        stamps = stamping.fills ? Stamps(context.surface, masks: stamping.masks) : nil
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

    /// The device pixels whose values are kept (a tile's part within its
    /// frame), or nil for all. What cannot reach them is not drawn: each
    /// pixel is composited on its own, so a shape with no pixel among them
    /// changes none of them.
    var keep: PixelRect?

    /// Whether a shape within `x0`…`x1`, `y0`…`y1` (user space) and
    /// `margin` px round it can touch a kept pixel.
    private func reaches(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, margin: Double) -> Bool {
        guard let keep, !scaled, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, margin.isFinite else { return true }
        return x1 + dx + margin > Double(keep.x) && x0 + dx - margin < Double(keep.maxX)
            && y1 + dy + margin > Double(keep.y) && y0 + dy - margin < Double(keep.maxY)
    }

    /// A path's box in user space: every point of it, control points too (a
    /// curve lies within them); x0 > x1 when it has none.
    private static func box(_ path: Path) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ x: Double, _ y: Double) {
            x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
        }
        for e in path.elements {
            switch e {
            case .move(let x, let y), .line(let x, let y): add(x, y)
            case .curve(let a, let b, let c, let d, let x, let y): add(a, b); add(c, d); add(x, y)
            case .close: break
            }
        }
        return (x0, y0, x1, y1)
    }

    /// Whether a path `margin` px round can touch a kept pixel.
    private func reaches(_ path: Path, margin: Double) -> Bool {
        guard keep != nil, !scaled else { return true }
        let b = CairoCanvas.box(path)
        return b.x0 > b.x1 || reaches(b.x0, b.y0, b.x1, b.y1, margin: margin)
    }

    /// Called before Cairo draws what may reach past the kept pixels, with
    /// the device pixels it may change (nil: any): a frame drawn in place
    /// in the image, whose pixels past its part are its neighbours', keeps
    /// those of them only then (stamps write only the kept pixels). After a
    /// call with nil it is not called again.
    var beforeDrawingPastKeep: ((PixelRect?) -> Void)?

    /// Before Cairo draws within `x0`…`x1`, `y0`…`y1` (user space) and
    /// `margin` px round: calls `beforeDrawingPastKeep` with those pixels
    /// unless they lie within the kept pixels.
    private func cairoDraws(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, margin: Double) {
        guard let call = beforeDrawingPastKeep else { return }
        if !scaled, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, margin.isFinite {
            let left = x0 + dx - margin, top = y0 + dy - margin, right = x1 + dx + margin, bottom = y1 + dy + margin
            if let keep, left >= Double(keep.x), right <= Double(keep.maxX), top >= Double(keep.y), bottom <= Double(keep.maxY) {
                return
            }
            // Whole pixels round it, within a range no frame reaches past.
            func pixel(_ v: Double) -> Int { Int(min(max(v, -0x1p40), 0x1p40)) }
            let l = pixel(left.rounded(.down)), t = pixel(top.rounded(.down))
            call(PixelRect(x: l, y: t, w: pixel(right.rounded(.up)) - l, h: pixel(bottom.rounded(.up)) - t))
            return
        }
        beforeDrawingPastKeep = nil
        call(nil)
    }

    private func cairoDraws(_ path: Path, margin: Double) {
        guard beforeDrawingPastKeep != nil else { return }
        let b = CairoCanvas.box(path)
        if b.x0 <= b.x1 { cairoDraws(b.x0, b.y0, b.x1, b.y1, margin: margin) }
    }

    func fill(_ path: Path, _ color: Color) {
        // A pixel of antialiasing round the shape.
        guard reaches(path, margin: 2) else { return }
        if let stamps, !scaled, stamps.fill(path, color, dx: dx, dy: dy, clip: clips.last, keep: keep) { return }
        cairoDraws(path, margin: 2)
        addPath(path)
        setColor(color)
        cairo_fill(cr)
    }

    /// How every stroke is drawn: butt caps, round joins, `width` px.
    static func setStrokeStyle(_ cr: OpaquePointer, width: Double) {
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    }

    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) {
        // Half the width (round joins, butt caps) and antialiasing.
        guard reaches(path, margin: width / 2 + 2) else { return }
        if let stamps, !scaled, dash.isEmpty, stamps.stroke(path, color, width: width, dx: dx, dy: dy, clip: clips.last, keep: keep) { return }
        cairoDraws(path, margin: width / 2 + 2)
        addPath(path)
        setColor(color)
        CairoCanvas.setStrokeStyle(cr, width: width)
        if !dash.isEmpty { dash.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32(dash.count), 0) } }
        cairo_stroke(cr)
        if !dash.isEmpty { cairo_set_dash(cr, nil, 0, 0) }
    }

    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        guard !string.isEmpty, style.size > 0,
              let fitted = pango.fitted(string, size: style.size, minSize: style.minSize, box: style.box, x: x, align: align, what: style.what) else { return }
        let origin = pango.origin(of: fitted, x: x, y: y, align: align)
        // A quarter of the size more than antialiasing needs: the ink
        // extents of bitmap and colour glyphs are the font's word.
        let margin = 4 + style.size / 4
        // (Turned text: its ink box is in the turned frame.)
        if style.rotation == 0, keep != nil {
            let ink = PangoText.ink(of: fitted.shaped, at: origin)
            guard reaches(ink.x, ink.y, ink.x + ink.w, ink.y + ink.h, margin: margin) else { return }
            cairoDraws(ink.x, ink.y, ink.x + ink.w, ink.y + ink.h, margin: margin)
        } else {
            cairoDraws(-.infinity, -.infinity, .infinity, .infinity, margin: 0)
        }
        if style.rotation != 0 {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_rotate(cr, style.rotation * .pi / 180)
            cairo_translate(cr, -x, -y)
        }
        setColor(style.color)
        fitted.shaped.draw(on: cr, at: origin, keepText: keepsText)
        cairo_new_path(cr)
        if style.rotation != 0 { cairo_restore(cr) }
    }

    /// Whether the surface keeps text with its glyphs (PDF).
    private lazy var keepsText = cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0

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
