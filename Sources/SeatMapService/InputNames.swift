import Foundation

/// What the faces call the inputs a library error names (`{{selected}}`):
/// the CLI's flag and the service's query parameter, without the dashes.
package enum InputNames {
    package static func option(_ input: String) -> String {
        ["selected": "select", "highlighted": "highlight"][input] ?? input
    }

    /// An option's name as a JSON member: `price-max` → `priceMax`.
    package static func member(_ option: String) -> String {
        guard option.utf8.contains(UInt8(ascii: "-")) else { return option }
        // Option names are ASCII: each letter after a dash upper-cased, the dashes dropped.
        var out: [UInt8] = []
        out.reserveCapacity(option.utf8.count)
        var upper = false
        for c in option.utf8 {
            if c == UInt8(ascii: "-") {
                upper = !out.isEmpty
                continue
            }
            out.append(upper && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) ? c - 32 : c)
            upper = false
        }
        return String(decoding: out, as: UTF8.self)
    }
}
