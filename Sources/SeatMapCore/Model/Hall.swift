import Foundation

/// A cinema hall: its rows of seats and what the show is.
///
/// A value that is always valid: the only ways to get one are the throwing
/// initialiser and the readers built on it (`HallFormat`, importers), and
/// all of them check every rule in `HallValidator`. Rules, layout and
/// rendering take a hall and never change it in place (`setStatus` changes
/// only a seat's sale status). Rows are kept sorted by number and cells by
/// column, so iteration order (and so every output) is deterministic.
public struct Hall: Sendable, Equatable {
    public private(set) var cinemaName: String
    public private(set) var hallName: String
    public private(set) var movieStartTime: String
    /// How many seats one order may hold (the seed's `maxSelectCount`):
    /// the rules' maximum.
    public var maxSelectCount: Int { rules.maxSelectCount }
    /// The sales rules (the file's `rules`, its `maxSelectCount`), or a
    /// show's override of them.
    public internal(set) var rules = SalesRules()
    /// Text on the screen band.
    public private(set) var screenLabel: String
    /// Declared sections; empty when none are declared.
    public private(set) var sections: [Section]
    /// Rows sorted by number, their cells by column.
    public private(set) var rows: [Row]
    /// Stages, standing floors, tables and texts (free venues).
    public private(set) var areas: [Area]
    /// The best view point, for recommendations (points, hall frame); nil:
    /// the screen, or the centre of a stage area.
    public private(set) var focus: Point?
    /// Seat categories by name (pretix plans); their colours colour their
    /// price tiers.
    public private(set) var categories: [SeatCategory]
    /// Seats booked together (boxes, tables), by id.
    public private(set) var groups: [SeatGroup]
    /// Whether the hall is a free venue (seats at positions, row paths or
    /// areas) rather than a cinema grid.
    public let isFree: Bool
    /// The ISO 4217 code of every price (default CNY).
    public internal(set) var currency: String = Currency.defaultCode
    /// The hall's default locale (a catalogue code), used when no
    /// `--locale` is given; nil: `zh-Hans`.
    public internal(set) var locale: String? = nil
    /// The canvas of the plan the hall was imported from (pretix `size`,
    /// points); nil for a hall written as such. A hall with one exports
    /// what its plan wrote: its size, and zone and area ids only where the
    /// plan gave them.
    public internal(set) var planSize: PlanSize? = nil
    /// What the plan it was imported from wrote at its top besides (kept for export).
    public internal(set) var pretix: PlanMembers? = nil
    private var groupOf: [SeatID: Int]
    private var index: [SeatID: CellPosition]
    private var externalIndex: [String: SeatID]
    /// The sections the rows are in, sorted.
    private let usedSections: [Int]

    public static let defaultMaxSelectCount = 4
    public static let defaultScreenLabel = "银幕中央"

    /// A hall from its parts, checked by `HallValidator`: throws every
    /// problem, each with the path of the part (`rows[3].seats[5].column`)
    /// in the order given. `sections` nil or empty means none are declared
    /// (rows may then use any section id).
    public init(
        cinemaName: String = "", hallName: String = "", movieStartTime: String = "",
        maxSelectCount: Int = Hall.defaultMaxSelectCount, screenLabel: String = Hall.defaultScreenLabel,
        sections: [Section]? = nil, rows: [Row], areas: [Area] = [], focus: Point? = nil, categories: [SeatCategory] = [], groups: [SeatGroup] = [],
        currency: String = Currency.defaultCode, locale: String? = nil
    ) throws(SeatMapError) {
        let rows = SeatCategory.resolvePrices(rows, categories)
        let problems = HallValidator.problems(
            texts: [("cinemaName", cinemaName), ("hallName", hallName), ("movieStartTime", movieStartTime), ("screenLabel", screenLabel)],
            maxSelectCount: maxSelectCount, sections: sections, rows: rows, areas: areas, focus: focus, categories: categories, groups: groups,
            currency: currency, locale: locale)
        guard problems.isEmpty else {
            throw SeatMapError(diagnostics: problems.map { Diagnostic(path: $0.place.path, message: .init(verbatim: $0.message)) })
        }
        self.init(validatedCinemaName: cinemaName, hallName: hallName, movieStartTime: movieStartTime,
                  maxSelectCount: maxSelectCount, screenLabel: screenLabel, sections: sections ?? [], rows: rows,
                  areas: areas, focus: focus, categories: categories, groups: groups)
        self.currency = currency
        self.locale = locale
    }

