import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport

@Suite("Hit-testing")
struct HitTesterTests {
    /// For every content pixel, a tap at the pixel's centre must land on the
    /// cell whose rect holds that pixel: the hit-tester reads the geometry
    /// the renderer draws. The expectation is painted rect by rect.
    @Test("every pixel's centre hits the seat drawn there", arguments: TestTier.sample(Fixtures.gridExampleNames, fast: 2))
    func agreement(name: String) throws {
        let hall = try Fixtures.example(name)
        for zoom in [1, 1.37, 2, 2.5, 3] {
            for scale in [1.0, 2, 3] {
                let l = try Layout(hall: hall, zoom: zoom, scale: scale)
                let t = ViewTransform(layout: l, offsetX: 13.37, offsetY: 7.5)
                let tester = HitTester(layout: l)
                var painted = [Int32](repeating: Int32(HitTester.outside), count: l.width * l.height)
                let g = l.gridRect
                for j in g.y..<g.maxY { for i in g.x..<g.maxX { painted[j * l.width + i] = Int32(HitTester.gap) } }
                var overlaps = 0
                for (k, cell) in l.cells.enumerated() {
                    let r = cell.rect
                    for j in r.y..<r.maxY {
                        for i in r.x..<r.maxX {
                            if painted[j * l.width + i] != Int32(HitTester.gap) { overlaps += 1 }
                            painted[j * l.width + i] = Int32(k)
                        }
                    }
                }
                #expect(overlaps == 0, "cells overlap or leave the grid")
                var mismatches = 0
                for j in 0..<l.height {
                    for i in 0..<l.width {
                        let p = t.viewPoint(ofContentPixel: Double(i) + 0.5, Double(j) + 0.5)
                        let c = t.contentPixel(of: p)
                        let got = tester.locate(Int(c.x.rounded(.down)), Int(c.y.rounded(.down)))
                        if got != Int(painted[j * l.width + i]) {
                            mismatches += 1
                            if mismatches <= 3 { Issue.record("\(name) zoom \(zoom) scale \(scale): pixel \(i),\(j) hit \(got), drawn \(painted[j * l.width + i])") }
                        }
                    }
                }
                #expect(mismatches == 0)
            }
        }
    }

