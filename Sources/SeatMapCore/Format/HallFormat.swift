import Foundation

/// The hall JSON format: the seed's format plus SeatMap's optional extensions.
///
/// Reading validates everything and reports every problem (see
/// `SeatMapError.maxListed`); writing gives the same hall back when read.
public enum HallFormat {
    /// Limits beyond which a hall is refused as too large.
    public static let maxSeats = 250_000
    public static let maxGridSide = 2_000

    static let rootKeys: Set<String> = ["cinemaName", "hallName", "movieStartTime", "maxSelectCount", "screenLabel", "sections", "rows"]
    static let sectionKeys: Set<String> = ["id", "name"]
    static let rowKeys: Set<String> = ["row", "label", "section", "price", "seats"]
    static let seatKeys: Set<String> = ["column", "status", "label", "price", "type"]

    /// A decoded hall with the warnings (unknown keys) found on the way.
    public struct Decoded: Sendable {
        public var hall: Hall
        public var warnings: [Diagnostic]
    }

    /// Reads a hall from JSON bytes. Throws a `SeatMapError` listing every
    /// problem, each with its JSON path and line:column. `strict` makes
    /// unknown keys errors too (they are warnings otherwise).
    public static func decode(_ source: SourceText, strict: Bool = false) throws(SeatMapError) -> Decoded {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else {
            throw SeatMapError(file: source.name, diagnostics: ctx.errors)
        }
        let hall = decodeHall(root, &ctx)
        let problems = strict ? ctx.errors + ctx.warnings : ctx.errors
        guard problems.isEmpty, let hall else {
            throw SeatMapError(file: source.name, diagnostics: problems)
        }
        return Decoded(hall: hall, warnings: ctx.warnings)
    }

    /// Convenience for in-memory JSON.
    public static func decode(_ text: String, name: String = "<input>") throws(SeatMapError) -> Hall {
        try decode(SourceText(name: name, bytes: Array(text.utf8))).hall
    }

    static func decodeHall(_ root: JSONNode, _ ctx: inout DecodeContext) -> Hall? {
        guard let top = ctx.object(root, "", known: rootKeys) else { return nil }
        var hall = Hall(rows: [])
        if let n = top["cinemaName"], let s = ctx.string(n, "cinemaName") { hall.cinemaName = s }
        if let n = top["hallName"], let s = ctx.string(n, "hallName") { hall.hallName = s }
        if let n = top["movieStartTime"], let s = ctx.string(n, "movieStartTime") { hall.movieStartTime = s }
        if let n = top["screenLabel"], let s = ctx.string(n, "screenLabel") { hall.screenLabel = s }
        if let n = top["maxSelectCount"], let v = ctx.int(n, "maxSelectCount", in: 1...Int.max, what: "maxSelectCount") {
            hall.maxSelectCount = v
        }
        var declared: Set<Int>? = nil
        if let n = top["sections"] {
            let sections = decodeSections(n, &ctx)
            hall.sections = sections
            declared = Set(sections.map(\.id))
        }
        guard let rowsNode = ctx.required(top, "rows", in: root, ""), let rowNodes = ctx.array(rowsNode, "rows") else {
            return nil
        }
        var rows: [Row] = []
        var firstRowPath: [Int: String] = [:]
        for (i, rowNode) in rowNodes.enumerated() {
            let path = "rows[\(i)]"
            guard let row = decodeRow(rowNode, path, declared: declared, &ctx) else { continue }
            if let first = firstRowPath[row.number] {
                ctx.error(rowNode["row"], path + ".row", "row \(row.number) appears twice (first at \(first))")
                continue
            }
            firstRowPath[row.number] = path
            rows.append(row)
        }
        let seatCount = rows.reduce(0) { $0 + $1.seats.filter { $0.status.isSeat }.count }
        if ctx.errors.isEmpty && seatCount == 0 {
            ctx.error(rowsNode, "rows", "the hall has no seats (every hall needs at least one seat with status 0, 1 or 2)")
        }
        if seatCount > maxSeats {
            ctx.error(rowsNode, "rows", "the hall is too large: \(seatCount) seats (at most \(maxSeats))")
        }
        return Hall(cinemaName: hall.cinemaName, hallName: hall.hallName, movieStartTime: hall.movieStartTime,
                    maxSelectCount: hall.maxSelectCount, screenLabel: hall.screenLabel, sections: hall.sections, rows: rows)
    }

