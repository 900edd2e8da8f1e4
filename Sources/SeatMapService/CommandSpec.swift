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
