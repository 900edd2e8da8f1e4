import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport

/// Exact `ceil(points × k/100 × scale)` in integers, independent of the
/// layout's floating-point rounding.
func ceilPixels(_ points: Int, hundredths k: Int, scale: Int) -> Int {
    (points * k * scale + 99) / 100
}

@Suite("Layout geometry")
struct LayoutPropertyTests {
    /// Every example × zoom 1.00…3.00 in steps of 0.01 × scale 1, 2, 3.
    @Test("seats are seam-free: integer rects, one size, equal gaps, no overlaps", arguments: TestTier.sample(Fixtures.gridExampleNames, fast: 2))
    func seamFree(name: String) throws {
        let hall = try Fixtures.example(name)
        let m = LayoutStyle()
        for scale in 1...3 {
            for k in 100...300 {
                let zoom = Double(k) / 100
                let l = try Layout(hall: hall, zoom: zoom, scale: Double(scale))
                let S = ceilPixels(Int(m.seatWidth), hundredths: k, scale: scale)
                let SH = ceilPixels(Int(m.seatHeight), hundredths: k, scale: scale)
                let G = ceilPixels(Int(m.gapX), hundredths: k, scale: scale)
                let RG = ceilPixels(Int(m.rowGap), hundredths: k, scale: scale)
                guard l.seatWidth == S, l.seatHeight == SH, l.gapX == G, l.pitchY == SH + RG else {
                    Issue.record("zoom \(zoom) scale \(scale): sizes \(l.seatWidth)/\(l.seatHeight)/\(l.gapX)/\(l.pitchY), expected \(S)/\(SH)/\(G)/\(SH + RG)")
                    return
                }
                try checkCells(l, S: S, SH: SH, G: G, pitchY: SH + RG, nameRows: LayoutPropertyTests.nameRows(hall),
                               context: "\(name) zoom \(zoom) scale \(scale)")
            }
        }
    }

    /// Checks every cell against the rules; records the first few failures
    /// (plain comparisons: millions of cells are checked).
    /// The rows an empty name row is put before: the first row of each
    /// named section, when two or more sections are named.
    static func nameRows(_ hall: Hall) -> [Int] {
        let named = hall.sections.filter { !$0.name.isEmpty }
        guard named.count >= 2 else { return [] }
        return named.compactMap { s in hall.rows.filter { $0.section == s.id && $0.seats.contains(where: \.isSeat) }.map(\.number).min() }
    }

