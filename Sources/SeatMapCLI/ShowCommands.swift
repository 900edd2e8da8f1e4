import Foundation
import SeatMapCore
import SeatMapService

extension SeatMapCLI {
    static let showCommand = Command(
        spec: CommandSpec(
            name: "show",
            usage: "show create --store DB --show SHOW --hall HALL.json  |  show status --store DB --show SHOW [--json]",
            summary: "Create a show (one performance of a hall, with its own inventory) or report its state.",
            options: [
                .value("store", "DB", "The inventory store (SQLite file, created on first use)."),
                .value("show", "SHOW", "The show's id: letters, digits, -, _ and . (not leading)."),
                .value("hall", "HALL.json", "create: the hall the show is of (its name is the file's base name)."),
                .flag("json", "status: print the state as JSON."),
            ],
            details: """
            create: the show starts with the hall's statuses (locked and sold seats, standing places left) and
            from then on owns its seats: holds by token, orders, status batches. Creating it again for the same
            hall changes nothing (exit 0, "exists"); for another hall it is an error (exit 1).
            status: seats sold, locked and held, each token's holds and expiry, orders, places per area.
            Exit status 0, 1 bad input or store (no such show, another hall), 2 usage.
            """),
        run: { args, console in
            guard let sub = args.positionals.first else { throw UsageError(message: "missing a subcommand: create or status") }
            guard let show = args.value("show") else { throw UsageError(message: "missing --show SHOW") }
            switch sub {
            case "create":
                _ = try positionals(args, ["create"])
                guard let file = args.value("hall") else { throw UsageError(message: "missing --hall HALL.json") }
                if args.flag("json") { throw UsageError(message: "--json goes with status") }
                let service = try ShowFace.service(args, console)
                let (inv, created) = try service.create(show: show, plan: ShowFace.plan(file))
                console.out("show \(show) of hall \(inv.hall): \(created ? "created" : "exists")")
                return 0
            case "status":
                _ = try positionals(args, ["status"])
                if args.value("hall") != nil { throw UsageError(message: "--hall goes with create") }
                let service = try ShowFace.service(args, console)
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
                console.out(lines.joined(separator: "\n"))
                return 0
            default:
                throw UsageError(message: "unknown show subcommand \"\(sub)\" (expected create or status)")
            }
        })

    static let orderCommand = Command(
        spec: CommandSpec(
            name: "order",
            usage: "order --store DB --show SHOW --token T --order-id ID [--seats ID,...] [--json]",
            summary: "Sell a token's held seats and places in one transaction, all or nothing.",
            options: [
                .value("store", "DB", "The inventory store (SQLite)."),
                .value("show", "SHOW", "The show."),
                .value("token", "T", "The buyer's hold token (from select)."),
                .value("order-id", "ID", "The order's id (1–128 visible characters): repeating it answers the first order again and sells nothing more."),
                .value("seats", "ID,...", "The seats the buyer expects to buy: if any is no longer held by the token, nothing is sold."),
                .flag("json", "Print {show, orderId, sold, areas, repeated}."),
            ],
            details: """
            Exit status 0 sold (or the order id's first answer again), 1 nothing sold: the token holds nothing
            (never selected, expired, already ordered), an expected seat is no longer held, the order id is
            another token's, no such show; 2 usage.
            """),
        run: { args, console in
            _ = try positionals(args, [])
            guard let show = args.value("show") else { throw UsageError(message: "missing --show SHOW") }
            guard let token = args.value("token") else { throw UsageError(message: "missing --token T") }
            guard let orderId = args.value("order-id") else { throw UsageError(message: "missing --order-id ID") }
            var expecting: [SeatID]? = nil
            if let text = args.value("seats") {
                let ids = ImageOptions.idList(text)
                let bad = ids.filter { SeatID($0) == nil }.sorted()
                if ids.isEmpty || !bad.isEmpty { throw UsageError(message: "--seats expects seat ids such as 1-3-5,1-3-6\(bad.isEmpty ? "" : ", got \(bad.joined(separator: ", "))")") }
                expecting = ids.compactMap(SeatID.init).sorted()
            }
            let service = try ShowFace.service(args, console)
            let answer = try service.order(show: show, token: token, orderId: orderId, expecting: expecting)
            if args.flag("json") {
                console.out(JSONWriter.write(ShowJSON.order(answer, show: show), pretty: false))
            } else {
                let what = answer.order.seats.map(\.description) + answer.order.areas.sorted(by: { $0.key < $1.key }).map { "area:\($0.key)=\($0.value)" }
                console.out("order \(orderId): \(answer.repeated ? "already placed" : "sold") \(what.joined(separator: " "))")
            }
            return 0
        })
}
