import Foundation
import SeatMapCore

/// One legend entry placed in pixels.
public struct LegendItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Available seats of a price tier.
        case tier(Int, Decimal)
        case locked, sold, selected
        /// Wheelchair and couple seats of a price tier: their swatch has that
        /// tier's fill (one entry per tier such seats are in).
        case wheelchair(Int), couple(Int), companion(Int)

        /// The seat types with their own legend entries, in legend order.
        public static let seatTypes: [SeatType] = [.wheelchair, .coupleLeft, .companion]

        /// The entry for seats of `type` in `tier` (nil for a type without one).
        public static func seats(_ type: SeatType, tier: Int) -> Kind? {
            switch type {
            case .wheelchair: return .wheelchair(tier)
            case .coupleLeft: return .couple(tier)
            case .companion: return .companion(tier)
            case .standard, .coupleRight: return nil
            }
        }

        /// The seat type a type entry names (nil for tiers and statuses).
        public var seatType: SeatType? {
            switch self {
            case .wheelchair: return .wheelchair
            case .couple: return .coupleLeft
            case .companion: return .companion
            default: return nil
            }
        }
        /// Standing (general admission) areas.
        case standing
        /// A named section or zone whose block the map outlines, by id: its
        /// swatch is that outline.
        case section(Int)
    }
    public let kind: Kind
    public let rect: PixelRect
    /// The swatch's shapes (two joined halves for couples), filled alike.
    public let swatch: [Path]
    /// The box a mark (cross, check, wheelchair) is drawn in.
    public let markBox: PixelRect
    public let text: TextPlacement
}
