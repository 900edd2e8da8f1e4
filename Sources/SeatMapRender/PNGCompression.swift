import CCairo
import CPNG
import CPNGStrips
import Foundation
import SeatMapCore
import SeatMapLayout

/// PNG encoder settings: zlib level and row filtering (see `PNGEncoder`).
public enum PNGCompression: String, Sendable, CaseIterable {
    /// zlib level 1; rows filtered Up.
    case fast
    /// zlib level 6; each row Sub or Up, whichever sums smaller.
    case `default`
    /// zlib level 9; each row Sub or Up, whichever sums smaller (libpng's
    /// five-filter heuristic made larger files of seat maps).
    case best
}
