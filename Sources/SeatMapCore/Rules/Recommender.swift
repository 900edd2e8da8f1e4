import Foundation

/// Recommended seats (推荐座位, "best available"): the block of adjacent
/// available seats in one row whose centre lies nearest the sweet spot.
///
/// - Adjacent: neighbours in the row (`RowNeighbours`: consecutive grid
///   columns; on a free row, consecutive seats without an aisle-wide gap),
///   every one available; couple seats and groups only whole.
/// - Sweet spot, cinema grid: the horizontal centre of the seat grid, two
///   thirds of the way back from the screen (row `1 + (gridRows − 1) × 2/3`);
///   score: squared distance in grid units (columns across, rows back).
/// - Sweet spot, free venue: the hall's `focus` when it sets one (score: the
///   squared distance from it, in points). Otherwise the centre of a stage
///   area (an area whose id or label says "stage" or 舞台; else the centre of
///   all areas and seats) seen from two thirds of the way between the
///   nearest and the farthest seat: score = (distance − that distance)² +
///   (horizontal offset from the stage's centre)².
/// - A block that would leave a single empty seat is never offered.
/// - Ties: the row earlier in the hall, then the lower first column.
public enum Recommender {
    public static func recommend(count: Int, in hall: Hall) -> [SeatID]? {
        guard count >= 1, count <= hall.maxSelectCount else { return nil }
        let links = RowNeighbours.links(hall)
        let score = scorer(hall)
        var best: (score: Double, row: Int, column: Int, ids: [SeatID])? = nil
        for (r, row) in hall.rows.enumerated() {
            let seats = row.seats
            func available(_ j: Int) -> Bool { seats[j].status == .available }
            func id(_ j: Int) -> SeatID { SeatID(section: row.section, row: row.number, column: seats[j].column) }
            /// The neighbour of seat j on side `step`, if linked.
            func neighbour(_ j: Int, _ step: Int) -> Int? {
                let k = j + step
                return step < 0 ? (k >= 0 && links[r][k] ? k : nil) : (k < seats.count && links[r][j] ? k : nil)
            }
            /// A seat beside the block is left alone when the place beyond it is taken.
            func leavesSingle(_ edge: Int, _ step: Int) -> Bool {
                guard let beside = neighbour(edge, step), available(beside) else { return false }
                guard let beyond = neighbour(beside, step) else { return true }
                return !available(beyond)
            }
            var i = 0
            while i < seats.count {
                guard available(i) else { i += 1; continue }
                var j = i
                while let k = neighbour(j, 1), available(k) { j = k }
                // seats[i...j] is a run of adjacent available seats.
                if j - i + 1 >= count {
                    for first in i...(j - count + 1) {
                        let last = first + count - 1
                        let ids = (first...last).map(id)
                        // Couples and groups only whole.
                        let members = Set(ids.flatMap { hall.members(of: $0) })
                        guard members.count == ids.count else { continue }
                        let s = score(r, first, last)
                        if let b = best, (s, r, seats[first].column) >= (b.score, b.row, b.column) { continue }
                        if leavesSingle(first, -1) || leavesSingle(last, 1) { continue }
                        best = (s, r, seats[first].column, ids)
                    }
                }
                i = j + 1
            }
        }
        return best?.ids
    }

    /// The score of the block of seats first...last of row r (lower is better).
    static func scorer(_ hall: Hall) -> (Int, Int, Int) -> Double {
        guard hall.isFree else {
            let centreColumn = Double(hall.gridColumns + 1) / 2
            let sweetRow = 1 + Double(hall.gridRows - 1) * 2 / 3
            return { r, first, last in
                let row = hall.rows[r]
                let dx = Double(row.seats[first].column + row.seats[last].column) / 2 - centreColumn
                let dy = Double(row.number) - sweetRow
                return dx * dx + dy * dy
            }
        }
        let resolved = VenueGeometry.seats(of: hall, pitch: 36)
        func centre(_ r: Int, _ first: Int, _ last: Int) -> Point {
            let a = resolved[r][first].centre, b = resolved[r][last].centre
            return Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        }
        if let focus = hall.focus {
            return { r, first, last in
                let c = centre(r, first, last)
                return (c.x - focus.x) * (c.x - focus.x) + (c.y - focus.y) * (c.y - focus.y)
            }
        }
        let stage = stageCentre(hall, resolved)
        var near = Double.infinity, far = 0.0
        for row in resolved {
            for s in row {
                let d = ((s.centre.x - stage.x) * (s.centre.x - stage.x) + (s.centre.y - stage.y) * (s.centre.y - stage.y)).squareRoot()
                near = min(near, d)
                far = max(far, d)
            }
        }
        let sweet = near + (far - near) * 2 / 3
        return { r, first, last in
            let c = centre(r, first, last)
            let d = ((c.x - stage.x) * (c.x - stage.x) + (c.y - stage.y) * (c.y - stage.y)).squareRoot()
            return (d - sweet) * (d - sweet) + (c.x - stage.x) * (c.x - stage.x)
        }
    }

    /// A stage area's centre (hall frame), else the centre of everything.
    static func stageCentre(_ hall: Hall, _ resolved: [[ResolvedSeat]]) -> Point {
        if let stage = hall.areas.first(where: { a in
            [a.id, a.label].contains { $0.lowercased().contains("stage") || $0.contains("舞台") }
        }) {
            return VenueGeometry.zone(of: stage, in: hall).apply(stage.shape.centre)
        }
        var xs: [Double] = [], ys: [Double] = []
        for row in resolved { for s in row { xs.append(s.centre.x); ys.append(s.centre.y) } }
        for a in hall.areas {
            let c = VenueGeometry.zone(of: a, in: hall).apply(a.shape.centre)
            xs.append(c.x)
            ys.append(c.y)
        }
        return Point(x: ((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, y: ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
    }
}
