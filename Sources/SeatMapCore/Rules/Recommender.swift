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
        /// What went wrong, naming the request's inputs as the library
        /// calls them (`count`, `accessible`).
        public var message: String
        /// The message with those inputs marked (`{{count}}`), for a face
        /// to say them as it does (`naming(_:)`).
        public var template: String
        public var description: String { message }

        init(kind: Kind, message: Diagnostic.Text) {
            self.kind = kind
            self.template = message.template
            self.message = Diagnostic.fill(template) { $0 }
        }

        /// The message with the inputs said as `name` says them.
        public func naming(_ name: (String) -> String) -> String { Diagnostic.fill(template, name) }
    }

    /// Checks a request against a hall without searching: throws the
    /// `invalid` failure `best` would (an unknown category, section or
    /// level, a count outside 1…`maxSelectCount`).
    public static func check(_ request: Request, in hall: Hall) throws(Failure) {
        _ = try Search.check(request, hall)
    }

    /// The best block of `count` seats that leaves no single empty seat
    /// (fallback `none` only; no wheelchair or companion seats), or nil.
    public static func recommend(count: Int, in hall: Hall) -> [SeatID]? {
        guard let r = try? best(Request(count: count, together: true), in: hall), r.fallback == .none else { return nil }
        return r.seats
    }

    /// The best seats for a request, by the fallback order.
    /// A step's answer that breaks a sales rule the hall enforces
    /// (`noOrphans`, `consecutive`: `order` would refuse it) is passed over
    /// for the next step.
    public static func best(_ request: Request, in hall: Hall) throws(Failure) -> Recommendation {
        let search = try Search(request, hall)
        let rules = hall.rules
        var refused: [RuleBreak] = []
        func keeps(_ r: Recommendation?) -> Recommendation? {
            guard let r else { return nil }
            guard rules.noOrphans == .enforce || rules.consecutive == .enforce else { return r }
            let broken = rules.breaks(Selection(restoring: r.seats, standing: [:]), in: hall)
                .filter { $0.enforced && ($0.rule == .noOrphans || $0.rule == .consecutive) }
            if broken.isEmpty { return r }
            refused += broken
            return nil
        }
        // Fewer usable seats than asked for: no step can answer.
        if search.usableCount >= request.count {
            if let r = keeps(search.together()) { return r }
            if !request.together, let r = keeps(search.split()) ?? keeps(search.anywhere()) { return r }
        }
        if let first = refused.first {
            throw Failure(kind: .noSeats, message: "every \(request.count) seats found break the hall's enforced sales rules (\(first.summary))")
        }
        throw Failure(kind: .noSeats, message: .init(verbatim: search.reason()))
    }

    /// The score of the block of seats first...last of row r (lower is better).
    static func scorer(_ hall: Hall) -> (Int, Int, Int) -> Double {
        let seats = Seats(hall)
        let score = Scoring(hall, seats)
        return { r, first, last in score(r, seats.start[r] + first, seats.start[r] + last) }
    }

    /// Every seat of the hall in one flat run (rows one after another), for
    /// searches that visit each seat a few times.
    struct Seats {
        /// Where each row's seats begin; `start[rows]` is the seat count.
        var start: [Int] = [0]
        var column: [Int32] = []
        /// Free venues: each seat's centre, points (empty on the grid).
        var x: [Double] = [], y: [Double] = []
        /// Free venues: whether seat g and seat g + 1 are row neighbours (`RowNeighbours`).
        var freeLinks: [Bool] = []
        /// A free venue (`Hall.isFree`).
        var free: Bool
        /// What `classify` said of each seat (empty without one).
        var flags: [UInt8] = []

        /// The seats; `classify(r, cells, j)` of each seat, in the same pass.
        init(_ hall: Hall, classify: ((Int, UnsafeBufferPointer<Seat>, Int) -> UInt8)? = nil) {
            free = hall.isFree
            let resolved = free ? VenueGeometry.seats(of: hall, pitch: 36) : []
            let n = hall.rows.reduce(0) { $0 + $1.seats.count }
            column.reserveCapacity(n)
            if classify != nil { flags.reserveCapacity(n) }
            let links = free ? RowNeighbours.links(hall, resolved: resolved) : []
            if free { freeLinks.reserveCapacity(n) }
            for r in hall.rows.indices {
                let row = hall.rows[r]
                row.seats.withUnsafeBufferPointer { cells in
                    for j in cells.indices { column.append(Int32(truncatingIfNeeded: cells[j].column)) }
                    if let classify { for j in cells.indices { flags.append(classify(r, cells, j)) } }
                }
                if free { for j in row.seats.indices { freeLinks.append(j < links[r].count && links[r][j]) } }
                if free {
                    for p in resolved[r] {
                        x.append(p.centre.x)
                        y.append(p.centre.y)
                    }
                }
                start.append(column.count)
            }
        }

        /// Whether seat g and seat g + 1 (of the same row) are neighbours.
        @inline(__always) func linked(_ g: Int) -> Bool {
            free ? freeLinks[g] : RowNeighbours.gridNeighbours(Int(column[g]), Int(column[g + 1]))
        }
    }

    /// The score of a block of seats a...b (flat indices) of row r.
    struct Scoring {
        enum Kind {
            case grid(centre: Double, sweetRow: Double)
            case focus(Point)
            case stage(Point, sweet: Double)
        }
        let kind: Kind
        let rowNumber: [Double]
        let seats: Seats

        init(_ hall: Hall, _ seats: Seats) {
            self.seats = seats
            rowNumber = hall.rows.map { Double($0.number) }
            if !seats.free {
                kind = .grid(centre: Double(hall.gridColumns + 1) / 2, sweetRow: 1 + Double(hall.gridRows - 1) * 2 / 3)
            } else if let focus = hall.focus {
                kind = .focus(focus)
            } else {
                let stage = Recommender.stageCentre(hall, seats)
                var near = Double.infinity, far = 0.0
                for g in seats.x.indices {
                    let d = ((seats.x[g] - stage.x) * (seats.x[g] - stage.x) + (seats.y[g] - stage.y) * (seats.y[g] - stage.y)).squareRoot()
                    near = min(near, d)
                    far = max(far, d)
                }
                kind = .stage(stage, sweet: near + (far - near) * 2 / 3)
            }
        }

        func callAsFunction(_ r: Int, _ a: Int, _ b: Int) -> Double {
            switch kind {
            case .grid(let centre, let sweetRow):
                let dx = Double(Int(seats.column[a]) + Int(seats.column[b])) / 2 - centre
                let dy = rowNumber[r] - sweetRow
                return dx * dx + dy * dy
            case .focus(let f):
                let cx = (seats.x[a] + seats.x[b]) / 2, cy = (seats.y[a] + seats.y[b]) / 2
                return (cx - f.x) * (cx - f.x) + (cy - f.y) * (cy - f.y)
            case .stage(let stage, let sweet):
                let cx = (seats.x[a] + seats.x[b]) / 2, cy = (seats.y[a] + seats.y[b]) / 2
                let d = ((cx - stage.x) * (cx - stage.x) + (cy - stage.y) * (cy - stage.y)).squareRoot()
                return (d - sweet) * (d - sweet) + (cx - stage.x) * (cx - stage.x)
            }
        }
    }

    /// A stage area's centre (hall frame), else the centre of everything.
    static func stageCentre(_ hall: Hall, _ seats: Seats) -> Point {
        if let stage = hall.areas.first(where: { a in
            [a.id, a.label].contains { $0.lowercased().contains("stage") || $0.contains("舞台") }
        }) {
            return VenueGeometry.zone(of: stage, in: hall).apply(stage.shape.centre)
        }
        var xs: [Double] = [], ys: [Double] = []
        xs += seats.x
        ys += seats.y
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
    /// once in flat arrays (seat g of row r is `seats.start[r] + j`), and
    /// each step of the fallback order.
    struct Search {
        static let available: UInt8 = 1, usable: UInt8 = 2, accessible: UInt8 = 4, loose: UInt8 = 8

        let request: Request
        let hall: Hall
        let seats: Seats
        let score: Scoring
        /// Per seat: `available` (any buyer could take it), `usable` (meets
        /// the constraints, with its whole couple or group), `accessible` (a
        /// wheelchair or companion seat), `loose` (its couple or group is not
        /// a run of one row: taken only whole, in step 4).
        var flags: [UInt8]
        /// Per seat: the first and last seat of its couple or group in its
        /// row (empty when the hall has neither: each seat is its own).
        var lo: [Int] = [], hi: [Int] = []
        /// The constraints in words ("in category A, in section 2").
        let constraints: String

        /// What a request asks, checked against the hall: the section it
        /// names (by id), its constraints in words.
        struct Checked {
            var sectionID: Int?
            var words: String
        }

        static func check(_ request: Request, _ hall: Hall) throws(Failure) -> Checked {
            guard request.count >= 1, request.count <= hall.maxSelectCount else {
                throw Failure(kind: .invalid, message: "{{count}} \(request.count) is outside 1…\(hall.maxSelectCount) (the hall's maxSelectCount)")
            }
            guard request.accessible >= 0, request.accessible <= request.count else {
                throw Failure(kind: .invalid, message: "{{accessible}} \(request.accessible) is outside 0…\(request.count) (the {{count}})")
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
            return Checked(sectionID: sectionID, words: words.isEmpty ? "" : " " + words.joined(separator: ", "))
        }

        init(_ request: Request, _ hall: Hall) throws(Failure) {
            self.request = request
            self.hall = hall
            let checked = try Search.check(request, hall)
            let sectionID = checked.sectionID
            constraints = checked.words

            let levels = Dictionary(hall.sections.map { ($0.id, $0.place?.level ?? 0) }, uniquingKeysWith: { a, _ in a })
            let rowFits = hall.rows.map { row in
                (sectionID == nil || row.section == sectionID) && (request.level == nil || (levels[row.section] ?? 0) == request.level)
            }
            var pairs = !hall.wholeGroups.isEmpty
            var usable = 0
            let rows = hall.rows
            seats = Seats(hall) { r, cells, j in
                guard case .seat(.available) = cells[j].kind else { return 0 }
                let type = cells[j].type
                var f = Search.available
                if type == .wheelchair || type == .companion { f |= Search.accessible }
                if type.isCoupleHalf { pairs = true }
                if rowFits[r], request.category == nil || cells[j].category == request.category,
                   request.priceMax.map({ cap in (cells[j].price ?? rows[r].price).map { $0 <= cap } ?? true }) ?? true {
                    f |= Search.usable
                    usable += 1
                }
                return f
            }
            score = Scoring(hall, seats)
            let flags = seats.flags
            usableCount = usable
            self.flags = flags
            guard pairs else { return }
            // Couples and groups: the run of one row they fill, else loose;
            // usable only when every member is.
            lo = Array(0..<flags.count)
            hi = lo
            for (r, row) in hall.rows.enumerated() {
                let s = seats.start[r], e = seats.start[r + 1]
                for g in s..<e {
                    switch row.seats[g - s].type {
                    case .coupleLeft:
                        if g + 1 < e, Int(seats.column[g + 1]) == Int(seats.column[g]) + 1 { hi[g] = g + 1 } else { self.flags[g] |= Search.loose }
                    case .coupleRight:
                        if g > s, Int(seats.column[g - 1]) == Int(seats.column[g]) - 1 { lo[g] = g - 1 } else { self.flags[g] |= Search.loose }
                    default: break
                    }
                }
            }
            for group in hall.wholeGroups {
                let places = group.seats.compactMap { hall.position(of: $0) }
                guard let p0 = places.first else { continue }
                let flat = places.map { seats.start[$0.row] + $0.seat }
                guard let first = flat.min(), let last = flat.max() else { continue }
                let run = places.allSatisfy { $0.row == p0.row } && last - first + 1 == flat.count
                for g in flat {
                    if run { (lo[g], hi[g]) = (first, last) } else { self.flags[g] |= Search.loose }
                }
            }
            // A unit is usable only whole: every member there and usable.
            var stale: [Int] = []
            for g in flags.indices where self.flags[g] & Search.usable != 0 && (lo[g] != g || hi[g] != g || self.flags[g] & Search.loose != 0) {
                let whole = hall.members(of: id(row(of: g), g)).allSatisfy { m in
                    hall.position(of: m).map { self.flags[seats.start[$0.row] + $0.seat] & Search.usable != 0 } ?? false
                }
                if !whole { stale.append(g) }
            }
            for g in stale { self.flags[g] &= ~Search.usable }
            usableCount -= stale.count
        }

        /// The flat indices of the seats booked with seat g (itself included).
        func members(_ g: Int) -> [Int] {
            hall.members(of: id(row(of: g), g)).compactMap { hall.position(of: $0).map { seats.start[$0.row] + $0.seat } }
        }

        /// The row of flat seat g.
        func row(of g: Int) -> Int {
            var lower = 0, upper = seats.start.count - 1
            while upper - lower > 1 {
                let mid = (lower + upper) / 2
                if seats.start[mid] <= g { lower = mid } else { upper = mid }
            }
            return lower
        }

        func id(_ r: Int, _ g: Int) -> SeatID {
            SeatID(section: hall.rows[r].section, row: hall.rows[r].number, column: Int(seats.column[g]))
        }

        /// How many seats meet the request (whole groups).
        var usableCount = 0

        func isUsable(_ g: Int) -> Bool { flags[g] & (Search.usable | Search.loose) == Search.usable }
        func isAvailable(_ g: Int) -> Bool { flags[g] & Search.available != 0 }
        func isAccessible(_ g: Int) -> Bool { flags[g] & Search.accessible != 0 }

        /// Single empty seats a block a...b of row r leaves (0, 1 or 2).
        func orphans(_ r: Int, _ a: Int, _ b: Int) -> Int {
            let s = seats.start[r], e = seats.start[r + 1]
            var n = 0
            // Before: the seat beside is available and nothing available lies beyond it.
            if a > s, seats.linked(a - 1), isAvailable(a - 1), !(a - 1 > s && seats.linked(a - 2) && isAvailable(a - 2)) { n += 1 }
            if b + 1 < e, seats.linked(b), isAvailable(b + 1), !(b + 2 < e && seats.linked(b + 1) && isAvailable(b + 2)) { n += 1 }
            return n
        }

        /// Each block of `size` seats of row r that may be taken (adjacent,
        /// usable, whole couples and groups), with its accessible seats.
        func blocks(_ r: Int, size: Int, _ body: (_ a: Int, _ b: Int, _ accessible: Int) -> Void) {
            let e = seats.start[r + 1]
            var i = seats.start[r]
            let units = !lo.isEmpty
            while i < e {
                guard isUsable(i) else { i += 1; continue }
                var k = i
                while k + 1 < e, seats.linked(k), isUsable(k + 1) { k += 1 }
                // seats i...k are adjacent and usable.
                if k - i + 1 >= size {
                    var acc = 0
                    for g in i..<(i + size) where isAccessible(g) { acc += 1 }
                    var a = i
                    while true {
                        let b = a + size - 1
                        if !units || (lo[a] >= a && hi[b] <= b) { body(a, b, acc) }
                        guard b + 1 <= k else { break }
                        if isAccessible(a) { acc -= 1 }
                        if isAccessible(b + 1) { acc += 1 }
                        a += 1
                    }
                }
                i = k + 1
            }
        }

        /// Steps 1 and 2: one block in one row.
        func together() -> Recommendation? {
            let count = request.count, want = request.accessible
            var best: (orphans: Int, score: Double, row: Int, a: Int)? = nil
            for r in hall.rows.indices {
                blocks(r, size: count) { a, b, acc in
                    guard acc == want else { return }
                    let o = orphans(r, a, b)
                    if let x = best, o > x.orphans { return }
                    let s = score(r, a, b)
                    if let x = best, (o, s) >= (x.orphans, x.score) { return }
                    best = (o, s, r, a)
                }
            }
            guard let x = best else { return nil }
            return Recommendation(seats: (x.a..<(x.a + count)).map { id(x.row, $0) }, fallback: x.orphans == 0 ? .none : .orphan)
        }

        /// Whether rows r and r + 1 are one apart in one section.
        func paired(_ r: Int) -> Bool {
            r + 1 < hall.rows.count && hall.rows[r + 1].section == hall.rows[r].section && hall.rows[r + 1].number == hall.rows[r].number + 1
        }

        /// The median distance between neighbouring seats of a free row.
        func pitch(_ r: Int) -> Double {
            let range = seats.start[r]..<seats.start[r + 1]
            return VenueGeometry.pitch(range.map { Point(x: seats.x[$0], y: seats.y[$0]) }) ?? 36
        }

        /// Step 3: two blocks side by side in two rows one apart.
        func split() -> Recommendation? {
            let count = request.count, want = request.accessible
            guard count >= 2 else { return nil }
            let free = seats.free
            var best: (score: Double, row: Int, a: (Int, Int), b: (Int, Int))? = nil
            let runs = hall.rows.indices.map(longestRun)
            for r in hall.rows.indices where paired(r) {
                // Each row's part fits its longest run of usable seats.
                let least = max(1, count - runs[r + 1]), most = min(count - 1, runs[r])
                guard least <= most else { continue }
                let sizes = least...most
                let reach = free ? 2 * max(pitch(r), pitch(r + 1)) : 0
                for size in sizes {
                    // The second row's blocks that leave no single seat, in seat order.
                    var back: [(a: Int, b: Int, acc: Int, score: Double)] = []
                    blocks(r + 1, size: count - size) { a, b, acc in
                        if orphans(r + 1, a, b) == 0 { back.append((a, b, acc, score(r + 1, a, b))) }
                    }
                    guard !back.isEmpty else { continue }
                    blocks(r, size: size) { a, b, acc in
                        guard acc <= want, orphans(r, a, b) == 0 else { return }
                        let s = score(r, a, b) * Double(size)
                        // On the grid, the back blocks whose columns overlap a...b are
                        // one stretch of `back` (columns grow with the seats).
                        var range = back.indices
                        if !free {
                            let from = first(in: back.indices) { seats.column[back[$0].b] >= seats.column[a] }
                            let to = first(in: back.indices) { seats.column[back[$0].a] > seats.column[b] }
                            range = from..<max(from, to)
                        }
                        for x in back[range] where x.acc == want - acc {
                            if free { guard touch(a...b, x.a...x.b, within: reach) else { continue } }
                            let total = (s + x.score * Double(count - size)) / Double(count)
                            if let y = best, (total, r, seats.column[a], seats.column[x.a]) >= (y.score, y.row, seats.column[y.a.0], seats.column[y.b.0]) {
                                continue
                            }
                            best = (total, r, (a, b), (x.a, x.b))
                        }
                    }
                }
            }
            guard let x = best else { return nil }
            let ids = (x.a.0...x.a.1).map { id(x.row, $0) } + (x.b.0...x.b.1).map { id(x.row + 1, $0) }
            return Recommendation(seats: ids.sorted(), fallback: .split)
        }

        /// The first index of `range` where `holds` is true (it is false, then true), else the end.
        func first(in range: Range<Int>, where holds: (Int) -> Bool) -> Int {
            var lower = range.lowerBound, upper = range.upperBound
            while lower < upper {
                let mid = (lower + upper) / 2
                if holds(mid) { upper = mid } else { lower = mid + 1 }
            }
            return lower
        }

        /// The most adjacent usable seats in row r.
        func longestRun(_ r: Int) -> Int {
            var best = 0, run = 0
            for g in seats.start[r]..<seats.start[r + 1] {
                run = isUsable(g) ? (run > 0 && seats.linked(g - 1) ? run + 1 : 1) : 0
                best = max(best, run)
            }
            return best
        }

        /// Whether a seat of one block is within `reach` points of a seat of the other.
        func touch(_ a: ClosedRange<Int>, _ b: ClosedRange<Int>, within reach: Double) -> Bool {
            for i in a {
                for j in b {
                    let dx = seats.x[i] - seats.x[j], dy = seats.y[i] - seats.y[j]
                    if dx * dx + dy * dy <= reach * reach { return true }
                }
            }
            return false
        }

        /// A seat alone or a couple or group: what step 4 takes whole.
        struct Unit {
            var seats: [Int]
            var accessible: Int
            var score: Double
            var row: Int
            var column: Int
        }

        /// Every usable seat, couples and groups as one unit each.
        func units() -> [Unit] {
            var out: [Unit] = []
            var seen = Set<Int>()
            for r in hall.rows.indices {
                for g in seats.start[r]..<seats.start[r + 1] where flags[g] & Search.usable != 0 {
                    guard !lo.isEmpty, lo[g] != g || hi[g] != g || flags[g] & Search.loose != 0 else {
                        out.append(Unit(seats: [g], accessible: isAccessible(g) ? 1 : 0, score: score(r, g, g), row: r, column: Int(seats.column[g])))
                        continue
                    }
                    let members = members(g).sorted()
                    guard seen.insert(members[0]).inserted else { continue }
                    let s = flags[g] & Search.loose == 0 ? score(r, lo[g], hi[g]) : members.map { m in score(row(of: m), m, m) }.min() ?? 0
                    out.append(Unit(seats: members, accessible: members.filter(isAccessible).count, score: s, row: r, column: Int(seats.column[g])))
                }
            }
            return out
        }

        /// Step 4: the best seats anywhere, whole units, exactly the accessible
        /// count: the best-scoring units first; when that cannot make exactly
        /// `count` (couples and groups), the choice with the lowest
        /// seat-weighted score that does.
        func anywhere() -> Recommendation? {
            let count = request.count
            let sorted = units().filter { $0.seats.count <= count }
                .sorted { ($0.score, $0.row, $0.column) < ($1.score, $1.row, $1.column) }
            var need = count, needAccessible = request.accessible
            var taken: [Unit] = []
            for u in sorted {
                let size = u.seats.count
                guard size <= need, u.accessible <= needAccessible, size - u.accessible <= need - needAccessible else { continue }
                taken.append(u)
                need -= size
                needAccessible -= u.accessible
                if need == 0 { return recommendation(taken) }
            }
            return exact(sorted)
        }

        private func recommendation(_ units: [Unit]) -> Recommendation {
            Recommendation(seats: units.flatMap { u in u.seats.map { id(row(of: $0), $0) } }.sorted(), fallback: .anywhere)
        }

        /// The units (best first) making exactly `count` seats, `accessible` of
        /// them accessible, at the lowest seat-weighted score: a 0/1 knapsack
        /// over (seats, accessible seats) taken. A choice never needs more
        /// than count / size units of one size and accessible count, so only
        /// the best of those are kept.
        func exact(_ sorted: [Unit]) -> Recommendation? {
            let count = request.count, wantAccessible = request.accessible
            var kept: [Unit] = [], perKind: [Int: Int] = [:]
            for u in sorted {
                let kind = u.seats.count * (count + 1) + u.accessible
                if perKind[kind, default: 0] < count / u.seats.count {
                    kept.append(u)
                    perKind[kind, default: 0] += 1
                }
            }
            let width = wantAccessible + 1, states = (count + 1) * width
            // Bounded work: beyond this the search gives up (nothing found).
            guard !kept.isEmpty, kept.count * states <= 20_000_000 else { return nil }
            var cost = [Double](repeating: .infinity, count: states)
            cost[0] = 0
            var took = [Bool](repeating: false, count: kept.count * states)
            for (i, u) in kept.enumerated() {
                let size = u.seats.count, acc = u.accessible
                guard acc <= wantAccessible else { continue }
                let weight = u.score * Double(size)
                for seatsTaken in stride(from: count, through: size, by: -1) {
                    for a in stride(from: wantAccessible, through: acc, by: -1) {
                        let from = (seatsTaken - size) * width + (a - acc), to = seatsTaken * width + a
                        if cost[from] + weight < cost[to] {
                            cost[to] = cost[from] + weight
                            took[i * states + to] = true
                        }
                    }
                }
            }
            var state = count * width + wantAccessible
            guard cost[state].isFinite else { return nil }
            var chosen: [Unit] = []
            for i in kept.indices.reversed() where took[i * states + state] {
                // The latest unit that improved this state is the one its cost came through.
                chosen.append(kept[i])
                state -= kept[i].seats.count * width + kept[i].accessible
                if state == 0 { break }
            }
            return recommendation(chosen)
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
