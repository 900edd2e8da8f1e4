import Foundation

/// What the faces call the inputs a library error names (`{{selected}}`):
/// the CLI's flag and the service's query parameter, without the dashes.
package enum InputNames {
    package static func option(_ input: String) -> String {
        ["selected": "select", "highlighted": "highlight"][input] ?? input
    }

    /// An option's name as a JSON member: `price-max` → `priceMax`.
    package static func member(_ option: String) -> String {
        let parts = option.split(separator: "-")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }
}
