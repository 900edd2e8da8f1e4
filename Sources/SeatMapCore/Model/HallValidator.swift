import Foundation

/// Every rule a hall must satisfy, in one place. `Hall.init` runs it, the
/// hall format's reader runs it and reports its problems at their JSON
/// positions, and importers run it and report them at the place in their
/// own input; nothing else decides whether a hall is valid.
///
/// The rules: `maxSelectCount` ≥ 1; section ids ≥ 1 and declared once;
/// rows and columns within 1…`maxGridSide`; a row number used once; a row's
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

        /// `rows[3].seats[5].column`.
        public var path: String {
            switch self {
            case .hall(let key): return key
            case .section(let i, let key): return "sections[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .row(let i, let key): return "rows[\(i)]" + (key.map { ".\($0)" } ?? "")
            case .seat(let i, let j, let key): return "rows[\(i)].seats[\(j)]" + (key.map { ".\($0)" } ?? "")
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
                                unreadable: Set<Place> = [], othersFailed: Bool = false,
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
            }
            declared = Set(seen.keys)
        }

        var firstRow: [Int: String] = [:]
        var seatCount = 0
        for (i, row) in rows.enumerated() where readable(.row(i, nil)) {
            checkText(row.label, .row(i, "label"))
            let numberOK = readable(.row(i, "row"))
                && check(row.number, 1...maxGridSide, "row", .row(i, "row"), &out)
            if readable(.row(i, "section")), check(row.section, 1...Int.max, "section", .row(i, "section"), &out),
               let declared, !declared.contains(row.section) {
                report(.row(i, "section"), "section \(row.section) is not declared in \"sections\"")
            }
            if let p = row.price, p < 0 { report(.row(i, "price"), "negative price \(p.plainText)") }
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
                if let p = seat.price, p < 0 { report(.seat(i, j, "price"), "negative price \(p.plainText)") }
                if seat.type.isCoupleHalf && !seat.isSeat {
                    report(.seat(i, j, "type"), "an aisle (status 3) cannot be a couple half")
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
        if out.isEmpty && !othersFailed && seatCount == 0 {
            report(.hall("rows"), "the hall has no seats (every hall needs at least one seat with status 0, 1 or 2)")
        }
        if seatCount > maxSeats {
            report(.hall("rows"), "the hall is too large: \(seatCount) seats (at most \(maxSeats))")
        }
        return out
    }

    /// The first character XML and labels cannot hold, as a code point.
    static func controlCharacter(in text: String) -> UInt32? {
        for u in text.unicodeScalars where u.value < 0x20 || u.value == 0x7F || u.value == 0xFFFE || u.value == 0xFFFF {
            return u.value
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
