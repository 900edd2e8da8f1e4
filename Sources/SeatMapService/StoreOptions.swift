import Foundation
import SeatMapCore

/// The store option group: which inventory store and how long holds last. Declared once; `render`, `hit`, `select`,
/// `recommend`, `order`, `apply`, `show` and `serve` read it, and the HTTP
/// service checks `holdSeconds` against the same range.
package enum StoreOptions {
    package static let store = CommandSpec.Option.value(
        "store", "DB", "The inventory store: a SQLite file (created on first use) or a postgresql:// URL.")

    /// `--hold-ttl`, described for `what` holds.
    package static func holdTTL(_ what: String) -> CommandSpec.Option {
        CommandSpec.Option.value("hold-ttl", "SECONDS", "How long \(what) last without another select, \(HelpPhrases.range(HoldTime.range)) s (default \(Arguments.format(HoldTime.defaultSeconds))).")
            .json(.text, member: "holdSeconds")
    }

    /// `--hold-ttl`, checked against `HoldTime.range` (its default when not given).
    package static func holdSeconds(_ a: Arguments) throws(UsageError) -> TimeInterval {
        try a.double("hold-ttl", default: HoldTime.defaultSeconds, in: HoldTime.range)
    }

    /// A request's hold time (`holdSeconds` in JSON): within
    /// `HoldTime.range` and at most the service's own hold time `limit`
    /// (a buyer may shorten a hold, not lengthen it); nil when not given.
    package static func holdSeconds(_ a: Arguments, limit: TimeInterval) throws(UsageError) -> TimeInterval? {
        guard let text = a.value("hold-ttl") else { return nil }
        let top = min(limit, HoldTime.range.upperBound)
        guard let v = Arguments.number(text), v >= HoldTime.range.lowerBound, v <= top else {
            let why = top < HoldTime.range.upperBound ? " (the service's hold time)" : ""
            throw UsageError(message: "\(a.say("hold-ttl")): expected \(Arguments.format(HoldTime.range.lowerBound)) to \(Arguments.format(top)) seconds\(why), got \(text)")
        }
        return v
    }
}