    func checkCells(_ l: Layout, S: Int, SH: Int, G: Int, pitchY: Int, nameRows: [Int] = [], context: String) throws {
        var failures: [String] = []
        func fail(_ s: @autoclosure () -> String) { if failures.count < 5 { failures.append(context + ": " + s()) } }
        var previous: LaidOutCell? = nil
        for cell in l.cells {
            let x = l.gridX + (cell.column - 1) * (S + G)
            // One pitch more for each section name above the row.
            let y = l.gridY + (cell.row - 1 + nameRows.filter { $0 <= cell.row }.count) * pitchY
            var expected = PixelRect(x: x, y: y, w: S, h: SH)
            switch cell.type {
            case .coupleLeft: expected.w = S + G / 2
            case .coupleRight: expected = PixelRect(x: x - (G - G / 2), y: y, w: S + G - G / 2, h: SH)
            default: break
            }
            if cell.rect != expected { fail("\(cell.id) at \(cell.rect), expected \(expected)") }
            if cell.rect.x < 0 || cell.rect.y < 0 || cell.rect.maxX > l.width || cell.rect.maxY > l.height {
                fail("\(cell.id) leaves the image")
            }
            if let p = previous, p.row == cell.row, p.column + 1 == cell.column {
                let gap = cell.rect.x - p.rect.maxX
                if p.type == .coupleLeft {
                    if gap != 0 { fail("couple halves \(p.id)/\(cell.id) do not meet") }
                    if cell.rect.maxX - p.rect.x != 2 * S + G { fail("couple \(p.id) does not span 2S+G") }
                } else if gap != G {
                    fail("gap between \(p.id) and \(cell.id) is \(gap), expected \(G)")
                }
            }
            if let p = previous {
                let ordered = p.row < cell.row ? p.rect.maxY <= cell.rect.y : p.rect.maxX <= cell.rect.x
                if !ordered { fail("\(p.id) and \(cell.id) overlap") }
            }
            previous = cell
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test("bands stay inside the image and clear of the seats", arguments: Fixtures.gridExampleNames)
    func regions(name: String) throws {
        let hall = try Fixtures.example(name)
        for (zoom, scale) in [(1.0, 1.0), (1.37, 2.0), (3.0, 3.0)] {
            let l = try Layout(hall: hall, zoom: zoom, scale: scale)
            let bounds = l.bounds
            let header = try #require(l.header)
            let legend = try #require(l.legend)
            for r in [header, l.screen, legend] + l.rowLabels.map(\.rect) + l.legendItems.map(\.rect) {
                #expect(r.intersection(bounds) == r, "\(r) inside \(bounds)")
                #expect(!r.intersects(l.gridRect), "\(r) clear of the grid \(l.gridRect)")
            }
            #expect(l.centerX == l.gridRect.x + l.gridRect.w / 2)
            #expect(l.screen.x + l.screen.w / 2 == l.centerX || abs(l.screen.centerX - Double(l.centerX)) <= 1)
            // Tiers, three statuses, and wheelchair and couple entries per tier they are in.
            #expect(l.legendItems.count == PriceTiers(hall).prices.count + 3
                    + Set(l.seats.filter { $0.type == .wheelchair }.compactMap(\.tier)).count
                    + Set(l.seats.filter { $0.type == .coupleLeft }.compactMap(\.tier)).count
                    + Set(l.seats.filter { $0.type == .companion }.compactMap(\.tier)).count
                    + (LayoutPropertyTests.nameRows(hall).count >= 2 ? LayoutPropertyTests.nameRows(hall).count : 0))
        }
    }

    @Test("each section's box is the tightest box around its cells", arguments: Fixtures.exampleNames)
    func sectionBoxes(name: String) throws {
        let hall = try Fixtures.example(name)
        let l = try Layout(hall: hall, zoom: 1.37, scale: 2)
        #expect(l.sections.map(\.id) == Set(l.cells.map(\.section)).sorted())
        for box in l.sections {
            let rects = l.cells.filter { $0.section == box.id }.map(\.rect)
            #expect(rects.allSatisfy { box.rect.intersection($0) == $0 }, "\(name) section \(box.id) holds its cells")
            #expect(rects.map(\.x).min() == box.rect.x && rects.map(\.maxX).max() == box.rect.maxX)
            #expect(rects.map(\.y).min() == box.rect.y && rects.map(\.maxY).max() == box.rect.maxY)
            #expect(box.name == hall.sectionName(box.id))
        }
    }

    @Test("without header and legend the grid moves up and the image shrinks")
    func options() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let full = try Layout(hall: hall, zoom: 1, scale: 2)
        var bareStyle = LayoutStyle()
        bareStyle.header = false
        bareStyle.legend = false
        let bare = try Layout(hall: hall, style: bareStyle, zoom: 1, scale: 2)
        #expect(bare.header == nil && bare.legend == nil)
        #expect(bare.gridY == full.gridY - 72)
        #expect(bare.height < full.height)
        var bothStyle = LayoutStyle()
        bothStyle.rowLabelsRight = true
        let both = try Layout(hall: hall, style: bothStyle, zoom: 1, scale: 2)
        #expect(both.rowLabels.count == 2 * hall.rows.count)
    }

    @Test("zoom and scale outside their ranges are refused", arguments: [(0.2, 1.0), (8.5, 1.0), (1.0, 0.5), (1.0, 5.0), (Double.nan, 1.0)])
    func ranges(zoom: Double, scale: Double) throws {
        let hall = try Fixtures.example("seed.json")
        #expect(throws: SeatMapError.self) { try Layout(hall: hall, zoom: zoom, scale: scale) }
    }
}
