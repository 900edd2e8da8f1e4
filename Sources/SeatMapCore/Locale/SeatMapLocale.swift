import Foundation
import Synchronization

/// The strings, number and money formats of one language, from its catalogue
/// in `Locales/` (embedded in the binary at build time; one file per locale,
/// the one owner of every user-facing word).
///
/// Locales are named by BCP 47 tags and matched leniently: the exact code
/// (`zh-Hans`, `en`), then Chinese by script or region (`zh-TW`, `zh-HK`,
/// `zh-Hant-*` → `zh-Hant`; other `zh` → `zh-Hans`), then the language alone
/// (`en-GB` → `en`, `de-AT` → `de`). Numbers use Latin digits in every
/// locale. The default is `zh-Hans`, the seed's language.
public struct SeatMapLocale: Sendable, Equatable {
    /// The catalogue's code (`en`, `zh-Hans`).
    public let code: String
    /// The language's own name for itself.
    public let name: String
    /// The language tag for shaping and `xml:lang` (`en`, `zh-cn`).
    public let language: String
    /// Whether legend and header text run right to left (the map itself is
    /// physical and is never mirrored).
    public let rightToLeft: Bool
    let strings: [String: String]
    let decimal: String
    let group: String
    let minimumGroupingDigits: Int
    let currencyPattern: String
    let symbols: [String: String]

    public static let defaultCode = "zh-Hans"

    /// Every catalogue, by code, sorted (a catalogue is named by its file).
    public static var codes: [String] { embeddedLocaleSources.map(\.name).sorted() }

    /// The default locale (`zh-Hans`).
    public static var standard: SeatMapLocale {
        catalogue(defaultCode) ?? SeatMapLocale(code: defaultCode, name: defaultCode, language: "zh-cn", rightToLeft: false, strings: [:],
                                                 decimal: ".", group: ",", minimumGroupingDigits: 1, currencyPattern: "{symbol}{amount}", symbols: [:])
    }

    /// The catalogue a BCP 47 tag names, or an error listing the catalogues.
    public static func named(_ tag: String) throws(SeatMapError) -> SeatMapLocale {
        if let code = match(tag), let locale = catalogue(code) { return locale }
        throw SeatMapError("unknown locale \"\(tag)\" (available: \(codes.joined(separator: ", ")))")
    }

    /// The catalogue code a tag matches, or nil.
    public static func match(_ tag: String) -> String? {
        let parts = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map { $0.lowercased() }
        guard let language = parts.first, !language.isEmpty else { return nil }
        if let exact = codes.first(where: { $0.lowercased() == parts.joined(separator: "-") }) { return exact }
        if language == "zh" {
            // An explicit script wins over the region (zh-Hans-HK is simplified).
            if parts.contains("hans") { return "zh-Hans" }
            let traditional = parts.dropFirst().contains { ["hant", "tw", "hk", "mo"].contains($0) }
            return traditional ? "zh-Hant" : "zh-Hans"
        }
        return codes.first { $0.lowercased() == language }
    }

    // MARK: Strings

    /// The catalogue's text for `key` with `{name}` placeholders filled (the
    /// key itself when the catalogue lacks it).
    public func text(_ key: String, _ values: [String: String] = [:]) -> String {
        SeatMapLocale.fill(strings[key] ?? key, values)
    }

