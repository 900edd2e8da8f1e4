import Foundation

/// The hall JSON format: the seed's format plus SeatMap's optional extensions.
///
/// Reading validates everything and reports every problem (see
/// `SeatMapError.maxListed`); writing gives the same hall back when read.
public enum HallFormat {
    /// Limits beyond which a hall is refused as too large (see `HallValidator`).
    public static let maxSeats = HallValidator.maxSeats
    public static let maxGridSide = HallValidator.maxGridSide

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
    /// problem in the order they appear in the file, each with its JSON path
    /// and line:column. This reader checks the JSON (types, required and
    /// repeated keys, the format's codes); `HallValidator` checks the hall.
    /// `strict` makes unknown keys errors too (they are warnings otherwise).
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

    /// The parts read so far, and the places that could not be read (the
    /// validator skips the rules that need them).
    struct Reading {
        var unreadable: Set<HallValidator.Place> = []
        mutating func failed(_ place: HallValidator.Place) { unreadable.insert(place) }
    }

    static func decodeHall(_ root: JSONNode, _ ctx: inout DecodeContext) -> Hall? {
        guard let top = ctx.object(root, "", known: rootKeys) else { return nil }
        var reading = Reading()
        func text(_ key: String, _ ctx: inout DecodeContext) -> String? { top[key].flatMap { ctx.string($0, key) } }
        let cinemaName = text("cinemaName", &ctx) ?? ""
        let hallName = text("hallName", &ctx) ?? ""
        let movieStartTime = text("movieStartTime", &ctx) ?? ""
        let screenLabel = text("screenLabel", &ctx) ?? Hall.defaultScreenLabel
        var maxSelectCount = Hall.defaultMaxSelectCount
        if let n = top["maxSelectCount"] {
            if let v = ctx.int(n, "maxSelectCount") { maxSelectCount = v } else { reading.failed(.hall("maxSelectCount")) }
        }
        var sectionNodes: [JSONNode] = []
        var sections: [Section]? = nil
        if let n = top["sections"] {
            sections = []
            if let items = ctx.array(n, "sections") {
                sectionNodes = items
                for (i, item) in items.enumerated() {
                    sections?.append(decodeSection(item, i, &reading, &ctx))
                }
            }
        }
        guard let rowsNode = ctx.required(top, "rows", in: root, ""), let rowNodes = ctx.array(rowsNode, "rows") else {
            return nil
        }
        let rows = rowNodes.enumerated().map { decodeRow($0.element, $0.offset, &reading, &ctx) }
        let texts = [("cinemaName", cinemaName), ("hallName", hallName), ("movieStartTime", movieStartTime), ("screenLabel", screenLabel)]
        let problems = HallValidator.problems(texts: texts, maxSelectCount: maxSelectCount, sections: sections, rows: rows,
                                              unreadable: reading.unreadable, othersFailed: !ctx.errors.isEmpty)
        /// The JSON node a validator place names (the field, else its object).
        func node(_ place: HallValidator.Place) -> JSONNode? {
            func member(_ object: JSONNode?, _ key: String?) -> JSONNode? {
                guard let object else { return nil }
                guard let key else { return object }
                return object[key] ?? object
            }
            switch place {
            case .hall(let key): return key == "rows" ? rowsNode : member(root, key)
            case .section(let i, let key): return member(sectionNodes.indices.contains(i) ? sectionNodes[i] : nil, key)
            case .row(let i, let key): return member(rowNodes.indices.contains(i) ? rowNodes[i] : nil, key)
            case .seat(let i, let j, let key):
                guard rowNodes.indices.contains(i), case .array(let seats)? = rowNodes[i]["seats"]?.value,
                      seats.indices.contains(j) else { return nil }
                return member(seats[j], key)
            }
        }
        let readerErrors = ctx.errors.count
        for p in problems { ctx.error(node(p.place), p.place.path, p.message) }
        if !problems.isEmpty && readerErrors > 0 { ctx.sortErrorsByPosition() }
        guard ctx.errors.isEmpty else { return nil }
        return Hall(validatedCinemaName: cinemaName, hallName: hallName, movieStartTime: movieStartTime,
                    maxSelectCount: maxSelectCount, screenLabel: screenLabel, sections: sections ?? [], rows: rows)
    }

