import Foundation
import CCairo
import SeatMapLayout

/// Writes semantic SVG: one `<g>` per seat with `id="seat-1-3-5"` (its
/// section, row and column), classes for a status other than available
/// and a type other than standard (and `selected`, `highlighted`, `yours`),
/// its accessible name in `aria-label`, and `tabindex` when it can be
/// bought. Neighbouring seats of one tier, price and height share a run
/// group, `<g class="tier-1" data-price="45" transform="translate(0 Y)">`,
/// so a seat's tier and price are its group's and its coordinates are
/// relative to the run's height. User units are content pixels, so at
/// 100 % a browser puts every seat exactly on its layout rect. A shape drawn
/// again is a `<use>` of its first occurrence, and so is a seat's whole
/// drawing (shape and marks) when it has two or more parts; text styles are
/// CSS classes, the most used one none at all.
final class SVGCanvas: Canvas {
    private var body = ""
    /// Shapes drawn more than once are written once and then placed with
    /// `<use>`: the key is the path moved to its first point, with its
    /// paint; the value the first one's id and first point.
    private var shapes: [String: (id: Int, x: Double, y: Double)] = [:]
    /// Text styles (size, anchor, colour) as CSS classes: `.tN`.
    private var textStyles: [String: Int] = [:]
    private var clipCount = 0
    private var openClips = 0
    /// Inside a seat, its drawing is held back until `endSeat`: a seat's
    /// shapes, marks and clips drawn again elsewhere (sold seats' hatching,
    /// a wheelchair mark) are written once as a group and then placed with
    /// one `<use>`. Keyed by the drawing moved to its first point.
    private var seatOps: [Op]? = nil
    private var fragments: [String: (id: Int, x: Double, y: Double)] = [:]
    /// The seat whose drawing is held back (written at `endSeat`).
    private var pendingSeat: SeatTag? = nil
    /// The open run group of neighbouring seats (its tier, price and top
    /// edge), and the y every coordinate inside it is written relative to.
    private var run: (tier: String, price: String, y: Double)? = nil
    private var frameY: Double = 0
    /// Whether a seat's held-back drawing is being written (inside its run).
    private var writingSeat = false

    /// A seat is written on one line; everything else ends its own.
    private var lineEnd: String { writingSeat ? "" : "\n" }

    /// Drawing that is not part of a seat ends the run of seats before it.
    private func endRunOutsideSeat() {
        if !writingSeat { closeRun() }
    }
    /// How many texts use each style: the most used is written without a class.
    private var textStyleUses: [Int] = []

    private enum Op {
        case fill(Path, Color)
        case stroke(Path, Color, Double, [Double])
        case push(PixelRect)
        case pop
        case text(String, Double, Double, TextAlign, TextStyle)
    }
    private let fontFamily: String
    private let language: String
    private let rightToLeft: Bool
    /// Measures and fits text exactly as the PNG and PDF draw it.
    private let pango: PangoText?
    /// With a context, text is written as glyph outlines built on it.
    private let outliner: CairoContext?

