import Foundation

/// The seats a buyer has picked for one show: a value kept apart from the
/// hall, so the hall can be refreshed (status sync) without losing it.
///
/// Couple halves are selected and deselected together and count as two
/// seats. Totals and descriptions come from the hall model, never from text
/// shown to the user.
public struct Selection: Sendable, Equatable {
    /// What a toggle did.
    public enum ToggleResult: String, Sendable, Equatable {
        case selected, deselected
        /// Locked, sold, or an aisle.
        case notAvailable
        case noSuchSeat
        /// Selecting would exceed the hall's `maxSelectCount`.
        case reachLimit
        /// No standing area with that id.
        case noSuchArea
        /// Held by another buyer of the show (a hold token) until it
        /// expires or is released.
        case held
        /// A ticket type the seat's category does not list.
        case noSuchType
        /// A ticket type for a seat that is not selected.
        case notSelected
    }

    /// Selected seat ids, sorted by row, then column.
    public private(set) var ids: [SeatID] = []
    /// Places taken in standing areas, by area id (never 0).
    public private(set) var standing: [String: Int] = [:]
    /// The ticket type picked for a selected seat, by seat, where it is not
    /// its category's first (the default).
    public private(set) var ticketTypes: [SeatID: String] = [:]

    public init() {}

    /// A selection of these ids (unknown or unavailable ones are dropped,
    /// couple halves completed when their partner is available).
    public init(ids: [SeatID], in hall: Hall) {
        for id in ids where !contains(id) {
            _ = toggle(id, in: hall)
        }
    }

    /// A selection exactly as it was held (a show's holds read back): no
    /// rule is applied again, so nothing held is dropped unseen.
    init(restoring ids: [SeatID], standing: [String: Int], ticketTypes: [SeatID: String] = [:]) {
        self.ids = ids.sorted()
        self.standing = standing.filter { $0.value > 0 }
        let held = Set(ids)
        self.ticketTypes = ticketTypes.filter { held.contains($0.key) }
    }

    public func contains(_ id: SeatID) -> Bool { ids.contains(id) }
    /// Seats and standing places: what `maxSelectCount` limits.
    public var count: Int { ids.count + standing.values.reduce(0, +) }
    public var isEmpty: Bool { ids.isEmpty && standing.isEmpty }

    /// Takes `quantity` places in a standing area (0 gives them back).
    /// `.selected` / `.deselected`, `.noSuchArea`, `.notAvailable` (more than
    /// it has left), `.reachLimit` (over `maxSelectCount` with the rest).
    public mutating func setQuantity(_ quantity: Int, ofArea id: String, in hall: Hall) -> ToggleResult {
        guard let area = hall.area(id: id), area.isStanding else { return .noSuchArea }
        guard quantity > 0 else {
            standing[id] = nil
            return .deselected
        }
        guard quantity <= area.remaining else { return .notAvailable }
        guard count - (standing[id] ?? 0) + quantity <= hall.maxSelectCount, quantity <= area.maxPerOrder ?? Int.max else { return .reachLimit }
        standing[id] = quantity
        return .selected
    }

    /// Gives back standing places an area no longer has (after a status
    /// batch); returns the areas whose quantity went down.
    public mutating func fit(to hall: Hall) -> [String] {
        var changed: [String] = []
        for (id, n) in standing.sorted(by: { $0.key < $1.key }) {
            let left = hall.area(id: id)?.remaining ?? 0
            if n > left {
                standing[id] = left > 0 ? left : nil
                changed.append(id)
            }
        }
        return changed
    }

    /// The seat and the seats booked with it (its couple partner, its group).
    static func group(of cell: HallCell, in hall: Hall) -> [HallCell] {
        hall.members(of: cell.id).compactMap { hall.cell(id: $0) }
    }

    public mutating func toggle(row: Int, column: Int, in hall: Hall) -> ToggleResult {
        guard let cell = hall.cell(row: row, column: column) else { return .noSuchSeat }
        return toggle(cell.id, in: hall)
    }