    @Test("a tap reports the seat with its labels, status, price and couple partner")
    func seatDetails() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let l = try Layout(hall: hall, zoom: 2, scale: 3)
        let t = ViewTransform(layout: l, viewportWidth: 375, viewportHeight: 667, offsetX: 200, offsetY: 120)
        let tester = HitTester(layout: l)
        for id: SeatID in ["1-3-5", "1-12-1", "1-12-2", "1-1-10"] {
            let cell = try #require(l.cell(id: id))
            let v = t.viewRect(of: cell.rect)
            let result = try tester.hit(at: ViewPoint(v.x + v.w / 2, v.y + v.h / 2), in: t)
            switch result {
            case .seat(let s):
                #expect(s.id == id)
                #expect(l.describe(s) == "\(s.rowLabel)排\(s.seatLabel)座")
                if id == "1-12-1" { #expect(s.partnerID == "1-12-2") }
                if id == "1-12-2" { #expect(s.partnerID == "1-12-1") }
                #expect(s.price == hall.cell(id: id)?.price)
            case .aisle(let row, let column):
                #expect(id == "1-1-10" && row == 1 && column == 10)
            default:
                Issue.record("\(id) hit \(result)")
            }
        }
    }

    @Test("find answers like hit, as indexes into the layout's cells")
    func findAgreesWithHit() throws {
        let l = try Layout(hall: try Fixtures.example("cinema-12x18.json"), zoom: 1.37, scale: 2)
        let t = ViewTransform(layout: l, offsetX: 7, offsetY: 3)
        let tester = HitTester(layout: l)
        var rng = SeededRandom(seed: 5)
        var kinds = Set<String>()
        for _ in 0..<20_000 {
            let p = ViewPoint(Double.random(in: -20...Double(l.width) / 2, using: &rng), Double.random(in: -20...Double(l.height) / 2, using: &rng))
            let expected = try tester.hit(at: p, in: t)
            let found = try tester.find(p, t)
            kinds.insert(expected.kind)
            switch (found, expected) {
            case (.seat(let k), .seat(let cell)): #expect(l.cells[k] == cell)
            case (.aisle(let k), .aisle(let row, let column)): #expect(l.cells[k].row == row && l.cells[k].column == column)
            case (.gap, .gap), (.outside, .outside): break
            default: Issue.record("find \(found) but hit \(expected) at \(p)")
            }
        }
        #expect(kinds == ["seat", "aisle", "gap", "outside"])
    }

    @Test("gaps, empty floor and the area around the grid are told apart")
    func nonSeats() throws {
        let hall = try Fixtures.example("imax-3-sections.json")
        let l = try Layout(hall: hall, zoom: 1, scale: 2)
        let tester = HitTester(layout: l)
        let s = try #require(l.cell(id: "1-1-1"))
        // The gap right of seat 1-1-1.
        #expect(tester.hit(pixelX: Double(s.rect.maxX) + 0.5, pixelY: s.rect.centerY) == .gap)
        // Row 7 is a cross aisle (no entry): empty floor is a gap.
        let row8 = try #require(l.cell(id: "2-8-1"))
        #expect(tester.hit(pixelX: row8.rect.centerX, pixelY: Double(row8.rect.y - l.pitchY) + 2) == .gap)
        // The header is outside the grid.
        #expect(tester.hit(pixelX: 5, pixelY: 5) == .outside)
        #expect(tester.hit(pixelX: -5, pixelY: 1e300) == .outside)
        #expect(tester.hit(pixelX: .nan, pixelY: 0) == .outside)
    }

    @Test("slop: a near miss hits the nearest seat; a far one does not")
    func slop() throws {
        let hall = try Fixtures.example("cinema-12x18.json")
        let l = try Layout(hall: hall, zoom: 1, scale: 2)
        let t = ViewTransform(layout: l)
        let tester = HitTester(layout: l)
        let a = try #require(l.cell(id: "1-2-1"))
        let b = try #require(l.cell(id: "1-2-2"))
        // 1 pixel right of seat 1 inside the 8 px gap: nearer to seat 1.
        let nearA = t.viewPoint(ofContentPixel: Double(a.rect.maxX) + 1.5, a.rect.centerY)
        #expect(try tester.hit(at: nearA, in: t) == .gap)
        #expect(try tester.hit(at: nearA, in: t, slop: 4).seatID == "1-2-1")
        let nearB = t.viewPoint(ofContentPixel: Double(b.rect.x) - 1.5, b.rect.centerY)
        #expect(try tester.hit(at: nearB, in: t, slop: 4).seatID == "1-2-2")
        // Left of the grid, within slop of the row's first seat.
        let left = t.viewPoint(ofContentPixel: Double(a.rect.x) - 3, a.rect.centerY)
        #expect(try tester.hit(at: left, in: t) == .outside)
        #expect(try tester.hit(at: left, in: t, slop: 2).seatID == "1-2-1")
        #expect(try tester.hit(at: left, in: t, slop: 1) == .outside)
        // Exactly in the middle of the gap: equal distance, lower column wins.
        let mid = t.viewPoint(ofContentPixel: Double(a.rect.maxX + b.rect.x) / 2, a.rect.centerY)
        #expect(try tester.hit(at: mid, in: t, slop: 4).seatID == "1-2-1")
    }

    @Test("a transform at another zoom or scale than the layout is refused, by every query, naming both")
    func mismatch() throws {
        let l = try Layout(hall: try Fixtures.example("seed.json"), zoom: 2, scale: 2)
        let tester = HitTester(layout: l)
        for (zoom, scale) in [(1.0, 2.0), (2, 3), (Double.nan, 2)] {
            let t = ViewTransform(viewportWidth: 375, viewportHeight: 667, zoom: zoom, scale: scale)
            let e = #expect(throws: SeatMapError.self) { try tester.hit(at: ViewPoint(10, 10), in: t) }
            #expect(e?.message.contains("zoom \(zoom), scale \(scale)") == true && e?.message.contains("zoom 2.0, scale 2.0") == true, "\(String(describing: e))")
            #expect(throws: SeatMapError.self) { try tester.find(ViewPoint(10, 10), t) }
            #expect(throws: SeatMapError.self) { try tester.hit(at: ViewPoint(10, 10), in: t, pinnedIn: PixelRect(x: 0, y: 0, w: 10, h: 10)) }
        }
        let t = ViewTransform(layout: l)
        #expect(try tester.find(ViewPoint(1, 1), t) == .outside)
    }

    @Test("a tester is its index and a few words: passing one, as a query does, copies nothing else of its layout")
    func small() {
        // The index, the layout's reference, its zoom and scale.
        let size = MemoryLayout<HitTester>.size
        #expect(size <= MemoryLayout<SpatialIndex>.size + 3 * MemoryLayout<Double>.size, "\(size) bytes")
        #expect(size < MemoryLayout<Layout>.size / 4, "\(size) of the layout's \(MemoryLayout<Layout>.size) bytes")
    }
}

@Suite("View transform")
struct ViewTransformTests {
    @Test("view point → content pixel → view point is the identity", arguments: [1.0, 2, 3])
    func roundTrip(scale: Double) {
        let t = ViewTransform(viewportWidth: 390, viewportHeight: 844, offsetX: 120.4, offsetY: 33, zoom: 2.37, scale: scale)
        var rng = SeededRandom(seed: 42)
        for _ in 0..<1000 {
            let p = ViewPoint(Double.random(in: -50...500, using: &rng), Double.random(in: -50...900, using: &rng))
            let c = t.contentPixel(of: p)
            #expect(c.x == (p.x + t.offsetX) * scale)
            let back = t.viewPoint(ofContentPixel: c.x, c.y)
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
    }

    @Test("a seat's view rect is its layout rect, moved by the offset and divided by the scale")
    func forward() throws {
        let l = try Layout(hall: try Fixtures.example("seed.json"), zoom: 1.5, scale: 3)
        let t = ViewTransform(layout: l, viewportWidth: 200, viewportHeight: 100, offsetX: 10, offsetY: 20)
        let cell = try #require(l.cell(id: "1-2-3"))
        let v = t.viewRect(of: cell.rect)
        #expect(v.x == Double(cell.rect.x) / 3 - 10)
        #expect(v.w == Double(cell.rect.w) / 3)
        #expect(t.visiblePixels == PixelRect(x: 30, y: 60, w: 600, h: 300))
    }

    @Test("offsets snap to whole device pixels, as scroll views do")
    func snapping() {
        let t = ViewTransform(viewportWidth: 100, viewportHeight: 100, offsetX: 10.2, offsetY: 0.4, zoom: 1, scale: 2)
        #expect(t.offsetX == 10.0 && t.offsetY == 0.5)
    }
}

@Suite("Tap or pan")
struct TapClassifierTests {
    let classifier = TapClassifier(threshold: 8)

