import Foundation
/// A vector path in content pixels.
public struct Path: Sendable, Equatable {
    public enum Element: Sendable, Equatable {
        case move(Double, Double)
        case line(Double, Double)
        case curve(Double, Double, Double, Double, Double, Double)
        case close
    }
    public var elements: [Element] = []

    public init() {}

    public mutating func move(_ x: Double, _ y: Double) { elements.append(.move(x, y)) }
    public mutating func line(_ x: Double, _ y: Double) { elements.append(.line(x, y)) }
    public mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double, _ y: Double) {
        elements.append(.curve(x1, y1, x2, y2, x, y))
    }
    public mutating func close() { elements.append(.close) }

    /// The whole pixels any point of the path (control points included)
    /// touches, one pixel of antialiasing to spare on each side.
    public var bounds: PixelRect {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ x: Double, _ y: Double) { x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y) }
        for e in elements {
            switch e {
            case .move(let x, let y), .line(let x, let y): add(x, y)
            case .curve(let a, let b, let c, let d, let x, let y): add(a, b); add(c, d); add(x, y)
            case .close: break
            }
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return .zero }
        let l = Int(x0.rounded(.down)) - 1, t = Int(y0.rounded(.down)) - 1
        return PixelRect(x: l, y: t, w: Int(x1.rounded(.up)) + 1 - l, h: Int(y1.rounded(.up)) + 1 - t)
    }

    public static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
        var p = Path()
        p.move(x, y)
        p.line(x + w, y)
        p.line(x + w, y + h)
        p.line(x, y + h)
        p.close()
        return p
    }

    /// A rounded rectangle whose corners are `segments` straight lines each.
    public static func polygonRoundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double, segments: Int = 6) -> Path {
        let r = max(0, min(radius, w / 2, h / 2))
        var p = Path()
        // Corner centres clockwise from the top right, each swept a quarter turn.
        let corners = [(x + w - r, y + r, -Double.pi / 2), (x + w - r, y + h - r, 0.0),
                       (x + r, y + h - r, Double.pi / 2), (x + r, y + r, Double.pi)]
        for (k, c) in corners.enumerated() {
            for i in 0...segments {
                let a = c.2 + Double.pi / 2 * Double(i) / Double(segments)
                let px = c.0 + r * cos(a), py = c.1 + r * sin(a)
                if k == 0 && i == 0 { p.move(px, py) } else { p.line(px, py) }
            }
        }
        p.close()
        return p
    }

    public static func rect(_ r: PixelRect) -> Path {
        rect(Double(r.x), Double(r.y), Double(r.w), Double(r.h))
    }

    /// A rectangle whose left and/or right corners are rounded (couple
    /// halves round only their outer side, so the pair reads as one piece).
    public static func roundedRect(_ r: PixelRect, radius: Double, left: Bool = true, right: Bool = true) -> Path {
        roundedRect(Double(r.x), Double(r.y), Double(r.w), Double(r.h), radius: radius, left: left, right: right)
    }

    public static func roundedRect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, radius: Double,
                                   left: Bool = true, right: Bool = true) -> Path {
        let rad = max(0, min(radius, w / 2, h / 2))
        guard rad > 0 else { return rect(x, y, w, h) }
        let k = 0.5522847498 * rad  // cubic Bézier circle constant
        var p = Path()
        if left {
            p.move(x, y + rad)
            p.curve(x, y + rad - k, x + rad - k, y, x + rad, y)
        } else {
            p.move(x, y)
        }
        if right {
            p.line(x + w - rad, y)
            p.curve(x + w - rad + k, y, x + w, y + rad - k, x + w, y + rad)
            p.line(x + w, y + h - rad)
            p.curve(x + w, y + h - rad + k, x + w - rad + k, y + h, x + w - rad, y + h)
        } else {
            p.line(x + w, y)
            p.line(x + w, y + h)
        }
        if left {
            p.line(x + rad, y + h)
            p.curve(x + rad - k, y + h, x, y + h - rad + k, x, y + h - rad)
        } else {
            p.line(x, y + h)
        }
        p.close()
        return p
    }

    public static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
        let k = 0.5522847498 * r
        var p = Path()
        p.move(cx + r, cy)
        p.curve(cx + r, cy + k, cx + k, cy + r, cx, cy + r)
        p.curve(cx - k, cy + r, cx - r, cy + k, cx - r, cy)
        p.curve(cx - r, cy - k, cx - k, cy - r, cx, cy - r)
        p.curve(cx + k, cy - r, cx + r, cy - k, cx + r, cy)
        p.close()
        return p
    }
}

