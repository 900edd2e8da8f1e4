import SeatMapLayout

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

    public static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
        var p = Path()
        p.move(x, y)
        p.line(x + w, y)
        p.line(x + w, y + h)
        p.line(x, y + h)
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

    public static func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        var p = Path()
        p.move(x0, y0)
        p.line(x1, y1)
        return p
    }
}

/// How text is placed relative to its anchor point.
public enum TextAlign: Sendable {
    case left, center, right
}

/// A text run: the string, its size in pixels and its colour.
public struct TextStyle: Sendable, Equatable {
    public var size: Double
    public var color: Color
}

/// Semantic information about one seat, for canvases that can tag elements
/// (the SVG canvas writes it as the group's id, class, data-* and title).
public struct SeatTag: Sendable, Equatable {
    public var id: String
    public var classes: [String]
    public var row: Int
    public var column: Int
    public var price: String
    public var title: String
}

/// What the drawing routine draws on. Coordinates are content pixels.
public protocol Canvas: AnyObject {
    func fill(_ path: Path, _ color: Color)
    func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double])
    /// Text with its vertical centre at `y`, aligned at `x`.
    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle)
    /// Restricts drawing to a rectangle until the matching `popClip`.
    func pushClip(_ rect: PixelRect)
    func popClip()
    /// Whether the canvas uses seat tags (building them costs a little per seat).
    var wantsSeatTags: Bool { get }
    /// Starts and ends the elements of one seat.
    func beginSeat(_ tag: SeatTag)
    func endSeat()
}

/// A canvas that only counts what it is asked to draw: running the painter
/// on it measures SeatMap's own (Swift-side) drawing cost without Cairo.
public final class CountingCanvas: Canvas {
    public private(set) var operations = 0
    public init() {}
    public func fill(_ path: Path, _ color: Color) { operations += 1 }
    public func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) { operations += 1 }
    public func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) { operations += 1 }
    public func pushClip(_ rect: PixelRect) {}
    public func popClip() {}
    public var wantsSeatTags: Bool { false }
    public func beginSeat(_ tag: SeatTag) {}
    public func endSeat() {}
}
