import SeatMapCore

/// A placement turns a hall's cells into laid-out items at whole pixels and
/// builds the index that finds them again. The layout places the chrome
/// (header, screen, legend) around whatever a placement produces, and asks
/// only the placement's index what lies at a pixel, so another placement
/// (free positions, arcs, areas) is one more conforming type.
public protocol Placement: Sendable {
    /// The size of the placed cells' box, in pixels.
    var size: (w: Int, h: Int) { get }
    /// Places every cell with the box's top-left corner at (x, y).
    func place(atX x: Int, y: Int, tiers: PriceTiers) -> PlacedItems
    /// The rows to label, with their vertical extent, for a box whose top is at `y`.
    func rowBands(originY y: Int) -> [RowBand]
}

/// A labelled row's vertical extent in pixels.
public struct RowBand: Sendable, Equatable {
    public var row: Int
    public var label: String
    public var y: Int
    public var h: Int
}
