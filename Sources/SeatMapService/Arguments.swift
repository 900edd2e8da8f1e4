import Foundation
import SeatMapCore
import SeatMapLayout

/// Where a request's inputs come from: each face names them its own way
/// (`--zoom` on the command line, `zoom` in a query, `holdSeconds` in JSON).
package enum InputFace: Sendable {
    case commandLine, query, json
}

/// A request's inputs, decoded once from argv, a query string or a JSON
/// body against an option table: positionals, options with values, flags,
/// and (from JSON) structured values kept as JSON. The typed requests read
/// them through the accessors below, whose errors name the input as the
/// face does.
package struct Arguments {
    package var positionals: [String] = []
    package var values: [String: [String]] = [:]
    package var flags: Set<String> = []
    package var wantsHelp = false
    package var face: InputFace = .commandLine
    /// JSON values of lists, pairs, maps and objects, by option name.
    package var nodes: [String: JSONNode] = [:]
    /// Option name → JSON member name, for the JSON face's errors.
    var memberNames: [String: String] = [:]

    /// No inputs: every option at its default.
    package init(face: InputFace = .commandLine) { self.face = face }

    /// An input as this face names it: `--select`, `select`, `holdSeconds`.
    /// Library inputs (`selected`) are said as the option that gives them.
    package func say(_ name: String) -> String {
        let option = InputNames.option(name)
        switch face {
        case .commandLine: return option.count == 1 ? "-" + option : "--" + option
        case .query: return option
        case .json: return memberNames[option] ?? InputNames.member(option)
        }
    }

    /// Options by name, as query parameters: each name must be one of
    /// `spec`'s; a flag's value is empty, `1` or `true` (given) or `0` or
    /// `false` (not given).
    package init(named pairs: [(String, String)], spec: CommandSpec) throws(UsageError) {
        face = .query
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

    /// Options as a JSON body's members (names camel-cased, see
    /// `CommandSpec.Option.memberName`), each of the option's shape.
    package init(json members: [JSONMember], spec: CommandSpec) throws(UsageError) {
        face = .json
        var byMember: [String: CommandSpec.Option] = [:]
        for o in spec.options {
            byMember[o.memberName] = o
            memberNames[o.name] = o.memberName
        }
        guard members.count <= 64 else { throw UsageError(message: "too many members (\(members.count); at most 64)") }
        for m in members {
            guard let o = byMember[m.key] else {
                throw UsageError(message: "unknown member \"\(m.key)\" (known: \(byMember.keys.sorted().joined(separator: ", ")))")
            }
            if o.arity == .flag {
                guard case .bool(let b) = m.node.value else { throw UsageError(message: "\(m.key): expected true or false") }
                if b != o.negated { flags.insert(o.name) }
                continue
            }
            switch (o.shape, m.node.value) {
            case (.text, .string(let text)), (.text, .number(let text)), (.pair, .string(let text)):
                values[o.name] = [text]
            case (.list, .array(let items)):
                for (i, item) in items.enumerated() {
                    guard case .string(let text) = item.value, !text.isEmpty else {
                        throw UsageError(message: "\(m.key)[\(i)]: expected a non-empty string")
                    }
                }
                nodes[o.name] = m.node
            case (.pair, .array), (.pairs, .array), (.object, .object):
                nodes[o.name] = m.node
            case (.map, .object(let entries)):
                for e in entries {
                    switch e.node.value {
                    case .string, .number: continue
                    default: throw UsageError(message: "\(m.key).\(e.key): expected a string or a number")
                    }
                }
                nodes[o.name] = m.node
            default:
                let expected: String
                switch o.shape {
                case .text: expected = "a string or a number"
                case .list: expected = "an array of strings"
                case .pair: expected = "[x, y] numbers"
                case .map, .object: expected = "an object"
                case .pairs: expected = "an array of [x, y] pairs"
                }
                throw UsageError(message: "\(m.key): expected \(expected)")
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
    /// Whether the option was given at all.
    package func given(_ name: String) -> Bool { values[name] != nil || nodes[name] != nil || flags.contains(name) }

    /// A number option within a range, or its default.
    package func double(_ name: String, default def: Double, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = value(name) else { return def }
        guard let v = Arguments.number(text) else { throw UsageError(message: "\(say(name)) expects a number, got \"\(text)\"") }
        guard range.contains(v) else {
            throw UsageError(message: "\(say(name)) \(text) is outside \(Arguments.format(range.lowerBound))…\(Arguments.format(range.upperBound))")
        }
        return v
    }

    /// One of an enumeration's cases by its name, or `def` when not given;
    /// the error lists every case.
    package func choice<E: CaseIterable & RawRepresentable>(_ name: String, default def: E) throws(UsageError) -> E where E.RawValue == String {
        guard let text = value(name) else { return def }
        guard let v = E(rawValue: text) else {
            throw UsageError(message: "\(say(name)) expects \(HelpPhrases.or(E.allCases.map(\.rawValue))), got \"\(text)\"")
        }
        return v
    }

    /// A whole-number option within `range`, or nil when not given.
    package func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard DecodeContext.isDecimalNumber(text), let v = Int(text), range.contains(v) else {
            throw UsageError(message: "\(say(name)) expects a whole number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return v
    }

    /// A pair option (`X,Y`, or `[x, y]` in JSON), or nil when absent.
    package func pair(_ name: String) throws(UsageError) -> (Double, Double)? {
        if let node = nodes[name] { return try pair(node, input: say(name)) }
        guard let text = value(name) else { return nil }
        return try Arguments.parsePair(text, input: say(name))
    }

    /// A list option: `A,B,...` (repeatable: every value's items), or a
    /// JSON array of strings; nil when absent.
    package func list(_ name: String) -> [String]? {
        if let node = nodes[name], case .array(let items) = node.value {
            return items.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
        }
        guard let texts = values[name] else { return nil }
        return texts.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }

    /// A map option: `K=V` items (repeatable, comma-separated; split at the
    /// last `=` when `lastEquals`, else the first), or a JSON object of
    /// strings and numbers; nil when absent. `expects` says what an item is.
    package func entries(_ name: String, lastEquals: Bool = false, expects: String) throws(UsageError) -> [(String, String)]? {
        if let node = nodes[name], case .object(let members) = node.value {
            return members.compactMap { m in
                switch m.node.value {
                case .string(let s), .number(let s): return (m.key, s)
                default: return nil
                }
            }
        }
        guard let texts = values[name] else { return nil }
        var out: [(String, String)] = []
        for text in texts {
            for part in text.split(separator: ",") {
                guard let eq = lastEquals ? part.lastIndex(of: "=") : part.firstIndex(of: "="), eq != part.startIndex,
                      part.index(after: eq) != part.endIndex else {
                    throw UsageError(message: "\(say(name)) expects \(expects), got \"\(part)\"")
                }
                out.append((String(part[..<eq]), String(part[part.index(after: eq)...])))
            }
        }
        return out
    }

    /// An object option: a JSON object (JSON text on the command line), or nil when absent.
    package func object(_ name: String) throws(UsageError) -> JSONNode? {
        if let node = nodes[name] { return node }
        guard let text = value(name) else { return nil }
        let node: JSONNode
        do { node = try JSONParser.parse(Array(text.utf8)) } catch {
            throw UsageError(message: "\(say(name)) is not JSON: \(error.message)")
        }
        guard case .object = node.value else { throw UsageError(message: "\(say(name)) expects a JSON object") }
        return node
    }

    /// A pairs option: a JSON array of 1 to `most` `[x, y]` pairs, or nil when absent.
    package func points(_ name: String, most: Int) throws(UsageError) -> [ViewPoint]? {
        guard let node = nodes[name] else { return nil }
        guard case .array(let items) = node.value, !items.isEmpty, items.count <= most else {
            throw UsageError(message: "\(say(name)): expected an array of 1 to \(most) [x, y] pairs")
        }
        var out: [ViewPoint] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let (x, y) = try pair(item, input: "\(say(name))[\(i)]")
            out.append(ViewPoint(x, y))
        }
        return out
    }

    func pair(_ node: JSONNode, input: String) throws(UsageError) -> (Double, Double) {
        guard case .array(let xy) = node.value, xy.count == 2, case .number(let x) = xy[0].value, case .number(let y) = xy[1].value else {
            throw UsageError(message: "\(input): expected [x, y] numbers")
        }
        return try Arguments.checked(PointsFile.pair(x: x, y: y), text: "[\(x), \(y)]", input: input)
    }

    /// Coordinates and sizes beyond this many points are refused.
    package static let maxCoordinate = PointsFile.maxCoordinate

    /// `X,Y` text as two numbers; errors name `input` as the face says it (`--offset`).
    package static func parsePair(_ text: String, input: String) throws(UsageError) -> (Double, Double) {
        try checked(PointsFile.pair(text), text: "\"\(text)\"", input: input)
    }

    static func checked(_ pair: PointsFile.Pair, text: String, input: String) throws(UsageError) -> (Double, Double) {
        switch pair {
        case .point(let x, let y): return (x, y)
        case .malformed: throw UsageError(message: "\(input) expects X,Y (two numbers), got \(text)")
        case .outOfRange: throw UsageError(message: "\(input) \(text): coordinates must be within ±\(Int(maxCoordinate))")
        }
    }

    /// A number typed by the user (see `PointsFile.number`).
    package static func number(_ text: String) -> Double? { PointsFile.number(text) }

    /// A number as short text: whole numbers without ".0".
    package static func format(_ v: Double) -> String { LayoutJSON.format(v) }
}
