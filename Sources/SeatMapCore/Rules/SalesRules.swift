import Foundation

/// The sales rules of a hall (its file's `rules` member), which a show may
/// override when it is created: what a selection must respect before it can
/// be ordered.
///
/// `select` reports every rule a selection breaks; `order` refuses a
/// selection that breaks a rule set to `enforce` (and, always, the minimum
/// per order and a standing area's minimum), naming the rule and the seats.
public struct SalesRules: Sendable, Equatable {
    /// How a rule that can be advisory is applied.
    public enum Check: String, Sendable, CaseIterable {
        /// Not checked.
        case off
        /// Reported by `select`, not refused by `order`.
        case warn
        /// Reported by `select` and refused by `order`.
        case enforce
    }

    /// How seats in a group (a table, a box, a row marked `group`) are sold.
    public enum TableBooking: String, Sendable, CaseIterable {
        /// The whole group or nothing: one seat selects all (the default).
        case byTable
        /// Seat by seat, like any other seat.
        case bySeat
        /// Seat by seat, or the whole group at once (`table:GROUP` toggles it).
        case either
    }

    /// No single empty seat left between taken places in a row (不能留空座).
    public var noOrphans: Check = .warn
    /// With `noOrphans`, an empty seat the buyer could not have avoided is
    /// allowed: one left alone in a run of available seats only one longer
    /// than what the selection takes of it.
    public var allowUnavoidable = false
    /// A selection's seats in one row sit side by side (no gap between them).
    public var consecutive: Check = .off
    /// Seats and standing places an order takes at least (always enforced).
    public var minPerOrder = 1
    /// Seats and standing places an order takes at most: the hall's
    /// `maxSelectCount` (a select beyond it answers `reachLimit`).
    public var maxSelectCount = Hall.defaultMaxSelectCount
    /// How groups are sold.
    public var tables: TableBooking = .byTable

    public init() {}

    /// The members of a `rules` object (a hall file's, a show's override).
    public static let keys: [String] = ["noOrphans", "allowUnavoidable", "consecutive", "minPerOrder", "maxSelectCount", "tables"]

    /// The rules as a `rules` object: only what differs from `base` (a hall
    /// file writes what differs from the defaults; `maxSelectCount` is the
    /// hall's own member there and is left out with `includingMax` false).
    public func json(differingFrom base: SalesRules = SalesRules(), includingMax: Bool = true) -> JSONNode {
        var m: [(String, JSONNode)] = []
        if noOrphans != base.noOrphans { m.append(("noOrphans", .string(noOrphans.rawValue))) }
        if allowUnavoidable != base.allowUnavoidable { m.append(("allowUnavoidable", .bool(allowUnavoidable))) }
        if consecutive != base.consecutive { m.append(("consecutive", .string(consecutive.rawValue))) }
        if minPerOrder != base.minPerOrder { m.append(("minPerOrder", .int(minPerOrder))) }
        if includingMax, maxSelectCount != base.maxSelectCount { m.append(("maxSelectCount", .int(maxSelectCount))) }
        if tables != base.tables { m.append(("tables", .string(tables.rawValue))) }
        return .object(m)
    }

    /// These rules with the members of `node` (a `rules` object) put over
    /// them; each problem names its member under `path` (`rules.minPerOrder`).
    /// `maxSelectCount` is read only with `allowingMax` (a show's override;
    /// a hall file has it at its top).
    public func reading(_ node: JSONNode, path: String, allowingMax: Bool = true) -> (rules: SalesRules, problems: [Diagnostic]) {
        var out = self
        var problems: [Diagnostic] = []
        func problem(_ key: String?, _ message: String) {
            problems.append(Diagnostic(path: key.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? path, message: .init(verbatim: message)))
        }
        guard case .object(let members) = node.value else {
            problem(nil, "expected an object of rules (\(SalesRules.keys.filter { allowingMax || $0 != "maxSelectCount" }.joined(separator: ", ")))")
            return (self, problems)
        }
        func check(_ n: JSONNode, _ key: String) -> Check? {
            guard case .string(let s) = n.value, let c = Check(rawValue: s) else {
                problem(key, "expected \"off\", \"warn\" or \"enforce\"")
                return nil
            }
            return c
        }
        func count(_ n: JSONNode, _ key: String) -> Int? {
            guard case .number(let text) = n.value, let v = Int(text), v >= 1, v <= 1_000_000 else {
                problem(key, "expected a whole number from 1 to 1000000")
                return nil
            }
            return v
        }
        var seen = Set<String>()
        for m in members {
            guard seen.insert(m.key).inserted else {
                problem(m.key, "given twice")
                continue
            }
            switch m.key {
            case "noOrphans": if let c = check(m.node, m.key) { out.noOrphans = c }
            case "consecutive": if let c = check(m.node, m.key) { out.consecutive = c }
            case "allowUnavoidable":
                if case .bool(let b) = m.node.value { out.allowUnavoidable = b } else { problem(m.key, "expected true or false") }
            case "minPerOrder": if let v = count(m.node, m.key) { out.minPerOrder = v }
            case "maxSelectCount" where allowingMax: if let v = count(m.node, m.key) { out.maxSelectCount = v }
            case "tables":
                if case .string(let s) = m.node.value, let t = TableBooking(rawValue: s) { out.tables = t } else {
                    problem(m.key, "expected \"byTable\", \"bySeat\" or \"either\"")
                }
            default:
                let known = SalesRules.keys.filter { allowingMax || $0 != "maxSelectCount" }
                problem(m.key, "unknown rule (known: \(known.joined(separator: ", ")))")
            }
        }
        if out.minPerOrder > out.maxSelectCount {
            problem("minPerOrder", "the minimum per order (\(out.minPerOrder)) is over the maximum (maxSelectCount \(out.maxSelectCount))")
        }
        return (out, problems)
    }
}

