/// The marks drawn on seats and legend swatches (check mark, cross, hatch,
/// wheelchair symbol), as shapes within a box: geometry, so it lives with
/// the layout; the painter only colours the parts.
public struct Glyph: Sendable, Equatable {
    /// One drawing step, in the order drawn.
    public enum Part: Sendable, Equatable {
        case fill(Path)
        case stroke(Stroke)
        /// Restrict the following parts to a rect, until `.unclip`.
        case clip(PixelRect)
        case unclip
    }
    public var parts: [Part]

    /// Polylines through points given as fractions of the box `r`.
    static func polylines(_ r: PixelRect, _ lines: [[(Double, Double)]]) -> Path {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        var p = Path()
        for line in lines {
            for (k, (fx, fy)) in line.enumerated() {
                if k == 0 { p.move(x + fx * w, y + fy * h) } else { p.line(x + fx * w, y + fy * h) }
            }
        }
        return p
    }

    /// A check mark (a selected seat).
    public static func check(in r: PixelRect) -> Glyph {
        let p = polylines(r, [[(0.27, 0.52), (0.44, 0.69), (0.75, 0.33)]])
        return Glyph(parts: [.stroke(Stroke(path: p, width: max(1, 0.1 * Double(min(r.w, r.h)))))])
    }

    /// A cross over the seat's own cell `r`.
    public static func cross(in r: PixelRect) -> Glyph {
        let p = polylines(r, [[(0.28, 0.28), (0.72, 0.72)], [(0.72, 0.28), (0.28, 0.72)]])
        return Glyph(parts: [.stroke(Stroke(path: p, width: max(1, 0.08 * Double(min(r.w, r.h)))))])
    }

    /// Diagonal hatching across `rect` (the whole drawn shape, e.g. a
    /// joined couple half), spaced from the seat's own cell `r`.
    public static func hatch(in rect: PixelRect, own r: PixelRect) -> Glyph {
        let y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let lw = max(1, 0.08 * min(w, h))
        let step = max(3, 0.25 * min(w, h))
        let rx = Double(rect.x), rw = Double(rect.w)
        var p = Path()
        var d = -h
        while d < rw {
            p.move(rx + d, y + h)
            p.line(rx + d + h, y)
            d += step
        }
        return Glyph(parts: [.clip(rect), .stroke(Stroke(path: p, width: max(1, lw * 0.7))), .unclip])
    }

    /// The international wheelchair symbol, as paths (no icon font).
    public static func wheelchair(in r: PixelRect) -> Glyph {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let m = min(w, h)
        let lw = max(1, 0.08 * m)
        let head = Path.circle(x + 0.46 * w, y + 0.2 * h, 0.08 * m)
        let body = polylines(r, [[(0.44, 0.32), (0.44, 0.58), (0.64, 0.58), (0.72, 0.8)], [(0.44, 0.44), (0.6, 0.44)]])
        var wheel = Path()
        let cx = x + 0.44 * w, cy = y + 0.64 * h, rad = 0.19 * m
        let k = 0.5522847498 * rad
        // Three quarters of a circle, open at the top right where the seat is.
        wheel.move(cx + rad, cy)
        wheel.curve(cx + rad, cy + k, cx + k, cy + rad, cx, cy + rad)
        wheel.curve(cx - k, cy + rad, cx - rad, cy + k, cx - rad, cy)
        wheel.curve(cx - rad, cy - k, cx - k, cy - rad, cx, cy - rad)
        return Glyph(parts: [.fill(head), .stroke(Stroke(path: body, width: lw)), .stroke(Stroke(path: wheel, width: lw))])
    }

    /// A companion seat (beside a wheelchair space): a standing figure, so it
    /// reads apart from the wheelchair symbol and from a plain seat.
    public static func companion(in r: PixelRect) -> Glyph {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let m = min(w, h)
        let head = Path.circle(x + 0.5 * w, y + 0.22 * h, 0.09 * m)
        let figure = polylines(r, [[(0.5, 0.34), (0.5, 0.6)], [(0.3, 0.44), (0.7, 0.44)], [(0.36, 0.84), (0.5, 0.6), (0.64, 0.84)]])
        return Glyph(parts: [.fill(head), .stroke(Stroke(path: figure, width: max(1, 0.08 * m)))])
    }
}
