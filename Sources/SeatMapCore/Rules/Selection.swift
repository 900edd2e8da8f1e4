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
    }

    /// Selected seat ids, sorted by row, then column.
    public private(set) var ids: [SeatID] = []
    /// Places taken in standing areas, by area id (never 0).
    public private(set) var standing: [String: Int] = [:]

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
    init(restoring ids: [SeatID], standing: [String: Int]) {
        self.ids = ids.sorted()
        self.standing = standing.filter { $0.value > 0 }
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
        guard count - (standing[id] ?? 0) + quantity <= hall.maxSelectCount else { return .reachLimit }
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
            let drop = Set(group.map(\.id))
            ids.removeAll { drop.contains($0) }
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

    /// Removes ids (e.g. seats that were just sold).
    public mutating func remove(_ drop: Set<SeatID>) {
        ids.removeAll { drop.contains($0) }
    }

    /// The exact total of the selected seats' prices.
    public func total(in hall: Hall) -> Decimal {
        var total = ids.compactMap { hall.cell(id: $0)?.price }.reduce(Decimal(0), +)
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
    public func descriptions(in hall: Hall, locale: SeatMapLocale = .standard) -> [String] {
        ids.compactMap { hall.cell(id: $0).map { hall.describe($0, in: locale) } }
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
        let links = RowNeighbours.links(hall)
        for (r, row) in hall.rows.enumerated() {
            let seats = row.seats
            func id(_ j: Int) -> SeatID { SeatID(section: row.section, row: row.number, column: seats[j].column) }
            /// Whether the neighbour of seat j on side `step` (±1) is taken:
            /// no neighbour (row end, aisle gap, empty floor), not available,
            /// or (counting the selection) selected.
            func taken(_ j: Int, _ step: Int, countingSelection: Bool) -> Bool {
                let k = j + step
                let linked = step < 0 ? (k >= 0 && links[r][k]) : (k < seats.count && links[r][j])
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