extension Path {
    /// An ellipse with radii `rx`, `ry` about (cx, cy), turned by `angle`
    /// radians: four cubic Béziers, the same numbers the hit-test uses.
    public static func ellipse(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, angle: Double = 0) -> Path {
        let k = 0.5522847498
        let co = cos(angle), si = sin(angle)
        func p(_ u: Double, _ v: Double) -> (Double, Double) { (cx + u * co - v * si, cy + u * si + v * co) }
        let pts: [(Double, Double)] = [
            p(rx, 0), p(rx, k * ry), p(k * rx, ry), p(0, ry), p(-k * rx, ry), p(-rx, k * ry), p(-rx, 0),
            p(-rx, -k * ry), p(-k * rx, -ry), p(0, -ry), p(k * rx, -ry), p(rx, -k * ry), p(rx, 0),
        ]
        var path = Path()
        path.move(pts[0].0, pts[0].1)
        for i in stride(from: 1, to: 13, by: 3) {
            path.curve(pts[i].0, pts[i].1, pts[i + 1].0, pts[i + 1].1, pts[i + 2].0, pts[i + 2].1)
        }
        path.close()
        return path
    }

    /// This path turned by `angle` radians about (cx, cy).
    public func rotated(by angle: Double, aboutX cx: Double, y cy: Double) -> Path {
        let co = cos(angle), si = sin(angle)
        func t(_ x: Double, _ y: Double) -> (Double, Double) {
            let dx = x - cx, dy = y - cy
            return (cx + dx * co - dy * si, cy + dx * si + dy * co)
        }
        var out = Path()
        for e in elements {
            switch e {
            case .move(let x, let y): let q = t(x, y); out.move(q.0, q.1)
            case .line(let x, let y): let q = t(x, y); out.line(q.0, q.1)
            case .curve(let a, let b, let c, let d, let x, let y):
                let q1 = t(a, b), q2 = t(c, d), q = t(x, y)
                out.curve(q1.0, q1.1, q2.0, q2.1, q.0, q.1)
            case .close: out.close()
            }
        }
        return out
    }
}

/// How text is placed relative to its anchor point.
public enum TextAlign: Sendable {
    case left, center, right
}

/// Where a text run goes: its anchor (vertical centre at `y`, aligned at
/// `x`) and its size in pixels. The string itself is the painter's.
public struct TextPlacement: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var align: TextAlign
    public var size: Double
    /// The box the drawn text must stay inside (nil: unbounded). A text too
    /// wide for it is drawn smaller, down to `minSize`, then cut with an
    /// ellipsis; one too tall, smaller.
    public var box: PixelRect?
    /// The smallest size the text may be shrunk to (pixels).
    public var minSize: Double
    /// Degrees clockwise the text is turned about its anchor (`box` is in
    /// the turned frame, about the anchor): an area's text turns with its
    /// shape, as pretix draws it.
    public var rotation: Double = 0

    /// Map text (row labels, seat numbers, area and zone names) shrinks to
    /// this share of its size before it is cut; chrome text (header, screen
    /// label, legend, level titles) to `LayoutStyle.chromeMinTextSize`.
    public static let mapMinFraction = 0.6

    /// The largest text size drawn, in pixels: FreeType refuses glyphs far
    /// beyond it, and Cairo then keeps the font in an error state.
    public static let maxSize: Double = 2048

    public init(x: Double, y: Double, align: TextAlign = .center, size: Double, box: PixelRect? = nil, minSize: Double? = nil) {
        self.x = x
        self.y = y
        self.align = align
        self.size = min(size, TextPlacement.maxSize)
        self.box = box
        self.minSize = min(self.size, minSize ?? self.size * TextPlacement.mapMinFraction)
    }

    /// A rough advance width of `text` at `size` pixels, for sizing boxes
    /// before any font is at hand (row-label gutters, text areas): wide
    /// (CJK, Hangul, kana) characters one em, others 0.62 em. Drawn text is
    /// measured exactly and fitted into the box it is given.
    public static func estimatedWidth(_ text: String, size: Double) -> Double {
        var ems = 0.0
        for c in text.unicodeScalars {
            switch c.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
                 0x20000...0x3FFFD: ems += 1
            case 0x300...0x36F, 0x200B...0x200F: break
            default: ems += 0.62
            }
        }
        return ems * size
    }
}

/// A stroked path and its line width in pixels.
public struct Stroke: Sendable, Equatable {
    public var path: Path
    public var width: Double
}
