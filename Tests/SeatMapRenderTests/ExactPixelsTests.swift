import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

/// Every way of drawing a pixel gives the full render's value: viewports
/// are crops of it and incremental redraws equal it, byte for byte, on every
/// example at zooms 1, 1.37, 2.5 and 3.
@Suite("Exact pixels: viewports and redraws equal the full render")
struct ExactPixelsTests {
    static let zooms = [1.0, 1.37, 2.5, 3.0]

    /// The pixels of `r` in an image.
    static func crop(_ pixels: [UInt32], width: Int, _ r: PixelRect) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(r.w * r.h)
        for y in r.y..<r.maxY { out += pixels[(y * width + r.x)..<(y * width + r.maxX)] }
        return out
    }

    /// How many pixels differ, and the first (x, y) that does.
    static func differences(_ a: [UInt32], _ b: [UInt32], width: Int) -> (count: Int, first: (Int, Int)?) {
        guard a.count == b.count else { return (max(a.count, b.count), nil) }
        var count = 0
        var first: (Int, Int)? = nil
        for i in a.indices where a[i] != b[i] {
            count += 1
            if first == nil { first = (i % width, i / width) }
        }
        return (count, first)
    }

    @Test("random viewports are crops of the full render; random seat changes redrawn equal a full render",
          arguments: TestTier.sample(Fixtures.exampleNames, fast: 2), zooms)
    func sweep(name: String, zoom: Double) throws {
        let hall = try Fixtures.example(name)
        let theme = try Theme.search("light")
        var rng = SeededRandom(seed: UInt64(zoom * 1000) &+ UInt64(name.utf8.count) &* 7919)
        let scene = try Scene(hall: hall, theme: theme, zoom: zoom, scale: 2)
        let full = try Renderer.raster(scene)
        let pixels = full.rgbaPixels()
        let l = scene.layout
        // Viewports of phone and odd sizes at random pans (in points; scale 2).
        for _ in 0..<3 {
            let w = Double(Int.random(in: 60...400, using: &rng)), h = Double(Int.random(in: 60...500, using: &rng))
            let maxX = max(0, Double(l.width) / 2 - w), maxY = max(0, Double(l.height) / 2 - h)
            let ox = Double(Int.random(in: 0...Int(maxX), using: &rng)), oy = Double(Int.random(in: 0...Int(maxY), using: &rng))
            let t = ViewTransform(layout: l, viewportWidth: w, viewportHeight: h, offsetX: ox, offsetY: oy)
            let view = try Renderer.raster(scene, viewport: t)
            let r = t.visiblePixels.intersection(l.bounds)
            guard r.w == view.width, r.h == view.height else { continue }  // a view past the edge is checked elsewhere
            let d = Self.differences(view.rgbaPixels(), Self.crop(pixels, width: full.width, r), width: r.w)
            #expect(d.count == 0, "\(name) zoom \(zoom) viewport \(r): \(d.count) pixels differ, the first at \(String(describing: d.first)) in the view")
        }
        // Six random seats change status; the redraw equals a full render of the new state.
        // Seats booked alone (a batch cannot split a group or a couple).
        let seats = hall.cells.filter { $0.seat.isSeat && hall.members(of: $0.id).count == 1 }
        guard !seats.isEmpty else { return }
        var changes: [StatusBatch.Change] = []
        for _ in 0..<6 {
            let cell = seats[Int.random(in: 0..<seats.count, using: &rng)]
            changes.append(StatusBatch.Change(seat: cell.id, status: [.available, .locked, .sold][Int.random(in: 0..<3, using: &rng)]))
        }
        var sync = StatusSync(hall: hall)
        var selection = Selection()
        guard case .applied(let changed, _) = try sync.apply(StatusBatch(batchId: "x", sequence: 1, changes: changes), selection: &selection)
        else { Issue.record("not applied"); return }
        let next = try Scene(hall: sync.hall, theme: theme, zoom: zoom, scale: 2)
        try Renderer.redraw(full, scene: next, dirty: changed.compactMap { next.layout.cell(id: $0)?.rect })
        let d = Self.differences(full.rgbaPixels(), try Renderer.raster(next).rgbaPixels(), width: full.width)
        #expect(d.count == 0, "\(name) zoom \(zoom) redraw of \(changed): \(d.count) pixels differ, the first at \(String(describing: d.first))")
    }
}
