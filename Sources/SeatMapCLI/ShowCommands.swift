import Foundation
import SeatMapCore
import SeatMapService

extension SeatMapCLI {
    static let showCommand = Command(
        spec: CommandSpec(
            name: "show",
            usage: "show create --store DB --show SHOW --hall HALL.json [--rules JSON]  |  show status --store DB --show SHOW [--json]  |  show reserve|release|token --store DB --show SHOW --channel C [--seats ID,...] [--hall HALL.json]",
            summary: "Create a show (one performance of a hall, with its own inventory), report its state, or manage its sales channels.",
            options: [
                StoreOptions.store,
                .value("show", "SHOW", "The show's id: letters, digits, -, _ and . (not leading)."),
                .value("hall", "HALL.json", "create: the hall the show is of (its name is the file's base name); else the show's hall when it was created elsewhere."),
                .value("rules", "JSON", "create: sales rules for this show over the hall's, e.g. '{\"noOrphans\": \"enforce\", \"minPerOrder\": 2}'."),
                .value("channel", "C", "reserve, release, token: the sales channel (letters, digits, -, _ and .)."),
                .value("seats", "ID,...", "reserve: the seats to reserve for the channel."),
                StoreOptions.holdTTL("token: the channel token's holds"),
                .flag("json", "status, reserve, release, token: print JSON."),
            ],
            details: """
            create: the show starts with the hall's statuses (locked and sold seats, standing places left) and
            from then on owns its seats: holds by token, orders, status batches. Creating it again for the same
            hall changes nothing (exit 0, "exists"); for another hall, or with other --rules, it is an error (exit 1).
            --rules takes any of noOrphans, allowUnavoidable, consecutive, minPerOrder, maxSelectCount, tables
            (see the hall format's "rules"); the show keeps them from then on.
            status: seats sold, locked and held, each token's holds and expiry, orders, places per area, channels.
            reserve: only tokens of the channel may hold those seats; to everyone else they are locked (all or
            nothing: a sold or locked seat reserves none). release: every seat of the channel goes to the public
            at once. token: opens a token of the channel (the back office gives it to a sponsor, the press, the
            box office), printed; select and order take it like any other.
            Exit status 0, 1 bad input or store (no such show, another hall, a seat not reservable), 2 usage.
            """),
        run: { args, console in
            let subcommands = ["create", "status", "reserve", "release", "token"]
            guard let sub = args.positionals.first else { throw UsageError(message: "missing a subcommand: \(HelpPhrases.or(subcommands))") }
            guard subcommands.contains(sub) else { throw Suggestion.unknown("show subcommand", sub, in: subcommands) }
            guard let show = args.value("show") else { throw UsageError(message: "missing --show SHOW") }
            switch sub {
            case "create":
                _ = try positionals(args, ["create"])
                let r = try ShowRequests.create(args)
                if args.flag("json") { throw UsageError(message: "--json goes with status") }
                let service = try ShowInput.service(args, console)
                let (inv, created) = try service.create(show: show, plan: ShowInput.plan(r.hall), rules: r.rules, hallFile: ShowInput.absolute(r.hall))
                console.out("show \(show) of hall \(inv.hall): \(created ? "created" : "exists")")
                return 0
            case "reserve", "release", "token":
                _ = try positionals(args, [sub])
                guard let channel = args.value("channel") else { throw UsageError(message: "missing --channel C") }
                if args.value("rules") != nil { throw UsageError(message: "--rules goes with create") }
                let action = try ShowRequests.channel(args, action: sub)
                let service = try ShowInput.service(args, console)
                let plan = try ShowInput.plan(ofShow: show, service, args)
                if case .token(let ttl) = action {
                    let (token, expiry) = try service.openChannelToken(show: show, channel: channel, plan: plan, ttl: ttl)
                    console.out(args.flag("json")
                        ? JSONWriter.write(.object([("show", .string(show)), ("channel", .string(channel)), ("token", .string(token)),
                                                    ("expiresAt", .string(ShowJSON.time(expiry)))]), pretty: false)
                        : "token: \(token) (channel \(channel), held until \(ShowJSON.time(expiry)))")
                    return 0
                }
                var ids: [SeatID] = []
                if case .reserve(let seats) = action { ids = try service.reserve(show: show, channel: channel, seats: seats, plan: plan) }
                if action == .release { ids = try service.releaseChannel(show: show, channel: channel, plan: plan) }
                let word = sub == "release" ? "released" : "reserved"
                console.out(args.flag("json")
                    ? JSONWriter.write(.object([("show", .string(show)), ("channel", .string(channel)), (word, .array(ids.map { .string($0.description) }))]), pretty: false)
                    : "channel \(channel) of show \(show): \(ids.count) seats \(word)\(ids.isEmpty ? "" : ": " + ids.map(\.description).joined(separator: " "))")
                return 0
            case "status":
                _ = try positionals(args, ["status"])
                if args.value("hall") != nil { throw UsageError(message: "--hall goes with create") }
                for name in ["rules", "channel", "seats", "hold-ttl"] where args.value(name) != nil {
                    throw UsageError(message: "--\(name) does not go with status")
                }
                let service = try ShowInput.service(args, console)
                var inv = try service.inventory(show)
                let now = Date()
                inv.releaseExpired(now: now)
                if args.flag("json") {
                    console.out(JSONWriter.write(ShowJSON.status(inv, now: now), pretty: false))
                    return 0
                }
                var sold = 0, locked = 0, held = 0
                for state in inv.seats.values {
                    switch state {
                    case .sold: sold += 1
                    case .locked: locked += 1
                    case .held: held += 1
                    }
                }
                var lines = ["show \(show) of hall \(inv.hall): \(sold) sold, \(locked) locked, \(held) held; \(inv.orders.count) orders, \(inv.batchIds.count) batches"]
                for t in inv.tokens.keys.sorted() {
                    let seats = inv.heldSeats(of: t).map(\.description) + inv.heldPlaces(of: t).sorted(by: { $0.key < $1.key }).map { "area:\($0.key)=\($0.value)" }
                    lines.append("hold \(t) until \(ShowJSON.time(inv.tokens[t] ?? now)): \(seats.joined(separator: " "))")
                }
                for (id, o) in inv.orders.sorted(by: { $0.key < $1.key }) {
                    lines.append("order \(id): \((o.seats.map(\.description) + o.areas.sorted(by: { $0.key < $1.key }).map { "area:\($0.key)=\($0.value)" }).joined(separator: " "))")
                }
                for a in inv.areaAvailable.keys.sorted() {
                    lines.append("area \(a): \(inv.areaAvailable[a] ?? 0) for sale, \((inv.areaHolds[a] ?? [:]).values.reduce(0, +)) held")
                }
                for c in inv.channelCounts { lines.append("channel \(c.channel): \(c.seats) seats reserved") }
                console.out(lines.joined(separator: "\n"))
                return 0
            default:
                throw Suggestion.unknown("show subcommand", sub, in: subcommands)
            }
        })

