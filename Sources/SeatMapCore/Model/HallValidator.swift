import Foundation

/// Every rule a hall must satisfy, in one place. `Hall.init` runs it, the
/// hall format's reader runs it and reports its problems at their JSON
/// positions, and importers run it and report them at the place in their
/// own input; nothing else decides whether a hall is valid.
///
/// The rules: `maxSelectCount` ≥ 1; section ids ≥ 1 and declared once;
/// rows and columns within 1…`maxGridSide` (a free venue's row numbers up
/// to `maxSeats`); a row number used once; a row's
/// section declared (when any section is declared); prices not negative; a row
/// priced unless every seat has its own price; one cell per column; aisles
/// are never couple halves; every couple half has its other half in the
/// neighbouring column; at least one seat and at most `maxSeats`; names and
/// labels without control characters (U+0000–U+001F, U+007F, U+FFFE, U+FFFF:
/// they cannot be written in SVG/XML or shown in a label).
public enum HallValidator {
    /// Limits beyond which a hall is refused as too large.
    public static let maxSeats = 250_000
    public static let maxGridSide = 2_000

    /// Where a problem is, by part index (in the order given) and field key.
    public enum Place: Hashable, Sendable {
        /// A top-level field (`maxSelectCount`, `rows`).
        case hall(String)
        case section(Int, String?)
        case row(Int, String?)
        case seat(Int, Int, String?)
        case area(Int, String?)
        case category(Int, String?)
        case group(Int, String?)