    public mutating func toggle(_ id: SeatID, in hall: Hall) -> ToggleResult {
        guard let cell = hall.cell(id: id) else { return .noSuchSeat }
        let group = Selection.group(of: cell, in: hall)
        if contains(id) {
            remove(Set(group.map(\.id)))
            return .deselected
        }
        guard group.allSatisfy({ $0.seat.status == .available }) else { return .notAvailable }
        guard count + group.count <= hall.maxSelectCount else { return .reachLimit }
        add(group.map(\.id), in: hall)
        return .selected
    }

    private mutating func add(_ new: [SeatID], in hall: Hall) {
        ids = (ids + new).sorted()
    }

    /// Toggles what a user names: `table:GROUP` a whole group, else a seat
    /// by its SeatMap or external id.
    public mutating func toggle(named text: String, in hall: Hall) -> ToggleResult {
        if text.hasPrefix(Selection.groupPrefix) { return toggle(group: String(text.dropFirst(Selection.groupPrefix.count)), in: hall) }
        guard let id = hall.seatID(named: text) else { return .noSuchSeat }
        return toggle(id, in: hall)
    }

    /// What names a whole group in a toggle: `table:T1`.
    public static let groupPrefix = "table:"

    /// Toggles a whole group at once (`rules.tables` `either`; with
    /// `byTable` any of its seats does the same): selected when every seat
    /// is available and fits under `maxSelectCount`, deselected when all
    /// of it was selected.
    public mutating func toggle(group id: String, in hall: Hall) -> ToggleResult {
        guard let group = hall.groups.first(where: { $0.id == id }), !group.seats.isEmpty else { return .noSuchSeat }
        let seats = Set(group.seats)
        if seats.isSubset(of: Set(ids)) {
            remove(seats)
            return .deselected
        }
        let cells = group.seats.compactMap { hall.cell(id: $0) }
        guard cells.count == seats.count, cells.allSatisfy({ $0.seat.status == .available }) else { return .notAvailable }
        let new = seats.subtracting(ids)
        guard count + new.count <= hall.maxSelectCount else { return .reachLimit }
        add(Array(new), in: hall)
        return .selected
    }

    /// Removes ids (e.g. seats that were just sold).
    public mutating func remove(_ drop: Set<SeatID>) {
        ids.removeAll { drop.contains($0) }
        for id in drop { ticketTypes[id] = nil }
    }

    /// Picks the ticket type of a selected seat by name: `selected`, or
    /// `notSelected`, `noSuchSeat`, `noSuchType` (its category lists no
    /// such type, or none at all).
    public mutating func setTicketType(_ name: String, of id: SeatID, in hall: Hall) -> ToggleResult {
        guard hall.cell(id: id) != nil else { return .noSuchSeat }
        guard contains(id) else { return .notSelected }
        let types = hall.ticketTypes(of: id)
        guard types.contains(where: { $0.name == name }) else { return .noSuchType }
        ticketTypes[id] = types.first?.name == name ? nil : name
        return .selected
    }

    /// The ticket type of a selected seat (nil when its category has none).
    public func ticketType(of id: SeatID, in hall: Hall) -> TicketType? {
        let types = hall.ticketTypes(of: id)
        if let name = ticketTypes[id], let t = types.first(where: { $0.name == name }) { return t }
        return types.first
    }

    /// What a selected seat costs: its ticket type's price, else its own.
    public func price(of id: SeatID, in hall: Hall) -> Decimal? {
        ticketType(of: id, in: hall)?.price ?? hall.cell(id: id)?.price
    }

    /// The exact total of the selected seats' prices.
    public func total(in hall: Hall) -> Decimal {
        var total = ids.compactMap { price(of: $0, in: hall) }.reduce(Decimal(0), +)
        for (id, n) in standing { if let p = hall.area(id: id)?.price { total += p * Decimal(n) } }
        return total
    }

    /// "Floor × 2" for each standing area taken, by area id.
    public func standingDescriptions(in hall: Hall) -> [String] {
        standing.keys.sorted().compactMap { id in
            guard let n = standing[id], let a = hall.area(id: id) else { return nil }
            return "\(a.label.isEmpty ? id : a.label) × \(n)"
        }
    }

