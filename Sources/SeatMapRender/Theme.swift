import Foundation
import SeatMapCore
import SeatMapLayout

/// How a seat map looks: colours, marks, font, and one `LayoutStyle` (every
/// size that affects a position: its `metrics`, `cornerRadius` and
/// `rowLabelsRight` keys).
///
/// Themes are JSON files in `Themes/` (docs/themes.md lists every key). Available
/// seats take the colour of their price tier from `tierPalette` (tier 0 is
/// the cheapest; the palette repeats when a hall has more tiers).
public struct Theme: Sendable, Equatable {
    /// How an unavailable seat is marked besides its colour.
    public enum Mark: String, Sendable, CaseIterable {
        case none, cross, hatch
    }

    public var name: String
    public var background: Color
    public var tierPalette: [Color]
    public var locked: Color
    public var sold: Color
    public var selected: Color
    public var highlight: Color
    /// Marks drawn on sold and locked seats (for black-and-white printing).
    public var soldMark: Mark
    public var lockedMark: Mark
    /// Colour of marks, icons, check marks and seat numbers drawn on seats
    /// (`text` is used instead on a fill where it reads better: `markColor`).
    public var seatText: Color
    public var text: Color
    public var rowLabel: Color
    public var rowLabelBackground: Color
    public var screen: Color
    public var screenText: Color
    public var centerLine: Color
    public var minimapBackground: Color
    /// Every seat but the buyer's on an e-ticket, when occupancy is hidden
    /// (optional key; default: `text` at 18 % over the background).
    public var neutral: Color? = nil
    /// Section and zone outlines, and their legend swatch: `text` at 60 %
    /// over the background (`theme check` holds it to 3:1).
    public var outline: Color { Color(r: text.r, g: text.g, b: text.b, a: 0.6).over(background) }

    /// `neutral` as drawn.
    public var neutralFill: Color { neutral ?? Color(r: text.r, g: text.g, b: text.b, a: 0.18).over(background) }
    public var fontFamily: String
    /// Families tried, in order, for characters `fontFamily` lacks, before
    /// fontconfig's own fallback (`fontFamily` may be given in the theme as
    /// a list: its first family is this one, the rest these).
    public var fontFallbacks: [String] = []
    /// The Debian package that provides `fontFamily` (named in the error when it is missing).
    public var fontPackage: String
    /// Every size and switch that affects a position. Commands build their
    /// layout from this (with `--no-header` / `--no-legend` applied), so a
    /// theme's metrics move seats in `layout` and `hit` exactly as in `render`.
    public var style: LayoutStyle

    /// The fill of an available seat of a tier.
    /// A tier's fill: the hall's own colour for it (its category's), else
    /// the palette's.
    public func tierColor(_ tier: Int?, _ tiers: PriceTiers) -> Color {
        if let t = tier, tiers.colors.indices.contains(t), let text = tiers.colors[t], let c = Color(hex: text) { return c }
        return tierColor(tier)
    }

    public func tierColor(_ tier: Int?) -> Color {
        guard let tier, !tierPalette.isEmpty else { return tierPalette.first ?? .black }
        return tierPalette[tier % tierPalette.count]
    }

    /// Every seat fill with its name, for the contrast check.
    public var seatFills: [(String, Color)] {
        tierPalette.enumerated().map { ("tierPalette[\($0.offset)]", $0.element) }
            + [("locked", locked), ("sold", sold), ("selected", selected)]
    }
}

extension Theme {
    /// The most colours a palette may have (`theme check` compares every
    /// pair under four visions).
    public static let maxTiers = 64

    static let colorKeys = ["background", "locked", "sold", "selected", "highlight", "seatText", "text", "rowLabel",
                            "rowLabelBackground", "screen", "screenText", "centerLine", "minimapBackground"]

    /// Reads a theme file; every problem is reported with its JSON path.
    public static func decode(_ source: SourceText) throws(SeatMapError) -> Theme {
        try decodeReporting(source).theme
    }

