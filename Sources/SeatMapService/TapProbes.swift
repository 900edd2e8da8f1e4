import Foundation
import SeatMapCore
import SeatMapLayout

/// A tap for testing an app's hit-testing, with the seat it must select.
package struct TapProbe: Sendable, Equatable {
    /// Where on the map the tap was placed.
    package enum Kind: String, CaseIterable, Sendable {
        /// The centre of a seat.
        case centre
        /// Half a pixel inside or outside the middle of a seat's side.
        case edge
        /// In a corner of a seat's rect (within a third of its shorter side
        /// from two sides): the whole rect is the seat's tap target, though
        /// the seat is drawn with rounded corners (or round) there. A random
        /// tap that lands there is a corner tap too.
        case corner
        /// Between two seats, on no seat.
        case gap
        /// On an aisle of a row.
        case aisle
        /// Beyond the map (or the viewport).
        case outside
        /// Anywhere in the view.
        case random
    }

    /// The tap, in view points.
    package var point: ViewPoint
    /// The seat the tap selects, or nil for none.
    package var seat: SeatID?
    package var kind: Kind
}

/// Taps placed where hit-testing goes wrong first (seat centres, edges,
/// corners, the gaps between seats, aisles, just beyond the map) and at
/// random, each answered by the layout's hit-tester (the truth `hit`
/// answers and a browser agrees with on the SVG `render` draws). The same
/// view, count and seed give the same taps.
package enum TapProbes {
    /// Every ten taps: two centres, two edges, a corner, a gap, an aisle,
    /// one outside and two at random. A kind the view has no place for (a
    /// hall without aisles, seats without gaps) is replaced by a random tap.
    static let pattern: [TapProbe.Kind] = [.centre, .edge, .random, .corner, .gap, .edge, .centre, .aisle, .outside, .random]
    /// Places tried for a tap of a kind before it is replaced by a random one.
    static let tries = 24

    package static func make(_ view: TapView, count: Int, seed: UInt64) throws -> [TapProbe] {
        var random = SplitMix64(seed: seed)
        let layout = view.layout, t = view.transform
        let bounds = PixelRect(x: 0, y: 0, w: layout.width, h: layout.height)
        let visible = view.viewport == nil ? bounds : t.visiblePixels.intersection(bounds)
        let seats = layout.seats.filter { visible.contains($0.rect.x + $0.rect.w / 2, $0.rect.y + $0.rect.h / 2) }
        let aisles = layout.cells.filter { !$0.isSeat && visible.contains($0.rect.x + $0.rect.w / 2, $0.rect.y + $0.rect.h / 2) }
        // The view's area in points: the viewport, else the whole map.
        let region: (x: Double, y: Double, w: Double, h: Double)
        if let v = view.viewport { region = (0, 0, v.0, v.1) } else { let r = t.viewRect(of: bounds); region = (r.x, r.y, r.w, r.h) }

        /// A content pixel's centre (i + 0.5), in view points.
        func pixel(_ i: Int, _ j: Int) -> ViewPoint { t.viewPoint(ofContentPixel: Double(i) + 0.5, Double(j) + 0.5) }
        /// A coordinate in a span, on a 1/64-point grid (short to write, exact to read back).
        func along(_ start: Double, _ length: Double) -> Double {
            start + (random.unit() * length * 64).rounded(.down) / 64
        }
        func randomPoint() -> ViewPoint { ViewPoint(along(region.x, region.w), along(region.y, region.h)) }

        /// One candidate tap of a kind, and whether its answer fits the kind.
        func candidate(_ kind: TapProbe.Kind) throws -> ViewPoint? {
            switch kind {
            case .centre, .edge, .corner, .gap:
                guard !seats.isEmpty else { return nil }
                let seat = seats[random.below(seats.count)], r = seat.rect
                let midX = r.x + r.w / 2, midY = r.y + r.h / 2
                let p: ViewPoint
                switch kind {
                case .centre:
                    p = t.viewPoint(ofContentPixel: Double(r.x) + Double(r.w) / 2, Double(r.y) + Double(r.h) / 2)
                    return try view.seat(at: p) == seat.id ? p : nil
                case .edge:
                    let inside = random.below(2) == 0
                    switch random.below(4) {
                    case 0: p = pixel(inside ? r.x : r.x - 1, midY)
                    case 1: p = pixel(inside ? r.maxX - 1 : r.maxX, midY)
                    case 2: p = pixel(midX, inside ? r.y : r.y - 1)
                    default: p = pixel(midX, inside ? r.y + r.h - 1 : r.y + r.h)
                    }
                    guard view.inView(p) else { return nil }
                    if !inside { return p }
                    return try view.seat(at: p) == seat.id ? p : nil
                case .corner:
                    let right = random.below(2) == 0, bottom = random.below(2) == 0
                    p = pixel(right ? r.maxX - 1 : r.x, bottom ? r.y + r.h - 1 : r.y)
                    guard view.inView(p) else { return nil }
                    return try view.answer(p) != .outside ? p : nil
                default:
                    // Halfway across the gap to the right of the seat or below it.
                    p = random.below(2) == 0 ? pixel(r.maxX + layout.gapX / 2, midY) : pixel(midX, r.y + r.h + layout.gapY / 2)
                    return try view.answer(p) == .gap ? p : nil
                }
            case .aisle:
                guard !aisles.isEmpty else { return nil }
                let r = aisles[random.below(aisles.count)].rect
                let p = t.viewPoint(ofContentPixel: Double(r.x) + Double(r.w) / 2, Double(r.y) + Double(r.h) / 2)
                if case .aisle = try view.answer(p) { return p }
                return nil
            case .outside:
                // 1 to 20 points beyond a side of the view.
                let beyond = 1 + along(0, 19)
                let p: ViewPoint
                switch random.below(4) {
                case 0: p = ViewPoint(region.x - beyond, along(region.y, region.h))
                case 1: p = ViewPoint(region.x + region.w + beyond, along(region.y, region.h))
                case 2: p = ViewPoint(along(region.x, region.w), region.y - beyond)
                default: p = ViewPoint(along(region.x, region.w), region.y + region.h + beyond)
                }
                return try view.answer(p) == .outside ? p : nil
            case .random:
                return randomPoint()
            }
        }

        var probes: [TapProbe] = []
        probes.reserveCapacity(count)
        for i in 0..<count {
            var kind = pattern[i % pattern.count]
            var placed: ViewPoint? = nil
            if kind != .random {
                for _ in 0..<tries {
                    if let p = try candidate(kind) { placed = p; break }
                }
            }
            if placed == nil { kind = .random }
            let p = placed ?? randomPoint()
            let hit = try view.answer(p)
            if kind == .random, case .seat(let cell) = hit, inCorner(p, of: cell.rect, t) { kind = .corner }
            probes.append(TapProbe(point: p, seat: hit.seatID, kind: kind))
        }
        return probes
    }

    /// Whether a tap is within a third of the rect's shorter side from two of its sides.
    static func inCorner(_ p: ViewPoint, of r: PixelRect, _ t: ViewTransform) -> Bool {
        let c = t.contentPixel(of: p), q = Double(min(r.w, r.h)) / 3
        return min(c.x - Double(r.x), Double(r.maxX) - c.x) < q && min(c.y - Double(r.y), Double(r.y + r.h) - c.y) < q
    }

    /// `--json`: `[{"x","y","seat","kind"}]`.
    package static func json(_ probes: [TapProbe]) -> JSONNode {
        .array(probes.map {
            .object([("x", .number(ResultJSON.fmt($0.point.x))), ("y", .number(ResultJSON.fmt($0.point.y))),
                     ("seat", $0.seat.map { .string($0.description) } ?? .null), ("kind", .string($0.kind.rawValue))])
        })
    }

    /// One line a tap: `X,Y SEAT KIND`, `-` for no seat (the first word is
    /// a tap `hit --points-file` reads).
    package static func text(_ probes: [TapProbe]) -> String {
        probes.map { "\(ResultJSON.fmt($0.point.x)),\(ResultJSON.fmt($0.point.y)) \($0.seat?.description ?? "-") \($0.kind.rawValue)" }
            .joined(separator: "\n")
    }
}

/// A small, fast generator whose sequence for a seed is the same on every
/// platform and release (the standard library promises no such thing).
package struct SplitMix64 {
    var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// In [0, 1), 53 bits.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// In 0..<n (n > 0).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