    /// Builds a hall whose parts `HallValidator` found no problem with.
    init(validatedCinemaName cinemaName: String, hallName: String, movieStartTime: String, maxSelectCount: Int,
         screenLabel: String, sections: [Section], rows: [Row], areas: [Area] = [], focus: Point? = nil,
         categories: [SeatCategory] = [], groups: [SeatGroup] = []) {
        self.categories = categories
        self.groups = groups
        var groupOf: [SeatID: Int] = [:]
        for (k, g) in groups.enumerated() { for id in g.seats { groupOf[id] = k } }
        self.groupOf = groupOf
        self.areas = areas
        self.focus = focus
        self.cinemaName = cinemaName
        self.hallName = hallName
        self.movieStartTime = movieStartTime
        self.rules.maxSelectCount = maxSelectCount
        self.screenLabel = screenLabel
        self.sections = sections.sorted { $0.id < $1.id }
        self.rows = rows.sorted { $0.number < $1.number }.map { row in
            var r = row
            r.seats.sort { $0.column < $1.column }
            return r
        }
        var index: [SeatID: CellPosition] = [:]
        var external: [String: SeatID] = [:]
        for (r, row) in self.rows.enumerated() {
            for (s, seat) in row.seats.enumerated() {
                let id = SeatID(section: row.section, row: row.number, column: seat.column)
                index[id] = CellPosition(row: r, seat: s)
                // A repeated external id names the first seat that has it.
                if let e = seat.externalID, seat.isSeat, external[e] == nil { external[e] = id }
            }
        }
        self.index = index
        self.externalIndex = external
        self.usedSections = Set(self.rows.map(\.section)).sorted()
        self.isFree = Hall.isFree(rows: self.rows, areas: areas)
    }

    /// The seat a user names: a SeatMap id (`1-3-5`) of a cell of this hall,
    /// else the external id the seat came with (a pretix `seat_guid`, a
    /// Maoyan `seatNo`; the first seat when several share one); else the
    /// text read as a SeatMap id (a seat that is not here), or nil.
    public func seatID(named text: String) -> SeatID? {
        if let id = SeatID(text), index[id] != nil { return id }
        return externalIndex[text] ?? SeatID(text)
    }

    public static func == (a: Hall, b: Hall) -> Bool {
        a.cinemaName == b.cinemaName && a.hallName == b.hallName && a.movieStartTime == b.movieStartTime
            && a.rules == b.rules && a.screenLabel == b.screenLabel
            && a.sections == b.sections && a.rows == b.rows && a.areas == b.areas && a.focus == b.focus
            && a.categories == b.categories && a.groups == b.groups && a.currency == b.currency && a.locale == b.locale
            && a.planSize == b.planSize && a.pretix == b.pretix
    }

    /// Largest row number (the grid's height in rows).
    public var gridRows: Int { rows.last?.number ?? 0 }
    /// Largest column used by any row (the grid's width in columns).
    public var gridColumns: Int { rows.map { $0.seats.last?.column ?? 0 }.max() ?? 0 }

    /// The section names a seat's description carries, by section id: every
    /// section in use (its declared name, else its number) when the hall uses
    /// more than one; empty otherwise (one section needs no naming).
    public var sectionLabels: [Int: String] {
        guard usedSections.count > 1 else { return [:] }
        var out: [Int: String] = [:]
        for id in usedSections { out[id] = sectionLabel(id) }
        return out
    }

    /// One section's label as `sectionLabels` gives it (nil when the rows
    /// are all of one section), without building the whole table.
    public func sectionLabel(_ id: Int) -> String? {
        guard usedSections.count > 1, usedSections.contains(id) else { return nil }
        let name = sectionName(id)
        return name.isEmpty ? String(id) : name
    }

    /// A seat's description in a locale (`3排5座`, `Row 3, Seat 5`), with the
    /// section's name when the hall has more than one (`B区 1排2座`).
    public func describe(_ cell: HallCell, in locale: SeatMapLocale = .standard) -> String {
        let section = sectionLabel(cell.row.section)
        return locale.seat(row: cell.row.label, seat: cell.seat.label, section: section)
    }

    /// The name of a section id: the declared name, or "" when undeclared.
    public func sectionName(_ id: Int) -> String {
        sections.first(where: { $0.id == id })?.name ?? ""
    }