    /// Fills `{name}` placeholders in one pass, left to right: a value is
    /// never filled again (a row labelled "{seat}" stays "{seat}"), so the
    /// result does not depend on the order of `values`.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, template.utf8.contains(UInt8(ascii: "{")) else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = values[name] { out += value } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return out
    }

    /// A seat's description: `3排5座`, `Row 3, Seat 5`; with the section's
    /// name when there is one to tell apart (`B区 1排2座`).
    public func seat(row: String, seat: String, section: String? = nil) -> String {
        if let section, !section.isEmpty {
            return text("seat.section", ["section": section, "row": row, "seat": seat])
        }
        return text("seat", ["row": row, "seat": seat])
    }

    /// Parts joined as the locale lists them ("Row 3, Seat 5, ¥45.00, Sold";
    /// "3排5座 ¥45.00 已售"); empty parts are left out.
    public func list(_ parts: [String]) -> String {
        parts.filter { !$0.isEmpty }.joined(separator: strings["list.separator"] ?? ", ")
    }

    /// A seat type's name for titles (nil for a standard seat).
    public func type(_ t: SeatType) -> String? {
        switch t {
        case .standard: return nil
        case .wheelchair: return text("kind.wheelchair")
        case .companion: return text("kind.companion")
        case .coupleLeft, .coupleRight: return text("kind.couple")
        }
    }

    /// A sale status's name.
    public func status(_ s: SeatStatus) -> String {
        switch s {
        case .available: return text("status.available")
        case .locked: return text("status.locked")
        case .sold: return text("status.sold")
        }
    }

    // MARK: Money

    /// An exact amount in a currency as this locale writes it: rounded (half
    /// away from zero) to the currency's minor units (JPY none, KWD three),
    /// digits grouped by thousands, the locale's separators and the
    /// currency's symbol where the locale puts it.
    public func money(_ amount: Decimal, currency: String) -> String {
        let units = Currency.minorUnits(currency)
        var value = amount, rounded = Decimal()
        NSDecimalRound(&rounded, &value, units, .plain)
        let negative = rounded < 0
        let digits = "\(negative ? -rounded : rounded)"
        let halves = digits.split(separator: ".", maxSplits: 1).map(String.init)
        let whole = halves.first ?? "0"
        var fraction = halves.count > 1 ? halves[1] : ""
        while fraction.count < units { fraction += "0" }
        var number = grouped(whole)
        if units > 0 { number += decimal + fraction.prefix(units) }
        var symbol = symbols[currency] ?? Currency.symbol(currency)
        var pattern = currencyPattern
        // A symbol ending (or starting) with a Latin letter is kept apart from
        // the digits by a no-break space: `KWD 3.100`, not `KWD3.100`.
        func latin(_ c: Unicode.Scalar?) -> Bool { c.map { $0.properties.isAlphabetic && $0.value < 0x250 } ?? false }
        if pattern.contains("{symbol}{amount}"), latin(symbol.unicodeScalars.last) {
            pattern = pattern.replacingOccurrences(of: "{symbol}{amount}", with: "{symbol}\u{a0}{amount}")
        }
        if pattern.contains("{amount}{symbol}"), latin(symbol.unicodeScalars.first) {
            pattern = pattern.replacingOccurrences(of: "{amount}{symbol}", with: "{amount}\u{a0}{symbol}")
        }
        // In right-to-left text a Latin symbol (`CN¥`, `US$`) is isolated
        // (U+2066…U+2069) so that it stays one left-to-right unit.
        if rightToLeft, symbol.unicodeScalars.contains(where: latin) {
            symbol = "\u{2066}" + symbol + "\u{2069}"
        }
        let text = SeatMapLocale.fill(pattern, ["symbol": symbol, "amount": number])
        return negative ? "-" + text : text
    }

    /// A plain number with the locale's separators (no currency).
    public func number(_ value: Int) -> String {
        value < 0 ? "-" + grouped(String(-value)) : grouped(String(value))
    }

    func grouped(_ whole: String) -> String {
        guard whole.count >= 3 + minimumGroupingDigits else { return whole }
        var out: [String] = []
        var rest = Substring(whole)
        while rest.count > 3 {
            out.insert(String(rest.suffix(3)), at: 0)
            rest = rest.dropLast(3)
        }
        out.insert(String(rest), at: 0)
        return out.joined(separator: group)
    }

    // MARK: Catalogues

    /// The catalogues read so far: each is read at its first use, not all
    /// ten at start (a render needs one; `help` none).
    private static let read = Mutex<[String: SeatMapLocale]>([:])

    /// The shipped catalogue `code` names exactly, or nil.
    static func catalogue(_ code: String) -> SeatMapLocale? {
        if let done = read.withLock({ $0[code] }) { return done }
        guard let json = embeddedLocaleSources.first(where: { $0.name == code })?.text,
              let locale = try? decode(SourceText(name: "Locales/\(code).json", bytes: Array(json.utf8))) else { return nil }
        read.withLock { $0[code] = locale }
        return locale
    }

    /// Every key a catalogue must have.
    public static let keys = ["status.available", "status.locked", "status.sold", "status.selected", "kind.wheelchair", "kind.couple",
                              "kind.standing", "kind.companion", "screen", "seat", "seat.section", "level", "justSold", "justLocked",
                              "list.separator", "summary", "ticket.callout", "status.yours", "status.held",
                              // The picker's chrome and its sentences to the buyer.
                              "picker.limit", "picker.sold", "picker.held", "picker.unavailable", "picker.gap", "picker.noSeat",
                              "picker.expired", "picker.soldMeanwhile", "picker.cart", "picker.cartEmpty", "picker.total",
                              "picker.remove", "picker.holdFor", "picker.confirm", "picker.ordered", "picker.zoomIn",
                              "picker.zoomOut", "picker.fit", "picker.map", "picker.legend", "picker.places", "picker.pan", "picker.panUp",
                              "picker.panDown", "picker.panLeft", "picker.panRight", "picker.fewer", "picker.more", "picker.left",
                              "picker.allLevels", "picker.quantity", "picker.best", "picker.ticketType", "picker.allPrices", "picker.upTo",
                              // What the picker tells a buyer in every state it can meet.
                              "picker.offline", "picker.noShow", "picker.busy", "picker.refused", "picker.processing", "picker.soldOut", "picker.badLink",
                              // Sales rules and ticket types.
                              "picker.consecutive", "picker.minimum", "picker.areaMinimum", "picker.areaMaximum", "picker.noType",
                              "picker.notSelected", "seat.ticketType", "price.range"]

    /// Reads a catalogue, checking that it has every key and a sane format.
    public static func decode(_ source: SourceText) throws(SeatMapError) -> SeatMapLocale {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        let top = ctx.object(root, "", known: ["locale", "name", "language", "direction", "strings", "numbers", "currency"])
        func text(_ m: [String: JSONNode]?, _ key: String, _ path: String, _ node: JSONNode) -> String? {
            guard let m else { return nil }
            return ctx.required(m, key, in: node, path).flatMap { ctx.string($0, path.isEmpty ? key : "\(path).\(key)") }
        }
        let code = text(top, "locale", "", root) ?? ""
        let name = text(top, "name", "", root) ?? ""
        let language = text(top, "language", "", root) ?? ""
        let direction = text(top, "direction", "", root) ?? "ltr"
        if direction != "ltr" && direction != "rtl", let n = top?["direction"] { ctx.error(n, "direction", "expected \"ltr\" or \"rtl\"") }
        var strings: [String: String] = [:]
        if let top, let n = ctx.required(top, "strings", in: root, ""), let m = ctx.object(n, "strings", known: Set(keys)) {
            for key in keys {
                guard let s = ctx.required(m, key, in: n, "strings").flatMap({ ctx.string($0, "strings.\(key)") }) else { continue }
                strings[key] = s
            }
        }
        var decimal = ".", group = ",", minimum = 1
        if let top, let n = ctx.required(top, "numbers", in: root, ""), let m = ctx.object(n, "numbers", known: ["decimal", "group", "minimumGroupingDigits"]) {
            decimal = text(m, "decimal", "numbers", n) ?? decimal
            group = text(m, "group", "numbers", n) ?? group
            if let v = m["minimumGroupingDigits"], let i = ctx.int(v, "numbers.minimumGroupingDigits") { minimum = max(1, min(4, i)) }
        }
        var pattern = "{symbol}{amount}"
        var symbols: [String: String] = [:]
        if let top, let n = ctx.required(top, "currency", in: root, ""), let m = ctx.object(n, "currency", known: ["pattern", "symbols"]) {
            pattern = text(m, "pattern", "currency", n) ?? pattern
            if !pattern.contains("{amount}"), let p = m["pattern"] { ctx.error(p, "currency.pattern", "the pattern must contain {amount}") }
            if let s = m["symbols"] {
                if case .object(let members) = s.value {
                    for member in members {
                        if let v = ctx.string(member.node, "currency.symbols.\(member.key)") { symbols[member.key] = v }
                    }
                } else {
                    ctx.error(s, "currency.symbols", "expected an object, found \(s.typeName)")
                }
            }
        }
        guard ctx.errors.isEmpty && ctx.warnings.isEmpty else { throw SeatMapError(file: source.name, diagnostics: ctx.errors + ctx.warnings) }
        return SeatMapLocale(code: code, name: name, language: language, rightToLeft: direction == "rtl", strings: strings,
                             decimal: decimal, group: group, minimumGroupingDigits: minimum, currencyPattern: pattern, symbols: symbols)
    }
}
