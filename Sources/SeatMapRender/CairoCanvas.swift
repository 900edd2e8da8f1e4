import Foundation
import CCairo
import CPNG
import SeatMapCore
import SeatMapLayout

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

    /// How every stroke is drawn: butt caps, round joins, `width` px.
    static func setStrokeStyle(_ cr: OpaquePointer, width: Double) {
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    }

    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) {
        if let stamps, !scaled, dash.isEmpty, stamps.stroke(path, color, width: width, dx: dx, dy: dy, clip: clips.last) { return }
        addPath(path)
        setColor(color)
        CairoCanvas.setStrokeStyle(cr, width: width)
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
