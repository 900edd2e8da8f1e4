import Foundation

/// Recommended seats (推荐座位, "best available"): the block of adjacent
/// available seats in one row whose centre lies nearest the sweet spot.
///
/// - Adjacent: consecutive columns, every one an available seat (an aisle
///   or empty floor breaks a block); couple seats only as whole pairs.
/// - Sweet spot: the horizontal centre of the seat grid, two thirds of the
///   way back from the screen (row `1 + (gridRows − 1) × 2/3`).
/// - Score: squared distance from the block's centre to the sweet spot, in
///   grid units (columns across, rows back); lower is better.
/// - A block that would leave a single empty seat is never offered.
/// - Ties: the row nearer the screen, then the lower first column.
public enum Recommender {
    public static func recommend(count: Int, in hall: Hall) -> [SeatID]? {
        guard count >= 1, count <= hall.maxSelectCount else { return nil }
        let centreColumn = Double(hall.gridColumns + 1) / 2
        let sweetRow = 1 + Double(hall.gridRows - 1) * 2 / 3
        var best: (score: Double, row: Int, column: Int, ids: [SeatID])? = nil
        for row in hall.rows {
            let seats = row.seats
            var available: [Int: Bool] = [:]
            for s in seats { available[s.column] = s.status == .available }
            /// A seat beside a block is left alone when the place beyond it is taken.
            func leavesSingle(_ beside: Int, _ beyond: Int) -> Bool {
                available[beside] == true && available[beyond] != true
            }
            var i = 0
            while i < seats.count {
                guard seats[i].status == .available else { i += 1; continue }
                var j = i
                while j + 1 < seats.count, seats[j + 1].column == seats[j].column + 1, seats[j + 1].status == .available { j += 1 }
                // seats[i...j] is a run of adjacent available seats.
                if j - i + 1 >= count {
                    for first in i...(j - count + 1) {
                        let c0 = seats[first].column, c1 = seats[first + count - 1].column
                        if seats[first].type == .coupleRight || seats[first + count - 1].type == .coupleLeft { continue }
                        let dx = Double(c0 + c1) / 2 - centreColumn, dy = Double(row.number) - sweetRow
                        let score = dx * dx + dy * dy
                        if let b = best, (score, row.number, c0) >= (b.score, b.row, b.column) { continue }
                        if leavesSingle(c0 - 1, c0 - 2) || leavesSingle(c1 + 1, c1 + 2) { continue }
                        let ids = (c0...c1).map { SeatID(section: row.section, row: row.number, column: $0) }
                        best = (score, row.number, c0, ids)
                    }
                }
                i = j + 1
            }
        }
        return best?.ids
    }
}
