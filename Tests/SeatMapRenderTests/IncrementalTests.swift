import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapTestSupport

@Suite("Incremental redraw")
struct IncrementalTests {
    /// Changes a dozen seats (a selected one among them), redraws only their
    /// rects on the old image, and compares with a full render of the new state.
    @Test("redrawing the changed seats equals a full render of the new state",
          arguments: [1.0, 1.37, 2.5], ["cinema-12x18.json", "imax-3-sections.json", "labels-rtl.json"])
    func matchesFullRender(zoom: Double, name: String) throws {
        let theme = try Theme.search(name.hasPrefix("imax") ? "print" : "light")
        let hall = try Fixtures.example(name)
        var rng = SeededRandom(seed: UInt64(zoom * 100) + UInt64(name.count))
        let seats = hall.cells.filter { $0.seat.isSeat }
        var selection = Selection()
        let firstAvailable = try #require(seats.first { $0.seat.status == .available && !$0.seat.type.isCoupleHalf })
        _ = selection.toggle(firstAvailable.id, in: hall)
        var changes = [StatusBatch.Change(seat: firstAvailable.id, status: .sold)]
        for _ in 0..<11 {
            let cell = seats[Int.random(in: 0..<seats.count, using: &rng)]
            let status: SeatStatus = [.available, .locked, .sold][Int.random(in: 0..<3, using: &rng)]
            changes.append(StatusBatch.Change(seat: cell.id, status: status))
        }
        let old = try Scene(hall: hall, theme: theme, zoom: zoom, scale: 2, selected: Set(selection.ids))
        let image = try Renderer.raster(old)
        var sync = StatusSync(hall: hall)
        let outcome = try sync.apply(StatusBatch(batchId: "b", sequence: 1, changes: changes), selection: &selection)
        guard case .applied(let changed, let dropped) = outcome else { Issue.record("not applied"); return }
        #expect(dropped.count == 1)
        let new = try Scene(hall: sync.hall, theme: theme, zoom: zoom, scale: 2, selected: Set(selection.ids))
        try Renderer.redraw(image, scene: new, dirty: changed.compactMap { new.layout.cell(id: $0)?.rect })
        let full = try Renderer.raster(new)
        #expect(image.rgbaPixels() == full.rgbaPixels())
    }

    @Test("many changes (redrawn whole, as it is cheaper) still equal a full render")
    func manyChanges() throws {
        let theme = try Theme.search("dark")
        let hall = try Fixtures.example("cinema-12x18.json")
        let changes = hall.cells.filter { $0.seat.status == .available }.prefix(100).map { StatusBatch.Change(seat: $0.id, status: .locked) }
        let old = try Scene(hall: hall, theme: theme, zoom: 1.37, scale: 1)
        let image = try Renderer.raster(old)
        var sync = StatusSync(hall: hall)
        var selection = Selection()
        guard case .applied(let changed, _) = try sync.apply(StatusBatch(batchId: "m", sequence: 1, changes: changes), selection: &selection)
        else { Issue.record("not applied"); return }
        let new = try Scene(hall: sync.hall, theme: theme, zoom: 1.37, scale: 1)
        try Renderer.redraw(image, scene: new, dirty: changed.compactMap { new.layout.cell(id: $0)?.rect })
        #expect(image.rgbaPixels() == (try Renderer.raster(new)).rgbaPixels())
    }

    @Test("an image of another size is refused")
    func wrongSize() throws {
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let image = try RasterImage(width: 10, height: 10)
        #expect(throws: SeatMapError.self) { try Renderer.redraw(image, scene: scene, dirty: []) }
    }

    @Test("a PNG read back redraws like the image it came from")
    func fromPNG() throws {
        let scene = try Scene(hall: try Fixtures.example("seed.json"), theme: try Theme.search("dark"), zoom: 1.37, scale: 2)
        let image = try Renderer.raster(scene)
        let back = try RasterImage(png: try image.pngData())
        #expect(back.rgbaPixels() == image.rgbaPixels())
        #expect(throws: SeatMapError.self) { try RasterImage(png: Array("nope".utf8)) }
    }
}

@Suite("Drawing on another canvas")
struct PublicCanvasTests {
    /// A backend of one's own: records what it is asked to draw.
    final class Recorder: Canvas {
        var fills = 0, strokes = 0, texts: [String] = [], seats: [String] = []
        func fill(_ path: Path, _ color: Color) { fills += 1 }
        func stroke(_ path: Path, _ color: Color, width: Double, dash: [Double]) { strokes += 1 }
        func text(_ string: String, x: Double, y: Double, align: TextAlign, style: TextStyle) { texts.append(string) }
        func pushClip(_ rect: PixelRect) {}
        func popClip() {}
        var wantsSeatTags: Bool { true }
        func beginSeat(_ tag: SeatTag) { seats.append(tag.id) }
        func endSeat() {}
    }

    @Test("Renderer.draw draws the layout's items on any Canvas: every seat, in the layout's order")
    func draw() throws {
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.search("light"), zoom: 1, scale: 2)
        let recorder = Recorder()
        Renderer.draw(scene, on: recorder)
        #expect(recorder.seats == scene.layout.seats.map(\.id.description))
        #expect(recorder.texts.contains(scene.title) && recorder.fills > scene.layout.seats.count)
        #expect(recorder.fills + recorder.strokes + recorder.texts.count == Renderer.dryRun(scene))
    }
}
