
/// How a cell's drawn shape relates to its boxes.
public enum CellShape: Sendable, Equatable {
    /// The grid's (and an unturned free rect's) rounded rect filling `seatRect`.
    case box
    /// A rounded rect of `seatRect`'s size turned by `radians` about its centre.
    case rotated(Double)
    /// The circle inscribed in `seatRect` (square).
    case circle
}
