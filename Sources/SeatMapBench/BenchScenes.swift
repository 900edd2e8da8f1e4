import Foundation
import SeatMapCore

/// The benchmark's halls, generated deterministically (same seed, same hall).
public enum BenchScenes {
    public static let all = ["cinema-200", "imax-600", "arena-10k", "stadium-100k", "arena-free-10k", "arena-free-100k"]
    public static let quick = ["cinema-200", "imax-600"]

    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// True with probability `p`.
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) < p * 1_000_000 }
    }

    /// The scene's hall, or nil for an unknown name.
    public static func make(_ name: String) throws(SeatMapError) -> Hall? {
        switch name {
        case "cinema-200": return try grid(rows: 12, seats: 18, aisleEvery: 9, sold: 0.2, seed: 1, name: name)
        case "imax-600": return try imax()
        case "arena-10k": return try grid(rows: 100, seats: 100, aisleEvery: 10, sold: 0.3, seed: 3, name: name)
        case "stadium-100k": return try grid(rows: 250, seats: 400, aisleEvery: 0, sold: 0.3, seed: 4, name: name)
        case "arena-free-10k": return try freeBlocks(columns: 5, rows: 2, seed: 5, name: name)
        case "arena-free-100k": return try freeBlocks(columns: 10, rows: 10, seed: 6, name: name)
        default: return nil
        }
    }

    /// A free venue: `columns × rows` blocks (zones) of 25 curved rows of
    /// 40 seats, each block turned ±12°: 1,000 seats a block.
    static func freeBlocks(columns: Int, rows: Int, seed: UInt64, name: String) throws(SeatMapError) -> Hall {
        var rng = Random(state: seed)
        var sections: [Section] = []
        var out: [Row] = []
        for b in 0..<(columns * rows) {
            let id = b + 1
            let turn = b % 2 == 0 ? 12.0 : -12.0
            sections.append(Section(id: id, name: "Block \(id)",
                                    place: ZonePlace(x: Double(b % columns) * 1800, y: Double(b / columns) * 1300, rotation: turn)))
            for r in 0..<25 {
                let radius = 2500 + 38 * Double(r)
                let span = 40 * 36 / radius * 180 / .pi
                var seats: [Seat] = []
                for c in 1...40 {
                    let status: SeatStatus = rng.chance(0.3) ? .sold : (rng.chance(0.03) ? .locked : .available)
                    seats.append(Seat(column: c, status: status, place: SeatPlace(x: 0, y: 0)))
                }
                out.append(Row(number: out.count + 1, label: String(r + 1), section: id, price: r < 8 ? 80 : 50, seats: seats,
                               path: .arc(cx: 0, cy: -2500, radius: radius, start: 90 + span / 2, end: 90 - span / 2, facing: true)))
            }
        }
        return try Hall(cinemaName: "Bench", hallName: name, movieStartTime: "2025-01-01 20:00", sections: sections, rows: out)
    }

    /// `rows` rows of `seats` seats with an aisle cell after every
    /// `aisleEvery` seats (0: none), two price tiers, `sold` of them sold.
    static func grid(rows: Int, seats: Int, aisleEvery: Int, sold: Double, seed: UInt64, name: String) throws(SeatMapError) -> Hall {
        var rng = Random(state: seed)
        var out: [Row] = []
        for r in 1...rows {
            var cells: [Seat] = []
            var column = 0
            for k in 0..<seats {
                column += 1
                if aisleEvery > 0 && k > 0 && k % aisleEvery == 0 {
                    cells.append(.aisle(column: column))
                    column += 1
                }
                let status: SeatStatus = rng.chance(sold) ? .sold : (rng.chance(0.03) ? .locked : .available)
                cells.append(Seat(column: column, status: status))
            }
            out.append(Row(number: r, price: r <= rows / 3 ? 45 : 60, seats: cells))
        }
        return try Hall(cinemaName: "Bench", hallName: name, movieStartTime: "2025-01-01 20:00", rows: out)
    }

    /// Three sections of 8 rows × 25 seats, a couple row at the back and
    /// wheelchair seats at the front.
    static func imax() throws(SeatMapError) -> Hall {
        var rng = Random(state: 2)
        var rows: [Row] = []
        for r in 1...24 {
            let section = (r - 1) / 8 + 1
            var cells: [Seat] = []
            for c in 1...25 {
                var type = SeatType.standard
                if r == 24 { type = c % 2 == 1 ? .coupleLeft : .coupleRight }
                if r == 24 && c == 25 { continue }
                if r == 1 && (c <= 2 || c >= 24) { type = .wheelchair }
                let status: SeatStatus = (r == 24 || type == .wheelchair) ? .available : (rng.chance(0.25) ? .sold : .available)
                cells.append(Seat(column: c, status: status, type: type))
            }
            rows.append(Row(number: r, section: section, price: Decimal([68, 98, 88][section - 1]), seats: cells))
        }
        return try Hall(cinemaName: "Bench", hallName: "imax-600", movieStartTime: "2025-01-01 20:00",
                    maxSelectCount: 6, sections: [Section(id: 1, name: "A区"), Section(id: 2, name: "B区"), Section(id: 3, name: "C区")],
                    rows: rows)
    }
}
