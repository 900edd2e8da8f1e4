import Foundation
import SeatMapCore
import SeatMapLayout

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
            throw UsageError(message: "--\(name) expects \(HelpPhrases.or(E.allCases.map(\.rawValue))), got \"\(text)\"")
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
