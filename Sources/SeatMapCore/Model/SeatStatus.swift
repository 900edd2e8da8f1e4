/// A cell's sale state, with the seed's numeric codes.
public enum SeatStatus: Int, Sendable, CaseIterable, Comparable {
    case available = 0
    case locked = 1
    case sold = 2
    /// An explicit aisle placeholder: a cell that is not a seat.
    case aisle = 3

    /// English name used in CLI output, JSON and SVG classes.
    public var name: String {
        switch self {
        case .available: return "available"
        case .locked: return "locked"
        case .sold: return "sold"
        case .aisle: return "aisle"
        }
    }

    /// Chinese name used in seat titles (`可选`, `已锁定`, `已售`, `过道`).
    public var chineseName: String {
        switch self {
        case .available: return "可选"
        case .locked: return "已锁定"
        case .sold: return "已售"
        case .aisle: return "过道"
        }
    }

    /// True for the statuses that are seats (0–2).
    public var isSeat: Bool { self != .aisle }

    public static func < (a: SeatStatus, b: SeatStatus) -> Bool { a.rawValue < b.rawValue }

    /// The message for an unknown code, shared by every format that reads statuses.
    public static let expectedCodes = "expected 0 available, 1 locked, 2 sold, 3 aisle"
}

/// What kind of seat a cell holds.
public enum SeatType: String, Sendable, CaseIterable {
    case standard
    case wheelchair
    /// A companion seat next to a wheelchair space.
    case companion
    /// Left half of a couple seat (情侣座); its partner is the next column.
    case coupleLeft
    /// Right half of a couple seat; its partner is the previous column.
    case coupleRight

    public var isCoupleHalf: Bool { self == .coupleLeft || self == .coupleRight }
}
