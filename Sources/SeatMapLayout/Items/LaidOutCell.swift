import Foundation
import SeatMapCore

/// One cell of the hall placed in pixels: a seat, or an explicit aisle.
public struct LaidOutCell: Sendable, Equatable {
    public let row: Int
    public let column: Int
    public let section: Int
    public let rowLabel: String
    public let seatLabel: String
    /// A seat with its sale status, or an aisle.
    public let kind: CellKind
    public let type: SeatType
    public let price: Decimal?
    /// Index into the hall's price tiers (ascending), nil for aisles.
    public let tier: Int?
    /// Where the cell is drawn and hit. A couple half covers its share of the
    /// joined pair; every other cell is exactly its seat rect.
    public let rect: PixelRect
    /// The seat's own S × SH box, where its number and marks are centred (a
    /// couple half's `rect` is wider).
    public let seatRect: PixelRect
    /// The drawn shape: the box, or (free venues) a turned box or a circle.
    public var outline: CellShape = .box
    /// The id the seat came with from another system (a pretix `seat_guid`,
    /// a Maoyan `seatNo`), or nil.
    public var externalID: String? = nil

    public var isSeat: Bool { kind.isSeat }
    /// The sale status of a seat; nil for an aisle.
    public var status: SeatStatus? { kind.status }
    public var id: SeatID { SeatID(section: section, row: row, column: column) }
    /// The other half of a couple seat.
    public var partnerID: SeatID? {
        switch type {
        case .coupleLeft: return SeatID(section: section, row: row, column: column + 1)
        case .coupleRight: return SeatID(section: section, row: row, column: column - 1)
        default: return nil
        }
    }
}
