import Foundation

/// The outline of an area, relative to its zone.
public enum AreaShape: Sendable, Equatable {
    case rect(x: Double, y: Double, w: Double, h: Double)
    case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
    case circle(cx: Double, cy: Double, r: Double)
    case polygon([Point])
    /// Only text (the area's `label`), centred at (x, y), `size` points high.
    case text(x: Double, y: Double, size: Double)

    public var name: String {
        switch self {
        case .rect: return "rect"
        case .ellipse: return "ellipse"
        case .circle: return "circle"
        case .polygon: return "polygon"
        case .text: return "text"
        }
    }

    /// The centre the shape turns about (its box's centre).
    public var centre: Point {
        switch self {
        case .rect(let x, let y, let w, let h): return Point(x: x + w / 2, y: y + h / 2)
        case .ellipse(let cx, let cy, _, _), .circle(let cx, let cy, _): return Point(x: cx, y: cy)
        case .polygon(let ps):
            let xs = ps.map(\.x), ys = ps.map(\.y)
            return Point(x: ((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, y: ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        case .text(let x, let y, _): return Point(x: x, y: y)
        }
    }
}

/// A drawn part of the venue that is not a seat: a stage, a bar, a table, a
/// text, or, with a `capacity` and a `price`, a standing (general admission)
/// area sold by quantity.
public struct Area: Sendable, Equatable {
    /// Unique in the hall; the SVG group is `area-<id>`.
    public var id: String
    /// The zone (section) it is placed in; nil for the hall's own frame.
    public var section: Int?
    public var shape: AreaShape
    /// Degrees about the shape's centre.
    public var rotation: Double
    /// A colour as `CSSColor` reads it (`transparent`: none); the theme's
    /// colours where absent.
    public var fill: String?
    public var border: String?
    /// Text drawn in the area (a text area's text).
    public var label: String
    /// Where the label is centred (zone frame); the shape's centre when nil.
    public var labelAt: Point?
    /// The label's size in points as the plan writes it (it is fitted to
    /// the shape only when it would leave it); nil: sized to the shape.
    public var labelSize: Double?
    /// The label's colour as written; nil: whichever of the theme's text
    /// colours reads better on the fill.
    public var labelColor: String?
    /// The area's id in the system it came from (pretix `uuid`; `id` is
    /// made up when the plan gives none), kept for export.
    public var externalID: String? = nil
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil
    /// Standing places in all, and how many are still for sale.
    public var capacity: Int?
    public var available: Int?
    public var price: Decimal?
    /// Places one order takes of a standing area at least and at most
    /// (nil: 1, and the hall's `maxSelectCount`).
    public var minPerOrder: Int? = nil
    public var maxPerOrder: Int? = nil

    public init(id: String, section: Int? = nil, shape: AreaShape, rotation: Double = 0, fill: String? = nil,
                border: String? = nil, label: String = "", labelAt: Point? = nil, capacity: Int? = nil, available: Int? = nil,
                price: Decimal? = nil, labelSize: Double? = nil, labelColor: String? = nil, externalID: String? = nil) {
        self.labelAt = labelAt
        self.externalID = externalID
        self.labelSize = labelSize
        self.labelColor = labelColor
        self.id = id
        self.section = section
        self.shape = shape
        self.rotation = rotation
        self.fill = fill
        self.border = border
        self.label = label
        self.capacity = capacity
        self.available = available
        self.price = price
    }

    /// A standing area: sold by quantity up to `capacity`.
    public var isStanding: Bool { capacity != nil }
    /// Places still for sale (all of them when not given).
    public var remaining: Int { available ?? capacity ?? 0 }
}
