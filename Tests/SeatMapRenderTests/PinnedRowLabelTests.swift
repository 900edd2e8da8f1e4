import Foundation
import Testing
import SeatMapLayout
import SeatMapTestSupport
@testable import SeatMapRender

/// Phone views (`--pin-row-labels`): the row labels stay at the viewport's
/// edge, drawn exactly as at rest, and `hit` answers the label a tap lands on.
@Suite("Pinned row labels")
struct PinnedRowLabelTests {
    static func scene(_ hall: String, theme: String = "light", zoom: Double = 2, pinned: Bool = true) throws -> Scene {
        var s = try Scene(hall: try Fixtures.example(hall + ".json"), theme: try Theme.search(theme), zoom: zoom, scale: 2)
        s.pinRowLabels = pinned
        return s
    }

    static func view(_ s: Scene, _ x: Double, _ y: Double) -> ViewTransform {
        ViewTransform(layout: s.layout, viewportWidth: 375, viewportHeight: 300, offsetX: x, offsetY: y)
    }

    @Test("scrolled away, each pinned label is drawn exactly as the label at rest", arguments: ["cinema-12x18", "imax-3-sections", "seed"])
    func sameAsAtRest(hall: String) throws {
        let s = try PinnedRowLabelTests.scene(hall)
        let rest = PinnedRowLabelTests.view(s, 0, 200), away = PinnedRowLabelTests.view(s, 400, 200)
        let a = try Renderer.raster(s, viewport: rest), b = try Renderer.raster(s, viewport: away)
        let pinned = s.layout.pinnedRowLabels(visible: away.visiblePixels)
        let dx = pinned.first?.dx ?? 0
        let labels = pinned.map(\.label)
        #expect(dx > 0 && !labels.isEmpty && pinned.allSatisfy { $0.dx == dx })
        let va = rest.visiblePixels, vb = away.visiblePixels
        var compared = 0
        for label in labels {
            let p = label.pill
            let y0 = max(p.y + Int(label.pillRadius), vb.y, va.y), y1 = min(p.maxY - Int(label.pillRadius), vb.maxY, va.maxY)
            guard y1 > y0 else { continue }
            for y in y0..<y1 {
                for x in (p.x + p.w / 5)..<(p.maxX - p.w / 5) {
                    #expect(b.pixel(x - vb.x, y - vb.y) == a.pixel(x - dx - va.x, y - va.y), "row \(label.row) at \(x),\(y)")
                    compared += 1
                }
            }
        }
        #expect(compared > 100)
        // At rest the pinned render is the plain render, pixel for pixel.
        var plain = s
        plain.pinRowLabels = false
        #expect(try Renderer.raster(plain, viewport: rest).rgbaPixels() == a.rgbaPixels())
        // Scrolled away without the flag, the labels are gone from the strip.
        let c = try Renderer.raster(plain, viewport: away)
        #expect(c.rgbaPixels() != b.rgbaPixels())
    }

    @Test("hit answers the pinned label under a tap, and only with the flag")
    func hit() throws {
        let s = try PinnedRowLabelTests.scene("cinema-12x18")
        let t = PinnedRowLabelTests.view(s, 400, 150)
        let tester = HitTester(layout: s.layout)
        let labels = s.layout.pinnedRowLabels(visible: t.visiblePixels).map(\.label)
        #expect(labels.count >= 3)
        for label in labels where t.visiblePixels.contains(Int(label.pill.centerX), Int(label.pill.centerY)) {
            let p = t.viewPoint(ofContentPixel: label.pill.centerX, label.pill.centerY)
            #expect(try tester.hit(at: p, in: t, pinnedIn: t.visiblePixels) == .rowLabel(label))
            if case .rowLabel = try tester.hit(at: p, in: t) { Issue.record("a tap answered a label without the flag") }
        }
        // Between labels, the seat under the tap as usual.
        let seat = try #require(s.layout.seats.first { t.visiblePixels.contains(Int($0.rect.centerX), Int($0.rect.centerY)) && $0.rect.x > labels[0].rect.maxX })
        let p = t.viewPoint(ofContentPixel: seat.rect.centerX, seat.rect.centerY)
        #expect(try tester.hit(at: p, in: t, pinnedIn: t.visiblePixels) == .seat(seat))
    }

    @Test("labels on the right (print) are pinned to the right edge; a free venue pins nothing")
    func sides() throws {
        let print = try PinnedRowLabelTests.scene("cinema-12x18", theme: "print")
        let t = PinnedRowLabelTests.view(print, 0, 150)
        let pinned = print.layout.pinnedRowLabels(visible: t.visiblePixels)
        let pad = Int((print.layout.style.rowLabelSpacing * print.layout.pixelsPerPoint).rounded())
        let right = pinned.filter { $0.dx < 0 }, left = pinned.filter { $0.dx == 0 }
        #expect(!right.isEmpty && right.count == left.count)
        #expect(right.allSatisfy { $0.label.rect.maxX == t.visiblePixels.maxX - pad })
        let free = try PinnedRowLabelTests.scene("arena-blocks")
        #expect(free.layout.pinnedRowLabels(visible: PinnedRowLabelTests.view(free, 300, 300).visiblePixels).isEmpty)
    }
}
