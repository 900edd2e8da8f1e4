import Foundation
import SeatMapCore
import SeatMapLayout

/// The show use cases' requests, each decoded once from `Arguments` —
/// the command line's flags, a query string or a JSON body, read against
/// the same option table — with the same limits on every face. Errors name
/// the input as its face says it (`--hold-ttl`, `holdSeconds`).
package enum ShowRequests {
    package static let token = CommandSpec.Option.value("token", "T", "The buyer's hold token (from an earlier select; default: a new one).")

    // MARK: Select

    /// Select's options (the command line adds FILE, --store, --show, --json).
    package static let select: [CommandSpec.Option] = [
        CommandSpec.Option.value("toggle", "ID,...", "Seat ids to toggle, in order (table:GROUP toggles a whole table or box).").json(.list),
        CommandSpec.Option.values("area", "AREA=N", "Take N places in a standing area (0 gives them back); repeat for several.").json(.map),
        CommandSpec.Option.values("type", "ID=TYPE", "The ticket type of a selected seat (its category's; default the first); repeat for several.")
            .json(.map, member: "types"),
        token,
        StoreOptions.holdTTL("the token's holds"),
        .flag("no-single-seat-rule", "Do not report single empty seats where the hall only warns of them (noOrphans \"warn\")."),
        LocaleOptions.option,
    ]

    /// A select: toggles, places and ticket types for a token, checked
    /// against the limits every face shares; `holdLimit` is the longest
    /// hold the face may ask for.
    package static func select(_ a: Arguments, show: String, holdLimit: TimeInterval, address: String? = nil) throws(UsageError) -> ShowService.SelectRequest {
        let toggles = a.list("toggle") ?? []
        var areas: [(String, Int)] = []
        for (area, text) in try a.entries("area", lastEquals: true, expects: "AREA=N with a whole number N ≥ 0") ?? [] {
            guard DecodeContext.isDecimalNumber(text), let n = Int(text) else {
                throw UsageError(message: "\(a.say("area")) \(area): expected a whole number of places from 0 to \(ShowService.maxPlaces), got \(text)")
            }
            areas.append((area, n))
        }
        let types = try a.entries("type", expects: "ID=TYPE (a seat and one of its category's ticket types)") ?? []
        if let bad = types.first(where: { $0.1.isEmpty }) {
            throw UsageError(message: "\(a.say("type")) \(bad.0): expected a ticket type's name")
        }
        try ShowService.checkSelectSizes(toggles: toggles.count, types: types.count, places: areas.map(\.1), say: a.say)
        let token = a.value("token")
        guard !toggles.isEmpty || !areas.isEmpty || !types.isEmpty || token != nil else {
            throw UsageError(message: "missing \(a.say("toggle")): 1 to \(ShowService.maxNamedSeats) seat ids (or \(a.say("area")), or \(a.say("token")) to read its holds back)")
        }
        return ShowService.SelectRequest(show: show, token: token, toggles: toggles, areas: areas, types: types,
                                         ttl: try StoreOptions.holdSeconds(a, limit: holdLimit),
                                         singleSeatRule: !a.flag("no-single-seat-rule"), address: address)
    }

    // MARK: Best available

    /// Best available's options beyond the search's (the command line adds FILE, --store, --show, --json).
    package static let best: [CommandSpec.Option] = BestAvailableOptions.table + [
        CommandSpec.Option.value("token", "T", "The buyer's hold token (its seats are replaced by the answer; default: a new one)."),
        StoreOptions.holdTTL("the holds"),
        LocaleOptions.option,
    ]

    package struct Best {
        package var request: Recommender.Request
        package var token: String?
        package var ttl: TimeInterval?
    }

    package static func best(_ a: Arguments, holdLimit: TimeInterval) throws(UsageError) -> Best {
        Best(request: try BestAvailableOptions.request(a), token: a.value("token"), ttl: try StoreOptions.holdSeconds(a, limit: holdLimit))
    }

    // MARK: Order

    package static let order: [CommandSpec.Option] = [
        CommandSpec.Option.value("token", "T", "The buyer's hold token (from select)."),
        CommandSpec.Option.value("order-id", "ID", "The order's id (1–128 visible characters): repeating it answers the first order again and sells nothing more."),
        CommandSpec.Option.value("seats", "ID,...", "The seats the buyer expects to buy: if any is no longer held by the token, nothing is sold.").json(.list),
    ]

    package struct Order {
        package var token: String
        package var orderId: String
        /// The seats the buyer expects to buy, when said.
        package var seats: [SeatID]?
    }

    package static func order(_ a: Arguments) throws(UsageError) -> Order {
        guard let token = a.value("token") else { throw UsageError(message: "missing \(a.say("token")): the buyer's hold token") }
        guard let orderId = a.value("order-id") else {
            throw UsageError(message: "missing \(a.say("order-id")): the order's id (repeating it sells nothing more)")
        }
        var seats: [SeatID]? = nil
        if let ids = a.list("seats") {
            let bad = ids.filter { SeatID($0) == nil }
            if ids.isEmpty || !bad.isEmpty {
                throw UsageError(message: "\(a.say("seats")) expects seat ids such as 1-3-5,1-3-6\(bad.isEmpty ? "" : ", got \(bad.sorted().joined(separator: ", "))")")
            }
            seats = ids.compactMap(SeatID.init).sorted()
        }
        return Order(token: token, orderId: orderId, seats: seats)
    }

    // MARK: Shows and channels

    /// Creating a show: its hall (a name over HTTP, a file on the command line) and rules.
    package static let create: [CommandSpec.Option] = [
        .value("hall", "HALL", "The hall the show is of."),
        CommandSpec.Option.value("rules", "JSON", "Sales rules for this show over the hall's, e.g. '{\"noOrphans\": \"enforce\", \"minPerOrder\": 2}'.").json(.object),
    ]

    package struct Create {
        package var hall: String
        package var rules: JSONNode?
    }

    package static func create(_ a: Arguments) throws(UsageError) -> Create {
        guard let hall = a.value("hall") else { throw UsageError(message: "missing \(a.say("hall")): the hall's \(a.face == .commandLine ? "file" : "name")") }
        return Create(hall: hall, rules: try a.object("rules"))
    }

    /// What the back office does with a sales channel.
    package enum Channel: Equatable {
        /// Reserve these seats for the channel.
        case reserve([String])
        /// Give every seat of the channel to the public.
        case release
        /// Open a token of the channel for a buyer, held this long (nil: the service's hold time).
        case token(TimeInterval?)
    }

    package static let channel: [CommandSpec.Option] = [
        CommandSpec.Option.value("seats", "ID,...", "reserve: the seats to reserve for the channel.").json(.list),
        .flag("release", "Give every seat of the channel to the public at once."),
        CommandSpec.Option.flag("token", "Open a token of the channel for a buyer."),
        StoreOptions.holdTTL("token: the channel token's holds"),
    ]

    /// The channel action: `action` names it (the command line's
    /// subcommand), else the one of `seats`, `release` and `token` given.
    package static func channel(_ a: Arguments, action: String? = nil) throws(UsageError) -> Channel {
        let seatsGiven = a.given("seats")
        let chosen: String
        if let action {
            chosen = action
        } else {
            let named = [seatsGiven ? "reserve" : nil, a.flag("release") ? "release" : nil, a.flag("token") ? "token" : nil].compactMap { $0 }
            guard named.count == 1, let one = named.first else {
                throw UsageError(message: "expected one of \(a.say("seats")) (reserve), \(a.say("release")) or \(a.say("token"))")
            }
            chosen = one
        }
        if seatsGiven != (chosen == "reserve") {
            throw UsageError(message: chosen == "reserve" ? "missing \(a.say("seats")) ID,..." : "\(a.say("seats")) goes with reserve")
        }
        if a.given("hold-ttl") && chosen != "token" { throw UsageError(message: "\(a.say("hold-ttl")) goes with token") }
        switch chosen {
        case "reserve":
            let ids = a.list("seats") ?? []
            guard ids.count <= 100_000 else { throw UsageError(message: "\(a.say("seats")): expected at most 100000 seat ids") }
            return .reserve(Array(Set(ids)).sorted())
        case "release": return .release
        default:
            // The back office sets a channel token's hold time within the whole range.
            return .token(try StoreOptions.holdSeconds(a, limit: HoldTime.range.upperBound))
        }
    }

    // MARK: Reading a show

    /// A show's seats as a buyer sees them: the token, and a long poll's wait and sequence.
    package static let seats: [CommandSpec.Option] = [
        CommandSpec.Option.value("token", "T", "The buyer's token: its holds are answered as selected."),
        .value("wait", "SECONDS", "With If-None-Match or since: wait up to 1 to 30 seconds for a change."),
        .value("since", "N", "Only the seats changed after the show's change sequence N."),
    ]

    package struct Seats {
        package var token: String?
        /// How long a long poll waits (0: answer at once).
        package var wait: TimeInterval
        package var since: Int?
    }

    package static func seats(_ a: Arguments) throws(UsageError) -> Seats {
        Seats(token: a.value("token"), wait: a.given("wait") ? try a.double("wait", default: 0, in: 1...30) : 0,
              since: try a.int("since", in: 0...Int.max))
    }

    /// A show's image or picker: a buyer's token beside the render options.
    package static let viewer = CommandSpec.Option.value("token", "T", "The buyer's token: its holds are drawn selected.")

    /// The buyer a show's image is drawn for.
    package static func viewer(_ a: Arguments) -> String? { a.value("token") }

    // MARK: Hits

    /// The hit request's members beyond the geometry and view options.
    package static let points = CommandSpec.Option.value("points", "[[x, y], ...]", "The view points to hit-test (1 to 10000).").json(.pairs)

    package struct Hit {
        /// The geometry and view options (`TapView` reads them against the hall).
        package var view: Arguments
        package var points: [ViewPoint]
        package var token: String?
    }

    package static func hit(_ a: Arguments) throws(UsageError) -> Hit {
        guard let points = try a.points("points", most: 10_000) else { throw UsageError(message: "missing \(a.say("points")): [[x, y], ...]") }
        return Hit(view: a, points: points, token: a.value("token"))
    }
}
