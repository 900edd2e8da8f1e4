import Foundation
import SeatMapCore
import SeatMapLayout

/// Result JSON shaped once, for the CLI's `--json` and the HTTP answers
/// alike: layouts, hits, rects and prices.
package enum ResultJSON {
    package static func fmt(_ v: Double) -> String { Arguments.format(v) }

    /// Beside an exact `price`: the hall's currency code and the price as
    /// the locale writes it (nothing for no price).
    package static func priceMembers(_ price: Decimal?, _ l: Layout) -> [(String, JSONNode)] {
        guard let price else { return [] }
        return [("currency", .string(l.currency)), ("priceText", .string(l.money(price)))]
    }

    package static func rectMembers(_ r: PixelRect) -> [(String, JSONNode)] {
        [("x", .int(r.x)), ("y", .int(r.y)), ("w", .int(r.w)), ("h", .int(r.h))]
    }

    package static func layoutJSON(_ l: Layout) -> JSONNode {
        let seats: [JSONNode] = l.seats.map { s in
            .object([("id", .string(s.id.description)), ("row", .int(s.row)), ("column", .int(s.column)),
                     ("rowLabel", .string(s.rowLabel)), ("seatLabel", .string(s.seatLabel))]
                    + rectMembers(s.rect)
                    + [("status", .string(s.kind.name)), ("type", .string(s.type.rawValue)),
                       ("price", s.price.map { .string($0.plainText) } ?? .null)]
                    + priceMembers(s.price, l)
                    + shapeMembers(s)
                    + externalMembers(s))
        }
        let areas: [JSONNode] = l.areas.map { a in
            var m: [(String, JSONNode)] = [("id", .string(a.id)), ("shape", .string(a.area.shape.name)), ("label", .string(a.area.label))]
            m += rectMembers(a.rect)
            // Where its text's ink goes (row labels keep off it).
            if let t = a.text { m.append(("textRect", .object(rectMembers(t.inkBox(a.area.label))))) }
            if let c = a.area.capacity {
                m += [("capacity", .int(c)), ("available", .int(a.area.remaining)), ("price", a.area.price.map { .string($0.plainText) } ?? .null)]
                m += priceMembers(a.area.price, l)
            }
            return .object(m)
        }
        let labels: [JSONNode] = l.rowLabels.map { r in
            .object([("row", .int(r.row)), ("label", .string(r.label))] + rectMembers(r.rect))
        }
        let sections: [JSONNode] = l.sections.map { s in
            .object([("id", .int(s.id)), ("name", .string(s.name))] + rectMembers(s.rect))
        }
        return .object([
            ("zoom", .number(fmt(l.zoom))), ("scale", .number(fmt(l.scale))),
            ("width", .int(l.width)), ("height", .int(l.height)),
            ("seatWidth", .int(l.seatWidth)), ("seatHeight", .int(l.seatHeight)),
            ("gapX", .int(l.gapX)), ("pitchY", .int(l.pitchY)),
            ("seats", .array(seats)), ("rowLabels", .array(labels)),
            ("screen", .object(rectMembers(l.screen) + [("centerX", .int(l.centerX))])),
            ("sections", .array(sections)),
        ] + (l.isFree ? [("areas", .array(areas))] : []))
    }

    /// The id a seat came with from another system, when it has one.
    package static func externalMembers(_ s: LaidOutCell) -> [(String, JSONNode)] {
        s.externalID.map { [("externalId", .string($0))] } ?? []
    }

    /// A free seat's drawn shape beyond its bounding rect: its own box, and
    /// its turn or roundness (grid seats: nothing).
    package static func shapeMembers(_ s: LaidOutCell) -> [(String, JSONNode)] {
        switch s.outline {
        case .box: return s.rect == s.seatRect ? [] : [("box", .object(rectMembers(s.seatRect)))]
        case .rotated(let a):
            return [("box", .object(rectMembers(s.seatRect))), ("rotation", .number(fmt((a * 180 / .pi * 1000).rounded() / 1000)))]
        case .circle: return [("box", .object(rectMembers(s.seatRect))), ("shape", .string("circle"))]
        }
    }

    package static func hitText(_ r: HitResult, _ l: Layout, statuses: [SeatID: String] = [:]) -> String {
        switch r {
        case .seat(let s):
            return "\(s.id) \(l.describe(s)) \(statuses[s.id] ?? s.kind.name) \(s.price.map(l.money) ?? "-")"
        case .aisle(let row, let column): return "aisle \(row),\(column)"
        case .area(let a):
            guard let cap = a.area.capacity else { return "area \(a.id)" }
            return "area \(a.id) standing \(a.area.remaining)/\(cap) \(a.area.price.map(l.money) ?? "-")"
        case .gap: return "gap"
        case .outside: return "outside"
        case .rowLabel(let r): return "rowLabel \(r.label)"
        }
    }

    /// A hit as JSON; `statuses` names a show's seats beyond the drawn
    /// status (`held` by another buyer, `selected` by this one).
    package static func hitJSON(_ p: ViewPoint, _ r: HitResult, _ l: Layout, statuses: [SeatID: String] = [:]) -> JSONNode {
        var m: [(String, JSONNode)] = [("x", .number(fmt(p.x))), ("y", .number(fmt(p.y))), ("kind", .string(r.kind))]
        switch r {
        case .seat(let s):
            m += [("id", .string(s.id.description)), ("row", .int(s.row)), ("column", .int(s.column)),
                  ("label", .string(l.describe(s))), ("status", .string(statuses[s.id] ?? s.kind.name)),
                  ("partner", s.partnerID.map { .string($0.description) } ?? .null),
                  ("rowLabel", .string(s.rowLabel)), ("seatLabel", .string(s.seatLabel)), ("type", .string(s.type.rawValue)),
                  ("price", s.price.map { .string($0.plainText) } ?? .null)] + priceMembers(s.price, l)
                + [("rect", .object(rectMembers(s.rect)))] + externalMembers(s)
        case .aisle(let row, let column):
            m += [("id", .null), ("row", .int(row)), ("column", .int(column)), ("label", .null), ("status", .string("aisle")), ("partner", .null)]
        case .area(let a):
            m += [("id", .string(a.id)), ("row", .null), ("column", .null), ("label", .string(a.area.label)),
                  ("status", a.isStanding ? .string(a.area.remaining == 0 ? "sold" : "available") : .null), ("partner", .null),
                  ("rect", .object(rectMembers(a.rect)))]
            if let c = a.area.capacity {
                m += [("capacity", .int(c)), ("available", .int(a.area.remaining)), ("price", a.area.price.map { .string($0.plainText) } ?? .null)]
                m += priceMembers(a.area.price, l)
            }
        case .rowLabel(let r):
            m += [("id", .null), ("row", .int(r.row)), ("column", .null), ("label", .string(r.label)), ("status", .null), ("partner", .null),
                  ("rowLabel", .string(r.label)), ("rect", .object(rectMembers(r.pill)))]
        case .gap, .outside:
            m += [("id", .null), ("row", .null), ("column", .null), ("label", .null), ("status", .null), ("partner", .null)]
        }
        return .object(m)
    }
}
