import Foundation

/// Turns Maoyan seat payloads into halls.
///
/// Two shapes are read, told apart automatically:
/// - camelCase (mobile API), optionally wrapped in `{"data": {...}}`:
///   `sections[].seats[]` rows with `rowId`, `rowNum` and `columns[]` cells
///   `{columnId, seatNo, st}`;
/// - snake_case under `data`: `hall`, `seats[]` rows with `row_id`,
///   `row_num` and `columns[]` cells `{column_id, seat_no, seat_status, st}`.
///
/// Mapping: grid row = `rowNum`, row label = `rowId`; grid column = the
/// cell's index + 1, seat label = `columnId` as text. `st`: `N` available,
/// `LK` sold, `L`/`R` the left/right half of an available couple seat, `E`
/// empty; a `null` cell or an empty or null column id is empty too. Empty
/// cells between seats become aisles; empty cells at a row's ends are
/// dropped. Sections become 1, 2, … in payload order with their names; when
/// two sections use the same row numbers, each later section is moved back
/// behind the previous one with one empty row between. `seat_status` is not
/// used (`st` says the same). Prices are not in the payloads: one price for
/// all, or one per section.
public struct MaoyanImporter: HallImporter {
    public enum Prices: Sendable, Equatable {
        case all(Decimal)
        case bySection([Int: Decimal])
    }

    /// The hall, with one warning per seat whose unknown code was mapped to
    /// locked (`lenient`).
    public typealias Imported = ImportedHall

    public init() {}

    public let name = "maoyan"
    public let summary = "a Maoyan seat payload (camelCase or snake_case, detected)"
    public let options = [
        ImportOption.price,
        ImportOption.prices,
        ImportOption(name: "lenient", valueName: nil, help: "Import unknown seat codes as locked, with a warning per seat."),
    ]

    /// The prices the options give (nil when neither is given); throws the
    /// usage problem.
    static func prices(_ request: ImportRequest) throws(SeatMapError) -> Prices? {
        switch (request.values["price"], request.values["prices"]) {
        case (let one?, nil):
            guard let d = DecodeContext.exactDecimal(one), d >= 0 else {
                throw SeatMapError("{{price}} \"\(one)\" is not a price (expected a number such as 45 or 39.9)")
            }
            return .all(d)
        case (nil, let map?):
            guard let parsed = parsePrices(map) else {
                throw SeatMapError("{{prices}} \"\(map)\" is not a list of SECTION=PRICE pairs such as 1=45,2=60")
            }
            return parsed
        case (nil, nil): return nil
        default: throw SeatMapError("use either {{price}} or {{prices}}")
        }
    }

    public func usageProblem(_ request: ImportRequest) -> SeatMapError? {
        do {
            _ = try MaoyanImporter.prices(request)
            return nil
        } catch {
            return error
        }
    }

    public func importHall(_ source: SourceText, _ request: ImportRequest) throws(SeatMapError) -> ImportedHall {
        try MaoyanImporter.importHall(source, prices: MaoyanImporter.prices(request), lenient: request.flags.contains("lenient"))
    }

    struct RawCell {
        var label: String?
        var code: String
        /// The cell's status code (`st`) and its path.
        var node: JSONNode
        var path: String
        /// The cell object and its path (problems with its column id or label are reported there).
        var cellNode: JSONNode
        var cellPath: String
        /// The payload's own seat id (`seatNo`), kept as the seat's external id.
        var seatNo: String? = nil
    }

    struct RawRow {
        var number: Int
        var label: String?
        var cells: [RawCell?]
        var path: String
        var node: JSONNode
    }

    struct RawSection {
        var name: String
        var rows: [RawRow]
    }

    /// Reads a payload; every problem is reported with its JSON path.
    public static func importHall(_ source: SourceText, prices: Prices?, lenient: Bool = false) throws(SeatMapError) -> Imported {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        var body = root
        var base = ""
        if case .object = root.value, let data = root["data"] {
            body = data
            base = "data"
        }
        var sections: [RawSection] = []
        var hallName = ""
        if body["sections"] != nil {
            sections = readCamel(body, base, &ctx)
            if sections.count == 1 { hallName = sections[0].name }
        } else if body["seats"] != nil {
            guard let m = ctx.object(body, base, known: ["hall", "rows", "cols", "seats"]) else {
                throw SeatMapError(file: source.name, diagnostics: ctx.errors)
            }
            if let n = m["hall"], let s = ctx.string(n, DecodeContext.join(base, "hall")) { hallName = s }
            sections = [RawSection(name: hallName, rows: readRows(m["seats"], DecodeContext.join(base, "seats"), snake: true, &ctx))]
        } else {
            ctx.error(body, base, "not a Maoyan seat payload: expected \"sections\" (camelCase) or \"data.seats\" (snake_case)")
        }
        guard ctx.errors.isEmpty else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        var warnings: [Diagnostic] = []
        let hall = try build(sections, hallName: hallName, prices: prices, lenient: lenient, root: (root, base), &ctx, &warnings)
        guard ctx.errors.isEmpty, let hall else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        return Imported(hall: hall, warnings: warnings)
    }

