import SeatMapCore
import SeatMapLayout

/// Where a served picker page talks to: `seatmap serve`'s endpoints for one
/// show. Without one (a page opened as a file) toggles are only announced
/// (`seatmap:toggle` on the page and to the host window).
public struct PickerEndpoint: Sendable {
    /// The show's name.
    public var show: String
    /// Where toggles are POSTed (`/shows/SHOW/select`).
    public var select: String
    /// The statuses (`/shows/SHOW/seats`): the whole show once, then what changed after its sequence (`?since=N`), long-polled.
    public var seats: String
    /// Where the confirm button orders (`/shows/SHOW/order`): only in the
    /// service's open development mode; otherwise confirming hands the cart
    /// to the host page (`seatmap:checkout`), whose back end orders it.
    public var order: String?
    /// Best available (`/shows/SHOW/best`): the page's quantity control and
    /// best button hold the best N seats under its token.
    public var best: String?
    /// The most seats one order may hold (the quantity control offers up to 10 of them).
    public var maxPerOrder: Int
    /// Origins besides the page's own that may embed it and hear its
    /// messages (the service's `--allowed-origin` list).
    public var hostOrigins: [String]
    /// The hall's levels with their names (a switcher is shown for two or
    /// more: each opens the page again with `?level=N`), and the one drawn
    /// (nil: all).
    public var levels: [(level: Int, name: String)]
    public var level: Int?

    public init(show: String, select: String, seats: String, order: String? = nil, best: String? = nil, maxPerOrder: Int = 10,
                hostOrigins: [String] = [], levels: [(level: Int, name: String)] = [], level: Int? = nil) {
        self.best = best
        self.maxPerOrder = maxPerOrder
        self.show = show
        self.select = select
        self.seats = seats
        self.order = order
        self.hostOrigins = hostOrigins
        self.levels = levels
        self.level = level
    }
}

