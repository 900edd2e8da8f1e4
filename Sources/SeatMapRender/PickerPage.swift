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
    /// Origins besides the page's own that may embed it and hear its
    /// messages (the service's `--allowed-origin` list).
    public var hostOrigins: [String]
    /// The hall's levels with their names (a switcher is shown for two or
    /// more: each opens the page again with `?level=N`), and the one drawn
    /// (nil: all).
    public var levels: [(level: Int, name: String)]
    public var level: Int?

    public init(show: String, select: String, seats: String, order: String? = nil, hostOrigins: [String] = [],
                levels: [(level: Int, name: String)] = [], level: Int? = nil) {
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
enum PickerPage {
    /// The catalogue keys the page's script fills in itself.
    static let words = ["status.available", "status.selected", "status.sold", "status.locked", "status.held",
                        "picker.expired", "picker.soldMeanwhile", "picker.cartEmpty", "picker.total", "picker.remove",
                        "picker.holdFor", "picker.ordered", "list.separator", "summary", "picker.left"]

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
        ]
        if let endpoint {
            var e: [(String, JSONNode)] = [("show", .string(endpoint.show)), ("select", .string(endpoint.select)),
                                           ("seats", .string(endpoint.seats)),
                                           ("hostOrigins", .array(endpoint.hostOrigins.map { .string($0) }))]
            if let order = endpoint.order { e.append(("order", .string(order))) }
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
        \(body)<img class="seatmap-snapshot" alt="" aria-hidden="true"><div class="seatmap-rows" aria-hidden="true"></div><div class="seatmap-tip" aria-hidden="true"></div><canvas class="seatmap-minimap" aria-hidden="true"></canvas>
        <div class="seatmap-pan" role="group" aria-label="\(e(locale.text("picker.pan")))">\(button("pan-up", "picker.panUp", "▲"))\(button("pan-left", "picker.panLeft", "◀"))\(button("pan-right", "picker.panRight", "▶"))\(button("pan-down", "picker.panDown", "▼"))</div>
        </div>
        <ul class="seatmap-legend" aria-label="\(e(locale.text("picker.legend")))">\(legend(layout, theme, locale))</ul>
        <section class="seatmap-panel" aria-label="\(e(locale.text("picker.cart")))">
        <div class="seatmap-summary"><span class="seatmap-total" data-total="">\(e(locale.text("picker.cartEmpty")))</span><span class="seatmap-timer" role="timer" aria-live="off"></span>\(confirm(locale))</div>
        \(standing(layout, locale))<ul class="seatmap-cart" data-seatmap-cart aria-live="polite" aria-label="\(e(locale.text("picker.cart")))"></ul>
        <div class="seatmap-message" data-seatmap-message role="status" aria-live="polite"></div>
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
        "<button type=\"button\" class=\"seatmap-button seatmap-confirm\" data-seatmap-action=\"confirm\" disabled>\(SVGCanvas.escape(locale.text("picker.confirm")))</button>"
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
        out += item(theme.locked, locale.text("status.held"))
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
        return ".seatmap-picker{" + vars.map { "--seatmap-\($0.0):\($0.1);" }.joined() + #"""
        box-sizing:border-box;position:relative;display:flex;flex-direction:column;height:var(--seatmap-height,100vh);overflow:hidden;font:15px/1.4 system-ui,sans-serif;color:var(--seatmap-fg);background:var(--seatmap-bg)}
        .seatmap-picker *{box-sizing:border-box}
        .seatmap-picker .seatmap-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.3em .5em;padding:.3em .5em;flex:none;border-bottom:1px solid var(--seatmap-line)}
        .seatmap-picker .seatmap-title{flex:1 1 10em;min-width:0;margin:0;font-size:1em;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .seatmap-picker .seatmap-controls,.seatmap-picker .seatmap-pan,.seatmap-picker .seatmap-levels{display:flex;gap:.3em}
        .seatmap-picker .seatmap-level{display:inline-flex;align-items:center;min-height:40px;padding:0 .5em;border-radius:6px;color:var(--seatmap-fg);font-size:.85em}
        .seatmap-picker .seatmap-level[aria-current]{font-weight:700;outline:2px solid var(--seatmap-fg);outline-offset:-2px}
        .seatmap-picker .seatmap-button{min-width:40px;min-height:40px;padding:0 .6em;border:1px solid var(--seatmap-fg);border-radius:6px;background:var(--seatmap-bg);color:var(--seatmap-fg);font:inherit;font-size:1.1em;cursor:pointer}
        .seatmap-picker .seatmap-button:focus-visible{outline:3px solid var(--seatmap-focus);outline-offset:2px}
        .seatmap-picker .seatmap-confirm{background:var(--seatmap-accent);color:var(--seatmap-accent-fg);border-color:var(--seatmap-accent);font-weight:600;margin-inline-start:auto}
        .seatmap-picker .seatmap-confirm:disabled{opacity:.45;cursor:default}
        .seatmap-picker .seatmap-stage{position:relative;flex:1;min-height:0;overflow:hidden;touch-action:none;cursor:grab;outline:none}
        .seatmap-picker .seatmap-stage>svg{position:absolute;left:0;top:0;transform-origin:0 0;display:block;cursor:grab}
        .seatmap-picker .seatmap-snapshot{position:absolute;left:0;top:0;transform-origin:0 0;display:none;opacity:.002;pointer-events:none;will-change:transform,opacity;max-width:none}
        .seatmap-picker .seatmap-stage g[id^="seat-"]{outline:none}
        .seatmap-picker.seatmap-overview .seatmap-stage g[id^="seat-"]{display:none}
        .seatmap-picker.seatmap-small .seatmap-stage g[id^="seat-"]>text{display:none}
        .seatmap-picker .seatmap-sections{display:none}
        .seatmap-picker.seatmap-overview .seatmap-sections{display:inline}
        .seatmap-picker .seatmap-section{cursor:zoom-in;outline:none}
        .seatmap-picker .seatmap-pan{position:absolute;inset-inline-end:.4em;bottom:.4em;opacity:.9}
        .seatmap-picker .seatmap-minimap{position:absolute;inset-inline-end:.4em;top:.4em;display:none;border:1px solid var(--seatmap-line);border-radius:4px;background:var(--seatmap-bg);cursor:pointer;touch-action:none}
        .seatmap-picker .seatmap-pan .seatmap-button{min-width:32px;min-height:32px;font-size:.8em;padding:0}
        .seatmap-picker .seatmap-rows{position:absolute;inset-inline-start:0;top:0;height:0;width:2.2em;pointer-events:none;display:none}
        .seatmap-picker .seatmap-rows span{position:absolute;inset-inline-start:.2em;transform:translateY(-50%);min-width:1.8em;padding:0 .3em;border-radius:.9em;background:var(--seatmap-tip-bg);color:var(--seatmap-tip-fg);font-size:.75em;text-align:center;opacity:.85}
        .seatmap-picker .seatmap-tip{position:absolute;pointer-events:none;background:var(--seatmap-tip-bg);color:var(--seatmap-tip-fg);padding:2px 6px;border-radius:4px;font-size:.85em;white-space:nowrap;display:none;z-index:2}
        .seatmap-picker .seatmap-legend{display:flex;flex-wrap:wrap;gap:.1em .9em;margin:0;padding:.25em .5em;list-style:none;font-size:.8em;flex:none;border-top:1px solid var(--seatmap-line)}
        .seatmap-picker .seatmap-swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-.1em;margin-inline-end:.3em;border:1px solid var(--seatmap-line)}
        .seatmap-picker .seatmap-panel{flex:none;height:8.6em;overflow:auto;padding:.3em .5em;border-top:1px solid var(--seatmap-line)}
        .seatmap-picker .seatmap-summary{display:flex;align-items:center;gap:.8em;flex-wrap:wrap}
        .seatmap-picker .seatmap-total{font-weight:600}
        .seatmap-picker .seatmap-cart,.seatmap-picker .seatmap-areas{list-style:none;margin:0;padding:0}
        .seatmap-picker .seatmap-areas li{display:flex;align-items:center;gap:.5em;padding:.15em 0}
        .seatmap-picker .seatmap-areas li>span{flex:1}
        .seatmap-picker .seatmap-areas .seatmap-button{min-width:32px;min-height:32px}
        .seatmap-picker .seatmap-count{min-width:2em;text-align:center;font-weight:600}
        .seatmap-picker .seatmap-cart li{display:flex;align-items:center;gap:.5em;padding:.15em 0}
        .seatmap-picker .seatmap-cart li span{flex:1}
        .seatmap-picker .seatmap-cart .seatmap-button{min-width:32px;min-height:32px;font-size:.9em}
        .seatmap-picker .seatmap-message:empty{display:none}
        .seatmap-picker .seatmap-message{padding:.2em 0;font-weight:600}
        """#
    }

    /// The page's script (plain ES2017, no dependencies): every picker on
    /// the page not yet started is started.
    static let script = #"""
    (function () {
      "use strict";
      var NS = "http://www.w3.org/2000/svg";
      function fill(t, v) { return t.replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(v, k) ? String(v[k]) : m; }); }

      function start(root) {
        root.setAttribute("data-seatmap-ready", "");
        var cfg = JSON.parse(root.querySelector("script.seatmap-config").textContent);
        var W = cfg.words, C = cfg.colors;
        function q(sel) { return root.querySelector(sel); }
        var stage = q(".seatmap-stage"), svg = stage.querySelector("svg"), tip = q(".seatmap-tip"), rowBar = q(".seatmap-rows");
        var cartEl = q("[data-seatmap-cart]"), msgEl = q("[data-seatmap-message]"), totalEl = q(".seatmap-total"), timerEl = q(".seatmap-timer");
        var confirmBtn = q('[data-seatmap-action="confirm"]');
        var svgW = svg.width.baseVal.value, svgH = svg.height.baseVal.value;
        var k = 1, tx = 0, ty = 0, kMin = 1, kMax = 8, SLOP = 8;
        var embedded = window.parent !== window;
        var origins = [location.origin].concat(cfg.hostOrigins || []);

        // ---- Seats: their plan status, words and state ----
        var seats = new Map(), planStatus = new Map(), external = new Map();
        Array.prototype.forEach.call(svg.querySelectorAll('g[id^="seat-"]'), function (g) {
          var id = g.id.slice(5), cls = g.getAttribute("class") || "";
          var st = /\bsold\b/.test(cls) ? "sold" : /\blocked\b/.test(cls) ? "locked" : "available";
          var title = g.getAttribute("aria-label") || id, word = W["status." + st];
          var at = word ? title.lastIndexOf(word) : -1;
          var base = at > 0 ? title.slice(0, at).replace(/[\s,，、·]+$/, "") : title;
          var sep = at > 0 ? title.slice(base.length, at) : ", ";
          // A seat's tier is its run group's class (neighbours of one tier, price and row share one).
          var run = g.parentNode && g.parentNode.getAttribute ? g.parentNode.getAttribute("class") || "" : "";
          seats.set(id, { g: g, base: base, sep: sep || " ", tier: ((/\btier-(\d+)\b/.exec(cls + " " + run) || [])[1]) });
          planStatus.set(id, st);
          var ext = g.getAttribute("data-external-id");
          if (ext && !external.has(ext)) external.set(ext, id);
          g.setAttribute("role", "button");
          g.setAttribute("tabindex", "-1");
        });
        var status = new Map(planStatus), tipSeat = null;
        var current = null;  // the seat that holds the map's one Tab stop
        function seatOf(el) { var g = el && el.closest ? el.closest('g[id^="seat-"]') : null; return g && svg.contains(g) ? g : null; }
        function info(g) { return seats.get(g.id.slice(5)); }
        function labelOf(id) { var s = seats.get(id); return s ? s.base : id; }

        // A seat's own shape as a box in drawing units (its first <path>, or
        // what its first <use> places): where marks and rings go.
        function shapeBox(g) {
          var el = g.querySelector(":scope > path, :scope > use"), dx = 0, dy = 0, guard = 0;
          while (el && el.tagName.toLowerCase() === "use" && guard++ < 4) {
            dx += parseFloat(el.getAttribute("x") || "0"); dy += parseFloat(el.getAttribute("y") || "0");
            var ref = svg.querySelector('[id="' + (el.getAttribute("href") || "").slice(1) + '"]');
            el = ref && ref.tagName.toLowerCase() === "g" ? ref.querySelector("path, use") : ref;
          }
          if (!el || el.tagName.toLowerCase() !== "path") return null;
          var n = (el.getAttribute("d") || "").match(/-?[0-9.]+/g) || [], xs = [], ys = [];
          for (var i = 0; i + 1 < n.length; i += 2) { xs.push(parseFloat(n[i])); ys.push(parseFloat(n[i + 1])); }
          if (!xs.length) return null;
          var x0 = Math.min.apply(null, xs), y0 = Math.min.apply(null, ys);
          return { x: x0 + dx, y: y0 + dy, w: Math.max.apply(null, xs) - x0, h: Math.max.apply(null, ys) - y0 };
        }
        function el(name, attrs) { var e = document.createElementNS(NS, name); for (var a in attrs) e.setAttribute(a, attrs[a]); return e; }
        // Draws a status over the seat as drawn (inside its group, not hit by the pointer).
        function overlay(g, st) {
          var old = g.querySelector(":scope > .seatmap-mark");
          if (old) old.remove();
          var drawn = planStatus.get(g.id.slice(5));
          if (st === drawn) return;
          var b = shapeBox(g);
          if (!b) return;
          var m = el("g", { "class": "seatmap-mark", "pointer-events": "none" });
          var color = st === "selected" ? C.selected : st === "sold" ? C.sold : st === "available" ? (C.tiers[(+info(g).tier || 0) % C.tiers.length] || C.selected) : C.locked;
          var ink = st === "selected" ? C.mark : st === "sold" ? C.soldMark : C.lockedMark;
          m.appendChild(el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: Math.min(b.w, b.h) / 6, fill: color }));
          var x = b.x, y = b.y, w = b.w, h = b.h, sw = Math.max(1.5, w / 12);
          var d = st === "selected" ? "M" + (x + w * 0.28) + " " + (y + h * 0.52) + "L" + (x + w * 0.44) + " " + (y + h * 0.68) + "L" + (x + w * 0.74) + " " + (y + h * 0.34)
            : st === "sold" ? "M" + (x + w * 0.3) + " " + (y + h * 0.3) + "L" + (x + w * 0.7) + " " + (y + h * 0.7) + "M" + (x + w * 0.7) + " " + (y + h * 0.3) + "L" + (x + w * 0.3) + " " + (y + h * 0.7)
            : st === "available" ? "" : "M" + (x + w * 0.3) + " " + (y + h * 0.7) + "L" + (x + w * 0.7) + " " + (y + h * 0.3);
          if (d) m.appendChild(el("path", { d: d, fill: "none", stroke: ink, "stroke-width": sw, "stroke-linecap": "round" }));
          g.appendChild(m);
        }
        function paint(id, st) {
          var s = seats.get(id);
          if (!s) return;
          var before = s.g.getAttribute("data-status");
          status.set(id, st);
          if (before === st) return;
          statusVersion++;
          if (snapImg) snapLater();
          s.g.setAttribute("data-status", st);
          s.g.setAttribute("aria-pressed", st === "selected" ? "true" : "false");
          if (st === "available" || st === "selected") s.g.removeAttribute("aria-disabled"); else s.g.setAttribute("aria-disabled", "true");
          var label = s.base + s.sep + (W["status." + st] || st);
          s.g.setAttribute("aria-label", label);
          var t = s.g.querySelector("title");
          if (t) t.textContent = label;
          if (tipSeat === s.g) tip.textContent = label;
          overlay(s.g, st);
          if (miniShown && !miniDirty) { miniDirty = true; requestAnimationFrame(function () { if (miniDirty) drawMinimap(); }); }
        }
        seats.forEach(function (s, id) { s.g.removeAttribute("data-status"); paint(id, planStatus.get(id)); });
        function firstSeat() {
          var best = null;
          seats.forEach(function (s, id) { if (!best && (status.get(id) === "available" || status.get(id) === "selected")) best = s.g; });
          return best || (seats.size ? seats.values().next().value.g : null);
        }
        function setCurrent(g) {
          if (current === g || !g) return;
          if (current) current.setAttribute("tabindex", "-1");
          current = g;
          g.setAttribute("tabindex", "0");
        }
        setCurrent(firstSeat());

        // ---- View: fit, zoom, pan ----
        // The stage's box, read again only when the window changes size (reading it forces a layout).
        var stageBox = null;
        function box() { if (!stageBox) stageBox = stage.getBoundingClientRect(); return stageBox; }
        window.addEventListener("resize", function () { stageBox = null; });
        // A host page that scrolls moves the stage: taps and zooms use where it is now.
        window.addEventListener("scroll", function () { stageBox = null; }, { capture: true, passive: true });
        stage.addEventListener("pointerdown", function () { stageBox = null; }, true);
        function fitScale() { var r = box(); return Math.max(1e-3, Math.min(r.width / svgW, r.height / svgH) * 0.98); }
        function clampPan() {
          var r = box(), cw = svgW * k, ch = svgH * k;
          // The drawing never leaves the stage's centre; fitted, it is centred.
          if (cw <= r.width) tx = (r.width - cw) / 2; else tx = Math.min(r.width / 2, Math.max(r.width / 2 - cw, tx));
          if (ch <= r.height) ty = (r.height - ch) / 2; else ty = Math.min(r.height / 2, Math.max(r.height / 2 - ch, ty));
        }
        var frame = 0, placed = "";
        function apply() {
          clampPan();
          // The drawing is laid out at the scale it was last painted at (kR) and only moved, or
          // scaled by k / kR while a zoom is under way: a pan never paints it again.
          var f = k / kR;
          var moved = placed = "translate(" + tx + "px," + ty + "px)" + (Math.abs(f - 1) > 1e-9 ? " scale(" + f + ")" : "");
          if (!snapShown) svg.style.transform = moved;
          if (snapKey) snapImg.style.transform = moved;
          if (!frame) frame = requestAnimationFrame(function () { frame = 0; drawRows(); setOverview(); drawMinimap(); });
        }
        var rowsShown = null, rowsK = null;
        function drawRows() {
          // The row labels pinned at the edge while the drawing's own are out of view: placed
          // for the zoom once, then the bar moves with the pan (one style change a frame).
          var show = tx < -4 && cfg.rows.length > 0 && !overview;
          if (show !== rowsShown) { rowsShown = show; rowBar.style.display = show ? "block" : "none"; }
          if (!show) return;
          if (!rowBar.childNodes.length) cfg.rows.forEach(function (r) { var s = document.createElement("span"); s.textContent = r[0]; rowBar.appendChild(s); });
          if (rowsK !== k) {
            rowsK = k;
            cfg.rows.forEach(function (r, i) { rowBar.childNodes[i].style.top = (k * r[1]) + "px"; });
          }
          rowBar.style.transform = "translateY(" + ty + "px)";
        }
        // ---- The minimap while zoomed in: every seat as a dot in its status's colour, the view as a frame ----
        var mini = q(".seatmap-minimap"), miniCtx = mini.getContext ? mini.getContext("2d") : null, miniDots = null, miniDirty = true, miniShown = false, miniBase = null;
        function miniScale() { var m = Math.min(150, box().width / 3, box().height / 3); return Math.min(m / svgW, m / svgH); }
        function colourOf(id, st) {
          if (st === "selected") return C.selected;
          if (st === "sold") return C.sold;
          if (st === "locked" || st === "held") return C.locked;
          var s = seats.get(id);
          return C.tiers[(+(s && s.tier) || 0) % C.tiers.length] || C.selected;
        }
        function drawMinimap() {
          var show = k > kMin * 1.5 && !!miniCtx;
          if (show !== miniShown) { miniShown = show; mini.style.display = show ? "block" : "none"; }
          if (!show) return;
          var f = miniScale(), w = Math.ceil(svgW * f), h = Math.ceil(svgH * f), dpr = window.devicePixelRatio || 1;
          if (mini.width !== Math.round(w * dpr)) { mini.width = Math.round(w * dpr); mini.height = Math.round(h * dpr); mini.style.width = w + "px"; mini.style.height = h + "px"; miniDirty = true; }
          if (!miniDots) { miniDots = []; seats.forEach(function (s, id) { var b = shapeBox(s.g); if (b) miniDots.push([id, b.x, b.y, b.w, b.h]); }); }
          // The dots are drawn again only when a status changed; a pan only moves the frame.
          if (miniDirty || !miniBase || miniBase.width !== mini.width) {
            miniBase = miniBase || document.createElement("canvas");
            miniBase.width = mini.width; miniBase.height = mini.height;
            var b = miniBase.getContext("2d");
            b.setTransform(dpr, 0, 0, dpr, 0, 0);
            b.fillStyle = C.background;
            b.fillRect(0, 0, w, h);
            miniDots.forEach(function (d) {
              b.fillStyle = colourOf(d[0], status.get(d[0]));
              b.fillRect(d[1] * f, d[2] * f, Math.max(1, d[3] * f), Math.max(1, d[4] * f));
            });
          }
          miniCtx.setTransform(1, 0, 0, 1, 0, 0);
          miniCtx.drawImage(miniBase, 0, 0);
          miniCtx.setTransform(dpr, 0, 0, dpr, 0, 0);
          var r = box();
          miniCtx.strokeStyle = C.focus;
          miniCtx.lineWidth = 1.5;
          miniCtx.strokeRect(-tx / k * f, -ty / k * f, r.width / k * f, r.height / k * f);
          miniDirty = false;
        }
        function miniPan(e) {
          var rect = mini.getBoundingClientRect(), f = miniScale(), r = box();
          var cx = (e.clientX - rect.left) / f, cy = (e.clientY - rect.top) / f;
          tx = r.width / 2 - k * cx; ty = r.height / 2 - k * cy;
          apply();
        }
        mini.addEventListener("pointerdown", function (e) {
          e.stopPropagation(); e.preventDefault();
          miniPan(e);
          var move = function (m) { miniPan(m); }, up = function () { mini.removeEventListener("pointermove", move); mini.removeEventListener("pointerup", up); };
          try { mini.setPointerCapture(e.pointerId); } catch (err) { /* a pointer that cannot be captured */ }
          mini.addEventListener("pointermove", move);
          mini.addEventListener("pointerup", up);
        });

        // ---- Big venues: below readable seats, sections with their seats left ----
        var READABLE = 7, overview = false, sectionLayer = null, sectionsAt = 0;
        function sectionOf(id) { var n = id.split("-")[0]; return cfg.sections.length === 1 && cfg.sections[0][0] === -1 ? -1 : +n; }
        function sectionCounts() {
          var c = {};
          cfg.sections.forEach(function (sec) { c[sec[0]] = [0, 0]; });
          status.forEach(function (st, id) {
            var n = c[sectionOf(id)];
            if (!n) return;
            n[1]++;
            if (st === "available") n[0]++;
          });
          return c;
        }
        function drawSections() {
          if (!sectionLayer) {
            sectionLayer = el("g", { "class": "seatmap-sections" });
            cfg.sections.forEach(function (sec) {
              var g = el("g", { "class": "seatmap-section", role: "button", tabindex: "0", "data-section": sec[0] });
              g.appendChild(el("rect", { x: sec[2], y: sec[3], width: sec[4], height: sec[5], rx: 6, fill: C.tiers[0] || C.selected, "fill-opacity": "0.18",
                                         stroke: C.tiers[0] || C.selected, "stroke-width": 2 }));
              var name = el("text", { x: sec[2] + sec[4] / 2, "text-anchor": "middle", fill: C.focus });
              var left = el("text", { x: sec[2] + sec[4] / 2, "text-anchor": "middle", fill: C.focus });
              g.appendChild(name); g.appendChild(left);
              sectionLayer.appendChild(g);
            });
            svg.appendChild(sectionLayer);
          }
          var counts = sectionCounts(), size = 15 / k;
          Array.prototype.forEach.call(sectionLayer.childNodes, function (g, i) {
            var sec = cfg.sections[i], n = counts[sec[0]] || [0, 0], texts = g.querySelectorAll("text");
            var words = fill(W["summary"], { available: n[0], seats: n[1] });
            texts[0].textContent = sec[1]; texts[1].textContent = words;
            var cy = sec[3] + sec[5] / 2;
            texts[0].setAttribute("y", sec[1] ? cy - size * 0.7 : cy); texts[0].setAttribute("font-size", size * 1.1); texts[0].setAttribute("font-weight", "600");
            texts[1].setAttribute("y", sec[1] ? cy + size * 0.7 : cy); texts[1].setAttribute("font-size", size);
            g.setAttribute("aria-label", (sec[1] ? sec[1] + ": " : "") + words);
          });
        }
        var small = null;
        function setOverview() {
          // Seat numbers too small to read are not drawn (text is most of what a big hall costs to paint).
          var tiny = k * cfg.seatSize < 16;
          if (tiny !== small) { small = tiny; root.classList.toggle("seatmap-small", tiny); }
          var now = k * cfg.seatSize < READABLE && seats.size > 0;
          if (now !== overview) {
            overview = now;
            root.classList.toggle("seatmap-overview", now);
            if (now && document.activeElement && svg.contains(document.activeElement)) { var f = sectionLayer && sectionLayer.firstChild; if (f) f.focus({ preventScroll: true }); }
          }
          if (overview && sectionsAt !== k) { sectionsAt = k; drawSections(); }
        }
        function zoomToSection(i) {
          var sec = cfg.sections[i], r = box();
          var nk = Math.min(kMax, Math.max(Math.min(r.width / sec[4], r.height / sec[5]) * 0.95, (READABLE + 1) / cfg.seatSize));
          k = Math.max(kMin, nk);
          settle();
          tx = r.width / 2 - k * (sec[2] + sec[4] / 2);
          ty = r.height / 2 - k * (sec[3] + sec[5] / 2);
          apply();
        }
        svg.addEventListener("keydown", function (e) {
          var g = e.target.closest ? e.target.closest(".seatmap-section") : null;
          if (g && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); zoomToSection(Array.prototype.indexOf.call(sectionLayer.childNodes, g)); }
        });

        function limits() {
          kMin = fitScale();
          kMax = Math.max(kMin, 48 / cfg.seatSize);
        }
        function fit() { limits(); k = kMin; settle(true); apply(); }
        // The drawing is its own compositor layer at screen size: a pan moves its pixels; a
        // zoom scales them until it settles, then the drawing is sized to the new scale and
        // painted once, sharp.
        var crisp = 0, kR = 1;
        svg.style.willChange = "transform";
        function paintAt(scale) {
          kR = scale;
          svg.style.width = svgW * kR + "px";
          svg.style.height = svgH * kR + "px";
        }
        function settle(now) {
          clearTimeout(crisp);
          if (now) { paintAt(k); snapLater(); return; }
          crisp = setTimeout(function () { paintAt(k); apply(); snapLater(); }, 180);
        }
        // A big drawing is panned as a picture of itself: the browser would otherwise walk
        // every seat's element each frame. The picture is taken when the view is idle
        // (after a zoom, after statuses change) and shown only while a drag moves the view.
        var snapImg = q(".seatmap-snapshot"), snapShown = false, snapKey = "", snapWant = "", snapTimer = 0, statusVersion = 0;
        function snapState() { return kR + ":" + statusVersion + ":" + overview + ":" + small; }
        function snapLater() {
          if (seats.size < 2000 || !window.Blob || !window.URL || !URL.createObjectURL) return;
          clearTimeout(snapTimer);
          snapTimer = setTimeout(takeSnapshot, 400);
        }
        function takeSnapshot() {
          var want = snapState();
          if (want === snapKey || want === snapWant || dragging) return;
          snapWant = want;
          var text = new XMLSerializer().serializeToString(svg);
          // The root as laid out now, without the page's inline styles; the page's rules that
          // hide seats or their numbers at this zoom, inside the picture.
          var hide = (overview ? 'g[id^="seat-"]{display:none}' : '') + (small ? 'g[id^="seat-"]>text{display:none}' : '') + (overview ? '' : '.seatmap-sections{display:none}');
          text = text.replace(/^<svg([^>]*?)\sstyle="[^"]*"/, "<svg$1").replace(/^<svg([^>]*?)\swidth="[^"]*"/, "<svg$1").replace(/^<svg([^>]*?)\sheight="[^"]*"/, "<svg$1")
                     .replace(/^<svg/, '<svg width="' + svgW * kR + '" height="' + svgH * kR + '"').replace(/^(<svg[^>]*>)/, "$1<style>" + hide + "</style>");
          var url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
          var img = new Image();
          img.onload = function () {
            var old = snapImg.src;
            if (snapWant !== want) { URL.revokeObjectURL(url); return; }
            snapImg.src = url;
            snapImg.width = svgW * kR; snapImg.height = svgH * kR;
            snapKey = want;
            // Kept on the page, aligned and all but transparent, so it is painted before a drag needs it.
            snapImg.style.transform = placed;
            snapImg.style.display = "block";
            if (snapImg.decode) snapImg.decode().catch(function () { /* shown undecoded, then */ });
            if (old && old.indexOf("blob:") === 0) URL.revokeObjectURL(old);
          };
          img.onerror = function () { URL.revokeObjectURL(url); snapWant = ""; };
          img.src = url;
        }
        function showSnapshot(on) {
          if (on && (snapKey !== snapState() || !snapImg.src)) return;
          if (on === snapShown) return;
          snapShown = on;
          // The picture (kept painted, all but transparent) shows; the live drawing is moved out
          // of the stage on its own layer (a transform: no style or paint work for its seats, as
          // hiding it would be) and put back by apply() when the drag ends.
          snapImg.style.opacity = on ? "1" : "";
          if (on) svg.style.transform = "translate(-400000px,0)";
          else apply();
        }
        function zoomAt(px, py, factor) {
          settle();
          var nk = Math.min(kMax, Math.max(kMin, k * factor));
          tx = px - (px - tx) * nk / k;
          ty = py - (py - ty) * nk / k;
          k = nk;
          apply();
        }
        function zoomCentre(factor) { var r = box(); zoomAt(r.width / 2, r.height / 2, factor); }
        function pan(dx, dy) { var r = box(); tx += dx * r.width / 4; ty += dy * r.height / 4; apply(); }
        function ensureVisible(g) {
          var b = shapeBox(g) || g.getBBox(), r = box();
          var x0 = tx + k * b.x, y0 = ty + k * b.y, x1 = tx + k * (b.x + (b.w || b.width)), y1 = ty + k * (b.y + (b.h || b.height));
          if (x0 < 0 || y0 < 0 || x1 > r.width || y1 > r.height) {
            tx = r.width / 2 - k * (b.x + (b.w || b.width) / 2);
            ty = r.height / 2 - k * (b.y + (b.h || b.height) / 2);
            apply();
          }
        }
        function local(e) { var r = box(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
        // Focus never scrolls the stage: the transform is the only view.
        stage.addEventListener("scroll", function () { stage.scrollLeft = 0; stage.scrollTop = 0; });

        var pointers = new Map(), startP = null, moved = false, pinch = null, dragging = false;
        stage.addEventListener("pointerdown", function (e) {
          if (e.target.closest && e.target.closest(".seatmap-pan, .seatmap-minimap")) return;
          pointers.set(e.pointerId, local(e));
          if (pointers.size === 1) { startP = { p: local(e), tx: tx, ty: ty }; moved = false; }
          if (pointers.size === 2) {
            var ps = Array.from(pointers.values());
            pinch = { d: Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y), k: k };
            moved = true;
          }
          try { stage.setPointerCapture(e.pointerId); } catch (err) { /* not every pointer can be captured */ }
        });
        stage.addEventListener("pointermove", function (e) {
          if (!pointers.has(e.pointerId)) { hover(e); return; }
          pointers.set(e.pointerId, local(e));
          if (pointers.size === 2 && pinch) {
            var ps = Array.from(pointers.values());
            var d = Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
            if (pinch.d > 0) zoomAt((ps[0].x + ps[1].x) / 2, (ps[0].y + ps[1].y) / 2, pinch.k * d / pinch.d / k);
            return;
          }
          if (!startP) return;
          var p = local(e), dx = p.x - startP.p.x, dy = p.y - startP.p.y;
          if (!moved && Math.hypot(dx, dy) > SLOP) moved = true;
          if (moved) {
            // Styles set once per drag, not per move (each set restyles the whole drawing).
            if (!dragging) { dragging = true; stage.style.cursor = "grabbing"; showSnapshot(true); }
            tx = startP.tx + dx; ty = startP.ty + dy; apply();
          }
        });
        function end(e) {
          var wasTap = pointers.size === 1 && pointers.has(e.pointerId) && !moved && e.type === "pointerup";
          pointers.delete(e.pointerId);
          if (pointers.size < 2) pinch = null;
          if (pointers.size === 0) { startP = null; if (dragging) { dragging = false; stage.style.cursor = ""; showSnapshot(false); snapLater(); } }
          if (wasTap) {
            var hit = document.elementFromPoint(e.clientX, e.clientY);
            var sec = hit && hit.closest ? hit.closest(".seatmap-section") : null;
            if (sec) { zoomToSection(Array.prototype.indexOf.call(sectionLayer.childNodes, sec)); return; }
            var g = seatOf(hit);
            if (g) { setCurrent(g); toggle(g); return; }
            var area = hit && hit.closest ? hit.closest('g[id^="area-"]') : null;
            if (area && svg.contains(area) && (cfg.areas || []).indexOf(area.id.slice(5)) >= 0) setArea(area.id.slice(5), (places[area.id.slice(5)] || 0) + 1);
          }
        }
        stage.addEventListener("pointerup", end);
        stage.addEventListener("pointercancel", end);
        stage.addEventListener("wheel", function (e) {
          // On its own page the wheel zooms; embedded in another, only with Ctrl (a pinch on a touchpad), so the host page still scrolls.
          if (embedded && !e.ctrlKey && !e.metaKey) return;
          e.preventDefault();
          var p = local(e);
          zoomAt(p.x, p.y, Math.exp(-e.deltaY * 0.0015));
        }, { passive: false });

        // ---- Tooltip ----
        function showTip(g) {
          tipSeat = g;
          var r = g.getBoundingClientRect(), s = box();
          tip.textContent = g.getAttribute("aria-label");
          tip.style.display = "block";
          tip.style.left = Math.max(0, Math.min(s.width - tip.offsetWidth, r.left - s.left)) + "px";
          tip.style.top = Math.max(0, r.top - s.top - tip.offsetHeight - 4) + "px";
        }
        function hideTip() { tip.style.display = "none"; tipSeat = null; }
        function hover(e) { var g = seatOf(e.target); if (g) showTip(g); else hideTip(); }
        stage.addEventListener("pointerleave", hideTip);

        // ---- Keyboard ----
        var ring = null;
        svg.addEventListener("focusin", function (e) {
          var g = seatOf(e.target);
          if (!g) return;
          setCurrent(g);
          var b = shapeBox(g);
          if (ring) ring.remove();
          if (b) {
            var pad = Math.max(2, b.w / 10);
            ring = el("rect", { "class": "seatmap-ring", x: b.x - pad, y: b.y - pad, width: b.w + 2 * pad, height: b.h + 2 * pad, rx: pad * 1.5,
                                fill: "none", stroke: C.focus, "stroke-width": Math.max(2, b.w / 14), "pointer-events": "none" });
            g.appendChild(ring);
          }
          showTip(g);
        });
        svg.addEventListener("focusout", function () { if (ring) { ring.remove(); ring = null; } hideTip(); });
        var centres = null;
        function centreOf(g) { var b = shapeBox(g) || { x: 0, y: 0, w: 0, h: 0 }; return { x: b.x + b.w / 2, y: b.y + b.h / 2 }; }
        function move(g, dir) {
          if (!centres) { centres = []; seats.forEach(function (s) { centres.push([s.g, centreOf(s.g)]); }); }
          var c = centreOf(g), best = null, bestScore = Infinity;
          centres.forEach(function (o) {
            if (o[0] === g) return;
            var dx = o[1].x - c.x, dy = o[1].y - c.y;
            var along = dx * dir[0] + dy * dir[1], across = Math.abs(dx * dir[1] - dy * dir[0]);
            if (along <= 0.5) return;
            var score = along + 3 * across;
            if (score < bestScore) { bestScore = score; best = o[0]; }
          });
          if (best) { setCurrent(best); best.focus({ preventScroll: true }); ensureVisible(best); }
        }
        root.addEventListener("keydown", function (e) {
          if (e.target.closest && e.target.closest("input, textarea, select")) return;
          var g = seatOf(e.target);
          var dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
          if (e.key === "+" || e.key === "=") { e.preventDefault(); zoomCentre(1.6); if (g) ensureVisible(g); return; }
          if (e.key === "-" || e.key === "_") { e.preventDefault(); zoomCentre(1 / 1.6); return; }
          if (e.key === "0") { e.preventDefault(); fit(); return; }
          if (dir && (e.shiftKey || !g)) { if (stage.contains(e.target) || g) { e.preventDefault(); pan(-dir[0], -dir[1]); } return; }
          if (!g) return;
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(g); return; }
          if (dir) { e.preventDefault(); move(g, dir); }
        });
        root.addEventListener("click", function (e) {
          var lv = e.target.closest ? e.target.closest(".seatmap-level") : null;
          if (lv && root.contains(lv)) {
            // Another level is another drawing: the page again, with the token kept.
            e.preventDefault();
            var u = new URL(location.href), n = lv.getAttribute("data-level");
            if (n) u.searchParams.set("level", n); else u.searchParams.delete("level");
            if (token) u.searchParams.set("token", token);
            location.assign(u.toString());
            return;
          }
          var b = e.target.closest ? e.target.closest("[data-seatmap-action]") : null;
          if (!b || !root.contains(b)) return;
          var a = b.getAttribute("data-seatmap-action");
          if (a === "zoom-in") zoomCentre(1.6);
          else if (a === "zoom-out") zoomCentre(1 / 1.6);
          else if (a === "fit") fit();
          else if (a === "pan-left") pan(1, 0);
          else if (a === "pan-right") pan(-1, 0);
          else if (a === "pan-up") pan(0, 1);
          else if (a === "pan-down") pan(0, -1);
          else if (a === "confirm") checkout();
          else if (a === "remove") { var s = seats.get(b.getAttribute("data-seat")); if (s) toggle(s.g); }
          else if (a === "remove-area") setArea(b.getAttribute("data-area"), 0);
          else if (a === "area-more") setArea(b.getAttribute("data-area"), (places[b.getAttribute("data-area")] || 0) + 1);
          else if (a === "area-less") setArea(b.getAttribute("data-area"), Math.max(0, (places[b.getAttribute("data-area")] || 0) - 1));
        });

        // ---- Messages to the host ----
        function emit(msg) {
          root.dispatchEvent(new CustomEvent(msg.type, { detail: msg, bubbles: true }));
          if (embedded) origins.forEach(function (o) { try { window.parent.postMessage(msg, o); } catch (err) { /* an origin that is not the parent's */ } });
        }
        function say(lines) {
          msgEl.textContent = "";
          lines.forEach(function (l) { var d = document.createElement("div"); d.textContent = l; msgEl.appendChild(d); });
        }

        // ---- The cart: the service's answer ----
        // whole: the whole show was read for this token (then only deltas after `sequence`).
        var whole = false, polling = 0, sequence = null;
        var token = null, cart = [], total = "", totalText = "", expiresAt = 0, skew = 0, gaps = [];
        try { token = new URLSearchParams(location.search).get("token") || (cfg.show && sessionStorage.getItem("seatmap:" + cfg.show)) || null; } catch (err) { token = null; }
        function keepToken(t) {
          var changed = t !== token;
          token = t;
          // A new token sees its own seats as selected: the statuses are asked for again with it.
          if (changed) { whole = false; poll(false); }
          try { if (cfg.show) { if (t) sessionStorage.setItem("seatmap:" + cfg.show, t); else sessionStorage.removeItem("seatmap:" + cfg.show); } } catch (err) { /* storage refused */ }
        }
        function drawCart() {
          cartEl.textContent = "";
          cart.forEach(function (item) {
            var li = document.createElement("li");
            var text = document.createElement("span");
            text.textContent = item.label + " · " + item.priceText;
            li.appendChild(text);
            // A seat or a standing area's places, with its remove button.
            var attr = item.id ? "data-seat" : "data-area", key = item.id || item.area;
            li.setAttribute(attr, key);
            var b = document.createElement("button");
            b.type = "button";
            b.className = "seatmap-button";
            b.setAttribute("data-seatmap-action", item.id ? "remove" : "remove-area");
            b.setAttribute(attr, key);
            b.setAttribute("aria-label", fill(W["picker.remove"], { seat: item.label }));
            b.textContent = "×";
            li.appendChild(b);
            cartEl.appendChild(li);
          });
          totalEl.textContent = cart.length ? fill(W["picker.total"], { total: totalText }) : W["picker.cartEmpty"];
          totalEl.setAttribute("data-total", cart.length ? total : "");
          confirmBtn.disabled = !cart.length || !token;
          tick();
        }
        var places = {}, left = {};
        function drawAreas() {
          (cfg.areas || []).forEach(function (id) {
            var li = root.querySelector('.seatmap-areas li[data-area="' + id.replace(/["\\]/g, "") + '"]');
            if (!li) return;
            li.querySelector(".seatmap-count").textContent = String(places[id] || 0);
            li.querySelector(".seatmap-left").textContent = left[id] === undefined ? "" : "(" + fill(W["picker.left"], { count: left[id] }) + ")";
          });
        }
        // One select at a time, in order, with the buyer's token and locale; the answer shown.
        // A token the show no longer knows (its holds expired): the cart is gone, and the
        // request is tried again without it.
        function select(members, then) {
          pending = pending.then(function () {
            var body = { locale: cfg.locale };
            for (var m in members) body[m] = members[m];
            if (token) body.token = token;
            return post(cfg.select, body).then(function (a) {
              if (!a.ok && a.status === 409 && body.token && /token/.test(a.json.error || "")) {
                if (cart.length) expire(); else keepToken(null);
                delete body.token;
                return post(cfg.select, body);
              }
              return a;
            }).then(function (a) {
              if (!a.ok) { say([a.json.error || String(a.status)]); return; }
              answered(a.json, a.date);
              if (then) then(a.json);
            });
          }).catch(function (err) { say([String(err)]); });
          return pending;
        }
        function setArea(id, n) {
          if (!cfg.select || (cfg.areas || []).indexOf(id) < 0) return pending;
          var area = {}; area[id] = n;
          return select({ area: area });
        }
        function tick() {
          if (!cart.length || !expiresAt) { timerEl.textContent = ""; return; }
          var left = Math.max(0, Math.round((expiresAt - (Date.now() + skew)) / 1000));
          timerEl.textContent = fill(W["picker.holdFor"], { time: Math.floor(left / 60) + ":" + ("0" + left % 60).slice(-2) });
          if (left <= 0) expire();
        }
        setInterval(tick, 1000);
        function expire() {
          cart.forEach(function (item) { if (item.id && status.get(item.id) === "selected") paint(item.id, "available"); });
          cart = []; expiresAt = 0; places = {}; keepToken(null);
          drawCart(); drawAreas();
          say([W["picker.expired"]]);
          emit({ type: "seatmap:expired" });
        }
        function markGaps(ids) {
          gaps.forEach(function (g) { g.remove(); });
          gaps = [];
          ids.forEach(function (id) {
            var s = seats.get(id), b = s && shapeBox(s.g);
            if (!b) return;
            var r = el("rect", { "class": "seatmap-gap", x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 4, fill: "none",
                                  stroke: C.selected, "stroke-width": Math.max(2, b.w / 12), "stroke-dasharray": Math.max(3, b.w / 8), "pointer-events": "none" });
            s.g.appendChild(r);
            gaps.push(r);
          });
        }
        function answered(a, dateHeader) {
          if (dateHeader) { var d = Date.parse(dateHeader); if (!isNaN(d)) skew = d - Date.now(); }
          if (a.token) keepToken(a.token);
          var mine = new Set(a.selected || []);
          cart.forEach(function (item) { if (item.id && !mine.has(item.id) && status.get(item.id) === "selected") paint(item.id, "available"); });
          (a.results || []).forEach(function (r) {
            if (r.result === "notAvailable" || r.result === "held") { if (status.get(r.id) === "available") paint(r.id, r.result === "held" ? "held" : "sold"); }
          });
          mine.forEach(function (id) { paint(id, "selected"); });
          cart = a.cart || []; total = a.total || ""; totalText = a.totalText || "";
          places = a.standing || {};
          drawAreas();
          expiresAt = a.expiresAt ? Date.parse(a.expiresAt) : 0;
          drawCart();
          say(a.messages || []);
          markGaps(a.violations || []);
          emit(withExternal({ type: "seatmap:cart", seats: cart.map(function (i) { return i.id || i.area; }), total: total }));
        }
        // The ids the seats came with from another system (a pretix seat_guid), beside SeatMap's.
        function withExternal(m) {
          var ext = cart.map(function (i) { return i.externalId || null; });
          if (ext.some(function (e) { return e; })) m.externalIds = ext;
          return m;
        }
        function externalOf(g, m) { if (g.getAttribute("data-external-id")) m.externalId = g.getAttribute("data-external-id"); return m; }
        function post(url, body) {
          return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" })
            .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, json: j, date: r.headers.get("Date") }; }); });
        }
        var pending = Promise.resolve();
        function toggle(g) {
          var id = g.id.slice(5);
          if (!cfg.select) {
            emit(externalOf(g, { type: "seatmap:toggle", id: id, selected: null, result: null }));
            return pending;
          }
          return select({ toggle: [id] }, function (j) {
            var r = (j.results || []).filter(function (x) { return x.id === id; })[0];
            emit(externalOf(g, { type: "seatmap:toggle", id: id, selected: (j.selected || []).indexOf(id) >= 0, result: r ? r.result : null }));
          });
        }
        function checkout() {
          if (!cart.length || !token) return pending;
          var ids = cart.map(function (i) { return i.id || i.area; });
          emit(withExternal({ type: "seatmap:checkout", show: cfg.show || null, token: token, seats: ids, total: total }));
          if (!cfg.order) return pending;
          pending = pending.then(function () {
            var labels = cart.map(function (i) { return i.label; });
            var orderId = "picker-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
            return post(cfg.order, { token: token, orderId: orderId, seats: cart.filter(function (i) { return i.id; }).map(function (i) { return i.id; }) })
              .then(function (a) {
                if (!a.ok) { say([a.json.error || String(a.status)]); return; }
                (a.json.sold || []).forEach(function (id) { paint(id, "sold"); });
                cart = []; expiresAt = 0; places = {}; keepToken(null);
                drawCart(); drawAreas();
                say([fill(W["picker.ordered"], { seats: labels.join(W["list.separator"]) })]);
                emit({ type: "seatmap:cart", seats: [], total: "0" });
              });
          }).catch(function (err) { say([String(err)]); });
          return pending;
        }

        // ---- Live statuses: long polls on the show's seats ----

        function seatsAnswer(j) {
          var notes = [], before = cart.length;
          Object.keys(j.seats || {}).forEach(function (id) {
            var st = j.seats[id];
            if (status.get(id) === "selected" && st !== "selected") {
              var item = cart.filter(function (i) { return i.id === id; })[0];
              if (item) {
                cart = cart.filter(function (i) { return i !== item; });
                if (st === "sold" || st === "locked") notes.push(fill(W["picker.soldMeanwhile"], { seat: item.label }));
              }
            }
            paint(id, st);
          });
          Object.keys(j.areas || {}).forEach(function (id) { left[id] = j.areas[id].available; });
          drawAreas();
          if (overview) drawSections();
          var remaining = cart.length;
          if (before && !remaining && expiresAt && Date.now() + skew >= expiresAt - 1500) { expire(); return; }
          if (remaining !== before) { refresh(); if (notes.length) say(notes); }
        }
        // The cart again from the service (after a seat left it).
        function refresh() {
          if (!token || !cfg.select) { drawCart(); return; }
          pending = pending.then(function () {
            return post(cfg.select, { toggle: [], token: token, locale: cfg.locale }).then(function (a) {
              if (a.ok) { var m = msgEl.textContent; answered(a.json, a.date); if (!(a.json.messages || []).length) msgEl.textContent = m; }
              else if (a.status === 409) expire();
            });
          }).catch(function () { drawCart(); });
        }
        // The whole show once (and again for a new token), then only what
        // changed after the sequence it was as of (?since=), waited for.
        function poll(wait) {
          if (!cfg.seats) return;
          var n = ++polling, asked = token;
          var since = whole ? sequence : null;
          var url = cfg.seats + "?" + (token ? "token=" + encodeURIComponent(token) + "&" : "") +
            (since !== null ? "since=" + since + "&" : "") + (wait && since !== null ? "wait=25" : "");
          fetch(url.replace(/[?&]$/, ""), { cache: "no-store", credentials: "same-origin" })
            .then(function (r) {
              // An answer for another token (or an older poll) is not this buyer's view.
              if (n !== polling || asked !== token) return;
              if (r.status !== 200) throw new Error(String(r.status));
              return r.json().then(function (j) {
                if (n !== polling || asked !== token) return;
                if (typeof j.sequence === "number") { sequence = j.sequence; whole = true; }
                seatsAnswer(j.changes ? { seats: j.changes, areas: j.areas } : j);
              });
            })
            .then(function () { if (n === polling) setTimeout(function () { poll(true); }, 0); },
                  function () { if (n === polling) setTimeout(function () { poll(true); }, 2000); });
        }

        // ---- From the host ----
        window.addEventListener("message", function (e) {
          if (origins.indexOf(e.origin) < 0 || !e.data || typeof e.data.type !== "string") return;
          var m = e.data;
          if (m.type === "seatmap:focus") { var s = seats.get(String(m.id)) || seats.get(external.get(String(m.id))); if (s) { setCurrent(s.g); s.g.focus({ preventScroll: true }); ensureVisible(s.g); } }
          else if (m.type === "seatmap:clear") { cart.filter(function (i) { return i.id; }).forEach(function (i) { var s = seats.get(i.id); if (s) toggle(s.g); }); }
          else if (m.type === "seatmap:locale" && typeof m.locale === "string") {
            var u = new URL(location.href);
            u.searchParams.set("locale", m.locale);
            if (token) u.searchParams.set("token", token);
            location.replace(u.toString());
          }
        });

        var api = {
          view: function () { return { k: k, tx: tx, ty: ty, kMin: kMin, kMax: kMax, seat: cfg.seatSize, overview: overview }; },
          selected: function () { var out = []; status.forEach(function (st, id) { if (st === "selected") out.push(id); }); return out.sort(); },
          setSelected: function (ids) {
            // For a file page driven by its host: only seats that can be picked are marked.
            var want = new Set((ids || []).map(function (i) { return seats.has(String(i)) ? String(i) : external.get(String(i)) || String(i); }));
            status.forEach(function (st, id) {
              if (st === "selected" && !want.has(id)) paint(id, "available");
              else if (want.has(id) && st === "available") paint(id, "selected");
            });
          },
          idle: function () { return pending; },
          token: function () { return token; },
          cart: function () { return { seats: cart.map(function (i) { return i.id || i.area; }), total: total }; },
          fit: fit, zoom: zoomCentre,
          checkout: checkout
        };
        root.seatmap = api;
        if (!window.seatmap) window.seatmap = api;
        fit();
        window.addEventListener("resize", function () { var was = k <= kMin * 1.001; limits(); if (was) k = kMin; k = Math.max(kMin, Math.min(kMax, k)); apply(); });
        if (token && cfg.select) refresh();
        poll(false);
        emit({ type: "seatmap:ready" });
      }
      Array.prototype.forEach.call(document.querySelectorAll("[data-seatmap-picker]:not([data-seatmap-ready])"), start);
    })();
    """#
}
