/// A zone's place: every seat and area of the section is given relative to
/// it (turned by `rotation` degrees about the zone's origin, then moved to
/// (x, y)). `level` is the floor (0 the lowest); `outline` draws the box
/// around the zone's seats and `showName` its name.
public struct ZonePlace: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var rotation: Double
    public var level: Int
    public var outline: Bool
    public var showName: Bool

    public init(x: Double = 0, y: Double = 0, rotation: Double = 0, level: Int = 0, outline: Bool = false, showName: Bool = false) {
        self.x = x
        self.y = y
        self.rotation = rotation
        self.level = level
        self.outline = outline
        self.showName = showName
    }

    /// A point given in the zone's frame, in the hall's frame.
    public func apply(_ p: Point) -> Point {
        guard rotation != 0 else { return Point(x: p.x + x, y: p.y + y) }
        let (c, s) = VenueGeometry.cosSin(rotation)
        return Point(x: x + p.x * c - p.y * s, y: y + p.x * s + p.y * c)
    }
}
