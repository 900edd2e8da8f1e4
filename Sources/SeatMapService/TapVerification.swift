import Foundation
import SeatMapCore
import SeatMapLayout

/// One answer of an app under test: the seat it selected for a tap.
package struct TapAnswer: Sendable, Equatable {
    /// The answers file's line.
    package var line: Int
    package var point: ViewPoint
    /// The seat the app named (a SeatMap id or the seat's external id), nil for none.
    package var seat: String?
}

/// An answer that is not the seat the tap lands on.
package struct TapDisagreement: Sendable, Equatable {
    package var answer: TapAnswer
    package var expected: SeatID?
}

/// `verify-taps`: an app's answers for taps, checked against what the
/// layout's hit-tester answers for the same view (the seat `hit` names and a
/// browser hit-tests on the SVG `render` draws).
package enum TapVerification {
    /// Reads JSON lines `{"x": X, "y": Y, "seat": "ID" | null}`; blank
    /// lines are skipped; any other line is an error naming its line.
    package static func parse(_ source: SourceText) throws(SeatMapError) -> [TapAnswer] {
        var answers: [TapAnswer] = []
        let text = String(decoding: source.bytes, as: UTF8.self)
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            func bad(_ message: Diagnostic.Text) -> SeatMapError {
                SeatMapError(file: source.name, diagnostics: [Diagnostic(path: "", message: message, line: n + 1, column: 1)])
            }
            let node: JSONNode
            do {
                node = try JSONParser.parse(Array(line.utf8))
            } catch {
                throw bad("not JSON: \(error.message)")
            }
            guard case .object = node.value else { throw bad("expected an object {\"x\", \"y\", \"seat\"}, found \(node.typeName)") }
            func coordinate(_ key: String) throws(SeatMapError) -> Double {
                guard let member = node[key] else { throw bad("\"\(key)\" is missing") }
                guard case .number(let text) = member.value, let v = PointsFile.number(text), abs(v) <= PointsFile.maxCoordinate else {
                    throw bad("\"\(key)\" must be a number within ±\(Int(PointsFile.maxCoordinate)), found \(member.typeName)")
                }
                return v
            }
            let x = try coordinate("x"), y = try coordinate("y")
            guard let seat = node["seat"] else { throw bad("\"seat\" is missing (null for a tap on no seat)") }
            switch seat.value {
            case .null: answers.append(TapAnswer(line: n + 1, point: ViewPoint(x, y), seat: nil))
            case .string(let id): answers.append(TapAnswer(line: n + 1, point: ViewPoint(x, y), seat: id))
            default: throw bad("\"seat\" must be a seat id or null, found \(seat.typeName)")
            }
        }
        // Checking nothing must not pass as checking everything.
        if answers.isEmpty {
            throw SeatMapError(file: source.name, diagnostics: [Diagnostic(path: "", message: "no answers: expected JSON lines {\"x\", \"y\", \"seat\"}")])
        }
        return answers
    }

    /// The answers that are wrong, in the file's order.
    package static func check(_ answers: [TapAnswer], in view: TapView, hall: Hall) throws -> [TapDisagreement] {
        var wrong: [TapDisagreement] = []
        for a in answers {
            let expected = try view.seat(at: a.point)
            let got = a.seat.map { hall.seatID(named: $0) }
            // An id the hall does not have is never right.
            let right = switch got {
            case .none: expected == nil
            case .some(let id): id != nil && id == expected
            }
            if !right { wrong.append(TapDisagreement(answer: a, expected: expected)) }
        }
        return wrong
    }

    /// `--json`: `{"checked": N, "disagree": [{"x","y","expected","got"}]}`.
    package static func json(checked: Int, _ wrong: [TapDisagreement]) -> JSONNode {
        .object([("checked", .int(checked)), ("disagree", .array(wrong.map {
            .object([("x", .number(ResultJSON.fmt($0.answer.point.x))), ("y", .number(ResultJSON.fmt($0.answer.point.y))),
                     ("expected", $0.expected.map { .string($0.description) } ?? .null),
                     ("got", $0.answer.seat.map { .string($0) } ?? .null)])
        }))])
    }

    /// One line a wrong answer: `X,Y: expected ID, got ID` (`none` for no seat).
    package static func line(_ d: TapDisagreement) -> String {
        "\(ResultJSON.fmt(d.answer.point.x)),\(ResultJSON.fmt(d.answer.point.y)) (line \(d.answer.line)): expected \(d.expected?.description ?? "none"), got \(d.answer.seat ?? "none")"
    }

    /// The report: one self-contained page with the map drawn at the view's
    /// geometry (the viewport outlined when one was given), every wrong tap
    /// marked and numbered on it, and the list of them beside it.
    package static func report(hall: Hall, view: TapView, answersName: String, checked: Int, _ wrong: [TapDisagreement]) throws -> String {
        let settings = ImageOptions(geometry: view.geometry, viewport: nil, offset: (0, 0), minimap: false, selected: [], highlighted: [],
                                      page: .fit, compression: .default)
        var svg = String(decoding: try HallImage.bytes(hall, format: .svg, settings), as: UTF8.self)
        if svg.hasPrefix("<?xml"), let end = svg.range(of: "?>") { svg.removeSubrange(svg.startIndex..<end.upperBound) }
        // Marks in content pixels, over the map, in the SVG's own coordinates.
        let layout = view.layout, t = view.transform
        let radius = max(6.0, Double(max(layout.seatWidth, layout.seatHeight)) * 0.7)
        var marks = "<g class=\"taps\" aria-hidden=\"true\">"
        if let v = view.viewport {
            let r = t.visiblePixels
            marks += "<rect class=\"viewport\" x=\"\(r.x)\" y=\"\(r.y)\" width=\"\(Int((v.0 * t.scale).rounded(.up)))\" height=\"\(Int((v.1 * t.scale).rounded(.up)))\"/>"
        }
        for (i, d) in wrong.enumerated() {
            let c = t.contentPixel(of: d.answer.point)
            let x = ResultJSON.fmt((c.x * 100).rounded() / 100), y = ResultJSON.fmt((c.y * 100).rounded() / 100)
            marks += "<circle class=\"halo\" cx=\"\(x)\" cy=\"\(y)\" r=\"\(ResultJSON.fmt(radius))\"/>"
            marks += "<circle class=\"ring\" cx=\"\(x)\" cy=\"\(y)\" r=\"\(ResultJSON.fmt(radius))\"/>"
            marks += "<circle class=\"dot\" cx=\"\(x)\" cy=\"\(y)\" r=\"2\"/>"
            marks += "<text class=\"num\" x=\"\(ResultJSON.fmt(c.x + radius * 0.75))\" y=\"\(ResultJSON.fmt(c.y - radius * 0.75))\" font-size=\"\(ResultJSON.fmt(radius * 1.2))\">\(i + 1)</text>"
        }
        marks += "</g>"
        if let close = svg.range(of: "</svg>", options: .backwards) { svg.insert(contentsOf: marks, at: close.lowerBound) }

        let name = layout.title.isEmpty ? hall.hallName : layout.title
        let verdict = wrong.isEmpty ? "<p class=\"pass\">All \(checked) answers are right.</p>"
            : "<p class=\"fail\">\(wrong.count) of \(checked) answers are wrong.</p>"
        var rows = ""
        for (i, d) in wrong.enumerated() {
            rows += "<tr><td>\(i + 1)</td><td><code>\(ResultJSON.fmt(d.answer.point.x)),\(ResultJSON.fmt(d.answer.point.y))</code></td>"
                + "<td>\(d.answer.line)</td><td>\(HTMLPage.escape(d.expected.map { "\($0) (\(describe($0, layout)))" } ?? "no seat"))</td>"
                + "<td>\(HTMLPage.escape(d.answer.seat ?? "no seat"))</td></tr>\n"
        }
        let list = wrong.isEmpty ? "" : """
            <table><caption>Wrong answers</caption>
            <thead><tr><th scope="col">#</th><th scope="col">Tap (points)</th><th scope="col">Line</th><th scope="col">Expected</th><th scope="col">Answered</th></tr></thead>
            <tbody>
            \(rows)</tbody></table>
            """
        let flags = "zoom \(ResultJSON.fmt(layout.zoom)), scale \(ResultJSON.fmt(layout.scale)), theme \(view.geometry.theme.name)"
            + (view.viewport.map { ", viewport \(ResultJSON.fmt($0.0))×\(ResultJSON.fmt($0.1)) at offset \(ResultJSON.fmt(t.offsetX)),\(ResultJSON.fmt(t.offsetY))" } ?? "")
        let body = """
            <h1>Tap check: \(HTMLPage.escape(name))</h1>
            <p>Answers from <code>\(HTMLPage.escape(answersName))</code>, checked against the seat each tap lands on at \(HTMLPage.escape(flags)).</p>
            \(verdict)
            <div class="sheet">
            <figure class="map"><figcaption>The map\(wrong.isEmpty ? "" : ", each wrong tap ringed in red and numbered")\(view.viewport == nil ? "" : "; the viewport outlined in blue").</figcaption>
            \(svg)
            </figure>
            <section class="list" aria-label="Wrong answers">\(list)</section>
            </div>
            """
        return HTMLPage.document(title: "Tap check: \(name)", style: """
            .sheet{display:flex;flex-wrap:wrap;gap:20px;align-items:flex-start}
            .map{margin:0;flex:1 1 560px;min-width:0;border:1px solid #ccc}
            .map figcaption{padding:4px 8px;background:#f4f4f4}
            .map svg{display:block;width:100%;height:auto}
            .list{flex:0 1 520px}caption{text-align:left;font-weight:600;padding:4px 0}
            .taps .halo{fill:none;stroke:#fff;stroke-width:7px;vector-effect:non-scaling-stroke}.taps .ring{fill:none;stroke:#c00000;stroke-width:3px;vector-effect:non-scaling-stroke}
            .taps .dot{fill:#c00000}.taps .num{font-weight:bold;font-family:sans-serif;fill:#c00000;stroke:#fff;stroke-width:3px;paint-order:stroke;vector-effect:non-scaling-stroke}
            .taps .viewport{fill:none;stroke:#0050c8;stroke-width:2px;stroke-dasharray:6 4;vector-effect:non-scaling-stroke}
            """, body: body)
    }

    static func describe(_ id: SeatID, _ layout: Layout) -> String {
        layout.cell(id: id).map { layout.describe($0) } ?? id.description
    }
}
