/// Seats booked together (a box, a whole table): selecting or selling one
/// selects or sells all. Couples are two-seat groups of their own (their
/// `coupleLeft`/`coupleRight` types), not listed here.
public struct SeatGroup: Sendable, Equatable {
    public var id: String
    public var seats: [SeatID]

    public init(id: String, seats: [SeatID]) {
        self.id = id
        self.seats = seats
    }
}
