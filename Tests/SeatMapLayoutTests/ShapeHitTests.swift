import Foundation
import Testing
import SeatMapLayout
import SeatMapTestSupport

/// The exactness rule for every venue: a tap hits the shape that contains
/// its device pixel's centre, the last drawn winning where shapes overlap.
/// The expectation is computed here, independently of the index: each
/// shape's drawn path is flattened into a polygon and tested by winding
/// number (grid cells: their whole rect, the grid's documented tap target).
@Suite("Hit-testing drawn shapes")
struct ShapeHitTests {
    /// A drawn shape as a closed polygon, with what a hit on it reports.
    struct Shape {
        var points: [(Double, Double)]
        var box: (Double, Double, Double, Double)
        var expected: Int
    }

    /// Flattens a path: every cubic into 64 chords.
    static func polygon(_ path: Path) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        var last = (0.0, 0.0)
        for e in path.elements {
            switch e {
            case .move(let x, let y), .line(let x, let y):
                out.append((x, y))
                last = (x, y)
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
                for k in 1...64 {
                    let t = Double(k) / 64, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    out.append((a * last.0 + b * x1 + c * x2 + d * x, a * last.1 + b * y1 + c * y2 + d * y))
                }
                last = (x, y)
            case .close: break
            }
        }
        return out
    }

    static func shape(_ points: [(Double, Double)], _ expected: Int) -> Shape {
        let xs = points.map(\.0), ys = points.map(\.1)
        return Shape(points: points, box: (xs.min() ?? 0, ys.min() ?? 0, xs.max() ?? 0, ys.max() ?? 0), expected: expected)
    }

    static func winding(_ pts: [(Double, Double)], _ x: Double, _ y: Double) -> Int {
        var w = 0
        for k in pts.indices {
            let (ax, ay) = pts[k], (bx, by) = pts[(k + 1) % pts.count]
            let side = (bx - ax) * (y - ay) - (x - ax) * (by - ay)
            if ay <= y { if by > y && side > 0 { w += 1 } } else if by <= y && side < 0 { w -= 1 }
        }
        return w
    }

    static func distanceToEdge(_ pts: [(Double, Double)], _ x: Double, _ y: Double) -> Double {
        var best = Double.infinity
        for k in pts.indices {
            let (ax, ay) = pts[k], (bx, by) = pts[(k + 1) % pts.count]
            let dx = bx - ax, dy = by - ay
            let len = dx * dx + dy * dy
            let t = len > 0 ? max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / len)) : 0
            let ex = ax + t * dx - x, ey = ay + t * dy - y
            best = min(best, (ex * ex + ey * ey).squareRoot())
        }
        return best
    }

    /// Every shape in drawing order: areas under seats.
    static func shapes(_ l: Layout) -> [Shape] {
        var out: [Shape] = []
        for (k, a) in l.areas.enumerated() where a.isHittable {
            out.append(shape(polygon(a.path), HitTester.firstArea - k))
        }
        // Grid aisles keep their cell (a tap reports the aisle); free rows
        // draw no aisles.
        for (k, c) in l.cells.enumerated() where c.isSeat || !l.isFree {
            if l.isFree {
                out.append(shape(polygon(l.shape(of: c)), k))
            } else {
                let r = c.rect
                out.append(shape([(Double(r.x), Double(r.y)), (Double(r.maxX), Double(r.y)), (Double(r.maxX), Double(r.maxY)),
                                  (Double(r.x), Double(r.maxY))], k))
            }
        }
        return out
    }

    @Test("each sampled device pixel hits the shape drawn over its centre, at zooms 1, 1.37, 2.5 and scales 1, 3",
          arguments: TestTier.sample(Fixtures.exampleNames, fast: 2))
    func sweep(name: String) throws {
        let hall = try Fixtures.example(name)
        var random = SeededRandom(seed: UInt64(name.utf8.count))
        for zoom in [1, 1.37, 2.5] {
            for scale in [1.0, 3] {
                let l = try Layout(hall: hall, zoom: zoom, scale: scale)
                let tester = HitTester(layout: l)
                let shapes = ShapeHitTests.shapes(l)
                // Random pixels, and pixels around sampled shapes' edges.
                var probes: [(Int, Int)] = (0..<3000).map { _ in (Int.random(in: 0..<max(1, l.width), using: &random), Int.random(in: 0..<max(1, l.height), using: &random)) }
                for _ in 0..<300 {
                    guard let s = shapes.isEmpty ? nil : shapes[Int.random(in: 0..<max(1, shapes.count), using: &random)] else { break }
                    for _ in 0..<12 {
                        let spanX: Int = Int(s.box.2 - s.box.0) + 5, spanY: Int = Int(s.box.3 - s.box.1) + 5
                        let x: Int = Int(s.box.0) - 2 + Int.random(in: 0..<spanX, using: &random)
                        let y: Int = Int(s.box.1) - 2 + Int.random(in: 0..<spanY, using: &random)
                        probes.append((x, y))
                    }
                }
                var wrong = 0, edge = 0
                for (i, j) in probes {
                    let x = Double(i) + 0.5, y = Double(j) + 0.5
                    var expected: Int? = nil
                    var near = false
                    for s in shapes.reversed() where x >= s.box.0 - 1 && x <= s.box.2 + 1 && y >= s.box.1 - 1 && y <= s.box.3 + 1 {
                        if ShapeHitTests.distanceToEdge(s.points, x, y) < 0.05 { near = true }
                        if expected == nil && ShapeHitTests.winding(s.points, x, y) != 0 { expected = s.expected }
                    }
                    let got = tester.locate(i, j)
                    let same = expected.map { $0 == got } ?? (got == HitTester.gap || got == HitTester.outside)
                    if same { continue }
                    if near {
                        edge += 1
                        continue
                    }
                    wrong += 1
                    if wrong <= 3 {
                        Issue.record("\(name) zoom \(zoom) scale \(scale): pixel \(i),\(j) hit \(got), drawn \(expected.map(String.init) ?? "nothing")")
                    }
                }
                #expect(wrong == 0)
                // Pixel centres within 0.05 px of an outline may go either way
                // (Bézier arcs against true circles); they must stay rare.
                #expect(edge * 100 < probes.count, "\(name): \(edge) of \(probes.count) probes on an edge")
            }
        }
    }

    @Test("free venues: every seat's centre hits it, turned and round seats included")
    func centres() throws {
        for name in Fixtures.freeExampleNames {
            let l = try Layout(hall: try Fixtures.example(name), zoom: 1.37, scale: 3)
            let tester = HitTester(layout: l)
            for (k, c) in l.cells.enumerated() where c.isSeat {
                #expect(tester.locate(Int(c.seatRect.centerX), Int(c.seatRect.centerY)) == k, "\(name) \(c.id)")
            }
        }
    }
}