    static func decodeSections(_ node: JSONNode, _ ctx: inout DecodeContext) -> [Section] {
        guard let items = ctx.array(node, "sections") else { return [] }
        var out: [Section] = []
        var seen: [Int: String] = [:]
        for (i, item) in items.enumerated() {
            let path = "sections[\(i)]"
            guard let m = ctx.object(item, path, known: sectionKeys) else { continue }
            guard let idNode = ctx.required(m, "id", in: item, path),
                  let id = ctx.int(idNode, path + ".id", in: 1...Int.max, what: "section id") else { continue }
            var name = ""
            if let n = m["name"], let s = ctx.string(n, path + ".name") { name = s }
            if let first = seen[id] {
                ctx.error(idNode, path + ".id", "section \(id) is declared twice (first at \(first))")
                continue
            }
            seen[id] = path
            out.append(Section(id: id, name: name))
        }
        return out
    }

    static func decodeRow(_ node: JSONNode, _ path: String, declared: Set<Int>?, _ ctx: inout DecodeContext) -> Row? {
        guard let m = ctx.object(node, path, known: rowKeys) else { return nil }
        let numberNode = ctx.required(m, "row", in: node, path)
        let number = numberNode.flatMap { ctx.int($0, path + ".row", in: 1...maxGridSide, what: "row") }
        var label: String? = nil
        if let n = m["label"] { label = ctx.label(n, path + ".label") }
        var section = 1
        if let n = m["section"], let v = ctx.int(n, path + ".section", in: 1...Int.max, what: "section") {
            section = v
            if let declared, !declared.contains(v) {
                ctx.error(n, path + ".section", "section \(v) is not declared in \"sections\"")
            }
        }
        var price: Decimal? = nil
        if let n = m["price"], let p = ctx.decimal(n, path + ".price") {
            if p < 0 { ctx.error(n, path + ".price", "negative price \(p.plainText)") } else { price = p }
        }
        let priceGiven = m["price"] != nil
        guard let seatsNode = ctx.required(m, "seats", in: node, path), let items = ctx.array(seatsNode, path + ".seats") else {
            return nil
        }
        var seats: [Seat] = []
        var firstSeatPath: [Int: String] = [:]
        var needsRowPrice = false
        for (j, item) in items.enumerated() {
            let seatPath = "\(path).seats[\(j)]"
            guard let seat = decodeSeat(item, seatPath, &ctx) else { continue }
            if let first = firstSeatPath[seat.column] {
                ctx.error(item["column"], seatPath + ".column",
                          "two seats in one cell: column \(seat.column) is already used by \(first)")
                continue
            }
            firstSeatPath[seat.column] = seatPath
            if seat.status.isSeat && seat.price == nil { needsRowPrice = true }
            seats.append(seat)
        }
        if needsRowPrice && !priceGiven {
            ctx.error(node, path, "missing required field \"price\" (a row needs a price unless every seat has its own)")
        }
        checkCouples(seats, items: items, path: path, &ctx)
        guard let number else { return nil }
        return Row(number: number, label: label, section: section, price: price, seats: seats)
    }

