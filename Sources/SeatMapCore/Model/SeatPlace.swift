/// A free seat's shape: a rect (`w` × `h`, the style's seat size where
/// absent) or a circle of radius `r`.
public enum SeatShape: Sendable, Equatable {
    case rect(w: Double?, h: Double?)
    case circle(r: Double)
}

/// Where a free seat stands: its centre relative to its zone, its shape and
/// its rotation (degrees).
public struct SeatPlace: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var shape: SeatShape
    public var rotation: Double

    public init(x: Double, y: Double, shape: SeatShape = .rect(w: nil, h: nil), rotation: Double = 0) {
        self.x = x
        self.y = y
        self.shape = shape
        self.rotation = rotation
    }
}