        /// `rows[3].seats[5].column`.
        public var path: String {
            switch self {
            case .hall(let key): return key
            case .section(let i, let key): return "sections[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .row(let i, let key): return "rows[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .seat(let i, let j, let key): return "rows[\(i)].seats[\(j)]" + (key.map { ".\($0)" } ?? "")
            case .area(let i, let key): return "areas[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .category(let i, let key): return "categories[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .group(let i, let key): return "groups[\(i)]" + (key.map { ".\($0)" } ?? "")
            }
        }
    }

    public struct Problem: Sendable, Equatable {
        public var place: Place
        public var message: String
    }

    /// "row 0 is less than 1": the message for a whole number out of range.
    public static func rangeMessage(_ what: String, _ v: Int, _ range: ClosedRange<Int>) -> String {
        v < range.lowerBound ? "\(what) \(v) is less than \(range.lowerBound)" : "\(what) \(v) is more than \(range.upperBound)"
    }

    /// Every problem with these parts, in the order given. A reader passes
    /// the places it could not read (`unreadable`: the rules that need them
    /// are skipped, the reader has reported them) and whether it already
    /// found problems (`othersFailed`: "no seats" is then not reported).
    /// `describe` names a place inside a message ("first at rows[0]"): an
    /// importer names the place in its own input.
    /// `texts` are the hall's own names by key (`cinemaName`, `hallName`,
    /// `movieStartTime`, `screenLabel`).
    public static func problems(texts: [(String, String)] = [], maxSelectCount: Int, sections: [Section]?, rows: [Row],
                                areas: [Area] = [], focus: Point? = nil, categories: [SeatCategory] = [], groups: [SeatGroup] = [],
                                currency: String = Currency.defaultCode, locale: String? = nil, unreadable: Set<Place> = [], othersFailed: Bool = false,
                                describe: (Place) -> String = { $0.path }) -> [Problem] {
        var out: [Problem] = []
        func report(_ place: Place, _ message: String) { out.append(Problem(place: place, message: message)) }
        func readable(_ place: Place) -> Bool { unreadable.isEmpty || !unreadable.contains(place) }
        func checkText(_ text: String, _ place: Place) {
            if let bad = controlCharacter(in: text) {
                report(place, "contains the control character U+\(String(format: "%04X", bad)) (not allowed in names and labels)")
            }
        }

        for (key, text) in texts { checkText(text, .hall(key)) }
        /// Prices are whole minor units of the currency (cents; yen; fils),
        /// so the prices people see always add up to the total they see.
        let minorUnits = Currency.minorUnits(currency)
        func checkPrice(_ p: Decimal, _ place: Place) {
            if p < 0 {
                report(place, "negative price \(p.plainText)")
                return
            }
            var value = p, rounded = Decimal()
            NSDecimalRound(&rounded, &value, minorUnits, .plain)
            if rounded != p {
                report(place, "price \(p.plainText) has more decimals than \(currency) has (\(minorUnits))")
            }
        }
        if readable(.hall("currency")), !Currency.isWellFormed(currency) {
            report(.hall("currency"), "\"\(currency)\" is not an ISO 4217 currency code (three capital letters, e.g. CNY, EUR, USD)")
        }
        if readable(.hall("locale")), let locale, SeatMapLocale.match(locale) == nil {
            report(.hall("locale"), "unknown locale \"\(locale)\" (available: \(SeatMapLocale.codes.joined(separator: ", ")))")
        }
        if readable(.hall("maxSelectCount")), maxSelectCount < 1 {
            report(.hall("maxSelectCount"), rangeMessage("maxSelectCount", maxSelectCount, 1...Int.max))
        }
        var declared: Set<Int>? = nil
        if let sections, !sections.isEmpty {
            var seen: [Int: String] = [:]
            for (i, section) in sections.enumerated() where readable(.section(i, nil)) && readable(.section(i, "id")) {
                checkText(section.name, .section(i, "name"))
                if section.id < 1 {
                    report(.section(i, "id"), rangeMessage("section id", section.id, 1...Int.max))
                    continue
                }
                if let first = seen[section.id] {
                    report(.section(i, "id"), "section \(section.id) is declared twice (first at \(first))")
                    continue
                }
                seen[section.id] = describe(.section(i, nil))
                if let z = section.place {
                    checkCoordinates([("x", z.x), ("y", z.y), ("rotation", z.rotation)], .section(i, nil), &out)
                    if !(0...99).contains(z.level) { report(.section(i, "level"), rangeMessage("level", z.level, 0...99)) }
                }
            }
            declared = Set(seen.keys)
        }
        var categoryNames: [String: String] = [:]
        for (i, c) in categories.enumerated() {
            if c.name.isEmpty { report(.category(i, "name"), "a category needs a non-empty name") }
            else if let first = categoryNames[c.name] { report(.category(i, "name"), "category \"\(c.name)\" is declared twice (first at \(first))") }
            else { categoryNames[c.name] = describe(.category(i, nil)) }
            checkText(c.name, .category(i, "name"))
            if let p = c.price { checkPrice(p, .category(i, "price")) }
            if c.price != nil, !c.ticketTypes.isEmpty {
                report(.category(i, "price"), "category \"\(c.name)\" has ticket types: its prices are theirs (drop \"price\")")
            }
            var typeNames = Set<String>()
            for (k, t) in c.ticketTypes.enumerated() {
                let key = "ticketTypes[\(k)]"
                if t.name.isEmpty { report(.category(i, key + ".name"), "a ticket type needs a non-empty name") }
                else if !typeNames.insert(t.name).inserted { report(.category(i, key + ".name"), "ticket type \"\(t.name)\" is listed twice in category \"\(c.name)\"") }
                checkText(t.name, .category(i, key + ".name"))
                checkPrice(t.price, .category(i, key + ".price"))
            }
            if let color = c.color, !isColor(color) {
                report(.category(i, "color"), "\"\(color)\" is not a colour (expected \(HallValidator.colorForms))")
            }
        }
        let free = Hall.isFree(rows: rows, areas: areas)
        if let focus { checkCoordinates([("x", focus.x), ("y", focus.y)], .hall("focus"), &out) }

        var firstRow: [Int: String] = [:]
        var seatCount = 0
        for (i, row) in rows.enumerated() where readable(.row(i, nil)) {
            checkText(row.label, .row(i, "label"))
            // Grid rows are grid lines (at most maxGridSide); a free venue's
            // row numbers only name rows.
            let numberOK = readable(.row(i, "row"))
                && check(row.number, 1...(free ? maxSeats : maxGridSide), "row", .row(i, "row"), &out)
            if readable(.row(i, "section")), check(row.section, 1...Int.max, "section", .row(i, "section"), &out),
               let declared, !declared.contains(row.section) {
                report(.row(i, "section"), "section \(row.section) is not declared in \"sections\"")
            }
            if let p = row.price { checkPrice(p, .row(i, "price")) }
            if let o = row.origin { checkCoordinates([("x", o.x), ("y", o.y)], .row(i, "origin"), &out) }
            switch row.path {
            case .arc(let cx, let cy, let r, let a0, let a1, _)?:
                checkCoordinates([("cx", cx), ("cy", cy), ("radius", r), ("start", a0), ("end", a1)], .row(i, "arc"), &out)
                if r.isFinite && r <= 0 { report(.row(i, "arc"), "arc radius \(r) must be more than 0") }
            case .line(let x, let y, let a, let spacing)?:
                checkCoordinates([("x", x), ("y", y), ("angle", a), ("spacing", spacing ?? 1)], .row(i, "line"), &out)
                if let d = spacing, d.isFinite, d <= 0 { report(.row(i, "line"), "line spacing \(d) must be more than 0") }
            case nil: break
            }
            guard readable(.row(i, "seats")) else { continue }

            // Cells: each in range, one per column.
            var accepted: [Int: SeatType] = [:]
            var inRange = Set<Int>()
            var firstSeat: [Int: String] = [:]
            var needsRowPrice = false
            var rowSeats = 0
            for (j, seat) in row.seats.enumerated() where readable(.seat(i, j, nil)) {
                checkText(seat.label, .seat(i, j, "label"))
                let columnOK = readable(.seat(i, j, "column"))
                    && check(seat.column, 1...maxGridSide, "column", .seat(i, j, "column"), &out)
                if let p = seat.price { checkPrice(p, .seat(i, j, "price")) }
                if seat.type.isCoupleHalf && !seat.isSeat {
                    report(.seat(i, j, "type"), "an aisle (status 3) cannot be a couple half")
                }
                if let name = seat.category, categoryNames[name] == nil {
                    report(.seat(i, j, "category"), "category \"\(name)\" is not declared in \"categories\"")
                }
                if let p = seat.place {
                    var values = [("x", p.x), ("y", p.y), ("rotation", p.rotation)]
                    switch p.shape {
                    case .rect(let w, let h): values += [("w", w ?? 1), ("h", h ?? 1)]
                    case .circle(let r): values.append(("r", r))
                    }
                    checkCoordinates(values, .seat(i, j, nil), &out, positive: ["w", "h", "r"])
                } else if free && row.path == nil && readable(.seat(i, j, "column")) {
                    report(.seat(i, j, nil), "a seat without \"x\" and \"y\" in a free venue (a hall with positioned seats, "
                           + "row paths or areas places every seat: give x and y, or an arc or line on the row)")
                }
                guard columnOK else { continue }
                inRange.insert(j)
                guard readable(.seat(i, j, "status")) else { continue }
                if let first = firstSeat[seat.column] {
                    report(.seat(i, j, "column"), "two seats in one cell: column \(seat.column) is already used by \(first)")
                    continue
                }
                firstSeat[seat.column] = describe(.seat(i, j, nil))
                accepted[seat.column] = seat.type
                if seat.isSeat {
                    rowSeats += 1
                    if seat.price == nil { needsRowPrice = true }
                }
            }
            if needsRowPrice && row.price == nil && readable(.row(i, "price")) {
                report(.row(i, nil), "missing required field \"price\" (a row needs a price unless every seat has its own)")
            }
            // Couples: each half's other half in the neighbouring column.
            for (j, seat) in row.seats.enumerated() where inRange.contains(j) && readable(.seat(i, j, "type")) {
                let c = seat.column
                if seat.type == .coupleLeft, accepted[c + 1] != .coupleRight {
                    report(.seat(i, j, "type"), "coupleLeft at column \(c) has no coupleRight partner at column \(c + 1)")
                } else if seat.type == .coupleRight, accepted[c - 1] != .coupleLeft {
                    report(.seat(i, j, "type"), "coupleRight at column \(c) has no coupleLeft partner at column \(c - 1)")
                }
            }
            guard numberOK else { continue }
            if let first = firstRow[row.number] {
                report(.row(i, "row"), "row \(row.number) appears twice (first at \(first))")
                continue
            }
            firstRow[row.number] = describe(.row(i, nil))
            seatCount += rowSeats
        }
        seatCount += areaProblems(areas, declared: declared, report: report, checkPrice: checkPrice, describe: describe)
        // Groups: named once each, of two or more seats the hall has, no seat in two groups or also a couple half.
        if !groups.isEmpty {
            var kinds: [SeatID: SeatType?] = [:]
            for row in rows { for seat in row.seats { kinds[SeatID(section: row.section, row: row.number, column: seat.column)] = seat.isSeat ? seat.type : nil } }
            var ids: [String: String] = [:]
            var member: [SeatID: String] = [:]
            for (i, g) in groups.enumerated() {
                if g.id.isEmpty { report(.group(i, "id"), "a group needs a non-empty id") }
                else if let first = ids[g.id] { report(.group(i, "id"), "group \"\(g.id)\" is declared twice (first at \(first))") }
                else { ids[g.id] = describe(.group(i, nil)) }
                if g.seats.count < 2 { report(.group(i, "seats"), "a group needs at least 2 seats, found \(g.seats.count)") }
                for id in g.seats {
                    guard let kind = kinds[id] else {
                        report(.group(i, "seats"), "no such seat \(id)")
                        continue
                    }
                    guard let type = kind else {
                        report(.group(i, "seats"), "\(id) is an aisle, not a seat")
                        continue
                    }
                    if type.isCoupleHalf { report(.group(i, "seats"), "\(id) is a couple half (a couple is already booked together)") }
                    if let other = member[id] { report(.group(i, "seats"), "\(id) is already in group \"\(other)\"") }
                    member[id] = g.id
                }
            }
        }
        if out.isEmpty && !othersFailed && seatCount == 0 {
            report(.hall("rows"), "the hall has no seats (every hall needs at least one seat with status 0, 1 or 2)")
        }
        if seatCount > maxSeats {
            report(.hall("rows"), "the hall is too large: \(seatCount) seats (at most \(maxSeats))")
        }
        return out
    }

    /// The rules for areas; returns how many standing areas there are (each
    /// counts as a place to sell).
    static func areaProblems(_ areas: [Area], declared: Set<Int>?, report: (Place, String) -> Void,
                             checkPrice: (Decimal, Place) -> Void, describe: (Place) -> String) -> Int {
        var out: [Problem] = []
        var ids: [String: String] = [:]
        var standing = 0
        for (i, a) in areas.enumerated() {
            if a.id.isEmpty {
                report(.area(i, "id"), "an area needs a non-empty id")
            } else if let first = ids[a.id] {
                report(.area(i, "id"), "area id \"\(a.id)\" is used twice (first at \(first))")
            } else {
                ids[a.id] = describe(.area(i, nil))
            }
            for (key, text) in [("id", a.id), ("label", a.label)] {
                if let bad = controlCharacter(in: text) {
                    report(.area(i, key), "contains the control character U+\(String(format: "%04X", bad)) (not allowed in names and labels)")
                }
            }
            if let s = a.section {
                if s < 1 { report(.area(i, "section"), rangeMessage("section", s, 1...Int.max)) }
                else if let declared, !declared.contains(s) { report(.area(i, "section"), "section \(s) is not declared in \"sections\"") }
            }
            var values = [("rotation", a.rotation)]
            if let p = a.labelAt { values += [("labelAt.x", p.x), ("labelAt.y", p.y)] }
            if let s = a.labelSize { values += [("labelSize", s)] }
            switch a.shape {
            case .rect(let x, let y, let w, let h): values += [("x", x), ("y", y), ("w", w), ("h", h)]
            case .ellipse(let cx, let cy, let rx, let ry): values += [("cx", cx), ("cy", cy), ("rx", rx), ("ry", ry)]
            case .circle(let cx, let cy, let r): values += [("cx", cx), ("cy", cy), ("r", r)]
            case .polygon(let ps):
                if ps.count < 3 { report(.area(i, "points"), "a polygon needs at least 3 points, found \(ps.count)") }
                if ps.count > maxPolygonPoints { report(.area(i, "points"), "a polygon has at most \(maxPolygonPoints) points, found \(ps.count)") }
                for (k, p) in ps.enumerated() { values += [("points[\(k)][0]", p.x), ("points[\(k)][1]", p.y)] }
            case .text(let x, let y, let size):
                values += [("x", x), ("y", y), ("size", size)]
                if a.label.isEmpty { report(.area(i, "label"), "a text area needs a label (its text)") }
            }
            checkCoordinates(values, .area(i, nil), &out, positive: ["w", "h", "rx", "ry", "r", "size", "labelSize"])
            for (key, c) in [("fill", a.fill), ("border", a.border), ("labelColor", a.labelColor)] {
                if let c, !isColor(c) {
                    report(.area(i, key), "\"\(c)\" is not a colour (expected \(HallValidator.colorForms))")
                }
            }
            if let p = a.price { checkPrice(p, Place.area(i, "price")) }
            if let cap = a.capacity {
                if !(1...1_000_000).contains(cap) { report(.area(i, "capacity"), rangeMessage("capacity", cap, 1...1_000_000)) }
                if a.price == nil { report(.area(i, nil), "missing required field \"price\" (a standing area with a capacity needs a price)") }
                if let least = a.minPerOrder, !(1...max(1, cap)).contains(least) { report(.area(i, "minPerOrder"), rangeMessage("minPerOrder", least, 1...max(1, cap))) }
                if let most = a.maxPerOrder, !((a.minPerOrder ?? 1)...max(a.minPerOrder ?? 1, cap)).contains(most) {
                    report(.area(i, "maxPerOrder"), rangeMessage("maxPerOrder", most, (a.minPerOrder ?? 1)...max(a.minPerOrder ?? 1, cap)))
                }
                if let n = a.available, !(0...max(0, cap)).contains(n) {
                    report(.area(i, "available"), rangeMessage("available", n, 0...max(0, cap)))
                }
                if case .text = a.shape { report(.area(i, "capacity"), "a text area cannot be a standing area") }
                standing += 1
            } else {
                if a.available != nil { report(.area(i, "available"), "\"available\" needs a \"capacity\" (only standing areas are sold)") }
                if a.price != nil { report(.area(i, "price"), "\"price\" needs a \"capacity\" (only standing areas are sold)") }
                if a.minPerOrder != nil { report(.area(i, "minPerOrder"), "\"minPerOrder\" needs a \"capacity\" (only standing areas are sold)") }
                if a.maxPerOrder != nil { report(.area(i, "maxPerOrder"), "\"maxPerOrder\" needs a \"capacity\" (only standing areas are sold)") }
            }
        }
        for p in out { report(p.place, p.message) }
        return standing
    }

    /// Coordinates and sizes are finite and within ±`maxCoordinate` points;
    /// the keys in `positive` must be more than 0.
    static func checkCoordinates(_ values: [(String, Double)], _ place: Place, _ out: inout [Problem], positive: Set<String> = []) {
        for (key, v) in values {
            let at: Place
            switch place {
            case .hall: at = .hall(place.path + "." + key)
            case .section(let i, _): at = .section(i, key)
            case .row(let i, let k): at = .row(i, k ?? key)
            case .seat(let i, let j, _): at = .seat(i, j, key)
            case .area(let i, _): at = .area(i, key)
            case .category(let i, _): at = .category(i, key)
            case .group(let i, _): at = .group(i, key)
            }
            if !v.isFinite || abs(v) > maxCoordinate {
                out.append(Problem(place: at, message: "\(key) \(v) is outside ±\(Int(maxCoordinate))"))
            } else if positive.contains(key) && v <= 0 {
                out.append(Problem(place: at, message: "\(key) \(v) must be more than 0"))
            }
        }
    }

    /// Most points a polygon area may have.
    public static let maxPolygonPoints = 1_000

    /// Largest coordinate or size, in points.
    public static let maxCoordinate: Double = 100_000

    /// A colour as `CSSColor` reads it: `#RGB`, `#RGBA`, `#RRGGBB`,
    /// `#RRGGBBAA`, `transparent` or a CSS colour name.
    public static func isColor(_ s: String) -> Bool { CSSColor.isColor(s) }

    /// What a colour may be, for messages.
    public static let colorForms = "#RGB, #RGBA, #RRGGBB, #RRGGBBAA, transparent or a CSS colour name"

    /// The first character XML and labels cannot hold, as a code point.
    /// The first character a name or label may not hold: C0 and C1 controls,
    /// DEL, the line and paragraph separators (they would break a drawn
    /// line), and noncharacters.
    public static func controlCharacter(in text: String) -> UInt32? {
        for u in text.unicodeScalars {
            let v = u.value
            if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE {
                return v
            }
        }
        return nil
    }

    /// Whether `v` is in `range`; reports it at `place` when not.
    private static func check(_ v: Int, _ range: ClosedRange<Int>, _ what: String, _ place: Place, _ out: inout [Problem]) -> Bool {
        guard !range.contains(v) else { return true }
        out.append(Problem(place: place, message: rangeMessage(what, v, range)))
        return false
    }
}
