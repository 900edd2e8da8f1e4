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
        .value("hold-ttl", "SECONDS", "How long \(what) last without another select, \(HelpPhrases.range(HoldTime.range)) s (default \(Arguments.format(HoldTime.defaultSeconds))).")
    }

    /// `--hold-ttl`, checked against `HoldTime.range` (its default when not given).
    package static func holdSeconds(_ a: Arguments) throws(UsageError) -> TimeInterval {
        try a.double("hold-ttl", default: HoldTime.defaultSeconds, in: HoldTime.range)
    }

    /// A request's `holdSeconds`: within `HoldTime.range` and at most the
    /// service's own hold time `limit` (a buyer may shorten a hold, not
    /// lengthen it).
    package static func holdSeconds(request text: String, limit: TimeInterval) throws(UsageError) -> TimeInterval {
        let top = min(limit, HoldTime.range.upperBound)
        guard let v = Arguments.number(text), v >= HoldTime.range.lowerBound, v <= top else {
            throw UsageError(message: "holdSeconds: expected \(Arguments.format(HoldTime.range.lowerBound)) to \(Arguments.format(top)) seconds (the service's hold time), got \(text)")
        }
        return v
    }
}
