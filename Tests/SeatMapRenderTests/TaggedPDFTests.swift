import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport
@testable import SeatMapRender

/// PDFs for screen readers: tagged (a heading, the map as a figure with
/// alternate text, the legend as paragraphs of text), with the document's
/// language, and still a valid file after the additions.
@Suite("Tagged PDF")
struct TaggedPDFTests {
    static func poppler(_ tool: String, _ args: [String], _ pdf: [UInt8]) throws -> String {
        let file = try Fixtures.tempFolder().appendingPathComponent("t.pdf")
        try Data(pdf).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        p.arguments = args + [file.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return out
    }

    /// Every in-use xref entry points at its object, and startxref at the table.
    static func xrefValid(_ pdf: [UInt8]) -> Bool {
        let text = String(decoding: pdf, as: UTF8.self)
        guard let x = TaggedPDF.lastIndex(of: Array("\nxref\n".utf8), in: pdf) else { return false }
        let lines = String(decoding: pdf[(x + 6)...], as: UTF8.self).split(separator: "\n")
        guard let count = lines.first.flatMap({ Int($0.split(separator: " ")[1]) }) else { return false }
        for k in 0..<count {
            let entry = lines[1 + k]
            guard entry.hasSuffix("n ") || entry.hasSuffix("n"), let offset = Int(entry.prefix(10)) else { continue }
            let head = String(decoding: pdf[offset..<min(pdf.count, offset + 12)], as: UTF8.self)
            if !head.hasPrefix("\(k) 0 obj") { return false }
        }
        guard let r = text.range(of: "startxref\n", options: .backwards),
              let start = Int(text[r.upperBound...].prefix { $0.isNumber }) else { return false }
        return String(decoding: pdf[start..<start + 4], as: UTF8.self) == "xref"
    }

    @Test("a heading, the map as a figure with its summary as alternate text, the legend as text", arguments: ["en", "zh-Hans", "ar"])
    func structure(locale: String) throws {
        var style = try Theme.search("light").style
        style.locale = try SeatMapLocale.named(locale)
        let scene = try Scene(layout: Layout(hall: try Fixtures.example("imax-3-sections.json"), style: style, zoom: 1, scale: 2),
                              theme: try Theme.search("light"))
        let pdf = try Renderer.pdf(scene, page: .a4)
        #expect(TaggedPDFTests.xrefValid(pdf))
        #expect(try TaggedPDFTests.poppler("pdfinfo", [], pdf).contains("Tagged:          yes"))
        let tree = try TaggedPDFTests.poppler("pdfinfo", ["-struct-text"], pdf)
        #expect(tree.contains("H1") && tree.contains(scene.title))
        #expect(tree.contains("Figure"))
        // Each legend entry is a paragraph holding its words.
        #expect(tree.components(separatedBy: "P (block)").count - 1 == scene.layout.legendItems.count)
        for item in scene.layout.legendItems {
            let words = Painter(scene: scene, canvas: CountingCanvas()).legendText(item.kind)
            // (poppler's structure text drops the digits of a price set in right-to-left text)
            if scene.layout.locale.rightToLeft, case .tier = item.kind { continue }
            #expect(tree.contains("P (block)\n    \"\(words)\""), "\(item.kind): \(words)")
        }
        // The figure's alternate text and the document language.
        let text = String(decoding: pdf, as: UTF8.self)
        let alt = try #require(text.range(of: "/Alt <FEFF").map { text[$0.upperBound...].prefix { $0 != ">" } })
        let units = stride(from: 0, to: alt.count, by: 4).compactMap { i -> UInt16? in
            let s = alt.index(alt.startIndex, offsetBy: i)
            return UInt16(alt[s..<alt.index(s, offsetBy: 4)], radix: 16)
        }
        let decoded = String(decoding: units, as: UTF16.self)
        #expect(decoded == scene.title + ". " + Renderer.summary(scene))
        #expect(text.contains("/Lang " + TaggedPDF.hexString(scene.layout.locale.language)))
        // Same input, same bytes.
        #expect(try Renderer.pdf(scene, page: .a4) == pdf)
    }

    @Test("a file not laid out as Cairo writes it is left unchanged")
    func foreign() {
        let bytes = Array("%PDF-1.5\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n".utf8)
        #expect(TaggedPDF.annotate(bytes, figureAlt: "x", language: "en") == bytes)
    }
}
