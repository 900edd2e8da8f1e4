import Foundation
import SeatMapCore
import SeatMapLayout

/// Result JSON shaped once, for the CLI's `--json` and the HTTP answers
/// alike: layouts, hits, rects and prices.
package enum ResultJSON {
    package static func fmt(_ v: Double) -> String { LayoutJSON.format(v) }
    package static func priceMembers(_ price: Decimal?, _ l: Layout) -> [(String, JSONNode)] { LayoutJSON.priceMembers(price, l) }
    package static func rectMembers(_ r: PixelRect) -> [(String, JSONNode)] { LayoutJSON.rectMembers(r) }
    package static func externalMembers(_ s: LaidOutCell) -> [(String, JSONNode)] { LayoutJSON.externalMembers(s) }
    /// `layout --json` (see `LayoutJSON`).
    package static func layoutJSON(_ l: Layout) -> JSONNode { LayoutJSON.json(l) }

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
