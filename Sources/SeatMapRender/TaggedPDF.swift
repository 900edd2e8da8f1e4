import Foundation

/// Completes Cairo's tagged PDF for screen readers: the map's `Figure`
/// structure element gets its alternate text (`/Alt`) and the catalogue
/// the document's language (`/Lang`) and the tagged-PDF flag (`/MarkInfo`),
/// which Cairo 1.16's tag API does not write. The additions go into the existing dictionaries and every later
/// offset in the cross-reference table (and `startxref`) moves by the bytes
/// added, so the file stays a valid PDF. A PDF not laid out as Cairo writes
/// it (no classic xref table, no such dictionary) is returned unchanged.
enum TaggedPDF {
    static func annotate(_ pdf: [UInt8], figureAlt: String, language: String) -> [UInt8] {
        var out = pdf
        // Later insertions first, so the earlier one's position stays valid.
        let insertions = [(marker: "/S /Figure", text: " /Alt " + hexString(figureAlt)),
                          (marker: "/Type /Catalog", text: " /Lang " + hexString(language)
                              // Cairo 1.16 leaves the marked-content flag out when the tree has no Document root.
                              + (find(Array("/MarkInfo".utf8), in: pdf) == nil ? " /MarkInfo << /Marked true >>" : ""))]
            .compactMap { i in find(Array(i.marker.utf8), in: out).map { (at: $0 + i.marker.utf8.count, bytes: Array(i.text.utf8)) } }
            .sorted { $0.at > $1.at }
        for i in insertions {
            guard let moved = insert(i.bytes, at: i.at, into: out) else { return pdf }
            out = moved
        }
        return out
    }

    /// A PDF text string: UTF-16BE with a byte-order mark, in hex.
    static func hexString(_ s: String) -> String {
        "<FEFF" + s.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = start
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func lastIndex(of needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var i = hay.count - needle.count
        while i >= 0 {
            if hay[i] == needle[0] && hay[i..<i + needle.count].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }

    /// `bytes` inserted at `at`, with the xref offsets after it and
    /// `startxref` moved; nil when the file's tail is not as expected.
    static func insert(_ bytes: [UInt8], at: Int, into pdf: [UInt8]) -> [UInt8]? {
        guard let xref = lastIndex(of: Array("\nxref\n".utf8), in: pdf), xref >= at else { return nil }
        var p = xref + 6
        // "0 N\n"
        guard let eol = pdf[p...].firstIndex(of: 10) else { return nil }
        let header = String(decoding: pdf[p..<eol], as: UTF8.self).split(separator: " ")
        guard header.count == 2, let count = Int(header[1]) else { return nil }
        p = eol + 1
        let delta = bytes.count
        var out = Array(pdf[..<at]) + bytes + Array(pdf[at..<p])
        for k in 0..<count {
            let e = p + 20 * k
            guard e + 20 <= pdf.count else { return nil }
            let entry = Array(pdf[e..<e + 20])
            guard var offset = Int(String(decoding: entry[0..<10], as: UTF8.self)) else { return nil }
            if entry[17] == UInt8(ascii: "n") && offset > at { offset += delta }
            out += Array(String(format: "%010d", offset).utf8) + entry[10...]
        }
        var tail = String(decoding: pdf[(p + 20 * count)...], as: UTF8.self)
        guard let r = tail.range(of: "startxref\n"), let end = tail[r.upperBound...].firstIndex(of: "\n"),
              let start = Int(tail[r.upperBound..<end]) else { return nil }
        tail.replaceSubrange(r.upperBound..<end, with: String(start + delta))
        return out + Array(tail.utf8)
    }
}
