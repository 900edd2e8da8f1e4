import SeatMapCore

/// The best-available request as one option group: names, help, ranges and
/// checks. The CLI reads it as flags (`recommend --count 4 --price-max
/// 40`), the HTTP service as JSON members of `POST /shows/SHOW/best`
/// (`{"count": 4, "priceMax": 40}`: the same names, camel-cased).
package enum BestAvailableOptions {
    package static let countRange = 1...1_000_000
    package static let levelRange = -1_000_000...1_000_000
    package static let accessibleRange = 0...1_000_000

    package static let table: [CommandSpec.Option] = [
        .value("count", "N", "How many seats, 1…maxSelectCount."),
        .value("category", "C", "Only seats of this category."),
        .value("section", "S", "Only seats of this section (its id or name)."),
        .value("level", "L", "Only seats on this level."),
        .value("accessible", "N", "N of the seats are wheelchair or companion seats (default 0: none are)."),
        .value("price-max", "P", "Only seats costing at most P each."),
        .flag("together", "One row only: no split across rows, no seats apart."),
    ]

    /// The option named by a JSON member (`priceMax` → `price-max`), or nil.
    package static func option(member: String) -> CommandSpec.Option? {
        table.first { InputNames.member($0.name) == member }
    }

    /// The request the options give: `value` and `flag` read an option by
    /// its name, `say` names it as the face does (`--count`, `count`).
    package static func request(value: (String) -> String?, flag: (String) -> Bool,
                                say: (String) -> String) throws(UsageError) -> Recommender.Request {
        func whole(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = value(name) else { return nil }
            guard DecodeContext.isDecimalNumber(text), let v = Int(text), range.contains(v) else {
                throw UsageError(message: "\(say(name)) expects a whole number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
            }
            return v
        }
        guard let count = try whole("count", countRange) else { throw UsageError(message: "missing \(say("count")): how many seats") }
        var request = Recommender.Request(count: count, category: value("category"), section: value("section"),
                                          level: try whole("level", levelRange),
                                          accessible: try whole("accessible", accessibleRange) ?? 0, together: flag("together"))
        if let text = value("price-max") {
            guard let p = DecodeContext.exactDecimal(text), p >= 0 else { throw UsageError(message: "\(say("price-max")) expects a price ≥ 0, got \"\(text)\"") }
            request.priceMax = p
        }
        return request
    }
}