/// The interactive seat-picker page: one self-contained HTML document (no
/// fetches besides its own service's endpoints, no framework) holding the
/// hall's SVG, its chrome and a script.
///
/// - Opens with the whole hall fitted to the screen; zoom by buttons, `+`
///   `−` `0` keys, wheel (on its own page; with Ctrl when embedded) or pinch,
///   from the fitted scale to seats of 48 CSS px; pan by drag, Shift+arrows
///   or the pan buttons. Row labels stay pinned at the edge while panning.
/// - Seats are toggle buttons (`role="button"`, `aria-pressed`, a name with
///   seat, price and state); the map is one Tab stop, arrows move between
///   seats, Enter or Space toggles; the cart and the sentences are live
///   regions.
/// - Served for a show: statuses are fetched apart from the drawing (so the
///   page is the same bytes for every buyer and caches) and long-polled, so
///   others' holds and sales show within a second or two; the cart lists the
///   service's answer (seat, price, remove button), the total, the hold's
///   countdown and a confirm button.
/// - Hooks: seats are `<g id="seat-ID">` with `data-status` (`available`,
///   `held`, `sold`, `locked`, `selected`); controls carry
///   `data-seatmap-action` (`zoom-in`, `zoom-out`, `fit`, `pan-left`,
///   `pan-right`, `pan-up`, `pan-down`, `confirm`); the cart is
///   `[data-seatmap-cart]` with a `[data-seat=ID]` child per seat;
///   sentences go to `[data-seatmap-message]`.
/// - Messages to the host window (`postMessage`, to the page's own origin
///   and the listed host origins only): `seatmap:ready`, `seatmap:toggle`
///   {id, selected, result, externalId?}, `seatmap:cart` {seats, total, externalIds?},
///   `seatmap:checkout` {show, token, seats, total, externalIds?}, `seatmap:expired`
///   (`externalId`: the id a seat came with, pretix's `seat_guid`; `externalIds`
///   parallel to `seats`, null for a seat or area without one; only when any has one);
///   from the host: `seatmap:locale` {locale}, `seatmap:focus` {id},
///   `seatmap:clear`. The same events are dispatched on the picker's
///   element (`seatmap:toggle` … as CustomEvents with the message as detail).
/// - Scoped: every style is under `.seatmap-picker` (nothing touches the
///   host's `html` or `body`), ids are looked up inside the picker, so a
///   page may hold several; colours come from the theme as CSS custom
///   properties (`--seatmap-bg`, `--seatmap-fg`, `--seatmap-accent`, …).
package enum PickerPage {
    /// The catalogue keys the page's script fills in itself.
    static let words = ["status.available", "status.selected", "status.sold", "status.locked", "status.held",
                        "picker.expired", "picker.soldMeanwhile", "picker.cartEmpty", "picker.total", "picker.remove",
                        "picker.holdFor", "picker.ordered", "list.separator", "summary", "picker.left", "status.yours",
                        "picker.offline", "picker.noShow", "picker.busy", "picker.refused", "picker.processing", "picker.soldOut",
                        "picker.ticketType", "picker.allPrices", "picker.upTo"]

    /// The page a buyer sees for a picker link that cannot be opened: one
    /// sentence of the catalogue in `[data-seatmap-message]`.
    package static func errorPage(_ sentence: String, locale: SeatMapLocale) -> String {
        let e = SVGCanvas.escape
        return """
        <!doctype html>
        <html lang="\(e(locale.language))" dir="\(locale.rightToLeft ? "rtl" : "ltr")">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>\(e(sentence))</title></head>
        <body style="margin:0;font:17px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff">
        <main><div class="seatmap-picker" style="padding:2em 1em"><p data-seatmap-message role="alert">\(e(sentence))</p></div></main>
        </body>
        </html>

        """
    }

    /// The buyer's language for a page: the one asked for when the catalogues
    /// have it, else the first of `Accept-Language` they have, else English.
    package static func buyerLocale(asked: String?, acceptLanguage: String?) -> SeatMapLocale {
        if let asked, let l = try? SeatMapLocale.named(asked) { return l }
        for part in (acceptLanguage ?? "").split(separator: ",") {
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !tag.isEmpty, tag != "*", let l = try? SeatMapLocale.named(tag) { return l }
        }
        return (try? SeatMapLocale.named("en")) ?? .standard
    }

    /// The script's modules, in the order the page runs them (each calls
    /// `SeatMapPicker.module(name, make)` and is kept as
    /// `window.SeatMapPicker[name]`; `main.js` starts the pickers).
    static let modules = ["messages.js", "geometry.js", "view.js", "keyboard.js", "live.js", "cart.js", "main.js"]

    /// The page's script: the module registry, then the modules of
    /// `Picker/`, embedded at build time.
    static let script: String = """
        var SeatMapPicker = window.SeatMapPicker = window.SeatMapPicker || {};
        SeatMapPicker.module = SeatMapPicker.module || function (name, make) { SeatMapPicker[name] = make(); };

        """ + modules.map { name in embeddedPickerSources.first { $0.name == name }?.text ?? "" }.joined(separator: "\n")

    /// The minimap's largest size in CSS px (beside the cart, never over the seats).
    static let minimapSize = (width: 120, height: 96)

    /// The layout's seat rects by row, for the script's one geometry:
    /// `{"size": [w, h], "rows": [[section, row, label, [[column, x, y(, w, h)], ...]], ...]}`,
    /// a seat's size given only where it is not the layout's.
    static func geometry(_ layout: Layout) -> JSONNode {
        var rows: [JSONNode] = []
        var current: (section: Int, row: Int)? = nil
        var label = "", seats: [JSONNode] = []
        func flush() {
            if let c = current, !seats.isEmpty { rows.append(.array([.int(c.section), .int(c.row), .string(label), .array(seats)])) }
            seats = []
        }
        for cell in layout.cells where cell.isSeat {
            if current.map({ $0.section != cell.section || $0.row != cell.row }) ?? true {
                flush()
                current = (cell.section, cell.row)
                label = cell.rowLabel
            }
            let r = cell.seatRect
            var seat: [JSONNode] = [.int(cell.column), .int(r.x), .int(r.y)]
            if r.w != layout.seatWidth || r.h != layout.seatHeight { seat += [.int(r.w), .int(r.h)] }
            seats.append(.array(seat))
        }
        flush()
        return .object([("size", .array([.int(layout.seatWidth), .int(layout.seatHeight)])), ("rows", .array(rows))])
    }

    static func html(svg: String, scene: Scene, endpoint: PickerEndpoint?) -> String {
        let layout = scene.layout, theme = scene.theme
        let locale = layout.locale
        func hex(_ c: Color) -> String { Color(r: c.r, g: c.g, b: c.b).hex }
        let accent = theme.selected, accentText = theme.markColor(on: accent)
        var config: [(String, JSONNode)] = [
            ("locale", .string(locale.code)),
            ("colors", .object([
                ("selected", .string(hex(accent))), ("mark", .string(hex(accentText))), ("sold", .string(hex(theme.sold))),
                ("soldMark", .string(hex(theme.markColor(on: theme.sold)))), ("locked", .string(hex(theme.locked))),
                ("lockedMark", .string(hex(theme.markColor(on: theme.locked)))), ("focus", .string(hex(theme.highlight))), ("background", .string(hex(theme.minimapBackground))),
                // Each tier's fill, as the drawing paints it (a category's own colour, else the palette's).
                ("tiers", .array((layout.tiers.prices.isEmpty ? [0] : Array(layout.tiers.prices.indices)).map { .string(hex(theme.tierColor($0, layout.tiers))) })),
            ])),
            ("words", .object(words.map { ($0, .string(locale.text($0))) })),
            // The smaller side of a seat, in drawing units: the largest zoom shows it at 48 CSS px.
            ("seatSize", .number(String(max(1, min(layout.seatWidth, layout.seatHeight))))),
            ("rows", .array(layout.rowLabels.map { .array([.string($0.label), .int($0.pill.y + $0.pill.h / 2)]) })),
            // Standing areas: picked by quantity.
            ("areas", .array(layout.areas.filter(\.isStanding).map { .string($0.id) })),
            // Zoomed out below readable seats, the sections are drawn as shapes with their seats left.
            ("sections", .array(layout.sections.isEmpty
                ? [.array([.int(-1), .string(""), .int(layout.gridRect.x), .int(layout.gridRect.y), .int(layout.gridRect.w), .int(layout.gridRect.h)])]
                : layout.sections.map { .array([.int($0.id), .string($0.name), .int($0.rect.x), .int($0.rect.y), .int($0.rect.w), .int($0.rect.h)]) })),
            ("geometry", geometry(layout)),
            // Each price tier's lowest price (plain and as the locale writes it), for the price filter.
            ("prices", .array(layout.tiers.prices.indices.map { t in
                let low = layout.tiers.ranges[t]?.lowerBound ?? layout.tiers.prices[t]
                return .array([.string(low.plainText), .string(layout.money(low))])
            })),
            ("minimap", .array([.int(minimapSize.width), .int(minimapSize.height)])),
        ]
        if let endpoint {
            var e: [(String, JSONNode)] = [("show", .string(endpoint.show)), ("select", .string(endpoint.select)),
                                           ("seats", .string(endpoint.seats)),
                                           ("hostOrigins", .array(endpoint.hostOrigins.map { .string($0) }))]
            if let order = endpoint.order { e.append(("order", .string(order))) }
            if let best = endpoint.best { e.append(("best", .string(best))) }
            config += e
        }
        // JSON inside <script>: "</" must not end the element.
        let json = JSONWriter.write(.object(config), pretty: false).replacingOccurrences(of: "</", with: "<\\/")
        let body = svg.hasPrefix("<?xml") ? String(svg[(svg.firstIndex(of: "\n").map { svg.index(after: $0) } ?? svg.startIndex)...]) : svg
        let dir = locale.rightToLeft ? "rtl" : "ltr"
        let e = SVGCanvas.escape
        func button(_ action: String, _ key: String, _ glyph: String) -> String {
            let name = e(locale.text(key))
            return "<button type=\"button\" class=\"seatmap-button\" data-seatmap-action=\"\(action)\" aria-label=\"\(name)\" title=\"\(name)\">\(glyph)</button>"
        }
        return """
        <!doctype html>
        <html lang="\(e(locale.language))" dir="\(dir)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(e(scene.title))</title>
        <style>
        \(css(theme))
        </style>
        </head>
        <body style="margin:0">
        <main>
        <div class="seatmap-picker" data-seatmap-picker lang="\(e(locale.language))" dir="\(dir)">
        <header class="seatmap-bar">
        <h1 class="seatmap-title">\(e(scene.title))</h1>
        \(levelSwitcher(endpoint, locale))<div class="seatmap-controls" role="group" aria-label="\(e(locale.text("picker.map")))">
        \(button("zoom-out", "picker.zoomOut", "−"))\(button("zoom-in", "picker.zoomIn", "+"))\(button("fit", "picker.fit", "⤢"))
        </div>
        </header>
        <div class="seatmap-stage" role="application" aria-label="\(e(locale.text("picker.map")))">
        \(body)<img class="seatmap-snapshot" alt="" aria-hidden="true"><div class="seatmap-rows" aria-hidden="true"><div class="seatmap-rows-list"></div></div><div class="seatmap-tip" aria-hidden="true"></div>
        <div class="seatmap-pan" role="group" aria-label="\(e(locale.text("picker.pan")))">\(button("pan-up", "picker.panUp", "▲"))\(button("pan-left", "picker.panLeft", "◀"))\(button("pan-right", "picker.panRight", "▶"))\(button("pan-down", "picker.panDown", "▼"))</div>
        </div>
        <ul class="seatmap-legend" aria-label="\(e(locale.text("picker.legend")))">\(legend(layout, theme, locale))</ul>
        <section class="seatmap-panel" aria-label="\(e(locale.text("picker.cart")))">
        <div class="seatmap-panel-main">
        <div class="seatmap-summary"><span class="seatmap-total" data-total="">\(e(locale.text("picker.cartEmpty")))</span><span class="seatmap-timer" role="timer" aria-live="off"></span>\(confirm(locale))</div>
        <div class="seatmap-message" data-seatmap-message role="status" aria-live="polite"></div>
        \(standing(layout, locale))<ul class="seatmap-cart" data-seatmap-cart aria-live="polite" aria-label="\(e(locale.text("picker.cart")))"></ul>
        \(bestControls(endpoint, layout, locale))
        </div>
        <canvas class="seatmap-minimap" aria-hidden="true"></canvas>
        </section>
        <script type="application/json" class="seatmap-config">\(json)</script>
        </div>
        </main>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    static func confirm(_ locale: SeatMapLocale) -> String {
        "<button type=\"button\" class=\"seatmap-button seatmap-confirm\" data-seatmap-action=\"checkout\" disabled>\(SVGCanvas.escape(locale.text("picker.confirm")))</button>"
    }

    /// Best available, quantity first: how many seats (1 to the hall's
    /// most per order, at most 10 offered) and a button that holds the best
    /// ones (a served show only).
    static func bestControls(_ endpoint: PickerEndpoint?, _ layout: Layout, _ locale: SeatMapLocale) -> String {
        guard let endpoint, endpoint.best != nil, layout.cells.contains(where: \.isSeat) else { return "" }
        let e = SVGCanvas.escape
        let most = max(1, min(10, endpoint.maxPerOrder))
        let options = (1...most).map { "<option value=\"\($0)\"\($0 == min(2, most) ? " selected" : "")>\($0)</option>" }.joined()
        return "<div class=\"seatmap-best\"><label>\(e(locale.text("picker.quantity"))) <select data-seatmap-quantity>\(options)</select></label>"
            + "<button type=\"button\" class=\"seatmap-button\" data-seatmap-action=\"best\">\(e(locale.text("picker.best")))</button>"
            + priceFilter(layout, locale) + "</div>"
    }

    /// A price filter (halls of two prices or more): "All prices", then "Up
    /// to P" for each tier's price; seats above it are dimmed and best
    /// available looks no higher.
    static func priceFilter(_ layout: Layout, _ locale: SeatMapLocale) -> String {
        let lows = Array(Set(layout.tiers.prices.indices.map { layout.tiers.ranges[$0]?.lowerBound ?? layout.tiers.prices[$0] })).sorted()
        guard lows.count > 1 else { return "" }
        let e = SVGCanvas.escape
        let options = "<option value=\"\">\(e(locale.text("picker.allPrices")))</option>"
            + lows.dropLast().map { "<option value=\"\($0.plainText)\">\(e(locale.text("picker.upTo", ["price": layout.money($0)])))</option>" }.joined()
        return "<select data-seatmap-price-filter aria-label=\"\(e(locale.text("picker.allPrices")))\">\(options)</select>"
    }

    /// Links to the page for each level and for all, the current one marked.
    static func levelSwitcher(_ endpoint: PickerEndpoint?, _ locale: SeatMapLocale) -> String {
        guard let endpoint, endpoint.levels.count > 1 else { return "" }
        let e = SVGCanvas.escape
        let items = [(nil as Int?, locale.text("picker.allLevels"))] + endpoint.levels.map { (Optional($0.level), $0.name) }
        return "<nav class=\"seatmap-levels\" aria-label=\"\(e(locale.text("picker.allLevels")))\">" + items.map { level, name in
            let current = level == endpoint.level
            return "<a class=\"seatmap-level\" href=\"#\" data-level=\"\(level.map(String.init) ?? "")\"\(current ? " aria-current=\"page\"" : "")>\(e(name))</a>"
        }.joined() + "</nav>"
    }

    /// A quantity stepper per standing area: its name and price, − and +,
    /// the places picked and the places left.
    static func standing(_ layout: Layout, _ locale: SeatMapLocale) -> String {
        let areas = layout.areas.filter(\.isStanding)
        guard !areas.isEmpty else { return "" }
        let e = SVGCanvas.escape
        return "<ul class=\"seatmap-areas\">" + areas.map { a in
            let name = a.area.label.isEmpty ? a.id : a.area.label
            let price = a.area.price.map { " · " + locale.money($0, currency: layout.currency) } ?? ""
            func step(_ action: String, _ key: String, _ glyph: String) -> String {
                "<button type=\"button\" class=\"seatmap-button\" data-seatmap-action=\"\(action)\" data-area=\"\(e(a.id))\" aria-label=\"\(e(locale.text(key, ["area": name])))\">\(glyph)</button>"
            }
            return "<li data-area=\"\(e(a.id))\"><span>\(e(name + price)) <span class=\"seatmap-left\"></span></span>"
                + step("area-less", "picker.fewer", "−") + "<output class=\"seatmap-count\" aria-live=\"polite\">0</output>" + step("area-more", "picker.more", "+") + "</li>"
        }.joined() + "</ul>"
    }

    /// The legend as chrome, reachable at any zoom: each price tier's
    /// colour and price, then the statuses.
    static func legend(_ layout: Layout, _ theme: Theme, _ locale: SeatMapLocale) -> String {
        func item(_ color: Color, _ text: String) -> String {
            "<li><span class=\"seatmap-swatch\" style=\"background:\(Color(r: color.r, g: color.g, b: color.b).hex)\"></span>\(SVGCanvas.escape(text))</li>"
        }
        var out = ""
        for entry in layout.legendItems {
            if case .tier(let tier, _) = entry.kind {
                out += item(theme.tierColor(tier, layout.tiers), layout.tierText(tier))
            }
        }
        out += item(theme.selected, locale.text("status.selected"))
        out += item(theme.locked, locale.text("status.locked") + " / " + locale.text("status.held"))
        out += item(theme.sold, locale.text("status.sold"))
        return out
    }

    /// The page's styles, every rule under `.seatmap-picker`; the theme's
    /// colours as custom properties a host may override.
    static func css(_ theme: Theme) -> String {
        func hex(_ c: Color) -> String { Color(r: c.r, g: c.g, b: c.b).hex }
        let vars = [("bg", hex(theme.background)), ("fg", hex(theme.text)), ("accent", hex(theme.selected)),
                    ("accent-fg", hex(theme.markColor(on: theme.selected))), ("focus", hex(theme.highlight)),
                    ("line", hex(theme.outline)), ("tip-bg", hex(theme.text)), ("tip-fg", hex(theme.background))]
        return ".seatmap-picker{" + vars.map { "--seatmap-\($0.0):\($0.1);" }.joined() + "}\n"
            + withoutComments(embeddedPickerSources.first { $0.name == "picker.css" }?.text ?? "")
    }

    /// CSS without its `/* … */` comments (they document the file, not the page).
    static func withoutComments(_ css: String) -> String {
        var out = "", rest = css[...]
        while let open = rest.range(of: "/*") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "*/") else { return out }
            rest = rest[close.upperBound...]
        }
        out += rest
        return out.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n") + "\n"
    }
}