    /// Every cell (seats and aisles) in row, then column order.
    public var cells: [HallCell] {
        var out: [HallCell] = []
        out.reserveCapacity(rows.reduce(0) { $0 + $1.seats.count })
        for row in rows {
            for seat in row.seats { out.append(HallCell(row: row, seat: seat)) }
        }
        return out
    }

    /// The cell with this id (seat or aisle), or nil.
    public func cell(id: SeatID) -> HallCell? {
        guard let p = index[id] else { return nil }
        return HallCell(row: rows[p.row], seat: rows[p.row].seats[p.seat])
    }

    /// Where a cell is: its row's index in `rows`, its index in the row.
    func position(of id: SeatID) -> CellPosition? { index[id] }

    /// The cell at a grid position, or nil for empty floor.
    public func cell(row: Int, column: Int) -> HallCell? {
        guard let r = rows.firstIndex(where: { $0.number == row }),
              let s = rows[r].seats.firstIndex(where: { $0.column == column }) else { return nil }
        return HallCell(row: rows[r], seat: rows[r].seats[s])
    }

    /// The seats booked together with this one, itself included, sorted: its
    /// group's, its couple pair, or just itself.
    /// Groups sold seat by seat (`rules.tables` other than `byTable`) do
    /// not bind their seats.
    public func members(of id: SeatID) -> [SeatID] {
        if let k = groupOf[id], rules.tables == .byTable { return groups[k].seats.sorted() }
        if let partner = cell(id: id)?.partnerID { return [id, partner].sorted() }
        return [id]
    }

    /// The ticket types a seat sells as: its category's (empty when it has
    /// no category or the category lists none).
    public func ticketTypes(of id: SeatID) -> [TicketType] {
        guard let name = cell(id: id)?.seat.category, let c = categories.first(where: { $0.name == name }) else { return [] }
        return c.ticketTypes
    }

    /// The groups booked whole: every group when `rules.tables` is
    /// `byTable`, else none (their seats are sold one by one).
    public var wholeGroups: [SeatGroup] { rules.tables == .byTable ? groups : [] }

    /// The group a seat belongs to, if any.
    public func group(of id: SeatID) -> SeatGroup? { groupOf[id].map { groups[$0] } }

    /// Sets the sale status of the seat with this id; false when there is
    /// no such seat (aisles have no status).
    @discardableResult
    public mutating func setStatus(_ status: SeatStatus, of id: SeatID) -> Bool {
        guard let p = index[id], rows[p.row].seats[p.seat].isSeat else { return false }
        rows[p.row].seats[p.seat].kind = .seat(status)
        return true
    }

    /// Puts other sales rules in place (a show's override of the file's).
    public mutating func setRules(_ rules: SalesRules) { self.rules = rules }

    /// Sets how many places of a standing area are still for sale; false
    /// when there is no such area or `available` is outside 0…capacity.
    @discardableResult
    public mutating func setAvailable(_ available: Int, ofArea id: String) -> Bool {
        guard let k = areas.firstIndex(where: { $0.id == id }), let cap = areas[k].capacity,
              (0...cap).contains(available) else { return false }
        areas[k].available = available
        return true
    }
}

struct CellPosition: Sendable {
    var row: Int
    var seat: Int
}

/// A cell seen together with its row: everything needed to describe a seat.
public struct HallCell: Sendable, Equatable {
    public let row: Row
    public let seat: Seat

    public init(row: Row, seat: Seat) {
        self.row = row
        self.seat = seat
    }

    public var id: SeatID { SeatID(section: row.section, row: row.number, column: seat.column) }
    /// The seat's own price, else its row's; nil for aisles.
    public var price: Decimal? { seat.isSeat ? (seat.price ?? row.price) : nil }
    /// The couple partner's id for a couple half, else nil.
    public var partnerID: SeatID? {
        switch seat.type {
        case .coupleLeft: return SeatID(section: row.section, row: row.number, column: seat.column + 1)
        case .coupleRight: return SeatID(section: row.section, row: row.number, column: seat.column - 1)
        default: return nil
        }
    }

}

extension Decimal {
    /// The plain decimal text of a price ("45", "28.88"), as used in JSON
    /// strings and labels; never scientific notation.
    public var plainText: String { "\(self)" }
}

/// A plan's canvas, as it writes it.
public struct PlanSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
