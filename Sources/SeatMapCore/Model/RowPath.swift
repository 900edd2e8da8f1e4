/// A row that places its own seats, in their order: along an arc or along a
/// straight line. Seats of such a row give no `x`/`y`; their shape and
/// rotation still come from the seat (`SeatPlace.shape`, added rotation).
public enum RowPath: Sendable, Equatable {
    /// Seats evenly spaced on the circle around (cx, cy) from angle `start`
    /// to `end` (degrees; the first seat at `start`, the last at `end`; a
    /// single seat halfway). `facing`: each seat is turned to face the
    /// centre (a seat straight below the centre is not turned).
    case arc(cx: Double, cy: Double, radius: Double, start: Double, end: Double, facing: Bool)
    /// Seats from (x, y) in direction `angle` (degrees), `spacing` points
    /// apart (centre to centre; the style's column pitch where absent).
    case line(x: Double, y: Double, angle: Double, spacing: Double?)
}

/// Where a row's labels are drawn (pretix's `row_number_position`).
public enum RowLabelPosition: String, Sendable, CaseIterable {
    case start, end, both, none
}
