/// A seat's sale state, with the seed's numeric codes.
public enum SeatStatus: Int, Sendable, CaseIterable, Comparable {
    case available = 0
    case locked = 1
    case sold = 2

    /// English name used in CLI output, JSON and SVG classes.
    public var name: String {
        switch self {
        case .available: return "available"
        case .locked: return "locked"
        case .sold: return "sold"
        }
    }

    public static func < (a: SeatStatus, b: SeatStatus) -> Bool { a.rawValue < b.rawValue }
}

/// What stands in a grid cell: a seat with its sale status, or an explicit
/// aisle placeholder, which keeps its column's space but is never a seat
/// (never sold, selected, priced or counted).
public enum CellKind: Sendable, Hashable {
    case seat(SeatStatus)
    case aisle

    /// The hall format's code: 0–2 a seat's status, 3 an aisle.
    public init?(code: Int) {
        if code == 3 { self = .aisle } else if let s = SeatStatus(rawValue: code) { self = .seat(s) } else { return nil }
    }

    public var code: Int {
        switch self {
        case .seat(let s): return s.rawValue
        case .aisle: return 3
        }
    }

    /// The sale status of a seat; nil for an aisle.
    public var status: SeatStatus? {
        if case .seat(let s) = self { return s }
        return nil
    }

    public var isSeat: Bool { self != .aisle }

    /// `available`, `locked`, `sold` or `aisle`.
    public var name: String {
        switch self {
        case .seat(let s): return s.name
        case .aisle: return "aisle"
        }
    }

    /// The message for an unknown code, shared by every format that reads them.
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