    @Test("a touch that stays within 8 pt is a tap where it went down")
    func tap() {
        let down = ViewPoint(100, 100)
        #expect(classifier.classify(down: down, path: [ViewPoint(103, 104)], up: ViewPoint(105, 105)) == .tap(down))
    }

    @Test("a touch that strays beyond 8 pt is a pan, even if it comes back")
    func pan() {
        let down = ViewPoint(100, 100)
        #expect(classifier.classify(down: down, path: [ViewPoint(109, 100)], up: down) == .pan)
        #expect(classifier.classify(down: down, up: ViewPoint(100, 108.01)) == .pan)
        #expect(classifier.classify(down: down, up: ViewPoint(100, 108)) == .tap(down))
    }
}

@Suite("Fit")
struct FitTests {
    @Test("the fitted hall fills the viewport without overflowing it", arguments: Fixtures.exampleNames)
    func fits(name: String) throws {
        let hall = try Fixtures.example(name)
        for (w, h) in [(375.0, 667.0), (1024.0, 768.0), (3000.0, 2000.0)] {
            let fit = try Fit.fit(hall: hall, viewportWidth: w, viewportHeight: h, scale: 2)
            #expect(LayoutStyle.seatWidthRange.contains(fit.style.seatWidth))
            let l = try Layout(hall: hall, style: fit.style, zoom: fit.zoom, scale: 2)
            #expect(Double(l.width) / 2 <= w && Double(l.height) / 2 <= h)
            if fit.zoom < Layout.zoomRange.upperBound {
                let bigger = try Layout(hall: hall, style: fit.style, zoom: fit.zoom + 0.01, scale: 2)
                #expect(Double(bigger.width) / 2 > w || Double(bigger.height) / 2 > h, "the zoom is the largest that fits")
            }
        }
    }
}

extension HitResult {
    var seatID: String? {
        if case .seat(let s) = self { return s.id.description }
        return nil
    }
}
