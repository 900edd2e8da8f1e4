import Foundation
import SeatMapCore

/// The JSON of the show use cases, shaped once for the CLI's `--json` and
/// the HTTP answers.
public enum ShowJSON {
    /// ISO 8601 in UTC with milliseconds: `2026-12-01T10:00:00.000Z`.
    /// (Written from the calendar fields: a formatter a call cost more than
    /// the rest of a hold.)
    public static func time(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        var t = tm()
        gmtime_r(&seconds, &t)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let millis = Int((ms % 1000 + 1000) % 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(t.tm_year + 1900)-\(two(t.tm_mon + 1))-\(two(t.tm_mday))T\(two(t.tm_hour)):\(two(t.tm_min)):\(two(t.tm_sec)).\(fraction)Z"
    }

    /// A selection's results, seats, total, violations (single empty
    /// seats) and every sales rule it breaks (the same members with or
    /// without a show), plus the token and its expiry.
    public static func selection(results: [(String, Selection.ToggleResult)], selection: Selection, breaks: [RuleBreak],
                                 hall: Hall, locale: SeatMapLocale, token: String? = nil, expiresAt: Date? = nil) -> JSONNode {
        let total = selection.total(in: hall)
        let descriptions = selection.descriptions(in: hall, locale: locale) + selection.standingDescriptions(in: hall)
        var members: [(String, JSONNode)] = [
            // A toggle given by external id also names the SeatMap seat it toggled.
            ("results", .array(results.map { r in
                let seat = SeatID(r.0) == nil ? hall.seatID(named: r.0).flatMap { hall.cell(id: $0) != nil ? $0 : nil } : nil
                return .object([("id", .string(r.0)), ("result", .string(r.1.rawValue))] + (seat.map { [("seat", .string($0.description))] } ?? []))
            })),
            ("selected", .array(selection.ids.map { .string($0.description) })),
            ("total", .string(total.plainText)),
            ("currency", .string(hall.currency)),
            ("totalText", .string(locale.money(total, currency: hall.currency))),
            ("descriptions", .array(descriptions.map { .string($0) })),
            ("violations", .array(RuleBreak.orphans(breaks).map { .string($0.description) })),
            ("breaks", .array(breaks.map { b in
                var m: [(String, JSONNode)] = [("rule", .string(b.rule.rawValue)), ("seats", .array(b.seats.map { .string($0.description) }))]
                if let a = b.area { m.append(("area", .string(a))) }
                if let n = b.limit { m.append(("limit", .int(n))) }
                m.append(("enforced", .bool(b.enforced)))
                m.append(("message", .string(message(b, hall: hall, locale: locale))))
                return .object(m)
            })),
        ]
        members.append(("cart", .array(cart(selection, hall: hall, locale: locale))))
        members.append(("messages", .array(messages(results: results, breaks: breaks, hall: hall, locale: locale).map { .string($0) })))
        if !selection.standing.isEmpty {
            members.append(("standing", .object(selection.standing.keys.sorted().map { ($0, .int(selection.standing[$0] ?? 0)) })))
        }
        if let token { members.append(("token", .string(token))) }
        if let expiresAt { members.append(("expiresAt", .string(time(expiresAt)))) }
        return .object(members)
    }

    /// A best-available answer: `{seats, fallback, total, currency,
    /// totalText, descriptions, cart}` of the recommended seats, plus the
    /// standing places the token still holds (`standing`), the token and
    /// its expiry when the seats are held.
    public static func best(_ r: Recommender.Recommendation, selection: Selection, hall: Hall, locale: SeatMapLocale,
                            token: String? = nil, expiresAt: Date? = nil) -> JSONNode {
        let picked = Selection(ids: r.seats, in: hall)
        let total = picked.total(in: hall)
        var members: [(String, JSONNode)] = [
            ("seats", .array(r.seats.map { .string($0.description) })),
            ("fallback", .string(r.fallback.rawValue)),
            ("total", .string(total.plainText)),
            ("currency", .string(hall.currency)),
            ("totalText", .string(locale.money(total, currency: hall.currency))),
            ("descriptions", .array(picked.descriptions(in: hall, locale: locale).map { .string($0) })),
            ("cart", .array(cart(picked, hall: hall, locale: locale))),
        ]
        if !selection.standing.isEmpty {
            members.append(("standing", .object(selection.standing.keys.sorted().map { ($0, .int(selection.standing[$0] ?? 0)) })))
        }
        if let token { members.append(("token", .string(token))) }
        if let expiresAt { members.append(("expiresAt", .string(time(expiresAt)))) }
        return .object(members)
    }

    /// The picked seats as a buyer's cart lists them: id, the seat's words
    /// ("Row 4, Seat 2"), section, row and seat labels, price and its text;
    /// then each standing area taken, with its places.
    public static func cart(_ selection: Selection, hall: Hall, locale: SeatMapLocale) -> [JSONNode] {
        var items: [JSONNode] = selection.ids.compactMap { id in
            guard let cell = hall.cell(id: id) else { return nil }
            let price = selection.price(of: id, in: hall) ?? 0
            let type = selection.ticketType(of: id, in: hall)
            return .object([
                ("id", .string(id.description)), ("label", .string(hall.describe(cell, in: locale))),
                ("section", .string(hall.sectionLabel(cell.row.section) ?? "")), ("row", .string(cell.row.label)),
                ("seat", .string(cell.seat.label)), ("price", .string(price.plainText)),
                ("priceText", .string(locale.money(price, currency: hall.currency))),
            ] + (cell.seat.externalID.map { [("externalId", .string($0))] } ?? [])
              + (type.map { t in [("ticketType", .string(t.name)),
                                  ("ticketTypes", .array(hall.ticketTypes(of: id).map { .object([("name", .string($0.name)), ("price", .string($0.price.plainText)),
                                                                                                  ("priceText", .string(locale.money($0.price, currency: hall.currency)))]) }))] } ?? []))
        }
        for id in selection.standing.keys.sorted() {
            guard let n = selection.standing[id], let area = hall.area(id: id) else { continue }
            let price = (area.price ?? 0) * Decimal(n)
            items.append(.object([
                ("area", .string(id)), ("label", .string(locale.text("picker.places", ["area": area.label.isEmpty ? id : area.label, "count": String(n)]))),
                ("places", .int(n)), ("price", .string(price.plainText)), ("priceText", .string(locale.money(price, currency: hall.currency))),
            ]))
        }
        return items
    }

    /// What a select's answer means to the buyer, in their locale: each
    /// toggle that was refused, and each seat the selection would leave
    /// empty on its own ("You can pick at most 6 seats", "Row 4, Seat 2 is
    /// already sold", "This would leave Row 1, Seat 3 empty on its own").
    public static func messages(results: [(String, Selection.ToggleResult)], breaks: [RuleBreak], hall: Hall,
                                locale: SeatMapLocale) -> [String] {
        func words(_ id: String) -> String {
            guard let seat = hall.seatID(named: id), let cell = hall.cell(id: seat) else { return id }
            return hall.describe(cell, in: locale)
        }
        var out: [String] = []
        for (id, result) in results {
            let line: String?
            switch result {
            case .selected, .deselected: line = nil
            case .reachLimit:
                // "area:ID=N" over the area's own maximum per order.
                if id.hasPrefix("area:"), let eq = id.lastIndex(of: "="), let n = Int(id[id.index(after: eq)...]),
                   let area = hall.area(id: String(id[id.index(id.startIndex, offsetBy: 5)..<eq])), let most = area.maxPerOrder, n > most {
                    line = locale.text("picker.areaMaximum", ["area": area.label.isEmpty ? area.id : area.label, "count": String(most)])
                } else {
                    line = locale.text("picker.limit", ["count": String(hall.maxSelectCount)])
                }
            case .held: line = locale.text("picker.held", ["seat": words(id)])
            case .notAvailable:
                let sold = hall.seatID(named: id).flatMap { hall.cell(id: $0) }?.seat.status == .sold
                line = locale.text(sold ? "picker.sold" : "picker.unavailable", ["seat": words(id)])
            case .noSuchSeat, .noSuchArea: line = locale.text("picker.noSeat", ["seat": id])
            case .noSuchType, .notSelected:
                // "type:ID=NAME"
                let body = id.hasPrefix("type:") ? String(id.dropFirst(5)) : id
                let eq = body.firstIndex(of: "=") ?? body.endIndex
                let seat = words(String(body[..<eq])), type = eq < body.endIndex ? String(body[body.index(after: eq)...]) : ""
                line = result == .noSuchType ? locale.text("picker.noType", ["seat": seat, "type": type])
                                             : locale.text("picker.notSelected", ["seat": seat])
            }
            if let line, !out.contains(line) { out.append(line) }
        }
        for b in breaks {
            if b.rule == .noOrphans {
                for v in b.seats { out.append(locale.text("picker.gap", ["seat": words(v.description)])) }
            } else {
                out.append(message(b, hall: hall, locale: locale))
            }
        }
        return out
    }

    /// A broken rule in the buyer's words ("Pick seats side by side: Row 3,
    /// Seat 5, Row 3, Seat 8").
    public static func message(_ b: RuleBreak, hall: Hall, locale: SeatMapLocale) -> String {
        let seats = locale.list(b.seats.map { id in hall.cell(id: id).map { hall.describe($0, in: locale) } ?? id.description })
        let area = b.area.flatMap { hall.area(id: $0) }.map { $0.label.isEmpty ? $0.id : $0.label } ?? (b.area ?? "")
        let count = String(b.limit ?? 1)
        switch b.rule {
        case .noOrphans: return locale.text("picker.gap", ["seat": seats])
        case .consecutive: return locale.text("picker.consecutive", ["seats": seats])
        case .minPerOrder: return locale.text("picker.minimum", ["count": count])
        case .areaMinimum: return locale.text("picker.areaMinimum", ["area": area, "count": count])
        case .areaMaximum: return locale.text("picker.areaMaximum", ["area": area, "count": count])
        }
    }

    /// The text form of a select's answer.
    public static func selectionText(results: [(String, Selection.ToggleResult)], selection: Selection, breaks: [RuleBreak],
                                     hall: Hall, locale: SeatMapLocale) -> [String] {
        let descriptions = selection.descriptions(in: hall, locale: locale) + selection.standingDescriptions(in: hall)
        var lines = results.map { "\($0.0): \($0.1.rawValue)" }
        lines.append("selected: \(descriptions.joined(separator: " "))")
        lines.append("total: \(locale.money(selection.total(in: hall), currency: hall.currency))")
        for b in breaks {
            if b.rule == .noOrphans {
                for v in b.seats {
                    lines.append("violation: \(hall.cell(id: v).map { hall.describe($0, in: locale) } ?? v.description) (\(v)) would be left as a single empty seat\(b.enforced ? " (enforced: order refuses it)" : "")")
                }
            } else {
                lines.append("rule \(b.summary)\(b.enforced ? " (enforced: order refuses it)" : " (a warning)")")
            }
        }
        return lines
    }

    /// An order's answer: what it sold; `repeated` when the id was used before.
    public static func order(_ a: ShowService.OrderAnswer, show: String) -> JSONNode {
        .object([
            ("show", .string(show)), ("orderId", .string(a.orderId)),
            ("sold", .array(a.order.seats.map { .string($0.description) })),
            ("areas", .object(a.order.areas.keys.sorted().map { ($0, .int(a.order.areas[$0] ?? 0)) })),
            ("ticketTypes", .object(a.order.ticketTypes.keys.sorted().map { ($0.description, .string(a.order.ticketTypes[$0] ?? "")) })),
            ("total", .string(a.total.plainText)), ("currency", .string(a.currency)),
            ("repeated", .bool(a.repeated)),
        ])
    }

    /// Every seat's status for one buyer (`selected` are the token's own),
    /// and each standing area's places left for that buyer.
    /// A delta: `{"show", "sequence", "changes": {ID: word}, "areas"}`.
    public static func changes(_ c: ShowService.SeatChanges) -> JSONNode {
        var members: [(String, JSONNode)] = [
            ("show", .string(c.show)), ("sequence", .int(c.sequence)),
            ("changes", .object(c.changes.map { ($0.0.description, .string($0.1)) })),
            ("areas", .object(c.areas.map { ($0.id, .object([("capacity", .int($0.capacity)), ("available", .int($0.available))])) })),
        ]
        // Only for a token whose own order is among the changes.
        if !c.orders.isEmpty {
            members.append(("orders", .array(c.orders.map {
                .object([("orderId", .string($0.orderId)), ("seats", .array($0.seats.map { .string($0.description) }))])
            })))
        }
        return .object(members)
    }

    /// `full`: marked `"full": true`, what a delta reader gets when its
    /// sequence is older than the kept log.
    public static func seats(_ v: ShowService.View, plan: Hall, full: Bool = false) -> JSONNode {
        var seats: [(String, JSONNode)] = []
        for cell in plan.cells where cell.seat.isSeat {
            let word = v.statuses[cell.id] ?? v.hall.cell(id: cell.id)?.seat.status?.name ?? "available"
            seats.append((cell.id.description, .string(word)))
        }
        let areas: [(String, JSONNode)] = v.hall.areas.filter(\.isStanding).map { a in
            (a.id, .object([("capacity", .int(a.capacity ?? 0)), ("available", .int(a.remaining))]))
        }
        return .object([
            ("show", .string(v.inventory.show)), ("hall", .string(v.inventory.hall)),
            ("sequence", .int(v.inventory.changeSequence)),
            ("seats", .object(seats)), ("areas", .object(areas)),
        ] + (full ? [("full", .bool(true))] : []))
    }

    /// A show's whole state for the back office: seats by status, holds
    /// with their tokens and expiry, orders, places per area.
    public static func status(_ inv: ShowInventory, now: Date) -> JSONNode {
        var sold: [String] = [], locked: [String] = [], held: [String] = []
        for (id, state) in inv.seats.sorted(by: { $0.key < $1.key }) {
            switch state {
            case .sold: sold.append(id.description)
            case .locked: locked.append(id.description)
            case .held: held.append(id.description)
            }
        }
        let holds: [JSONNode] = inv.tokens.keys.sorted().map { t in
            .object([("token", .string(t)), ("expiresAt", .string(time(inv.tokens[t] ?? now))),
                     ("seats", .array(inv.heldSeats(of: t).map { .string($0.description) })),
                     ("areas", .object(inv.heldPlaces(of: t).sorted(by: { $0.key < $1.key }).map { ($0.key, .int($0.value)) }))])
        }
        let orders: [JSONNode] = inv.orders.sorted(by: { $0.key < $1.key }).map { id, o in
            .object([("orderId", .string(id)), ("token", .string(o.token)), ("seats", .array(o.seats.map { .string($0.description) })),
                            ("areas", .object(o.areas.sorted(by: { $0.key < $1.key }).map { ($0.key, .int($0.value)) }))])
        }
        let areas: [(String, JSONNode)] = inv.areaAvailable.keys.sorted().map { a in
            let heldPlaces = (inv.areaHolds[a] ?? [:]).values.reduce(0, +)
            let soldPlaces = inv.orders.values.reduce(0) { $0 + ($1.areas[a] ?? 0) }
            return (a, .object([("available", .int((inv.areaAvailable[a] ?? 0) - heldPlaces)), ("held", .int(heldPlaces)), ("sold", .int(soldPlaces))]))
        }
        return .object([
            ("show", .string(inv.show)), ("hall", .string(inv.hall)),
            ("sequence", inv.lastSequence.map { .int($0) } ?? .null),
            ("seats", .object([("sold", .array(sold.map { .string($0) })), ("locked", .array(locked.map { .string($0) })),
                               ("held", .array(held.map { .string($0) }))])),
            ("holds", .array(holds)), ("orders", .array(orders)), ("areas", .object(areas)),
            ("channels", .object(channelSeats(inv).map { ($0.channel, .array($0.seats.map { .string($0.description) })) })),
            ("batches", .int(inv.batchIds.count)), ("changeSequence", .int(inv.changeSequence)),
        ])
    }

    /// Each channel with seats reserved, and its seats (sorted).
    public static func channelSeats(_ inv: ShowInventory) -> [(channel: String, seats: [SeatID])] {
        var seats: [String: [SeatID]] = [:]
        for (id, channel) in inv.channels { seats[channel, default: []].append(id) }
        return seats.keys.sorted().map { ($0, (seats[$0] ?? []).sorted()) }
    }
}