    /// The theme's families, then the generic `sans-serif` (a browser
    /// without them falls back to a sans face, not a serif one); the
    /// locale's language (`xml:lang`) and direction (`direction`: text
    /// anchors are written for it, so every text stays where the layout put it).
    init(fontFamilies: [String], language: String, rightToLeft: Bool, text: PangoText? = nil,
         outliner: CairoContext? = nil) {
        pango = text
        self.outliner = outliner
        fontFamily = (fontFamilies.map { "'\($0.replacingOccurrences(of: "'", with: ""))'" } + ["sans-serif"]).joined(separator: ", ")
        self.language = language
        self.rightToLeft = rightToLeft
    }

    /// The finished document showing `viewBox` (content pixels).
    /// The finished document showing `viewBox` (content pixels), named by
    /// `title` and described by `description` (its `<title>` and `<desc>`,
    /// which the root's `aria-labelledby` / `aria-describedby` point at).
    func document(viewBox: PixelRect, title: String = "", description: String = "") -> String {
        closeRun()
        // The most used text style (the seat numbers) needs no class.
        let common = textStyleUses.indices.max { textStyleUses[$0] < textStyleUses[$1] || (textStyleUses[$0] == textStyleUses[$1] && $0 > $1) }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(viewBox.w)\" height=\"\(viewBox.h)\" "
        s += "viewBox=\"\(viewBox.x) \(viewBox.y) \(viewBox.w) \(viewBox.h)\" font-family=\"\(SVGCanvas.escape(fontFamily))\" "
        s += "xml:lang=\"\(SVGCanvas.escape(language))\" direction=\"\(rightToLeft ? "rtl" : "ltr")\" "
        s += "role=\"group\" aria-labelledby=\"seatmap-title\" aria-describedby=\"seatmap-desc\">\n"
        s += "<title id=\"seatmap-title\">\(SVGCanvas.escape(title))</title>\n<desc id=\"seatmap-desc\">\(SVGCanvas.escape(description))</desc>\n"
        if !textStyles.isEmpty {
            // A seat's number is never what a tap hits (it may reach past a round seat's
            // edge): only the seat's shape is, as `hit` answers.
            s += "<style>text{dominant-baseline:central}g[id^=\"seat-\"] text{pointer-events:none}"
            for (style, n) in textStyles.sorted(by: { $0.value < $1.value }) { s += (n == common ? "text:not([class])" : ".t\(n)") + "{\(style)}" }
            s += "</style>\n"
        }
        s += common.map { body.replacingOccurrences(of: "<text class=\"t\($0)\" ", with: "<text ") } ?? body
        s += "</svg>\n"
        return s
    }

    /// Numbers with at most three decimals and no trailing zeros, the same
    /// on every machine.
    static func num(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        if r == r.rounded() { return String(Int(r)) }
        var s = String(format: "%.3f", r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// Escapes text for XML, leaving out what XML 1.0 cannot hold at all
    /// (C0 controls but tab and newlines, U+FFFE and U+FFFF).
    static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                if (u.value < 0x20 && u.value != 0x9 && u.value != 0xA && u.value != 0xD) || u.value == 0xFFFE || u.value == 0xFFFF { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    private func color(_ attr: String, _ c: Color) -> String {
        let rgb = Color(r: c.r, g: c.g, b: c.b).hex
        return c.a < 1 ? "\(attr)=\"\(rgb)\" \(attr)-opacity=\"\(SVGCanvas.num(c.a))\"" : "\(attr)=\"\(rgb)\""
    }

    /// The path's data, moved by (dx, dy).
    private func pathData(_ p: Path, dx: Double = 0, dy: Double = 0) -> String {
        var parts: [String] = []
        for e in p.elements {
            switch e {
            case .move(let x, let y): parts.append("M\(SVGCanvas.num(x + dx)) \(SVGCanvas.num(y + dy))")
            case .line(let x, let y): parts.append("L\(SVGCanvas.num(x + dx)) \(SVGCanvas.num(y + dy))")
            case .curve(let a, let b, let c, let d, let x, let y):
                parts.append("C\([a + dx, b + dy, c + dx, d + dy, x + dx, y + dy].map(SVGCanvas.num).joined(separator: " "))")
            case .close: parts.append("Z")
            }
        }
        return parts.joined()
    }

    /// Writes a shape with its paint: whole (with an id) the first time it
    /// is seen, then as a `<use>` of that first one, moved by the distance
    /// between their first points. Seats are whole pixels, so the shapes
    /// of a hall's seats and marks are a handful.
    private func shape(_ path: Path, paint: String) {
        let nl = lineEnd
        guard case .move(let x0, let y0)? = path.elements.first, abs(x0) < 1e9, abs(y0) < 1e9 else {
            body += "<path d=\"\(pathData(path, dy: -frameY))\" \(paint)/>\(nl)"
            return
        }
        let d = pathData(path, dx: -x0, dy: -y0)
        // A short element (a dash, a plain rect) costs no more written out.
        guard d.utf8.count + paint.utf8.count >= 64 else {
            body += "<path d=\"\(pathData(path, dy: -frameY))\" \(paint)/>\(nl)"
            return
        }
        let key = d + "|" + paint
        // Where it is written: its place in the open run's frame.
        let y = y0 - frameY
        if let first = shapes[key] {
            body += "<use href=\"#s\(first.id)\"\(SVGCanvas.offset(x0 - first.x, y - first.y))/>\(nl)"
        } else {
            let id = shapes.count
            shapes[key] = (id, x0, y)
            body += "<path id=\"s\(id)\" d=\"\(pathData(path, dy: -frameY))\" \(paint)/>\(nl)"
        }
    }

    /// A `<use>`'s `x` and `y`, each left out when 0.
    static func offset(_ dx: Double, _ dy: Double) -> String {
        (dx == 0 ? "" : " x=\"\(num(dx))\"") + (dy == 0 ? "" : " y=\"\(num(dy))\"")
    }

    /// Ends the open run group: what follows is not a seat of it.
    private func closeRun() {
        guard run != nil else { return }
        run = nil
        frameY = 0
        body += "</g>\n"
    }

    func fill(_ path: Path, _ c: Color) {
        if seatOps != nil { seatOps?.append(.fill(path, c)); return }
        endRunOutsideSeat()
        shape(path, paint: color("fill", c))
    }

    func stroke(_ path: Path, _ c: Color, width: Double, dash: [Double]) {
        if seatOps != nil { seatOps?.append(.stroke(path, c, width, dash)); return }
        endRunOutsideSeat()
        var s = "fill=\"none\" \(color("stroke", c)) stroke-width=\"\(SVGCanvas.num(width))\" stroke-linejoin=\"round\""
        if !dash.isEmpty { s += " stroke-dasharray=\"\(dash.map(SVGCanvas.num).joined(separator: " "))\"" }
        shape(path, paint: s)
    }

    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        guard !string.isEmpty else { return }
        if seatOps != nil { seatOps?.append(.text(string, x, y, align, style)); return }
        endRunOutsideSeat()
        let y = y - frameY
        // Fitted as the raster draws it: the size it was shrunk to, and the
        // text as cut, with the whole text in its <title>.
        var size = style.size, shown = string, full: String? = nil
        if let pango {
            guard let f = pango.fitted(string, size: style.size, minSize: style.minSize, box: style.box, x: x, align: align, what: style.what) else { return }
            if let outliner {
                if style.rotation != 0 { body += "<g transform=\"rotate(\(SVGCanvas.num(style.rotation)) \(SVGCanvas.num(x)) \(SVGCanvas.num(y)))\">" }
                outline(f, string, x: x, y: y, align: align, color: style.color, pango: pango, on: outliner)
                if style.rotation != 0 { body += "</g>\n" }
                return
            }
            size = f.size
            if f.ellipsized {
                shown = PangoText.shownText(of: f, string)
                full = string
            }
        }
        let anchor: String
        // `start` is the left end of left-to-right text and the right end of
        // right-to-left text.
        switch align {
        case .left: anchor = rightToLeft ? "end" : "start"
        case .center: anchor = "middle"
        case .right: anchor = rightToLeft ? "start" : "end"
        }
        // Size, anchor and colour as a CSS class shared by every text alike.
        let rgb = Color(r: style.color.r, g: style.color.g, b: style.color.b).hex
        var css = "font-size:\(SVGCanvas.num(size))px;text-anchor:\(anchor);fill:\(rgb)"
        if style.color.a < 1 { css += ";fill-opacity:\(SVGCanvas.num(style.color.a))" }
        let cls: Int
        if let known = textStyles[css] { cls = known } else { cls = textStyles.count; textStyles[css] = cls; textStyleUses.append(0) }
        textStyleUses[cls] += 1
        let turn = style.rotation != 0 ? " transform=\"rotate(\(SVGCanvas.num(style.rotation)) \(SVGCanvas.num(x)) \(SVGCanvas.num(y)))\"" : ""
        body += "<text class=\"t\(cls)\" x=\"\(SVGCanvas.num(x))\" y=\"\(SVGCanvas.num(y))\"\(turn)>\(SVGCanvas.escape(shown))"
        if let full { body += "<title>\(SVGCanvas.escape(full))</title>" }
        body += "</text>" + lineEnd
    }

    /// The text's glyphs as one path, placed as the Cairo canvas places them.
    private func outline(_ f: PangoText.Fitted, _ text: String, x: Double, y: Double, align: TextAlign, color c: Color,
                         pango: PangoText, on context: CairoContext) {
        let cr = context.cr
        let origin = pango.origin(of: f, x: x, y: y + frameY, align: align)
        cairo_new_path(cr)
        f.shaped.draw(on: cr, at: origin, keepText: false, path: true)
        var d = ""
        var lastMove: String.Index? = nil
        if let path = cairo_copy_path(cr) {
            let n = Int(path.pointee.num_data)
            var i = 0
            if let data = path.pointee.data {
                while i < n {
                    let header = data[i].header
                    let length = max(1, Int(header.length))
                    func point(_ k: Int) -> String {
                        guard i + k < n else { return "0 0" }
                        return "\(SVGCanvas.num(data[i + k].point.x)) \(SVGCanvas.num(data[i + k].point.y - frameY))"
                    }
                    switch header.type {
                    case CAIRO_PATH_MOVE_TO:
                        // A move that starts nothing (Pango ends on one) is left out.
                        if let last = lastMove { d.removeSubrange(last...) }
                        lastMove = d.endIndex
                        d += "M\(point(1))"
                        i += length
                        continue
                    case CAIRO_PATH_LINE_TO: d += "L\(point(1))"
                    case CAIRO_PATH_CURVE_TO: d += "C\(point(1)) \(point(2)) \(point(3))"
                    case CAIRO_PATH_CLOSE_PATH: d += "Z"
                    default: break
                    }
                    lastMove = nil
                    i += length
                }
            }
            cairo_path_destroy(path)
        }
        if let last = lastMove { d.removeSubrange(last...) }
        cairo_new_path(cr)
        guard !d.isEmpty else { return }
        let label = SVGCanvas.escape(text)
        body += "<path class=\"text\" role=\"img\" aria-label=\"\(label)\" d=\"\(d)\" \(color("fill", c))><title>\(label)</title></path>\n"
    }

    func pushClip(_ rect: PixelRect) {
        if seatOps != nil { seatOps?.append(.push(rect)); return }
        endRunOutsideSeat()
        clipCount += 1
        openClips += 1
        body += "<clipPath id=\"clip\(clipCount)\"><rect x=\"\(rect.x)\" y=\"\(SVGCanvas.num(Double(rect.y) - frameY))\" width=\"\(rect.w)\" height=\"\(rect.h)\"/></clipPath>"
        body += "<g clip-path=\"url(#clip\(clipCount))\">"
        body += lineEnd
    }

    func popClip() {
        if seatOps != nil { seatOps?.append(.pop); return }
        endRunOutsideSeat()
        guard openClips > 0 else { return }
        openClips -= 1
        body += "</g>" + lineEnd
    }

    var wantsSeatTags: Bool { true }

    func beginSeat(_ tag: SeatTag) {
        pendingSeat = tag
        seatOps = []
    }

    /// Writes the held-back seat in its run group: neighbours of one tier,
    /// price and top edge share one (a new one opens when any differs).
    func endSeat() {
        // An area (begun by `beginArea`, drawn as it went) just closes.
        guard let tag = pendingSeat, let ops = seatOps else { body += "</g>\n"; return }
        seatOps = nil
        pendingSeat = nil
        let tier = tag.classes.filter { $0.hasPrefix("tier-") }.joined(separator: " ")
        let top = ops.lazy.compactMap { op -> Double? in
            switch op {
            case .fill(let p, _), .stroke(let p, _, _, _):
                if case .move(_, let y)? = p.elements.first, abs(y) < 1e9 { return y }
                return nil
            default: return nil
            }
        }.first ?? frameY
        if run.map({ $0.tier != tier || $0.price != tag.price || $0.y != top }) ?? true {
            closeRun()
            run = (tier, tag.price, top)
            frameY = top
            body += "<g"
            if !tier.isEmpty { body += " class=\"\(SVGCanvas.escape(tier))\"" }
            if !tag.price.isEmpty { body += " data-price=\"\(SVGCanvas.escape(tag.price))\"" }
            body += top == 0 ? ">\n" : " transform=\"translate(0 \(SVGCanvas.num(top)))\">\n"
        }
        // The seat's own classes: status (but available), type, selected, highlighted, yours.
        let own = tag.classes.filter { $0 != "seat" && $0 != "available" && !$0.hasPrefix("tier-") }
        body += "<g id=\"seat-\(SVGCanvas.escape(tag.id))\""
        if !own.isEmpty { body += " class=\"\(SVGCanvas.escape(own.joined(separator: " ")))\"" }
        if let e = tag.externalID { body += " data-external-id=\"\(SVGCanvas.escape(e))\"" }
        // One accessible name, its aria-label (a <title> saying it again was a third of the seat's bytes).
        body += " role=\"img\" aria-label=\"\(SVGCanvas.escape(tag.title))\"\(tag.focusable ? " tabindex=\"0\"" : "")>"
        writingSeat = true
        writeSeat(ops)
        writingSeat = false
        body += "</g>\n"
    }

    /// Writes a seat's drawing: its shapes and marks (everything before its
    /// text) as a `<use>` of the first seat drawn alike when there are two
    /// or more of them, then its text as it is. Anything else is written
    /// element by element, as outside a seat.
    private func writeSeat(_ ops: [Op]) {
        let shapes = ops.prefix { if case .text = $0 { return false } else { return true } }
        let rest = ops.dropFirst(shapes.count)
        let textOnly = rest.allSatisfy { if case .text = $0 { return true } else { return false } }
        if shapes.count >= 2, textOnly, let key = fragmentKey(shapes) {
            let y = key.y - frameY
            if let first = fragments[key.text] {
                body += "<use href=\"#f\(first.id)\"\(SVGCanvas.offset(key.x - first.x, y - first.y))/>"
            } else {
                // Defined in <defs> (drawn by the <use> after it), so a script
                // that changes this seat's elements changes no other seat.
                let id = fragments.count
                fragments[key.text] = (id, key.x, y)
                body += "<defs><g id=\"f\(id)\">"
                replayMarked(shapes)
                body += "</g></defs><use href=\"#f\(id)\"/>"
            }
            for op in rest { replay(op) }
            return
        }
        replayMarked(ops[...])
    }

    /// Replays a seat's drawing with everything after its shape (the first
    /// fill: marks, rings) out of hit-testing, so that a browser's tap lands
    /// on the seat only inside its shape, where `hit` says it is. Marks that
    /// cannot be grouped apart (clips opened before the shape) keep their
    /// place.
    private func replayMarked(_ ops: ArraySlice<Op>) {
        guard let shape = ops.firstIndex(where: { if case .fill = $0 { return true } else { return false } }) else {
            for op in ops { replay(op) }
            return
        }
        for op in ops[...shape] { replay(op) }
        let after = ops[(shape + 1)...]
        let marks = after.prefix { if case .text = $0 { return false } else { return true } }
        var depth = 0, balanced = true
        for op in marks {
            if case .push = op { depth += 1 }
            if case .pop = op { depth -= 1; if depth < 0 { balanced = false } }
        }
        if !marks.isEmpty && balanced && depth == 0 {
            body += "<g pointer-events=\"none\">"
            for op in marks { replay(op) }
            body += "</g>"
            for op in after.dropFirst(marks.count) { replay(op) }
        } else {
            for op in after { replay(op) }
        }
    }

    private func replay(_ op: Op) {
        switch op {
        case .fill(let p, let c): fill(p, c)
        case .stroke(let p, let c, let w, let d): stroke(p, c, width: w, dash: d)
        case .push(let r): pushClip(r)
        case .pop: popClip()
        case .text(let t, let x, let y, let a, let st): text(t, x: x, y: y, align: a, style: st)
        }
    }

    /// The drawing moved to its first shape's first point, as text (nil when
    /// it does not start with a shape or has unbalanced clips).
    private func fragmentKey(_ ops: ArraySlice<Op>) -> (text: String, x: Double, y: Double)? {
        guard case .fill(let first, _)? = ops.first, case .move(let x0, let y0)? = first.elements.first,
              abs(x0) < 1e9, abs(y0) < 1e9 else { return nil }
        var key = "", depth = 0
        for op in ops {
            switch op {
            case .fill(let p, let c): key += "F\(pathData(p, dx: -x0, dy: -y0))|\(color("fill", c))"
            case .stroke(let p, let c, let w, let d):
                key += "S\(pathData(p, dx: -x0, dy: -y0))|\(color("stroke", c))|\(SVGCanvas.num(w))|\(d.map(SVGCanvas.num))"
            case .push(let r):
                depth += 1
                key += "P\(SVGCanvas.num(Double(r.x) - x0)) \(SVGCanvas.num(Double(r.y) - y0)) \(r.w) \(r.h)"
            case .pop:
                depth -= 1
                if depth < 0 { return nil }
                key += "Q"
            case .text: return nil
            }
        }
        return depth == 0 ? (key, x0, y0) : nil
    }

    func beginArea(_ tag: SeatTag) {
        closeRun()
        body += "<g id=\"area-\(SVGCanvas.escape(tag.id))\" class=\"\(SVGCanvas.escape(tag.classes.joined(separator: " ")))\""
        if !tag.price.isEmpty { body += " data-price=\"\(SVGCanvas.escape(tag.price))\"" }
        if !tag.title.isEmpty { body += " role=\"img\" aria-label=\"\(SVGCanvas.escape(tag.title))\"" }
        if tag.focusable { body += " tabindex=\"0\"" }
        body += ">"
        if !tag.title.isEmpty { body += "<title>\(SVGCanvas.escape(tag.title))</title>" }
        body += "\n"
    }
}
