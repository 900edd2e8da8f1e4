import Foundation

/// Best available (推荐座位): the seats a buyer asking for `count` of them
/// (and perhaps a category, section, level, accessible seats, a price cap)
/// is best offered.
///
/// **Which seats.** Available seats that meet every constraint: the
/// category, the section (its id or name), the level, a price at most
/// `priceMax`. Exactly `accessible` of the seats are wheelchair or companion
/// seats (0 by default: those seats are offered only when asked for). Couple
/// seats and groups (boxes, tables) are taken whole or not at all, and only
/// when every seat of the group meets the constraints.
///
/// **Score** (lower is better), of a block of seats first...last of a row:
/// - cinema grid: the squared distance, in grid units (columns across, rows
///   back), of the block's centre from the sweet spot: the horizontal centre
///   of the grid, two thirds of the way back from the screen (row
///   `1 + (gridRows − 1) × 2/3`);
/// - free venue with a `focus`: the squared distance of the block's centre
///   from it, in points;
/// - other free venues: seen from the centre of a stage area (an area whose
///   id or label says "stage" or 舞台; else the centre of all areas and
///   seats), (distance − sweet distance)² + (horizontal offset)², the sweet
///   distance two thirds of the way from the nearest to the farthest seat.
///
/// **Fallbacks**, tried in this order; the first that finds seats answers and
/// says which it was (`Fallback`):
/// 1. `none`: one block of adjacent seats in one row (`RowNeighbours`) that
///    leaves no single empty seat (`SingleSeatRule`); the best score wins.
/// 2. `orphan`: one such block when every one leaves a single empty seat:
///    the fewest left (one side before both), then the best score.
/// 3. `split`: two blocks in two rows numbered one apart in one section,
///    each leaving no single empty seat, side by side (grid: their columns
///    overlap; free venue: a seat of one is within two seat pitches of a
///    seat of the other); score: the seat-weighted mean of the two blocks'
///    scores.
/// 4. `anywhere`: the best-scoring seats (and whole groups) wherever they are.
///
/// With `together`, only steps 1 and 2 are tried. Ties go to the row earlier
/// in the hall, then the lower first column. The cost grows linearly with
/// the seats (steps 1 and 2; step 3 with the seats of each pair of rows,
/// step 4 as a sort).
public enum Recommender {
    /// What a buyer asks for.
    public struct Request: Sendable, Equatable {
        /// How many seats, 1…`maxSelectCount`.
        public var count: Int
        /// A category name (`SeatCategory.name`).
        public var category: String?
        /// A section: its id (`2`) or its name, any case.
        public var section: String?
        /// A level (`ZonePlace.level`).
        public var level: Int?
        /// How many of the seats are wheelchair or companion seats.
        public var accessible: Int
        /// The most one seat may cost.
        public var priceMax: Decimal?
        /// One row only (no `split`, no `anywhere`).
        public var together: Bool

        public init(count: Int, category: String? = nil, section: String? = nil, level: Int? = nil, accessible: Int = 0,
                    priceMax: Decimal? = nil, together: Bool = false) {
            self.count = count
            self.category = category
            self.section = section
            self.level = level
            self.accessible = accessible
            self.priceMax = priceMax
            self.together = together
        }
    }

    /// Which step of the fallback order answered.
    public enum Fallback: String, Sendable, Equatable, CaseIterable {
        case none, orphan, split, anywhere
    }

    public struct Recommendation: Sendable, Equatable {
        /// Sorted by row, then column.
        public var seats: [SeatID]
        public var fallback: Fallback
    }

