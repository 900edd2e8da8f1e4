import CCairo
import CPNG
import CPNGStrips
import SeatMapCore

/// PNG encoder settings: deflate effort and row filtering (see `PNGEncoder`).
public enum PNGCompression: String, Sendable, CaseIterable {
    /// SeatMap's deflate, first match among 2 hash links; rows filtered Up.
    case fast
    /// SeatMap's deflate with lazy matching over 8 hash links (files within
    /// 2 % of zlib's level 6, several times faster); each row Sub or Up,
    /// whichever sums smaller.
    case `default`
    /// Strip by strip the smaller of zlib's level 9 and the default; each
    /// row Sub or Up, whichever sums smaller (libpng's five-filter heuristic
    /// made larger files of seat maps).
    case best
}
