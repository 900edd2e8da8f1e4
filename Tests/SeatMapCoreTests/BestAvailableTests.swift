import Foundation
import Testing
@testable import SeatMapCore
import SeatMapTestSupport

/// A grid hall from pictures, one string per row: `.` available, `S` sold,
/// `L` locked, `W` wheelchair, `C` companion, `(` `)` a couple pair, `a` a
/// seat of category A (price 20; others B, 10), ` ` empty floor.
private func grid(_ rows: [String], max: Int = 6, sections: [Int]? = nil) throws -> Hall {
    var text: [String] = []
    for (i, picture) in rows.enumerated() {
        var seats: [String] = []
        for (j, ch) in picture.enumerated() {
            let c = j + 1
            switch ch {
            case ".": seats.append(#"{"column":\#(c),"status":0,"category":"B"}"#)
            case "a": seats.append(#"{"column":\#(c),"status":0,"category":"A"}"#)
            case "S": seats.append(#"{"column":\#(c),"status":2,"category":"B"}"#)
            case "L": seats.append(#"{"column":\#(c),"status":1,"category":"B"}"#)
            case "W": seats.append(#"{"column":\#(c),"status":0,"type":"wheelchair","category":"B"}"#)
            case "C": seats.append(#"{"column":\#(c),"status":0,"type":"companion","category":"B"}"#)
            case "(": seats.append(#"{"column":\#(c),"status":0,"type":"coupleLeft","category":"B"}"#)
            case ")": seats.append(#"{"column":\#(c),"status":0,"type":"coupleRight","category":"B"}"#)
            default: break
            }
        }
        let section = sections?[i] ?? 1
        text.append(#"{"row":\#(i + 1),"section":\#(section),"seats":[\#(seats.joined(separator: ","))]}"#)
    }
    let declared = Set(sections ?? [1]).sorted().map { #"{"id":\#($0),"name":"S\#($0)"}"# }.joined(separator: ",")
    return try HallFormat.decode(#"""
    {"maxSelectCount":\#(max),"categories":[{"name":"A","price":20},{"name":"B","price":10}],
     "sections":[\#(declared)],"rows":[\#(text.joined(separator: ","))]}
    """#)
}

private func ids(_ s: String) -> [SeatID] { s.split(separator: ",").compactMap { SeatID(String($0)) } }

private func best(_ hall: Hall, _ r: Recommender.Request) -> Recommender.Recommendation? { try? Recommender.best(r, in: hall) }

/// Why a request found nothing (nil when it found seats).
private func failure(_ hall: Hall, _ r: Recommender.Request) -> Recommender.Failure? {
    do throws(Recommender.Failure) { _ = try Recommender.best(r, in: hall) } catch { return error }
    return nil
}

@Suite("Best available: constraints and fallbacks")
struct BestAvailableTests {
    @Test("each fallback step answers when the ones before cannot")
    func fallbacks() throws {
        // A block of 2 leaving nothing alone.
        #expect(best(try grid(["S..S"]), .init(count: 2)) == .init(seats: ids("1-1-2,1-1-3"), fallback: .none))
        // Every block of 2 in "..." leaves one seat alone: near sell-out, the orphan step answers.
        let orphan = try #require(best(try grid(["..."]), .init(count: 2)))
        #expect(orphan.fallback == .orphan)
        #expect(SingleSeatRule.violations(selected: Set(orphan.seats), in: try grid(["..."])).count == 1)
        // No 4 together in either row: two pairs, one behind the other.
        #expect(best(try grid(["..S..", "..S.."]), .init(count: 4))?.fallback == .split)
        #expect(best(try grid(["..S..", "..S.."]), .init(count: 4))?.seats.count == 4)
        // No 3 together and one row: the nearest seats anywhere.
        let anywhere = try #require(best(try grid(["..S.."]), .init(count: 3)))
        #expect(anywhere.fallback == .anywhere)
        #expect(anywhere.seats.count == 3)
        // --together stops after the orphan step.
        #expect(failure(try grid(["..S.."]), .init(count: 3, together: true))?.message == "no 3 adjacent seats are available in one row")
        // Too few seats: a reason with the number.
        let few = try #require(failure(try grid(["SSS.."]), .init(count: 3)))
        #expect(few.kind == .noSeats)
        #expect(few.message == "only 2 seats are available; 3 asked for")
    }

    @Test("split blocks sit side by side: their columns overlap")
    func splitOverlaps() throws {
        // Row 1's pair is at the left, row 2's only pair at the right: no split.
        let hall = try grid(["..SSSS", "SSSS.."])
        #expect(best(hall, .init(count: 4))?.fallback == .anywhere)
        let overlapping = try grid(["..SSSS", "S..SSS"])
        #expect(best(overlapping, .init(count: 4)) == .init(seats: ids("1-1-1,1-1-2,1-2-2,1-2-3"), fallback: .split))
    }

    @Test("category, section, level, price and accessible seats constrain every step")
    func constraints() throws {
        let hall = try grid(["aa....", "..aa..", "W.C..."], sections: [1, 1, 2])
        #expect(best(hall, .init(count: 2, category: "A"))?.seats == ids("1-2-3,1-2-4"))
        #expect(best(hall, .init(count: 2, priceMax: 10))?.seats.allSatisfy { hall.cell(id: $0)?.price == 10 } == true)
        #expect(best(hall, .init(count: 2, section: "2"))?.seats.allSatisfy { $0.section == 2 } == true)
        #expect(best(hall, .init(count: 2, section: "s2"))?.seats.allSatisfy { $0.section == 2 } == true, "by name, any case")
        // Accessible: exactly that many wheelchair or companion seats; none unless asked.
        let one = try #require(best(hall, .init(count: 2, accessible: 1)))
        #expect(one.seats.filter { [.wheelchair, .companion].contains(hall.cell(id: $0)?.seat.type) }.count == 1)
        #expect(best(hall, .init(count: 3, section: "2"))?.seats.contains { hall.cell(id: $0)?.seat.type != .standard } == false)
        #expect(best(hall, .init(count: 3, accessible: 2))?.seats == ids("2-3-1,2-3-2,2-3-3"))
        for bad in [Recommender.Request(count: 2, category: "Z"), .init(count: 2, section: "9"), .init(count: 2, level: 3), .init(count: 7),
                    .init(count: 2, accessible: 3)] {
            #expect(failure(hall, bad)?.kind == .invalid, "\(bad)")
        }
        #expect(failure(hall, .init(count: 2, category: "Z"))?.message == "no category \"Z\": the hall's categories are A, B")
        #expect(failure(hall, .init(count: 2, section: "9"))?.message == "no section \"9\": the hall's sections are 1 (S1), 2 (S2)")
        // A constraint nothing meets says so.
        #expect(failure(hall, .init(count: 3, category: "A", priceMax: 10))?.message == "no seat is available in category A, costing at most 10 each")
    }

    @Test("couples are taken whole by every step")
    func couples() throws {
        // Best first would take a couple and a single seat and be stuck: two couples make 4.
        let pairs = try grid(["S()SS", "S.S()"], max: 4)
        #expect(best(pairs, .init(count: 4)) == .init(seats: ids("1-1-2,1-1-3,1-2-4,1-2-5"), fallback: .anywhere))
        let hall = try grid(["S()S", "S.S."])
        // Two together: the couple.
        #expect(best(hall, .init(count: 2)) == .init(seats: ids("1-1-2,1-1-3"), fallback: .none))
        // Three: the couple and a single seat, never half a couple.
        let three = try #require(best(hall, .init(count: 3)))
        let chosen = Set(three.seats)
        #expect(chosen.isSuperset(of: ids("1-1-2,1-1-3")))
        #expect(try best(grid(["()"]), .init(count: 1)) == nil)
    }

    @Test("tables booked whole: a table of the size asked, or a reason naming the table size")
    func tables() throws {
        let hall = try Fixtures.example("dinner-tables.json")
        let eight = try #require(best(hall, .init(count: 8)))
        #expect(eight.fallback == .none)
        #expect(Set(eight.seats.map(\.row)).count == 1)
        #expect(hall.group(of: eight.seats[0])?.seats.sorted() == eight.seats)
        let why = try #require(failure(hall, .init(count: 3)))
        #expect(why.message.contains("booked whole in groups (tables, boxes, couple seats) of 8"), "\(why.message)")
    }

    @Test("levels and curved rows: the level asked, adjacent on the arc")
    func levels() throws {
        let hall = try Fixtures.example("theatre-curved.json")
        let links = RowNeighbours.links(hall)
        for level in hall.levels {
            let r = try #require(best(hall, .init(count: 4, level: level)))
            #expect(r.fallback == .none)
            #expect(r.seats.allSatisfy { VenueGeometry.level(ofSection: $0.section, in: hall) == level })
            let rowIndex = try #require(hall.rows.firstIndex { $0.number == r.seats[0].row })
            let columns = hall.rows[rowIndex].seats.map(\.column)
            let js = r.seats.compactMap { columns.firstIndex(of: $0.column) }
            #expect(zip(js, js.dropFirst()).allSatisfy { $1 == $0 + 1 && links[rowIndex][$0] })
        }
    }

    // MARK: Against brute force

    /// A random small grid hall: 1–4 rows of up to 8 columns, some sold,
    /// locked or missing, some couples, wheelchair and companion seats, two
    /// categories, two sections.
    static func randomHall(_ rng: inout SeededRandom) throws -> Hall {
        let rows = Int.random(in: 1...4, using: &rng)
        var pictures: [String] = []
        let free = Double.random(in: 0.3...0.95, using: &rng)
        for _ in 0..<rows {
            var p = ""
            let width = Int.random(in: 1...8, using: &rng)
            var c = 0
            while c < width {
                let x = Double.random(in: 0...1, using: &rng)
                if x < 0.06 && c + 1 < width {
                    p += "()"
                    c += 2
                    continue
                }
                if x < 0.1 { p += " " } else if x > free { p += Bool.random(using: &rng) ? "S" : "L" } else {
                    p += ["." , ".", ".", "a", "a", "W", "C"][Int.random(in: 0..<7, using: &rng)]
                }
                c += 1
            }
            pictures.append(p.contains(where: { $0 != " " }) ? p : p + ".")
        }
        let sections = (0..<rows).map { r in rows > 2 && r >= rows / 2 ? 2 : 1 }
        return try grid(pictures, max: 6, sections: sections)
    }

    /// The brute force: every block of every row and every pair of blocks,
    /// checked one seat at a time.
    struct Brute {
        let hall: Hall
        let request: Recommender.Request

        func eligible(_ id: SeatID) -> Bool {
            guard let cell = hall.cell(id: id), cell.seat.status == .available else { return false }
            if let c = request.category, cell.seat.category != c { return false }
            if let s = request.section, String(cell.row.section) != s { return false }
            if let p = request.priceMax, (cell.price ?? 0) > p { return false }
            return true
        }
        func isAccessible(_ id: SeatID) -> Bool { [.wheelchair, .companion].contains(hall.cell(id: id)?.seat.type) }

        func score(_ block: [SeatID]) -> Double {
            let dx = Double(block.first!.column + block.last!.column) / 2 - Double(hall.gridColumns + 1) / 2
            let dy = Double(block[0].row) - (1 + Double(hall.gridRows - 1) * 2 / 3)
            return dx * dx + dy * dy
        }

        /// Every block of `size` that may be taken, with its single seats left.
        func blocks(size: Int) -> [(ids: [SeatID], orphans: Int)] {
            var out: [(ids: [SeatID], orphans: Int)] = []
            for row in hall.rows {
                for c in 1...max(1, hall.gridColumns) {
                    let block = (c..<(c + size)).map { SeatID(section: row.section, row: row.number, column: $0) }
                    guard block.allSatisfy(eligible) else { continue }
                    guard Set(block.flatMap { hall.members(of: $0) }) == Set(block) else { continue }
                    guard block.filter(isAccessible).count == request.accessible else { continue }
                    out.append((block, SingleSeatRule.violations(selected: Set(block), in: hall).count))
                }
            }
            return out
        }

        /// The best score of each step that has an answer.
        func together() -> (orphans: Int, score: Double)? {
            blocks(size: request.count).map { ($0.orphans, score($0.ids)) }.min { $0 < $1 }
        }

        func split() -> Double? {
            let n = request.count, want = request.accessible
            var best: Double? = nil
            for size in stride(from: 1, to: n, by: 1) {
                let front = Brute(hall: hall, request: .init(count: size, category: request.category, section: request.section,
                                                             priceMax: request.priceMax))
                let back = Brute(hall: hall, request: .init(count: n - size, category: request.category, section: request.section,
                                                            priceMax: request.priceMax))
                for a in front.blocksAnyAccessible(size: size) where a.orphans == 0 {
                    for b in back.blocksAnyAccessible(size: n - size) where b.orphans == 0 {
                        guard b.ids[0].row == a.ids[0].row + 1, b.ids[0].section == a.ids[0].section,
                              (a.ids + b.ids).filter(isAccessible).count == want,
                              b.ids.first!.column <= a.ids.last!.column, b.ids.last!.column >= a.ids.first!.column else { continue }
                        let s = (score(a.ids) * Double(size) + score(b.ids) * Double(n - size)) / Double(n)
                        best = min(best ?? s, s)
                    }
                }
            }
            return best
        }

        /// Whether some choice of whole units (seats, couples) of eligible
        /// seats makes exactly the count with exactly the accessible seats.
        func anyChoice() -> Bool {
            var units: [[SeatID]] = []
            var seen = Set<SeatID>()
            for cell in hall.cells where eligible(cell.id) && !seen.contains(cell.id) {
                let members = hall.members(of: cell.id)
                members.forEach { seen.insert($0) }
                if members.allSatisfy(eligible) { units.append(members) }
            }
            func search(_ from: Int, _ need: Int, _ accessible: Int) -> Bool {
                if need == 0 { return accessible == 0 }
                for i in from..<units.count {
                    let u = units[i], a = u.filter(isAccessible).count
                    if u.count <= need, a <= accessible, search(i + 1, need - u.count, accessible - a) { return true }
                }
                return false
            }
            return search(0, request.count, request.accessible)
        }

        func blocksAnyAccessible(size: Int) -> [(ids: [SeatID], orphans: Int)] {
            var out: [(ids: [SeatID], orphans: Int)] = []
            for a in 0...size {
                out += Brute(hall: hall, request: .init(count: size, category: request.category, section: request.section, accessible: a,
                                                        priceMax: request.priceMax)).blocks(size: size)
            }
            return out
        }
    }

    @Test("every step's answer scores as well as the brute force's best, over 600 random halls")
    func bruteForce() throws {
        var rng = SeededRandom(seed: 29)
        var steps: [Recommender.Fallback: Int] = [:]
        var failures = 0
        for k in 0..<600 {
            let hall = try Self.randomHall(&rng)
            var request = Recommender.Request(count: Int.random(in: 1...4, using: &rng))
            if Int.random(in: 0..<4, using: &rng) == 0 { request.category = "A" }
            if Int.random(in: 0..<4, using: &rng) == 0 { request.priceMax = 10 }
            if Int.random(in: 0..<4, using: &rng) == 0, hall.rows.contains(where: { $0.section == 2 }) { request.section = "2" }
            if Int.random(in: 0..<3, using: &rng) == 0 { request.accessible = Int.random(in: 0...min(1, request.count), using: &rng) }
            request.together = Int.random(in: 0..<5, using: &rng) == 0
            let brute = Brute(hall: hall, request: request)
            let found = try? Recommender.best(request, in: hall)
            let label = "hall \(k): \(hall.rows.map { "\($0.number):\($0.seats.map { "\($0.column)\($0.status.map { "\($0.rawValue)" } ?? "_")\($0.type.rawValue.prefix(2))" })" }) \(request)"
            if let t = brute.together() {
                let f = try #require(found, "\(label)")
                #expect(f.fallback == (t.orphans == 0 ? .none : .orphan), "\(label)")
                let cells = f.seats.compactMap { hall.cell(id: $0) }
                #expect(cells.count == request.count && Set(cells.map(\.row.number)).count == 1, "\(label)")
                #expect(SingleSeatRule.violations(selected: Set(f.seats), in: hall).count == t.orphans, "\(label)")
                #expect(abs(brute.score(f.seats) - t.score) < 1e-9, "\(label): \(f.seats) scores \(brute.score(f.seats)), brute force \(t.score)")
            } else if request.together {
                #expect(found == nil, "\(label)")
            } else if let s = brute.split() {
                let f = try #require(found, "\(label)")
                #expect(f.fallback == .split, "\(label)")
                let rows = Dictionary(grouping: f.seats, by: \.row).values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
                #expect(rows.count == 2, "\(label)")
                if rows.count == 2 {
                    let mean = (brute.score(rows[0]) * Double(rows[0].count) + brute.score(rows[1]) * Double(rows[1].count)) / Double(request.count)
                    #expect(abs(mean - s) < 1e-9, "\(label): \(f.seats) scores \(mean), brute force \(s)")
                }
            } else if let f = found {
                #expect(f.fallback == .anywhere, "\(label)")
                #expect(f.seats.count == request.count && f.seats.allSatisfy(brute.eligible), "\(label)")
                #expect(f.seats.filter(brute.isAccessible).count == request.accessible, "\(label)")
                #expect(Set(f.seats.flatMap { hall.members(of: $0) }) == Set(f.seats), "\(label): groups whole")
                // Without couples, no better seat of the same kind is left out.
                if !hall.cells.contains(where: { $0.seat.type.isCoupleHalf }) {
                    let chosen = Set(f.seats)
                    for cell in hall.cells where brute.eligible(cell.id) && !chosen.contains(cell.id) {
                        let worst = f.seats.filter { brute.isAccessible($0) == brute.isAccessible(cell.id) }.map { brute.score([$0]) }.max()
                        if let worst { #expect(brute.score([cell.id]) >= worst, "\(label): \(cell.id) left out") }
                    }
                }
            } else {
                // Nothing: then no choice of whole units makes the count.
                #expect(!brute.anyChoice(), "\(label): nothing found, but whole units make \(request.count)")
                failures += 1
            }
            if let f = found, f.fallback == .anywhere { #expect(brute.anyChoice(), "\(label)") }
            if let f = found { steps[f.fallback, default: 0] += 1 }
        }
        // The halls exercise every step.
        for step in Recommender.Fallback.allCases { #expect(steps[step, default: 0] >= 10, "\(step): \(steps)") }
        #expect(failures >= 10)
    }

    @Test("free venues: the together steps match every block of every row, with seats sold at random", arguments: Fixtures.freeExampleNames)
    func freeBruteForce(name: String) throws {
        let plan = try Fixtures.example(name)
        var rng = SeededRandom(seed: UInt64(name.utf8.count))
        var steps = Set<Recommender.Fallback>()
        for round in 0..<30 {
            var hall = plan
            let sold = Double(round) / 30 * 0.9
            for cell in plan.cells where cell.seat.isSeat && Double.random(in: 0..<1, using: &rng) < sold { _ = hall.setStatus(.sold, of: cell.id) }
            let count = Int.random(in: 1...min(6, hall.maxSelectCount), using: &rng)
            let request = Recommender.Request(count: count, level: Bool.random(using: &rng) ? hall.levels.randomElement(using: &rng) : nil)
            let links = RowNeighbours.links(hall)
            let score = Recommender.scorer(hall)
            var bestBlock: (Int, Double)? = nil
            for (r, row) in hall.rows.enumerated() where row.seats.count >= count {
                if let l = request.level, VenueGeometry.level(ofSection: row.section, in: hall) != l { continue }
                for first in 0...(row.seats.count - count) {
                    let last = first + count - 1
                    let block = (first...last).map { SeatID(section: row.section, row: row.number, column: row.seats[$0].column) }
                    guard (first..<last).allSatisfy({ links[r][$0] }),
                          block.allSatisfy({ hall.cell(id: $0)?.seat.status == .available && hall.cell(id: $0)?.seat.type == .standard }),
                          Set(block.flatMap { hall.members(of: $0) }) == Set(block) else { continue }
                    let key = (SingleSeatRule.violations(selected: Set(block), in: hall).count, score(r, first, last))
                    if bestBlock == nil || key < bestBlock! { bestBlock = key }
                }
            }
            let found = try? Recommender.best(request, in: hall)
            guard let (orphans, best) = bestBlock else {
                #expect(found == nil || found!.fallback == .split || found!.fallback == .anywhere, "\(name) round \(round)")
                if let f = found, f.fallback == .split {
                    // Two blocks of adjacent seats in rows one apart in one section.
                    let rows = Dictionary(grouping: f.seats) { $0.row }.keys.sorted()
                    #expect(rows.count == 2 && rows[1] == rows[0] + 1 && Set(f.seats.map(\.section)).count == 1, "\(name): \(f.seats)")
                    for number in rows {
                        let r = try #require(hall.rows.firstIndex { $0.number == number })
                        let js = f.seats.filter { $0.row == number }.compactMap { id in hall.rows[r].seats.firstIndex { $0.column == id.column } }.sorted()
                        #expect(zip(js, js.dropFirst()).allSatisfy { $1 == $0 + 1 && links[r][$0] }, "\(name): \(f.seats)")
                    }
                }
                if let f = found {
                    steps.insert(f.fallback)
                    #expect(f.seats.count == count && f.seats.allSatisfy { hall.cell(id: $0)?.seat.status == .available })
                }
                continue
            }
            let f = try #require(found, "\(name) round \(round)")
            #expect(f.fallback == (orphans == 0 ? .none : .orphan), "\(name) round \(round)")
            let r = try #require(hall.rows.firstIndex { $0.number == f.seats[0].row && $0.section == f.seats[0].section })
            let js = f.seats.compactMap { id in hall.rows[r].seats.firstIndex { $0.column == id.column } }
            #expect(abs(score(r, js[0], js[js.count - 1]) - best) < 1e-9, "\(name) round \(round): \(f.seats)")
            steps.insert(f.fallback)
        }
        // Near sell-out the later steps answer too (tables of 8 book whole: none of 1…6 seats there).
        #expect(name == "dinner-tables.json" || (steps.contains(.none) && (steps.contains(.split) || steps.contains(.anywhere))), "\(name): \(steps)")
    }
}