    /// The theme and the warnings met on the way (unknown keys: a
    /// misspelled key is otherwise silently left at nothing).
    public static func decodeReporting(_ source: SourceText) throws(SeatMapError) -> (theme: Theme, warnings: [Diagnostic]) {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        let known = Set(colorKeys + ["name", "tierPalette", "soldMark", "lockedMark", "fontFamily", "fontPackage",
                                     "cornerRadius", "rowLabelsRight", "metrics", "neutral"])
        guard let m = ctx.object(root, "", known: known) else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        func color(_ key: String, _ node: JSONNode, _ path: String, _ ctx: inout DecodeContext) -> Color? {
            guard let s = ctx.string(node, path) else { return nil }
            guard let c = Color(hex: s) else {
                ctx.error(node, path, "invalid colour \"\(s)\" (expected \(HallValidator.colorForms))")
                return nil
            }
            return c
        }
        var colors: [String: Color] = [:]
        for key in colorKeys {
            guard let n = ctx.required(m, key, in: root, "") else { continue }
            colors[key] = color(key, n, key, &ctx)
        }
        var palette: [Color] = []
        if let n = ctx.required(m, "tierPalette", in: root, ""), let items = ctx.array(n, "tierPalette") {
            if items.isEmpty { ctx.error(n, "tierPalette", "needs at least one colour") }
            if items.count > Theme.maxTiers {
                ctx.error(n, "tierPalette", "has \(items.count) colours; at most \(Theme.maxTiers) (a palette repeats for halls with more tiers)")
            }
            for (i, item) in items.enumerated() {
                if let c = color("", item, "tierPalette[\(i)]", &ctx) { palette.append(c) }
            }
        }
        func mark(_ key: String, _ ctx: inout DecodeContext) -> Mark {
            guard let n = m[key], let s = ctx.string(n, key) else { return .none }
            guard let mk = Mark(rawValue: s) else {
                ctx.error(n, key, "unknown mark \"\(s)\" (expected none, cross, hatch)")
                return .none
            }
            return mk
        }
        let soldMark = mark("soldMark", &ctx)
        let lockedMark = mark("lockedMark", &ctx)
        var font = ""
        var fallbacks: [String] = []
        if let n = ctx.required(m, "fontFamily", in: root, "") {
            if case .array(let items) = n.value {
                let names = items.enumerated().compactMap { ctx.string($0.element, "fontFamily[\($0.offset)]") }
                if let first = names.first { font = first } else { ctx.error(n, "fontFamily", "expected at least one font family") }
                fallbacks = Array(names.dropFirst())
            } else if let s = ctx.string(n, "fontFamily") {
                font = s
            }
            for name in [font] + fallbacks {
                if let bad = HallValidator.controlCharacter(in: name) {
                    ctx.error(n, "fontFamily", "a font family name contains the control character U+\(String(format: "%04X", bad))")
                }
            }
        }
        var neutral: Color? = nil
        if let n = m["neutral"] { neutral = color("neutral", n, "neutral", &ctx) }
        var package = "a package providing the font"
        if let n = m["fontPackage"], let s = ctx.string(n, "fontPackage") { package = s }
        var style = LayoutStyle()
        if let n = m["cornerRadius"], let d = ctx.decimal(n, "cornerRadius") {
            style.cornerRadius = NSDecimalNumber(decimal: d).doubleValue
            if style.cornerRadius < 0 || style.cornerRadius > 50 { ctx.error(n, "cornerRadius", "corner radius \(d) is outside 0…50") }
        }
        if let n = m["rowLabelsRight"] {
            if case .bool(let b) = n.value { style.rowLabelsRight = b } else { ctx.error(n, "rowLabelsRight", "expected a boolean, found \(n.typeName)") }
        }
        let lengthKeys = LayoutStyle.lengthKeys
        if let n = m["metrics"], let mm = ctx.object(n, "metrics", known: Set(lengthKeys.map(\.0))) {
            for (key, path) in lengthKeys {
                guard let v = mm[key], let d = ctx.decimal(v, "metrics.\(key)") else { continue }
                let x = NSDecimalNumber(decimal: d).doubleValue
                guard x >= 0, x <= 1000 else {
                    ctx.error(v, "metrics.\(key)", "\(key) \(d) is outside 0…1000")
                    continue
                }
                style[keyPath: path] = x
            }
            if style.seatWidth < 1 || style.seatHeight < 1 {
                ctx.error(n, "metrics", "seats must be at least 1 pt wide and high")
            }
        }
        let name: String
        if let n = m["name"], let s = ctx.string(n, "name") { name = s } else {
            name = URL(fileURLWithPath: source.name).deletingPathExtension().lastPathComponent
        }
        guard ctx.errors.isEmpty, let bg = colors["background"], let locked = colors["locked"], let sold = colors["sold"],
              let selected = colors["selected"], let highlight = colors["highlight"], let seatText = colors["seatText"],
              let text = colors["text"], let rowLabel = colors["rowLabel"], let rowLabelBackground = colors["rowLabelBackground"],
              let screen = colors["screen"], let screenText = colors["screenText"], let centerLine = colors["centerLine"],
              let minimap = colors["minimapBackground"] else {
            throw SeatMapError(file: source.name, diagnostics: ctx.errors)
        }
        let theme = Theme(name: name, background: bg, tierPalette: palette, locked: locked, sold: sold, selected: selected,
                          highlight: highlight, soldMark: soldMark, lockedMark: lockedMark, seatText: seatText, text: text,
                          rowLabel: rowLabel, rowLabelBackground: rowLabelBackground, screen: screen, screenText: screenText,
                          centerLine: centerLine, minimapBackground: minimap, neutral: neutral, fontFamily: font, fontFallbacks: fallbacks,
                          fontPackage: package, style: style)
        return (theme, ctx.warnings)
    }