    /// Each seat's description in a locale ("3排5座", "Row 3, Seat 5"),
    /// sorted by row, then column.
    /// A seat of a category with ticket types names its type too
    /// ("Row 3, Seat 5 (Child)"). Without a locale, the hall's (else zh-Hans).
    public func descriptions(in hall: Hall, locale given: SeatMapLocale? = nil) -> [String] {
        let locale = given ?? hall.locale.flatMap { try? SeatMapLocale.named($0) } ?? .standard
        return ids.compactMap { id in
            hall.cell(id: id).map { cell in
                let words = hall.describe(cell, in: locale)
                guard let type = ticketType(of: id, in: hall) else { return words }
                return locale.text("seat.ticketType", ["seat": words, "type": type.name])
            }
        }
    }
}

/// The "no single empty seat" rule (不能留空座): a purchase may not leave an
/// available seat alone between two taken places in its row.
public enum SingleSeatRule {
    /// Available, unselected seats that the selection leaves isolated: both
    /// row neighbours are selected, sold, locked, an aisle, empty floor or
    /// the row's end, and the seat was not already isolated before the
    /// selection (that would not be the buyer's fault). Sorted by row, then column.
    public static func violations(_ selection: Selection, in hall: Hall) -> [SeatID] {
        violations(selected: Set(selection.ids), in: hall)
    }

    public static func violations(selected: Set<SeatID>, in hall: Hall) -> [SeatID] {
        var out: [SeatID] = []
        // A seat is left alone only beside a selected one: rows without a
        // selected seat cannot break the rule, so only these are looked at.
        for r in RowNeighbours.rows(of: selected, in: hall) {
            let row = hall.rows[r], seats = row.seats, rowLinks = RowNeighbours.links(hall, row: r)
            func id(_ j: Int) -> SeatID { SeatID(section: row.section, row: row.number, column: seats[j].column) }
            /// Whether the neighbour of seat j on side `step` (±1) is taken:
            /// no neighbour (row end, aisle gap, empty floor), not available,
            /// or (counting the selection) selected.
            func taken(_ j: Int, _ step: Int, countingSelection: Bool) -> Bool {
                let k = j + step
                let linked = step < 0 ? (k >= 0 && rowLinks[k]) : (k < seats.count && rowLinks[j])
                guard linked, seats[k].status == .available else { return true }
                return countingSelection && selected.contains(id(k))
            }
            for j in seats.indices where seats[j].status == .available && !selected.contains(id(j)) {
                let after = taken(j, -1, countingSelection: true) && taken(j, 1, countingSelection: true)
                guard after else { continue }
                let before = taken(j, -1, countingSelection: false) && taken(j, 1, countingSelection: false)
                if !before { out.append(id(j)) }
            }
        }
        return out
    }
}

extension SingleSeatRule {
    /// The seats of `orphans` (single empty seats a selection leaves) the
    /// buyer could have avoided: an orphan is unavoidable when the run of
    /// available neighbours it stands in (before the selection) is exactly
    /// one seat longer than what the selection takes of it, so any choice
    /// of that many seats there leaves one alone.
    public static func avoidable(_ orphans: [SeatID], selected: Set<SeatID>, in hall: Hall) -> [SeatID] {
        guard !orphans.isEmpty else { return [] }
        var links: [Int: [Bool]] = [:]
        return orphans.filter { orphan in
            guard let p = hall.position(of: orphan) else { return true }
            let row = hall.rows[p.row], seats = row.seats
            let rowLinks = links[p.row] ?? RowNeighbours.links(hall, row: p.row)
            links[p.row] = rowLinks
            func available(_ j: Int) -> Bool { seats[j].status == .available }
            var a = p.seat, b = p.seat
            while a > 0, rowLinks[a - 1], available(a - 1) { a -= 1 }
            while b + 1 < seats.count, rowLinks[b], available(b + 1) { b += 1 }
            let taken = (a...b).filter { selected.contains(SeatID(section: row.section, row: row.number, column: seats[$0].column)) }.count
            return (b - a + 1) - taken != 1
        }
    }
}
