/// An integer rectangle in content pixels, half-open: pixel `(i, j)` is
/// inside when `x ≤ i < x + w` and `y ≤ j < y + h`.
public struct PixelRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var w: Int
    public var h: Int

    public init(x: Int, y: Int, w: Int, h: Int) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
    }

    public static let zero = PixelRect(x: 0, y: 0, w: 0, h: 0)

    public var maxX: Int { x + w }
    public var maxY: Int { y + h }
    public var isEmpty: Bool { w <= 0 || h <= 0 }

    public func contains(_ i: Int, _ j: Int) -> Bool {
        i >= x && i < x + w && j >= y && j < y + h
    }

    public func intersects(_ o: PixelRect) -> Bool {
        x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    /// The overlap of two rects (empty when they do not meet).
    public func intersection(_ o: PixelRect) -> PixelRect {
        let nx = max(x, o.x), ny = max(y, o.y)
        let mx = min(maxX, o.maxX), my = min(maxY, o.maxY)
        return PixelRect(x: nx, y: ny, w: max(0, mx - nx), h: max(0, my - ny))
    }

    /// Euclidean distance from a point (in continuous pixel coordinates) to
    /// the rect's area; 0 inside.
    public func distance(toX px: Double, y py: Double) -> Double {
        let dx = max(Double(x) - px, 0, px - Double(maxX))
        let dy = max(Double(y) - py, 0, py - Double(maxY))
        return (dx * dx + dy * dy).squareRoot()
    }

    public var centerX: Double { Double(x) + Double(w) / 2 }
    public var centerY: Double { Double(y) + Double(h) / 2 }

    public var description: String { "(\(x),\(y) \(w)×\(h))" }
}