    static func decodeSection(_ node: JSONNode, _ i: Int, _ reading: inout Reading, _ ctx: inout DecodeContext) -> Section {
        let path = "sections[\(i)]"
        guard let m = ctx.object(node, path, known: sectionKeys) else {
            reading.failed(.section(i, nil))
            return Section(id: 0, name: "")
        }
        var id = 0
        if let n = ctx.required(m, "id", in: node, path), let v = ctx.int(n, path + ".id") { id = v } else { reading.failed(.section(i, "id")) }
        let name = m["name"].flatMap { ctx.string($0, path + ".name") } ?? ""
        return Section(id: id, name: name)
    }

    static func decodeRow(_ node: JSONNode, _ i: Int, _ reading: inout Reading, _ ctx: inout DecodeContext) -> Row {
        let path = "rows[\(i)]"
        guard let m = ctx.object(node, path, known: rowKeys) else {
            reading.failed(.row(i, nil))
            return Row(number: 0, seats: [])
        }
        var number = 0
        if let n = ctx.required(m, "row", in: node, path), let v = ctx.int(n, path + ".row") { number = v } else { reading.failed(.row(i, "row")) }
        let label = m["label"].flatMap { ctx.label($0, path + ".label") }
        var section = 1
        if let n = m["section"] {
            if let v = ctx.int(n, path + ".section") { section = v } else { reading.failed(.row(i, "section")) }
        }
        var price: Decimal? = nil
        if let n = m["price"] {
            price = ctx.decimal(n, path + ".price")
            if price == nil { reading.failed(.row(i, "price")) }
        }
        var seats: [Seat] = []
        if let n = ctx.required(m, "seats", in: node, path), let items = ctx.array(n, path + ".seats") {
            seats = items.enumerated().map { decodeSeat($0.element, i, $0.offset, &reading, &ctx) }
        } else {
            reading.failed(.row(i, "seats"))
        }
        return Row(number: number, label: label, section: section, price: price, seats: seats)
    }

    static func decodeSeat(_ node: JSONNode, _ i: Int, _ j: Int, _ reading: inout Reading, _ ctx: inout DecodeContext) -> Seat {
        let path = "rows[\(i)].seats[\(j)]"
        guard let m = ctx.object(node, path, known: seatKeys) else {
            reading.failed(.seat(i, j, nil))
            return Seat(column: 0, status: .available)
        }
        var column = 0
        if let n = ctx.required(m, "column", in: node, path), let v = ctx.int(n, path + ".column") { column = v } else { reading.failed(.seat(i, j, "column")) }
        var kind = CellKind.seat(.available)
        if let n = ctx.required(m, "status", in: node, path), let code = ctx.int(n, path + ".status") {
            if let k = CellKind(code: code) {
                kind = k
            } else {
                ctx.error(n, path + ".status", "unknown status \(code) (\(CellKind.expectedCodes))")
                reading.failed(.seat(i, j, "status"))
            }
        } else {
            reading.failed(.seat(i, j, "status"))
        }
        let label = m["label"].flatMap { ctx.label($0, path + ".label") }
        var price: Decimal? = nil
        if let n = m["price"] {
            price = ctx.decimal(n, path + ".price")
            if price == nil { reading.failed(.seat(i, j, "price")) }
        }
        var type = SeatType.standard
        if let n = m["type"], let s = ctx.string(n, path + ".type") {
            if let t = SeatType(rawValue: s) {
                type = t
            } else {
                let names = SeatType.allCases.map(\.rawValue).joined(separator: ", ")
                ctx.error(n, path + ".type", "unknown seat type \"\(s)\" (expected \(names))")
                reading.failed(.seat(i, j, "type"))
            }
        } else if m["type"] != nil {
            reading.failed(.seat(i, j, "type"))
        }
        return Seat(column: column, kind: kind, label: label, price: price, type: type)
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
        var m: [(String, JSONNode)] = [("column", .int(seat.column)), ("status", .int(seat.kind.code))]
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
