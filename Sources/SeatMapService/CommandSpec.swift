import Foundation

/// A command's options, for parsing and for `--help`: the one table a
/// face reads (the CLI from argv, the HTTP service from query parameters
/// and JSON members, by the same names).
package struct CommandSpec: Sendable {
    package struct Option: Sendable {
        package enum Arity: Sendable { case flag, value, values }
        /// What a value is in a JSON body (on the command line and in a
        /// query it is text: `A,B`, `X,Y`, `K=V`, a JSON text).
        package enum Shape: Sendable {
            /// A string or a number.
            case text
            /// An array of strings (`A,B,...` as text).
            case list
            /// `[x, y]` (`X,Y` as text).
            case pair
            /// An object of strings or numbers (`K=V` as text, repeated or comma-separated).
            case map
            /// Any JSON object (JSON text on the command line).
            case object
            /// An array of `[x, y]` pairs (JSON only).
            case pairs
        }
        package var name: String
        package var arity: Arity
        package var valueName: String
        package var help: String
        package var shape: Shape = .text
        /// Its name as a JSON member when not the name camel-cased
        /// (`hold-ttl` is `holdSeconds`). A flag `no-X` is the member `X`
        /// camel-cased, `false` giving it.
        package var member: String? = nil

        /// The option with its JSON shape and member name.
        package func json(_ shape: Shape, member: String? = nil) -> Option {
            var o = self
            o.shape = shape
            o.member = member ?? self.member
            return o
        }

        /// Its JSON member's name.
        package var memberName: String {
            if let member { return member }
            if negated { return InputNames.member(String(name.dropFirst(3))) }
            return InputNames.member(name)
        }

        /// A flag `no-X` read from the JSON member `X` (`false` gives it).
        package var negated: Bool { member == nil && arity == .flag && name.hasPrefix("no-") }

        /// The option read from JSON by its own name (`pin-row-labels`), not camel-cased.
        package var namedAsIs: Option { json(shape, member: name) }

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