    /// The shipped themes (`Themes/*.json`, compiled into the library at
    /// build time), by name.
    public static var shippedNames: [String] { embeddedThemeSources.map(\.name) }

    /// Folders searched for `NAME.json` before the shipped themes:
    /// `$SEATMAP_THEMES`, then `./Themes`.
    public static var searchFolders: [String] {
        var folders: [String] = []
        if let env = ProcessInfo.processInfo.environment["SEATMAP_THEMES"], !env.isEmpty { folders.append(env) }
        folders.append(FileManager.default.currentDirectoryPath + "/Themes")
        return folders
    }

    /// Where a theme name is found: a file in a search folder, or the
    /// shipped set compiled into SeatMap.
    public enum Origin: Sendable, Equatable, CustomStringConvertible {
        case file(String)
        case shipped
        public var description: String {
            switch self {
            case .file(let path): return path
            case .shipped: return "shipped (built in)"
            }
        }
    }

    /// The source text of a theme by name (`light`) or by path (anything
    /// with a `/` or ending in `.json`), and where it came from. Lookup
    /// order: a path, `$SEATMAP_THEMES`, `./Themes`, then the shipped themes,
    /// so a copied binary needs no files besides itself.
    public static func source(_ nameOrPath: String) throws(SeatMapError) -> (SourceText, Origin) {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return (try Files.read(nameOrPath), .file(nameOrPath))
        }
        for folder in searchFolders {
            let path = folder + "/" + nameOrPath + ".json"
            if FileManager.default.fileExists(atPath: path) { return (try Files.read(path), .file(path)) }
        }
        if let shipped = shippedSource(nameOrPath) {
            return (shipped, .shipped)
        }
        throw SeatMapError("unknown theme \"\(nameOrPath)\": no \(nameOrPath).json in \(searchFolders.joined(separator: ", ")), and no shipped theme of that name (shipped: \(shippedNames.joined(separator: ", ")))")
    }

    /// A theme shipped with SeatMap, by name, whatever `./Themes` or
    /// `$SEATMAP_THEMES` hold (a library user's own files cannot shadow it).
    public static func builtIn(_ name: String) throws(SeatMapError) -> Theme {
        guard let shipped = shippedSource(name) else {
            throw SeatMapError("no built-in theme \"\(name)\" (built in: \(shippedNames.joined(separator: ", ")))")
        }
        return try decode(shipped)
    }

    /// The text of a shipped theme, named as messages show it.
    static func shippedSource(_ name: String) -> SourceText? {
        embeddedThemeSources.first(where: { $0.name == name }).map { SourceText(name: "\(name) (shipped)", bytes: Array($0.text.utf8)) }
    }

    /// Reads a theme file, and only that file (no search folders, no
    /// shipped theme of the same name).
    public static func load(contentsOf path: String) throws(SeatMapError) -> Theme {
        try decode(try Files.read(path))
    }

    /// Finds a theme by name or path, as `--theme` does: a path, else
    /// `NAME.json` in `$SEATMAP_THEMES` or `./Themes`, else the shipped
    /// theme. Only this call searches; `builtIn` and `load(contentsOf:)`
    /// never do.
    public static func search(_ nameOrPath: String) throws(SeatMapError) -> Theme {
        try decode(source(nameOrPath).0)
    }

    @available(*, deprecated, renamed: "search(_:)", message: "it searches ./Themes and $SEATMAP_THEMES; use builtIn(_:), load(contentsOf:) or search(_:)")
    public static func load(_ nameOrPath: String) throws(SeatMapError) -> Theme { try search(nameOrPath) }

    /// Every theme a name can reach: the shipped ones and those in the
    /// search folders, each with where `search` would take it from.
    public static func available() -> [(name: String, origin: Origin)] {
        var names = Set(shippedNames)
        for folder in searchFolders {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for f in files where f.hasSuffix(".json") { names.insert(String(f.dropLast(5))) }
        }
        return names.sorted().compactMap { name in (try? source(name)).map { (name, $0.1) } }
    }
}
