import Foundation
import SeatMapLayout

/// Writes semantic SVG: one `<g>` per seat with `id="seat-1-3-5"`, classes
/// for status and type, `data-row`, `data-column`, `data-price` and a
/// `<title>`. User units are content pixels, so at 100 % a browser puts
/// every seat exactly on its layout rect.
final class SVGCanvas: Canvas {
    private var body = ""
    private var clipCount = 0
    private var openClips = 0
    private let fontFamily: String
    private let language: String
    private let rightToLeft: Bool

    /// The theme's families, then the generic `sans-serif` (a browser
    /// without them falls back to a sans face, not a serif one); the
    /// locale's language (`xml:lang`) and direction (`direction`: text
    /// anchors are written for it, so every text stays where the layout put it).
    init(fontFamilies: [String], language: String = "zh-cn", rightToLeft: Bool = false) {
        fontFamily = (fontFamilies.map { "'\($0.replacingOccurrences(of: "'", with: ""))'" } + ["sans-serif"]).joined(separator: ", ")
        self.language = language
        self.rightToLeft = rightToLeft
    }

    /// The finished document showing `viewBox` (content pixels).
    func document(viewBox: PixelRect) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(viewBox.w)\" height=\"\(viewBox.h)\" "
        s += "viewBox=\"\(viewBox.x) \(viewBox.y) \(viewBox.w) \(viewBox.h)\" font-family=\"\(SVGCanvas.escape(fontFamily))\" "
        s += "xml:lang=\"\(SVGCanvas.escape(language))\" direction=\"\(rightToLeft ? "rtl" : "ltr")\">\n"
        s += body
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

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    private func color(_ attr: String, _ c: Color) -> String {
        let rgb = Color(r: c.r, g: c.g, b: c.b).hex
        return c.a < 1 ? "\(attr)=\"\(rgb)\" \(attr)-opacity=\"\(SVGCanvas.num(c.a))\"" : "\(attr)=\"\(rgb)\""
    }

    private func pathData(_ p: Path) -> String {
        var parts: [String] = []
        for e in p.elements {
            switch e {
            case .move(let x, let y): parts.append("M\(SVGCanvas.num(x)) \(SVGCanvas.num(y))")
            case .line(let x, let y): parts.append("L\(SVGCanvas.num(x)) \(SVGCanvas.num(y))")
            case .curve(let a, let b, let c, let d, let x, let y):
                parts.append("C\([a, b, c, d, x, y].map(SVGCanvas.num).joined(separator: " "))")
            case .close: parts.append("Z")
            }
        }
        return parts.joined()
    }

    func fill(_ path: Path, _ c: Color) {
        body += "<path d=\"\(pathData(path))\" \(color("fill", c))/>\n"
    }

    func stroke(_ path: Path, _ c: Color, width: Double, dash: [Double]) {
        var s = "<path d=\"\(pathData(path))\" fill=\"none\" \(color("stroke", c)) stroke-width=\"\(SVGCanvas.num(width))\" stroke-linejoin=\"round\""
        if !dash.isEmpty { s += " stroke-dasharray=\"\(dash.map(SVGCanvas.num).joined(separator: " "))\"" }
        body += s + "/>\n"
    }

    func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) {
        guard !string.isEmpty else { return }
        let anchor: String
        // `start` is the left end of left-to-right text and the right end of
        // right-to-left text.
        switch align {
        case .left: anchor = rightToLeft ? "end" : "start"
        case .center: anchor = "middle"
        case .right: anchor = rightToLeft ? "start" : "end"
        }
        body += "<text x=\"\(SVGCanvas.num(x))\" y=\"\(SVGCanvas.num(y))\" font-size=\"\(SVGCanvas.num(style.size))\" "
        body += "text-anchor=\"\(anchor)\" dominant-baseline=\"central\" \(color("fill", style.color))>\(SVGCanvas.escape(string))</text>\n"
    }

    func pushClip(_ rect: PixelRect) {
        clipCount += 1
        openClips += 1
        body += "<clipPath id=\"clip\(clipCount)\"><rect x=\"\(rect.x)\" y=\"\(rect.y)\" width=\"\(rect.w)\" height=\"\(rect.h)\"/></clipPath>\n"
        body += "<g clip-path=\"url(#clip\(clipCount))\">\n"
    }

    func popClip() {
        guard openClips > 0 else { return }
        openClips -= 1
        body += "</g>\n"
    }

    var wantsSeatTags: Bool { true }

    func beginSeat(_ tag: SeatTag) {
        body += "<g id=\"seat-\(SVGCanvas.escape(tag.id))\" class=\"\(SVGCanvas.escape(tag.classes.joined(separator: " ")))\" "
        body += "data-row=\"\(tag.row)\" data-column=\"\(tag.column)\" data-price=\"\(SVGCanvas.escape(tag.price))\">"
        body += "<title>\(SVGCanvas.escape(tag.title))</title>\n"
    }

    func endSeat() { body += "</g>\n" }

    func beginArea(_ tag: SeatTag) {
        body += "<g id=\"area-\(SVGCanvas.escape(tag.id))\" class=\"\(SVGCanvas.escape(tag.classes.joined(separator: " ")))\""
        if !tag.price.isEmpty { body += " data-price=\"\(SVGCanvas.escape(tag.price))\"" }
        body += ">"
        if !tag.title.isEmpty { body += "<title>\(SVGCanvas.escape(tag.title))</title>" }
        body += "\n"
    }
}
