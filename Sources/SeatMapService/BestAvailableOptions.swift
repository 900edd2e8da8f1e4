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

    /// The request the options give; errors name them as the face does (`--count`, `count`).
    package static func request(_ a: Arguments) throws(UsageError) -> Recommender.Request {
        guard let count = try a.int("count", in: countRange) else { throw UsageError(message: "missing \(a.say("count")): how many seats") }
        var request = Recommender.Request(count: count, category: a.value("category"), section: a.value("section"),
                                          level: try a.int("level", in: levelRange),
                                          accessible: try a.int("accessible", in: accessibleRange) ?? 0, together: a.flag("together"))
        if let text = a.value("price-max") {
            guard let p = DecodeContext.exactDecimal(text), p >= 0 else { throw UsageError(message: "\(a.say("price-max")) expects a price ≥ 0, got \"\(text)\"") }
            request.priceMax = p
        }
        return request
    }
}
