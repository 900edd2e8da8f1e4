import Foundation
import SeatMapCore
import SeatMapLayout

/// A command's options, for parsing and for `--help`: the one table a
/// face reads (the CLI from argv, the HTTP service from query parameters
/// and JSON members, by the same names).
package struct CommandSpec: Sendable {
    package struct Option: Sendable {
        package enum Arity: Sendable { case flag, value, values }
        package var name: String
        package var arity: Arity
        package var valueName: String
        package var help: String

        package static func flag(_ name: String, _ help: String) -> Option { Option(name: name, arity: .flag, valueName: "", help: help) }
        package static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, arity: .value, valueName: valueName, help: help)
        }
        /// An option that takes one or more values, repeated or listed after it.
        package static func values(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, arity: .values, valueName: valueName, help: help)
        }
    }

    package var name: String
    package var usage: String
    package var summary: String
    package var options: [Option]
    package var details: String = ""

    package init(name: String, usage: String, summary: String, options: [Option], details: String = "") {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options
        self.details = details
    }

    package var help: String {
        var lines = ["Usage: seatmap \(usage)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines.append("Options:")
            for o in options {
                let dashes = o.name.count == 1 ? "-" : "--"
                let left = o.arity == .flag ? "\(dashes)\(o.name)" : "\(dashes)\(o.name) \(o.valueName)"
                lines.append("  " + left.padding(toLength: max(24, left.count + 2), withPad: " ", startingAt: 0) + o.help)
            }
            lines.append("  --help                  Show this help.")
        }
        if !details.isEmpty {
            lines.append("")
            lines.append(details)
        }
        return lines.joined(separator: "\n")
    }
}

/// A usage mistake: the command exits 2 (HTTP: 400) and says what to fix.
package struct UsageError: Error {
    package var message: String
    package init(message: String) { self.message = message }
}

