import SeatMapLayout

/// A text run: the string, its size in pixels and its colour.
public struct TextStyle: Sendable, Equatable {
    public var size: Double
    public var color: Color
    /// What the text is, for messages ("the header", "row label 3", …).
    public var what: String = "the text"
    /// The box the text must fit (nil: none), and the smallest size it may
    /// be shrunk to before it is cut with an ellipsis (see `TextPlacement`).
    public var box: PixelRect? = nil
    public var minSize: Double = 0
    /// Degrees clockwise about the anchor (`box` is in the turned frame).
    public var rotation: Double = 0
}

/// Semantic information about one seat, for canvases that can tag elements
/// (the SVG canvas writes it as the group's id, class, data-* and title).
public struct SeatTag: Sendable, Equatable {
    public var id: String
    public var classes: [String]
    public var row: Int
    public var column: Int
    public var price: String
    /// What the seat is, in the locale's words: its title, and its
    /// accessible name (`aria-label`).
    public var title: String
    /// Whether a keyboard can reach it (available seats: `tabindex="0"`).
    public var focusable: Bool = false
    /// The id the seat came with from another system (`data-external-id`).
    public var externalID: String? = nil
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
    /// Starts the elements of one area (ended by `endSeat`).
    func beginArea(_ tag: SeatTag)
    /// Starts and ends a structure element of a tagged document (PDF:
    /// `H1`, `Figure`, `Sect`, `P`); nested, ended by name.
    func beginStructure(_ tag: String)
    func endStructure(_ tag: String)
}

extension Canvas {
    public func beginArea(_ tag: SeatTag) {}
    public func beginStructure(_ tag: String) {}
    public func endStructure(_ tag: String) {}
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