    static let orderCommand = Command(
        spec: CommandSpec(
            name: "order",
            usage: "order --store DB --show SHOW --token T --order-id ID [--seats ID,...] [--hall HALL.json] [--json]",
            summary: "Sell a token's held seats and places in one transaction, all or nothing.",
            options: [
                StoreOptions.store,
                .value("show", "SHOW", "The show."),
            ] + ShowRequests.order + [
                .value("hall", "HALL.json", "The show's hall, for its sales rules (default: the file the show was created from)."),
                .flag("json", "Print {show, orderId, sold, areas, repeated}."),
            ],
            details: """
            The holds must keep the show's sales rules set to be enforced (no single empty seat, consecutive
            seats, the minimum per order, standing areas' minimum and maximum): a broken one sells nothing and
            the error names the rule and the seats.
            Exit status 0 sold (or the order id's first answer again), 1 nothing sold: the token holds nothing
            (never selected, expired, already ordered), an expected seat is no longer held, the order id is
            another token's, the holds break an enforced rule, no such show; 2 usage.
            """),
        run: { args, console in
            _ = try positionals(args, [])
            guard let show = args.value("show") else { throw UsageError(message: "missing --show SHOW") }
            let r = try ShowRequests.order(args)
            let orderId = r.orderId
            let service = try ShowInput.service(args, console)
            let answer = try service.order(show: show, token: r.token, orderId: orderId, expecting: r.seats,
                                           plan: ShowInput.plan(ofShow: show, service, args))
            if args.flag("json") {
                console.out(JSONWriter.write(ShowJSON.order(answer, show: show), pretty: false))
            } else {
                let what = answer.order.seats.map(\.description) + answer.order.areas.sorted(by: { $0.key < $1.key }).map { "area:\($0.key)=\($0.value)" }
                console.out("order \(orderId): \(answer.repeated ? "already placed" : "sold") \(what.joined(separator: " "))")
            }
            return 0
        })
}