    /// Why nothing was recommended.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// The request names something the hall does not have (a
            /// category, section or level) or asks for an impossible count.
            case invalid
            /// No seats meet the request (sold out, too few, groups too big).
            case noSeats
        }
        public var kind: Kind
        public var message: String
        public var description: String { message }
    }

    /// The best block of `count` seats that leaves no single empty seat
    /// (fallback `none` only), or nil.
    public static func recommend(count: Int, in hall: Hall) -> [SeatID]? {
        guard let r = try? best(Request(count: count, together: true), in: hall), r.fallback == .none else { return nil }
        return r.seats
    }

    /// The best seats for a request, by the fallback order.
    public static func best(_ request: Request, in hall: Hall) throws(Failure) -> Recommendation {
        let search = try Search(request, hall)
        if let r = search.together() { return r }
        if !request.together, let r = search.split() ?? search.anywhere() { return r }
        throw Failure(kind: .noSeats, message: search.reason())
    }

    /// The score of the block of seats first...last of row r (lower is better).
    static func scorer(_ hall: Hall) -> (Int, Int, Int) -> Double {
        scorer(hall, resolved: hall.isFree ? VenueGeometry.seats(of: hall, pitch: 36) : [])
    }

    static func scorer(_ hall: Hall, resolved: [[ResolvedSeat]]) -> (Int, Int, Int) -> Double {
        guard hall.isFree else {
            let centreColumn = Double(hall.gridColumns + 1) / 2
            let sweetRow = 1 + Double(hall.gridRows - 1) * 2 / 3
            let rows = hall.rows
            return { r, first, last in
                let row = rows[r]
                let dx = Double(row.seats[first].column + row.seats[last].column) / 2 - centreColumn
                let dy = Double(row.number) - sweetRow
                return dx * dx + dy * dy
            }
        }
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

extension Recommender {
    /// One request's search over one hall: the seats it may take, worked out
    /// once, and each step of the fallback order.
    struct Search {
        let request: Request
        let hall: Hall
        let links: [[Bool]]
        let resolved: [[ResolvedSeat]]
        let score: (Int, Int, Int) -> Double
        /// Per row and seat: available (any buyer could take it).
        var available: [[Bool]] = []
        /// Per row and seat: meets the constraints, with its whole group.
        var usable: [[Bool]] = []
        /// Per row and seat: a wheelchair or companion seat.
        var accessible: [[Bool]] = []
        /// Per row and seat: the first and last seat index of its couple or
        /// group in the row (itself when alone); -1 for a group that is not a
        /// run of one row (taken only whole, in step 4).
        var lo: [[Int]] = [], hi: [[Int]] = []
        /// The constraints in words ("in category A, in section 2").
        let constraints: String

        init(_ request: Request, _ hall: Hall) throws(Failure) {
            self.request = request
            self.hall = hall
            guard request.count >= 1, request.count <= hall.maxSelectCount else {
                throw Failure(kind: .invalid, message: "a count of \(request.count) is outside 1…\(hall.maxSelectCount) (the hall's maxSelectCount)")
            }
            guard request.accessible >= 0, request.accessible <= request.count else {
                throw Failure(kind: .invalid, message: "\(request.accessible) accessible seats of \(request.count) is not 0…\(request.count)")
            }
            var words: [String] = []
            var sectionID: Int? = nil
            if let text = request.section {
                let used = Set(hall.rows.map(\.section)).union(hall.sections.map(\.id))
                if let n = Int(text), DecodeContext.isDecimalNumber(text), used.contains(n) {
                    sectionID = n
                } else if let s = hall.sections.first(where: { $0.name.lowercased() == text.lowercased() && !$0.name.isEmpty }) {
                    sectionID = s.id
                } else {
                    let known = used.sorted().map { id in
                        hall.sections.first(where: { $0.id == id && !$0.name.isEmpty }).map { "\(id) (\($0.name))" } ?? String(id)
                    }
                    throw Failure(kind: .invalid, message: "no section \"\(text)\": the hall's sections are \(known.joined(separator: ", "))")
                }
                words.append("in section \(text)")
            }
            if let c = request.category {
                let known = Set(hall.categories.map(\.name)).union(hall.rows.flatMap { $0.seats.compactMap(\.category) }).sorted()
                guard known.contains(c) else {
                    throw Failure(kind: .invalid, message: known.isEmpty ? "no category \"\(c)\": the hall has no categories"
                                  : "no category \"\(c)\": the hall's categories are \(known.joined(separator: ", "))")
                }
                words.append("in category \(c)")
            }
            if let l = request.level {
                guard hall.levels.contains(l) else {
                    throw Failure(kind: .invalid, message: "no level \(l): the hall's levels are \(hall.levels.map(String.init).joined(separator: ", "))")
                }
                words.append("on level \(l)")
            }
            if let p = request.priceMax { words.append("costing at most \(p.plainText) each") }
            if request.accessible > 0 { words.append("\(request.accessible) of them wheelchair or companion seats") }
            constraints = words.isEmpty ? "" : " " + words.joined(separator: ", ")

            resolved = hall.isFree ? VenueGeometry.seats(of: hall, pitch: 36) : []
            links = RowNeighbours.links(hall, resolved: resolved)
            score = Recommender.scorer(hall, resolved: resolved)

            let levels = Dictionary(hall.sections.map { ($0.id, $0.place?.level ?? 0) }, uniquingKeysWith: { a, _ in a })
            var eligible: [[Bool]] = []
            for row in hall.rows {
                let rowFits = (sectionID == nil || row.section == sectionID) && (request.level == nil || (levels[row.section] ?? 0) == request.level)
                var av = [Bool](repeating: false, count: row.seats.count), el = av, acc = av
                var l = [Int](), h = [Int]()
                l.reserveCapacity(row.seats.count)
                h.reserveCapacity(row.seats.count)
                for (j, seat) in row.seats.enumerated() {
                    l.append(j)
                    h.append(j)
                    guard seat.status == .available else { continue }
                    av[j] = true
                    acc[j] = seat.type == .wheelchair || seat.type == .companion
                    guard rowFits, request.category == nil || seat.category == request.category else { continue }
                    if let cap = request.priceMax, let price = seat.price ?? row.price, price > cap { continue }
                    el[j] = true
                }
                // Couple halves: the pair is the neighbouring column.
                for j in row.seats.indices {
                    switch row.seats[j].type {
                    case .coupleLeft:
                        if j + 1 < row.seats.count, row.seats[j + 1].column == row.seats[j].column + 1 { h[j] = j + 1 } else { l[j] = -1; h[j] = -1 }
                    case .coupleRight:
                        if j > 0, row.seats[j - 1].column == row.seats[j].column - 1 { l[j] = j - 1 } else { l[j] = -1; h[j] = -1 }
                    default: break
                    }
                }
                available.append(av)
                eligible.append(el)
                accessible.append(acc)
                lo.append(l)
                hi.append(h)
            }
            // Groups: a run of one row keeps its range; any other is taken only whole.
            for g in hall.groups {
                let places = g.seats.compactMap { hall.position(of: $0) }
                guard let first = places.first else { continue }
                let js = places.map(\.seat)
                let run = places.allSatisfy { $0.row == first.row } && js.max()! - js.min()! + 1 == places.count
                for p in places {
                    lo[p.row][p.seat] = run ? js.min()! : -1
                    hi[p.row][p.seat] = run ? js.max()! : -1
                }
            }
            usable = eligible
            for r in usable.indices {
                for j in usable[r].indices where usable[r][j] && (lo[r][j] != j || hi[r][j] != j) {
                    usable[r][j] = hall.members(of: id(r, j)).allSatisfy { m in
                        hall.position(of: m).map { eligible[$0.row][$0.seat] } ?? false
                    }
                }
            }
        }

        func id(_ r: Int, _ j: Int) -> SeatID {
            SeatID(section: hall.rows[r].section, row: hall.rows[r].number, column: hall.rows[r].seats[j].column)
        }

        /// The neighbour of seat j of row r on side `step` (±1), if linked.
        func neighbour(_ r: Int, _ j: Int, _ step: Int) -> Int? {
            let k = j + step
            return step < 0 ? (k >= 0 && links[r][k] ? k : nil) : (k < available[r].count && links[r][j] ? k : nil)
        }

        /// Single empty seats a block first...last of row r leaves (0, 1 or 2).
        func orphans(_ r: Int, _ first: Int, _ last: Int) -> Int {
            func leaves(_ edge: Int, _ step: Int) -> Bool {
                guard let beside = neighbour(r, edge, step), available[r][beside] else { return false }
                guard let beyond = neighbour(r, beside, step) else { return true }
                return !available[r][beyond]
            }
            return (leaves(first, -1) ? 1 : 0) + (leaves(last, 1) ? 1 : 0)
        }

        /// Each block of `size` seats of row r that may be taken (adjacent,
        /// usable, whole couples and groups), with its accessible seats.
        func blocks(_ r: Int, size: Int, _ body: (_ first: Int, _ last: Int, _ accessible: Int) -> Void) {
            let n = usable[r].count
            var i = 0
            while i < n {
                guard usable[r][i], lo[r][i] >= 0 else { i += 1; continue }
                var k = i
                while let m = neighbour(r, k, 1), usable[r][m], lo[r][m] >= 0 { k = m }
                // seats i...k are adjacent and usable.
                if k - i + 1 >= size {
                    var acc = 0
                    for j in i..<(i + size) where accessible[r][j] { acc += 1 }
                    var first = i
                    while true {
                        let last = first + size - 1
                        if lo[r][first] >= first && hi[r][last] <= last { body(first, last, acc) }
                        guard last + 1 <= k else { break }
                        if accessible[r][first] { acc -= 1 }
                        if accessible[r][last + 1] { acc += 1 }
                        first += 1
                    }
                }
                i = k + 1
            }
        }

        /// Steps 1 and 2: one block in one row.
        func together() -> Recommendation? {
            let count = request.count, want = request.accessible
            var best: (orphans: Int, score: Double, row: Int, first: Int)? = nil
            for r in hall.rows.indices {
                blocks(r, size: count) { first, last, acc in
                    guard acc == want else { return }
                    let o = orphans(r, first, last)
                    if let b = best, o > b.orphans { return }
                    let s = score(r, first, last)
                    if let b = best, (o, s) >= (b.orphans, b.score) { return }
                    best = (o, s, r, first)
                }
            }
            guard let b = best else { return nil }
            return Recommendation(seats: (b.first..<(b.first + count)).map { id(b.row, $0) }, fallback: b.orphans == 0 ? .none : .orphan)
        }

        /// Whether two rows are one apart in one section.
        func paired(_ r: Int) -> Bool {
            r + 1 < hall.rows.count && hall.rows[r + 1].section == hall.rows[r].section && hall.rows[r + 1].number == hall.rows[r].number + 1
        }

        /// The median distance between neighbouring seats of a free row.
        func pitch(_ r: Int) -> Double {
            VenueGeometry.pitch(resolved[r].map(\.centre)) ?? 36
        }

        /// Step 3: two blocks side by side in two rows one apart.
        func split() -> Recommendation? {
            let count = request.count, want = request.accessible
            guard count >= 2 else { return nil }
            var best: (score: Double, row: Int, a: (Int, Int), b: (Int, Int))? = nil
            for r in hall.rows.indices where paired(r) {
                let reach = hall.isFree ? 2 * max(pitch(r), pitch(r + 1)) : 0
                for size in 1..<count {
                    // The second row's blocks that leave no single seat, by first seat.
                    var back: [(first: Int, last: Int, acc: Int, score: Double)] = []
                    blocks(r + 1, size: count - size) { first, last, acc in
                        if orphans(r + 1, first, last) == 0 { back.append((first, last, acc, score(r + 1, first, last))) }
                    }
                    guard !back.isEmpty else { continue }
                    let columns = hall.rows[r + 1].seats.map(\.column)
                    blocks(r, size: size) { first, last, acc in
                        guard acc <= want, orphans(r, first, last) == 0 else { return }
                        let s = score(r, first, last) * Double(size)
                        let c0 = hall.rows[r].seats[first].column, c1 = hall.rows[r].seats[last].column
                        for b in back where b.acc == want - acc {
                            if hall.isFree {
                                guard touch(r, first...last, r + 1, b.first...b.last, within: reach) else { continue }
                            } else {
                                guard columns[b.first] <= c1, columns[b.last] >= c0 else { continue }
                            }
                            let total = (s + b.score * Double(count - size)) / Double(count)
                            if let x = best, (total, r, c0, columns[b.first]) >= (x.score, x.row, hall.rows[r].seats[x.a.0].column, columns[x.b.0]) {
                                continue
                            }
                            best = (total, r, (first, last), (b.first, b.last))
                        }
                    }
                }
            }
            guard let b = best else { return nil }
            let ids = (b.a.0...b.a.1).map { id(b.row, $0) } + (b.b.0...b.b.1).map { id(b.row + 1, $0) }
            return Recommendation(seats: ids.sorted(), fallback: .split)
        }

        /// Whether a seat of one block is within `reach` points of a seat of the other.
        func touch(_ r: Int, _ a: ClosedRange<Int>, _ s: Int, _ b: ClosedRange<Int>, within reach: Double) -> Bool {
            for i in a {
                let p = resolved[r][i].centre
                for j in b {
                    let q = resolved[s][j].centre
                    if (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) <= reach * reach { return true }
                }
            }
            return false
        }

        /// A seat alone or a couple or group: what step 4 takes whole.
        struct Unit {
            var seats: [CellPosition]
            var accessible: Int
            var score: Double
            var row: Int
            var column: Int
        }

        /// Every usable seat, couples and groups as one unit each.
        func units() -> [Unit] {
            var out: [Unit] = []
            var seen = Set<SeatID>()
            for r in hall.rows.indices {
                for j in usable[r].indices where usable[r][j] {
                    if lo[r][j] == j && hi[r][j] == j {
                        out.append(Unit(seats: [CellPosition(row: r, seat: j)], accessible: accessible[r][j] ? 1 : 0, score: score(r, j, j),
                                        row: r, column: hall.rows[r].seats[j].column))
                        continue
                    }
                    let members = hall.members(of: id(r, j))
                    guard seen.insert(members[0]).inserted else { continue }
                    let places = members.compactMap { hall.position(of: $0) }
                    let s = lo[r][j] >= 0 ? score(r, lo[r][j], hi[r][j]) : places.map { score($0.row, $0.seat, $0.seat) }.min() ?? 0
                    out.append(Unit(seats: places, accessible: places.filter { accessible[$0.row][$0.seat] }.count, score: s, row: r,
                                    column: hall.rows[r].seats[j].column))
                }
            }
            return out
        }

        /// Step 4: the best seats anywhere, whole units, exactly the accessible count.
        func anywhere() -> Recommendation? {
            var need = request.count, needAccessible = request.accessible
            var ids: [SeatID] = []
            for u in units().sorted(by: { ($0.score, $0.row, $0.column) < ($1.score, $1.row, $1.column) }) {
                let size = u.seats.count
                guard size <= need, u.accessible <= needAccessible, size - u.accessible <= need - needAccessible else { continue }
                ids += u.seats.map { id($0.row, $0.seat) }
                need -= size
                needAccessible -= u.accessible
                if need == 0 { return Recommendation(seats: ids.sorted(), fallback: .anywhere) }
            }
            return nil
        }

        /// Why no step found seats, in a sentence.
        func reason() -> String {
            let count = request.count
            let units = units()
            let seats = units.reduce(0) { $0 + $1.seats.count }
            let accessibleSeats = units.reduce(0) { $0 + $1.accessible }
            if seats == 0 { return "no seat is available\(constraints)" }
            if seats < count { return "only \(seats) seat\(seats == 1 ? " is" : "s are") available\(constraints); \(count) asked for" }
            if accessibleSeats < request.accessible {
                return "only \(accessibleSeats) wheelchair or companion seat\(accessibleSeats == 1 ? " is" : "s are") available\(constraints)"
            }
            if seats - accessibleSeats < count - request.accessible {
                return "only \(seats - accessibleSeats) seats that are not wheelchair or companion seats are available\(constraints)"
            }
            if request.together { return "no \(count) adjacent seats are available in one row\(constraints)" }
            let sizes = Set(units.map(\.seats.count).filter { $0 > 1 }).sorted()
            if !sizes.isEmpty {
                return "seats here are booked whole in groups (tables, boxes, couple seats) of \(sizes.map(String.init).joined(separator: ", ")): no choice of them makes \(count)\(constraints)"
            }
            return "no \(count) seats are available\(constraints)"
        }
    }
}
