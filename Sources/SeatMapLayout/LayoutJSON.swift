import Foundation
import SeatMapCore

/// A layout as JSON: every seat's rect, status, type and price, the row
/// labels, the screen, the sections and a free venue's areas (what
/// `seatmap layout --json` prints).
public enum LayoutJSON {
    /// A number as the JSON answers write it: whole numbers without a fraction.
    package static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
    static func fmt(_ v: Double) -> String { format(v) }

    /// Beside an exact `price`: the hall's currency code and the price as
    /// the locale writes it (nothing for no price).
    package static func priceMembers(_ price: Decimal?, _ l: Layout) -> [(String, JSONNode)] {
        guard let price else { return [] }
        return [("currency", .string(l.currency)), ("priceText", .string(l.money(price)))]
    }

    package static func rectMembers(_ r: PixelRect) -> [(String, JSONNode)] {
        [("x", .int(r.x)), ("y", .int(r.y)), ("w", .int(r.w)), ("h", .int(r.h))]
    }

    /// Every rect a layout holds, as `layout --json` prints it and a
    /// `.layoutJSON` snapshot records it.
    public static func json(_ l: Layout) -> JSONNode {
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
}
