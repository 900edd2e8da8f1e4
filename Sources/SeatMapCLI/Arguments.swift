import Foundation
import SeatMapCore

/// A command's options, for parsing and for `--help`.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        enum Arity: Sendable { case flag, value, values }
        var name: String
        var arity: Arity
        var valueName: String
        var help: String

        static func flag(_ name: String, _ help: String) -> Option { Option(name: name, arity: .flag, valueName: "", help: help) }
        static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, arity: .value, valueName: valueName, help: help)
        }
        /// An option that takes one or more values, repeated or listed after it.
        static func values(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, arity: .values, valueName: valueName, help: help)
        }
    }

    var name: String
    var usage: String
    var summary: String
    var options: [Option]
    var details: String = ""

    var help: String {
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

/// A usage mistake: the command exits 2 and says what to fix.
struct UsageError: Error {
    var message: String
}

/// Parsed command-line arguments: positionals, options with values, flags.
struct Arguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    init(_ args: [String], spec: CommandSpec) throws(UsageError) {
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
                throw UsageError(message: "unknown option --\(name)")
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

    func value(_ name: String) -> String? { values[name]?.last }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A number option within a range, or its default.
    func double(_ name: String, default def: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = value(name) else { return def }
        guard let v = Arguments.number(text) else { throw UsageError(message: "--\(name) expects a number, got \"\(text)\"") }
        guard range.contains(v) else {
            throw UsageError(message: "--\(name) \(text) is outside \(Arguments.format(range.lowerBound))…\(Arguments.format(range.upperBound))")
        }
        return v
    }

    /// A pair option `X,Y`, or nil when absent.
    /// A whole-number option within `range`, or nil when not given.
    func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(message: "--\(name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return v
    }

    func pair(_ name: String) throws(UsageError) -> (Double, Double)? {
        guard let text = value(name) else { return nil }
        return try Arguments.parsePair(text, option: name)
    }

    /// Coordinates and sizes beyond this many points are refused.
    static let maxCoordinate = PointsFile.maxCoordinate

    static func parsePair(_ text: String, option: String) throws(UsageError) -> (Double, Double) {
        switch PointsFile.pair(text) {
        case .point(let x, let y): return (x, y)
        case .malformed: throw UsageError(message: "--\(option) expects X,Y (two numbers), got \"\(text)\"")
        case .outOfRange: throw UsageError(message: "--\(option) \(text): coordinates must be within ±\(Int(maxCoordinate))")
        }
    }

    /// A number typed by the user (see `PointsFile.number`).
    static func number(_ text: String) -> Double? { PointsFile.number(text) }

    /// A number as short text: whole numbers without ".0".
    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
