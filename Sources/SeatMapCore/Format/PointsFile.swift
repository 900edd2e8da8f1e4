import Foundation

/// Taps as text: `X,Y` in view points, one per line (any line ending),
/// blank lines and `#` comments skipped; the reader of `hit --points-file`
/// and of `--point` values.
public enum PointsFile {
    /// Coordinates beyond this many points are refused: no seat map is that
    /// large, and it keeps every later conversion to pixels safe.
    public static let maxCoordinate = 1e9

    /// What one `X,Y` text is.
    public enum Pair: Sendable, Equatable {
        case point(Double, Double)
        /// Not two decimal numbers separated by a comma.
        case malformed
        /// Two numbers, but beyond ±`maxCoordinate`.
        case outOfRange
    }

    /// A number typed by a user: the whole token a decimal number (no hex,
    /// `inf`, `nan`, `+` or trailing text), finite.
    public static func number(_ text: String) -> Double? {
        guard DecodeContext.isDecimalNumber(text), let v = Double(text), v.isFinite else { return nil }
        return v
    }

    /// Reads `X,Y` (spaces around either number allowed).
    public static func pair(_ text: String) -> Pair {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .malformed }
        return pair(x: parts[0].trimmingCharacters(in: .whitespaces), y: parts[1].trimmingCharacters(in: .whitespaces))
    }

    /// What two numbers given apart (a JSON `[x, y]`'s) are.
    public static func pair(x xText: String, y yText: String) -> Pair {
        guard let x = number(xText), let y = number(yText) else { return .malformed }
        guard abs(x) <= maxCoordinate, abs(y) <= maxCoordinate else { return .outOfRange }
        return .point(x, y)
    }

    /// Every tap in a points file, with its text; a bad line is an error
    /// naming its line.
    public static func parse(_ source: SourceText) throws(SeatMapError) -> [(text: String, x: Double, y: Double)] {
        var out: [(text: String, x: Double, y: Double)] = []
        let text = String(decoding: source.bytes, as: UTF8.self)
        // Any line ending: LF, CRLF (one Character in Swift) or CR.
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            switch pair(line) {
            case .point(let x, let y): out.append((line, x, y))
            case .malformed, .outOfRange:
                throw SeatMapError(file: source.name, diagnostics: [
                    Diagnostic(path: "", message: "expected X,Y, found \"\(line)\"",
                               line: n + 1, column: 1),
                ])
            }
        }
        return out
    }
}