/// A rule a selection breaks, as `select` reports it and `order` refuses it.
public struct RuleBreak: Sendable, Equatable {
    public enum Rule: String, Sendable, CaseIterable {
        /// Seats the selection would leave empty on their own.
        case noOrphans
        /// Seats of one row that are not side by side.
        case consecutive
        /// Fewer seats and places than the minimum per order.
        case minPerOrder
        /// Fewer places of a standing area than its minimum per order.
        case areaMinimum
        /// More places of a standing area than its maximum per order.
        case areaMaximum
    }

    public var rule: Rule
    /// The seats concerned: the empty seats left alone (`noOrphans`), the
    /// selected seats of the row (`consecutive`), every selected seat
    /// (`minPerOrder`); none for a standing area's rule.
    public var seats: [SeatID]
    /// The standing area (its rules only).
    public var area: String?
    /// The limit broken (`minPerOrder`, the area's minimum or maximum).
    public var limit: Int?
    /// Whether `order` refuses the selection.
    public var enforced: Bool

    public init(rule: Rule, seats: [SeatID] = [], area: String? = nil, limit: Int? = nil, enforced: Bool) {
        self.rule = rule
        self.seats = seats
        self.area = area
        self.limit = limit
        self.enforced = enforced
    }

    /// The seats the `noOrphans` breaks name (the single empty seats), sorted.
    public static func orphans(_ breaks: [RuleBreak]) -> [SeatID] {
        breaks.filter { $0.rule == .noOrphans }.flatMap(\.seats).sorted()
    }

    /// One line naming the rule and the seats, in English (for errors and logs).
    public var summary: String {
        let ids = seats.map(\.description).joined(separator: ", ")
        switch rule {
        case .noOrphans: return "noOrphans: would leave \(ids) as a single empty seat"
        case .consecutive: return "consecutive: \(ids) are not side by side"
        case .minPerOrder: return "minPerOrder: an order takes at least \(limit ?? 1) seats or places"
        case .areaMinimum: return "area \(area ?? ""): an order takes at least \(limit ?? 1) places"
        case .areaMaximum: return "area \(area ?? ""): an order takes at most \(limit ?? 1) places"
        }
    }
}

extension SalesRules {
    /// Every rule `selection` breaks in `hall` (the hall as its buyer sees
    /// it: its own holds available), in the order of `RuleBreak.Rule`.
    /// `reportOrphans` false leaves out a `noOrphans` set to `warn` (a
    /// buyer's view that asked not to hear about single seats).
    public func breaks(_ selection: Selection, in hall: Hall, reportOrphans: Bool = true) -> [RuleBreak] {
        var out: [RuleBreak] = []
        if noOrphans == .enforce || (noOrphans == .warn && reportOrphans) {
            var orphans = SingleSeatRule.violations(selection, in: hall)
            if allowUnavoidable { orphans = SingleSeatRule.avoidable(orphans, selected: Set(selection.ids), in: hall) }
            if !orphans.isEmpty { out.append(RuleBreak(rule: .noOrphans, seats: orphans, enforced: noOrphans == .enforce)) }
        }
        if consecutive != .off {
            for seats in SalesRules.splitRows(Set(selection.ids), in: hall) {
                out.append(RuleBreak(rule: .consecutive, seats: seats, enforced: consecutive == .enforce))
            }
        }
        if !selection.isEmpty, selection.count < minPerOrder {
            out.append(RuleBreak(rule: .minPerOrder, seats: selection.ids, limit: minPerOrder, enforced: true))
        }
        for (id, n) in selection.standing.sorted(by: { $0.key < $1.key }) {
            guard let area = hall.area(id: id) else { continue }
            if let least = area.minPerOrder, n < least { out.append(RuleBreak(rule: .areaMinimum, area: id, limit: least, enforced: true)) }
            if let most = area.maxPerOrder, n > most { out.append(RuleBreak(rule: .areaMaximum, area: id, limit: most, enforced: true)) }
        }
        return out
    }

    /// For each row where the selected seats are not one run of
    /// neighbours (an aisle or an unselected seat between them), those
    /// seats, sorted; rows in hall order.
    static func splitRows(_ selected: Set<SeatID>, in hall: Hall) -> [[SeatID]] {
        guard !selected.isEmpty else { return [] }
        var out: [[SeatID]] = []
        for r in RowNeighbours.rows(of: selected, in: hall) {
            let row = hall.rows[r], rowLinks = RowNeighbours.links(hall, row: r)
            var runs = 0, inRun = false, picked: [SeatID] = []
            for (j, seat) in row.seats.enumerated() {
                let id = SeatID(section: row.section, row: row.number, column: seat.column)
                let taken = selected.contains(id)
                if taken {
                    picked.append(id)
                    // A new run unless the seat before was picked and is its neighbour.
                    if !(inRun && j > 0 && rowLinks[j - 1]) { runs += 1 }
                }
                inRun = taken
            }
            if runs > 1 { out.append(picked) }
        }
        return out
    }
}
