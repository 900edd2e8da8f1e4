import CCairo
import CPNG
import CPNGStrips
import SeatMapCore

/// PNG encoder settings: zlib's level and row filtering (see `PNGEncoder`).
/// Every strip is compressed by zlib as it is (its default strategy).
public enum PNGCompression: String, Sendable, CaseIterable {
    /// zlib level 1; rows filtered Up.
    case fast
    /// zlib level 5 (files at or under libpng's defaults on seat maps, at
    /// about 80 % of level 6's time); each row Sub or Up, whichever sums smaller.
    case `default`
    /// zlib level 9; each row Sub or Up, whichever sums smaller (libpng's
    /// five-filter heuristic made larger files of seat maps).
    case best
}