/// Parsed options: positionals, options with values, flags.
package struct Arguments {
    package var positionals: [String] = []
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var wantsHelp = false

    /// Options by name, as the HTTP service receives them (query parameters,
    /// JSON members): each name must be one of `spec`'s; a flag's value is
    /// empty, `1` or `true` (given) or `0` or `false` (not given).
    package init(named pairs: [(String, String)], spec: CommandSpec) throws(UsageError) {
        let byName = Dictionary(spec.options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, value) in pairs {
            guard let option = byName[name] else {
                throw UsageError(message: "unknown parameter \"\(name)\" (known: \(spec.options.map(\.name).sorted().joined(separator: ", ")))")
            }
            switch option.arity {
            case .flag:
                switch value {
                case "", "1", "true": flags.insert(name)
                case "0", "false": continue
                default: throw UsageError(message: "\(name) is a flag: give it as \(name), \(name)=1 or \(name)=true")
                }
            case .value:
                if values[name] != nil { throw UsageError(message: "\(name) given more than once") }
                values[name] = [value]
            case .values:
                values[name, default: []].append(value)
            }
        }
    }

    package init(_ args: [String], spec: CommandSpec) throws(UsageError) {
        var i = 0
        let byName = Dictionary(spec.options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if !onlyPositionals, a == "-o" {
                guard let option = byName["o"] else { throw UsageError(message: "unknown option -o") }
                guard i < args.count else { throw UsageError(message: "-o needs a value (\(option.valueName))") }
                if values["o"] != nil { throw UsageError(message: "-o given more than once") }
                values["o"] = [args[i]]
                i += 1
                continue
            }
            if !onlyPositionals && a == "-h" { wantsHelp = true; continue }
            // `-q` is `--quiet` wherever a command has it.
            if !onlyPositionals && a == "-q", byName["quiet"] != nil { flags.insert("quiet"); continue }
            if !onlyPositionals && a.hasPrefix("-") && !a.hasPrefix("--") && a != "-" && Double(a) == nil {
                throw UsageError(message: "unknown option \(a) (options are spelled --name, or -o)")
            }
            if onlyPositionals || !a.hasPrefix("--") {
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            if a == "--help" { wantsHelp = true; continue }
            var name = String(a.dropFirst(2))
            var inline: String? = nil
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = byName[name] else {
                let hint = Suggestion.closest(to: name, in: spec.options.map(\.name).filter { $0.count > 1 }).map { " (did you mean --\($0)?)" } ?? ""
                throw UsageError(message: "unknown option --\(name)\(hint)")
            }
            switch option.arity {
            case .flag:
                if inline != nil { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            case .value, .values:
                var got: [String] = []
                if let inline {
                    got.append(inline)
                } else {
                    guard i < args.count, !args[i].hasPrefix("--") else {
                        throw UsageError(message: "--\(name) needs a value (\(option.valueName))")
                    }
                    got.append(args[i])
                    i += 1
                }
                if option.arity == .values {
                    while i < args.count, !args[i].hasPrefix("--") {
                        got.append(args[i])
                        i += 1
                    }
                } else if values[name] != nil {
                    throw UsageError(message: "--\(name) given more than once")
                }
                values[name, default: []].append(contentsOf: got)
            }
        }
    }

    package func value(_ name: String) -> String? { values[name]?.last }
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A number option within a range, or its default.
    package func double(_ name: String, default def: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = value(name) else { return def }
        guard let v = Arguments.number(text) else { throw UsageError(message: "--\(name) expects a number, got \"\(text)\"") }
        guard range.contains(v) else {
            throw UsageError(message: "--\(name) \(text) is outside \(Arguments.format(range.lowerBound))…\(Arguments.format(range.upperBound))")
        }
        return v
    }

    /// One of an enumeration's cases by its name, or `def` when not given;
    /// the error lists every case.
    package func choice<E: CaseIterable & RawRepresentable>(_ name: String, default def: E) throws(UsageError) -> E where E.RawValue == String {
        guard let text = value(name) else { return def }
        guard let v = E(rawValue: text) else {
            throw UsageError(message: "--\(name) expects \(Words.or(E.allCases.map(\.rawValue))), got \"\(text)\"")
        }
        return v
    }

    /// A whole-number option within `range`, or nil when not given.
    package func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(message: "--\(name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return v
    }

    /// A pair option `X,Y`, or nil when absent.
    package func pair(_ name: String) throws(UsageError) -> (Double, Double)? {
        guard let text = value(name) else { return nil }
        return try Arguments.parsePair(text, option: name)
    }

    /// Coordinates and sizes beyond this many points are refused.
    package static let maxCoordinate = PointsFile.maxCoordinate

    package static func parsePair(_ text: String, option: String) throws(UsageError) -> (Double, Double) {
        switch PointsFile.pair(text) {
        case .point(let x, let y): return (x, y)
        case .malformed: throw UsageError(message: "--\(option) expects X,Y (two numbers), got \"\(text)\"")
        case .outOfRange: throw UsageError(message: "--\(option) \(text): coordinates must be within ±\(Int(maxCoordinate))")
        }
    }

    /// A number typed by the user (see `PointsFile.number`).
    package static func number(_ text: String) -> Double? { PointsFile.number(text) }

    /// A number as short text: whole numbers without ".0".
    package static func format(_ v: Double) -> String { LayoutJSON.format(v) }
}

/// What the faces call the inputs a library error names (`{{selected}}`):
/// the CLI's flag and the service's query parameter, without the dashes.
package enum InputNames {
    package static func option(_ input: String) -> String {
        ["selected": "select", "highlighted": "highlight"][input] ?? input
    }
}

/// "Did you mean": the closest of some names to a mistyped one.
package enum Suggestion {
    /// A usage error for a word that is not one of `names`: "unknown WHAT
    /// "x" (did you mean "y"?; expected a, b or c)".
    package static func unknown(_ what: String, _ word: String, in names: [String]) -> UsageError {
        let hint = closest(to: word, in: names).map { "did you mean \"\($0)\"?; " } ?? ""
        return UsageError(message: "unknown \(what) \"\(word)\" (\(hint)expected \(Words.or(names)))")
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