    static func readCamel(_ body: JSONNode, _ base: String, _ ctx: inout DecodeContext) -> [RawSection] {
        guard let m = ctx.object(body, base, known: ["sections"]) else { return [] }
        let path = DecodeContext.join(base, "sections")
        guard let n = m["sections"], let items = ctx.array(n, path) else { return [] }
        if items.isEmpty { ctx.error(n, path, "no sections") }
        var out: [RawSection] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let s = ctx.object(item, p, known: ["sectionId", "sectionName", "rows", "cols", "seats"]) else { continue }
            var name = ""
            if let v = s["sectionName"], let t = ctx.string(v, p + ".sectionName") { name = t }
            guard let seats = ctx.required(s, "seats", in: item, p) else { continue }
            out.append(RawSection(name: name, rows: readRows(seats, p + ".seats", snake: false, &ctx)))
        }
        return out
    }

    static func readRows(_ node: JSONNode?, _ path: String, snake: Bool, _ ctx: inout DecodeContext) -> [RawRow] {
        guard let node, let items = ctx.array(node, path) else {
            if node == nil { ctx.error(nil, path, "missing required field") }
            return []
        }
        let rowIdKey = snake ? "row_id" : "rowId", rowNumKey = snake ? "row_num" : "rowNum"
        let columnIdKey = snake ? "column_id" : "columnId", seatNoKey = snake ? "seat_no" : "seatNo"
        var rows: [RawRow] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let m = ctx.object(item, p, known: [rowIdKey, rowNumKey, "columns"]) else { continue }
            var number: Int? = nil
            if let n = ctx.required(m, rowNumKey, in: item, p) {
                // Range-checked here (with the validator's rule and wording)
                // before any row arithmetic: sections are stacked by offsets.
                let range = 1...HallValidator.maxGridSide
                if case .string(let s) = n.value, let v = Int(s) {
                    if range.contains(v) {
                        number = v
                    } else {
                        ctx.error(n, "\(p).\(rowNumKey)", .init(verbatim: HallValidator.rangeMessage("row", v, range)))
                    }
                } else {
                    number = ctx.int(n, "\(p).\(rowNumKey)", in: range, what: "row")
                }
            }
            var label: String? = nil
            if let n = m[rowIdKey], n.value != .null { label = ctx.label(n, "\(p).\(rowIdKey)") }
            guard let cn = ctx.required(m, "columns", in: item, p), let cells = ctx.array(cn, p + ".columns") else { continue }
            var raw: [RawCell?] = []
            for (j, cell) in cells.enumerated() {
                let cp = "\(p).columns[\(j)]"
                if cell.value == .null { raw.append(nil); continue }
                guard let c = ctx.object(cell, cp, known: [columnIdKey, seatNoKey, "st", "seat_status"]) else { raw.append(nil); continue }
                var columnLabel: String? = nil
                if let n = c[columnIdKey], n.value != .null { columnLabel = ctx.label(n, "\(cp).\(columnIdKey)") }
                var code = "E"
                if let n = ctx.required(c, "st", in: cell, cp), let s = ctx.string(n, cp + ".st") { code = s }
                if columnLabel == nil || columnLabel == "" { raw.append(nil); continue }
                var seatNo: String? = nil
                if let n = c[seatNoKey], n.value != .null { seatNo = ctx.label(n, "\(cp).\(seatNoKey)") }
                raw.append(RawCell(label: columnLabel, code: code, node: c["st"] ?? cell, path: cp + ".st",
                                   cellNode: c[columnIdKey] ?? cell, cellPath: c[columnIdKey] == nil ? cp : "\(cp).\(columnIdKey)",
                                   seatNo: seatNo.flatMap { $0.isEmpty ? nil : $0 }))
            }
            if let number { rows.append(RawRow(number: number, label: label, cells: raw, path: p, node: item)) }
        }
        return rows
    }

    /// Builds the hall and checks it with `HallValidator` (the rules every
    /// hall obeys: couple halves side by side, rows used once, ...), each
    /// problem reported at the payload's row or cell it came from.
    static func build(_ sections: [RawSection], hallName: String, prices: Prices?, lenient: Bool, root: (JSONNode, String),
                      _ ctx: inout DecodeContext, _ warnings: inout [Diagnostic]) throws(SeatMapError) -> Hall? {
        var rows: [Row] = []
        var rowOrigins: [RawRow] = []
        var cellOrigins: [[RawCell?]] = []
        var lastRow = 0
        var declared: [Section] = []
        for (k, section) in sections.enumerated() {
            let id = k + 1
            declared.append(Section(id: id, name: section.name.isEmpty ? "\(id)" : section.name))
            let price: Decimal
            switch prices {
            case .all(let p)?: price = p
            case .bySection(let map)?:
                guard let p = map[id] else {
                    throw SeatMapError("no price for section \(id)\(section.name.isEmpty ? "" : " (\(section.name))"): give {{price}} P or {{prices}} \(id)=P")
                }
                price = p
            case nil:
                throw SeatMapError("prices are not in Maoyan payloads: give {{price}} P for all seats, or {{prices}} 1=P1,2=P2 by section")
            }
            let minRow = section.rows.map(\.number).min() ?? 1
            let offset = (k > 0 && minRow <= lastRow) ? lastRow + 1 - minRow + 1 : 0
            for raw in section.rows {
                var seats: [Seat] = []
                var origins: [RawCell?] = []
                let filled = raw.cells.indices.filter { raw.cells[$0] != nil && raw.cells[$0]?.code != "E" }
                guard let first = filled.first, let last = filled.last else { continue }
                for j in first...last {
                    let column = j + 1
                    guard let cell = raw.cells[j], cell.code != "E" else {
                        seats.append(.aisle(column: column))
                        origins.append(nil)
                        continue
                    }
                    var status = SeatStatus.available
                    var type = SeatType.standard
                    switch cell.code {
                    case "N": break
                    case "LK": status = .sold
                    case "L": type = .coupleLeft
                    case "R": type = .coupleRight
                    default:
                        if lenient {
                            status = .locked
                            let loc = ctx.location(of: cell.node.offset)
                            warnings.append(Diagnostic(path: cell.path, message: "unknown seat code \"\(cell.code)\", imported as locked",
                                                       line: loc.line, column: loc.column))
                        } else {
                            ctx.error(cell.node, cell.path, "unknown seat code \"\(cell.code)\" (expected N, LK, L, R or E; {{lenient}} imports unknown codes as locked)")
                        }
                    }
                    seats.append(Seat(column: column, status: status, label: cell.label, type: type, externalID: cell.seatNo))
                    origins.append(cell)
                }
                rows.append(Row(number: raw.number + offset, label: raw.label.flatMap { $0.isEmpty ? nil : $0 }, section: id,
                                price: price, seats: seats))
                rowOrigins.append(raw)
                cellOrigins.append(origins)
            }
            lastRow = max(lastRow, (section.rows.map(\.number).max() ?? 0) + offset)
        }
        guard ctx.errors.isEmpty else { return nil }
        let declaredSections = sections.count > 1 || !hallName.isEmpty ? declared : nil
        /// The payload node and path a place of the built hall came from.
        func origin(_ place: HallValidator.Place) -> (JSONNode, String) {
            switch place {
            case .hall, .section, .area, .category, .group: return root
            case .row(let i, _): return rowOrigins.indices.contains(i) ? (rowOrigins[i].node, rowOrigins[i].path) : root
            case .seat(let i, let j, let key):
                if cellOrigins.indices.contains(i), cellOrigins[i].indices.contains(j), let cell = cellOrigins[i][j] {
                    // Status and type (couple halves) come from the code `st`; a column or label problem is the column id's.
                    return key == "status" || key == "type" || key == nil ? (cell.node, cell.path) : (cell.cellNode, cell.cellPath)
                }
                return origin(.row(i, nil))
            }
        }
        let problems = HallValidator.problems(texts: [("hallName", hallName)], maxSelectCount: Hall.defaultMaxSelectCount,
                                              sections: declaredSections, rows: rows,
                                              describe: { origin($0).1 })
        for p in problems {
            let (node, path) = origin(p.place)
            ctx.error(node, path, .init(verbatim: p.message))
        }
        guard problems.isEmpty else { return nil }
        return Hall(validatedCinemaName: "", hallName: hallName, movieStartTime: "", maxSelectCount: Hall.defaultMaxSelectCount,
                    screenLabel: Hall.defaultScreenLabel, sections: declaredSections ?? [], rows: rows)
    }

    /// `--prices 1=45,2=60`.
    public static func parsePrices(_ text: String) -> Prices? {
        var map: [Int: Decimal] = [:]
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, let k = Int(kv[0]), k >= 1, let v = DecodeContext.exactDecimal(kv[1]), v >= 0, map[k] == nil else { return nil }
            map[k] = v
        }
        return map.isEmpty ? nil : .bySection(map)
    }
}