    static func decodeSeat(_ node: JSONNode, _ path: String, _ ctx: inout DecodeContext) -> Seat? {
        guard let m = ctx.object(node, path, known: seatKeys) else { return nil }
        let columnNode = ctx.required(m, "column", in: node, path)
        let column = columnNode.flatMap { ctx.int($0, path + ".column", in: 1...maxGridSide, what: "column") }
        var status: SeatStatus? = nil
        if let n = ctx.required(m, "status", in: node, path) {
            if case .number(let text) = n.value, let code = Int(text), SeatStatus(rawValue: code) == nil {
                ctx.error(n, path + ".status", "unknown status \(code) (\(SeatStatus.expectedCodes))")
            } else if let code = ctx.int(n, path + ".status") {
                status = SeatStatus(rawValue: code)
            }
        }
        var label: String? = nil
        if let n = m["label"] { label = ctx.label(n, path + ".label") }
        var price: Decimal? = nil
        if let n = m["price"], let p = ctx.decimal(n, path + ".price") {
            if p < 0 { ctx.error(n, path + ".price", "negative price \(p.plainText)") } else { price = p }
        }
        var type = SeatType.standard
        if let n = m["type"], let s = ctx.string(n, path + ".type") {
            if let t = SeatType(rawValue: s) {
                type = t
            } else {
                let names = SeatType.allCases.map(\.rawValue).joined(separator: ", ")
                ctx.error(n, path + ".type", "unknown seat type \"\(s)\" (expected \(names))")
            }
        }
        if type.isCoupleHalf && status == .aisle {
            ctx.error(m["type"], path + ".type", "an aisle (status 3) cannot be a couple half")
        }
        guard let column, let status else { return nil }
        return Seat(column: column, status: status, label: label, price: price, type: type)
    }

    /// Every couple half must have its other half in the neighbouring column.
    static func checkCouples(_ seats: [Seat], items: [JSONNode], path: String, _ ctx: inout DecodeContext) {
        var byColumn: [Int: SeatType] = [:]
        for s in seats { byColumn[s.column] = s.type }
        for (j, item) in items.enumerated() {
            guard case .object = item.value,
                  let typeNode = item["type"], case .string(let t) = typeNode.value,
                  let columnNode = item["column"], case .number(let text) = columnNode.value, let c = Int(text) else { continue }
            let seatPath = "\(path).seats[\(j)].type"
            if t == SeatType.coupleLeft.rawValue, byColumn[c + 1] != .coupleRight {
                ctx.error(typeNode, seatPath, "coupleLeft at column \(c) has no coupleRight partner at column \(c + 1)")
            } else if t == SeatType.coupleRight.rawValue, byColumn[c - 1] != .coupleLeft {
                ctx.error(typeNode, seatPath, "coupleRight at column \(c) has no coupleLeft partner at column \(c - 1)")
            }
        }
    }

    // MARK: Writing

    /// The hall as JSON in the documented format; optional fields are written
    /// only where they differ from their defaults.
    public static func encode(_ hall: Hall) -> JSONNode {
        var top: [(String, JSONNode)] = [
            ("cinemaName", .string(hall.cinemaName)),
            ("hallName", .string(hall.hallName)),
            ("movieStartTime", .string(hall.movieStartTime)),
            ("maxSelectCount", .int(hall.maxSelectCount)),
        ]
        if hall.screenLabel != Hall.defaultScreenLabel { top.append(("screenLabel", .string(hall.screenLabel))) }
        if !hall.sections.isEmpty {
            top.append(("sections", .array(hall.sections.map { .object([("id", .int($0.id)), ("name", .string($0.name))]) })))
        }
        top.append(("rows", .array(hall.rows.map(encodeRow))))
        return .object(top)
    }

    static func encodeRow(_ row: Row) -> JSONNode {
        var m: [(String, JSONNode)] = [("row", .int(row.number))]
        if row.label != String(row.number) { m.append(("label", .string(row.label))) }
        if row.section != 1 { m.append(("section", .int(row.section))) }
        if let p = row.price { m.append(("price", .number(p.plainText))) }
        m.append(("seats", .array(row.seats.map(encodeSeat))))
        return .object(m)
    }

    static func encodeSeat(_ seat: Seat) -> JSONNode {
        var m: [(String, JSONNode)] = [("column", .int(seat.column)), ("status", .int(seat.status.rawValue))]
        if seat.label != String(seat.column) { m.append(("label", .string(seat.label))) }
        if let p = seat.price { m.append(("price", .number(p.plainText))) }
        if seat.type != .standard { m.append(("type", .string(seat.type.rawValue))) }
        return .object(m)
    }

    /// The hall as pretty JSON text ending in a newline.
    public static func encodeText(_ hall: Hall) -> String {
        JSONWriter.write(encode(hall))
    }
}
