import Foundation

/// "Did you mean": the closest of some names to a mistyped one.
package enum Suggestion {
    /// A usage error for a word that is not one of `names`: "unknown WHAT
    /// "x" (did you mean "y"?; expected a, b or c)".
    package static func unknown(_ what: String, _ word: String, in names: [String]) -> UsageError {
        let hint = closest(to: word, in: names).map { "did you mean \"\($0)\"?; " } ?? ""
        return UsageError(message: "unknown \(what) \"\(word)\" (\(hint)expected \(HelpPhrases.or(names)))")
    }

    /// The name within two edits of `word` (one for short words), nearest
    /// first, ties by order; nil when none is that close.
    package static func closest(to word: String, in names: [String]) -> String? {
        let limit = word.count <= 3 ? 1 : 2
        var best: (name: String, d: Int)? = nil
        for n in names {
            let d = distance(Array(word.lowercased()), Array(n.lowercased()))
            if d <= limit, d < (best?.d ?? .max) { best = (n, d) }
        }
        return best?.name
    }

    /// Edits (insert, delete, replace, swap two neighbours) from a to b.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
