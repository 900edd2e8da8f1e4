import Foundation

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

    /// The links from the hall's free seats resolved at any pitch (empty for a grid hall).
    static func links(_ hall: Hall, resolved: [[ResolvedSeat]]) -> [[Bool]] {
        let free = !resolved.isEmpty
        return hall.rows.enumerated().map { r, row in
            guard row.seats.count > 1 else { return [] }
            guard free, r < resolved.count, resolved[r].count == row.seats.count else {
                return (0..<(row.seats.count - 1)).map { gridNeighbours(row.seats[$0].column, row.seats[$0 + 1].column) }
            }
            let gaps = VenueGeometry.gaps(resolved[r].map(\.centre))
            let pitch = gaps.sorted()[gaps.count / 2]
            return gaps.map { $0 <= 1.5 * pitch }
        }
    }
}
