/// Which seats of a row sit side by side, for the rules (no single empty
/// seat, recommendations).
///
/// A grid row's cells are neighbours when their columns are consecutive (a
/// missing column is empty floor). A free row's seats are neighbours when
/// they are consecutive in the row's order and their centres are at most
/// 1.5 seat pitches apart, the row's seat pitch being the median distance
/// between consecutive seats: a wider gap is an aisle and breaks the row.
public enum RowNeighbours {
    /// For each row (in `hall.rows` order), `links[j]` says whether seat j
    /// and seat j + 1 are neighbours.
    public static func links(_ hall: Hall) -> [[Bool]] {
        // Line rows without a spacing scale alike, so any pitch gives the same links.
        links(hall, resolved: hall.isFree ? VenueGeometry.seats(of: hall, pitch: 1) : [])
    }

    /// Whether grid columns a and b (a < b, consecutive cells of a row) are neighbours.
    @inline(__always) static func gridNeighbours(_ a: Int, _ b: Int) -> Bool { b == a + 1 }

    /// The links of one row (`hall.rows[r]`), resolving only that row: what
    /// the rules need when they look at the rows a selection touches.
    public static func links(_ hall: Hall, row r: Int) -> [Bool] {
        let row = hall.rows[r]
        return links(row, resolved: hall.isFree ? VenueGeometry.seats(of: row, in: hall, pitch: 1) : [])
    }

    /// The links from the hall's free seats resolved at any pitch (empty for a grid hall).
    static func links(_ hall: Hall, resolved: [[ResolvedSeat]]) -> [[Bool]] {
        hall.rows.enumerated().map { r, row in links(row, resolved: r < resolved.count ? resolved[r] : []) }
    }

    /// One row's links from its resolved seats (empty: a grid row, by column).
    static func links(_ row: Row, resolved: [ResolvedSeat]) -> [Bool] {
        guard row.seats.count > 1 else { return [] }
        guard !resolved.isEmpty, resolved.count == row.seats.count else {
            return (0..<(row.seats.count - 1)).map { gridNeighbours(row.seats[$0].column, row.seats[$0 + 1].column) }
        }
        let gaps = VenueGeometry.gaps(resolved.map(\.centre))
        let pitch = gaps.sorted()[gaps.count / 2]
        return gaps.map { $0 <= 1.5 * pitch }
    }

    /// The indices in `hall.rows` of the rows holding these seats, sorted.
    public static func rows(of ids: some Sequence<SeatID>, in hall: Hall) -> [Int] {
        Set(ids.compactMap { hall.position(of: $0)?.row }).sorted()
    }

    /// These seats and the cells up to `reach` places from each in its row
    /// (aisles included in the count, not in the answer), in row order:
    /// what the single-seat rule may look at around a selection (an empty
    /// seat beside a selected one, and that seat's other neighbour).
    public static func around(_ ids: some Sequence<SeatID>, in hall: Hall, reach: Int) -> [SeatID] {
        var out = Set<SeatID>()
        for id in ids {
            guard let p = hall.position(of: id) else { continue }
            let row = hall.rows[p.row]
            for j in max(0, p.seat - reach)...min(row.seats.count - 1, p.seat + reach) where row.seats[j].isSeat {
                out.insert(SeatID(section: row.section, row: row.number, column: row.seats[j].column))
            }
        }
        return out.sorted()
    }

    /// Every seat (not aisle) of the rows holding these seats, in row order:
    /// what the rules may look at when a selection holds these seats.
    public static func rowMates(of ids: some Sequence<SeatID>, in hall: Hall) -> [SeatID] {
        rows(of: ids, in: hall).flatMap { r in
            let row = hall.rows[r]
            return row.seats.filter(\.isSeat).map { SeatID(section: row.section, row: row.number, column: $0.column) }
        }
    }
}
