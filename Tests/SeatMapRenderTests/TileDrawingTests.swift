import CCairo
import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
@testable import SeatMapRender
import SeatMapTestSupport

/// Threads drawing at once share Cairo's fonts and draw what one thread draws.
@Suite("Threads drawing at once")
struct ThreadedDrawingTests {
    @Test("a large render drawn by two threads equals the same render on one thread")
    func threadsAgree() throws {
        let scene = try GeometryOptions(zoom: 4, scale: 2).scene(for: try Fixtures.example("theatre-curved.json"))
        #expect(Renderer.tiles(scene.layout.bounds, scene.layout).count > 2, "several tiles")
        #expect(scene.layout.width * scene.layout.height >= Renderer.parallelPixels, "drawn on every core")
        let two = try Renderer.$cores.withValue(2) { try Renderer.raster(scene) }
        let one = try Renderer.$cores.withValue(1) { try Renderer.raster(scene) }
        #expect(two.differingPixels(from: one) == 0)
    }
}

/// Tile frames drawn on one reused buffer a thread (`FrameMemory`) must
/// give what fresh surfaces give, also under a background that is not
/// opaque, where the buffer is cleared first.
@Suite("Reused frame memory")
struct FrameMemoryTests {
    @Test("a render of several tiles on reused frames equals the tiles drawn on fresh surfaces, opaque and translucent backgrounds",
          arguments: [1.0, 0.5])
    func sameAsFresh(alpha: Double) throws {
        var theme = try Theme.builtIn("light")
        theme.background = Color(r: theme.background.r, g: theme.background.g, b: theme.background.b, a: alpha)
        let layout = try GeometryOptions(theme: theme, zoom: 4, scale: 2).layout(for: try Fixtures.example("theatre-curved.json")).layout
        let scene = try Scene(layout: layout, theme: theme)
        let tiles = Renderer.tiles(layout.bounds, layout)
        #expect(tiles.count > 2, "several tiles, so frames are reused")
        // One thread: every tile on the same reused memory.
        let reused = try Renderer.$cores.withValue(1) { try Renderer.raster(scene) }
        let fresh = try RasterImage(width: layout.width, height: layout.height)
        let text = try PangoText(theme, locale: layout.locale)
        guard let data = cairo_image_surface_get_data(fresh.surface.pointer) else { Issue.record("no pixels"); return }
        for tile in tiles {
            let drawn = try Renderer.drawInFrame(scene, tile: tile, part: tile, text: text, stamping: .all, memory: nil)
            try Renderer.copyPart(drawn, tile, BandTarget(pointer: data), fresh.stride, 0, 0)
        }
        cairo_surface_mark_dirty(fresh.surface.pointer)
        #expect(reused.differingPixels(from: fresh) == 0)
        if alpha < 1 { #expect(reused.rgbaPixels().contains { $0 >> 24 != 0xFF }, "the background is translucent in the image") }
    }
}

@Suite("Tiles drawn in place")
struct InPlaceTileTests {
    /// A scene of several tiles, large enough to be drawn on every core.
    static func scene(alpha: Double) throws -> Scene {
        var theme = try Theme.builtIn("light")
        theme.background = Color(r: theme.background.r, g: theme.background.g, b: theme.background.b, a: alpha)
        let layout = try GeometryOptions(theme: theme, zoom: 4, scale: 3).layout(for: try Fixtures.example("theatre-curved.json")).layout
        return try Scene(layout: layout, theme: theme)
    }

    @Test("drawn in place on 2 cores (and on 3, in place or copied as the grid allows), a render equals the same render drawn in frames and copied, and drawn on one core; opaque and translucent backgrounds",
          arguments: [1.0, 0.5])
    func sameAsCopied(alpha: Double) throws {
        let scene = try Self.scene(alpha: alpha)
        let layout = scene.layout
        #expect(Renderer.tiles(layout.bounds, layout).count >= 6, "tiles whose frames meet in rows and columns")
        #expect(layout.width * layout.height >= Renderer.parallelPixels, "large enough to draw on every core")
        let serial = try Renderer.$cores.withValue(1) { try Renderer.raster(scene) }
        for cores in [2, 3] {
            let counts = Renderer.InPlaceCounts()
            let inPlace = try Renderer.$inPlaceCounts.withValue(counts) { try Renderer.$cores.withValue(cores) { try Renderer.raster(scene) } }
            if cores == 2 {
                #expect(counts.tiles.placed > 0, "the render drew its tiles in place")
                // A translucent background clears each frame first: every covered pixel is kept.
                let pixels = counts.pixels
                if alpha < 1 { #expect(pixels.covered > 0 && pixels.kept == pixels.covered, "\(pixels.kept) of \(pixels.covered) pixels kept") }
            }
            let copied = try Renderer.$cores.withValue(cores) { try Renderer.$tilesInPlace.withValue(false) { try Renderer.raster(scene) } }
            #expect(inPlace.differingPixels(from: copied) == 0, "\(cores) cores: in place against copied")
            #expect(inPlace.differingPixels(from: serial) == 0, "\(cores) cores: in place against one core")
        }
    }

    @Test("a grid hall drawn in place, on one core and on two, keeps its neighbours' pixels only for tiles where Cairo draws past the part, and only those Cairo may change (stamps write only the part): the same pixels as drawn in frames and copied")
    func gridKeepsLittle() throws {
        let theme = try Theme.builtIn("light")
        let layout = try GeometryOptions(theme: theme, zoom: 4, scale: 3).layout(for: try Fixtures.example("cinema-12x18.json")).layout
        let scene = try Scene(layout: layout, theme: theme)
        let tiles = Renderer.tiles(layout.bounds, layout)
        #expect(tiles.count >= 6)
        let copied = try Renderer.$cores.withValue(1) { try Renderer.$tilesInPlace.withValue(false) { try Renderer.raster(scene) } }
        for cores in [1, 2] {
            let counts = Renderer.InPlaceCounts()
            let image = try Renderer.$inPlaceCounts.withValue(counts) { try Renderer.$cores.withValue(cores) { try Renderer.raster(scene) } }
            #expect(counts.tiles.placed == tiles.count, "\(cores) cores: every tile drawn in place")
            // Every tile but the first has a drawn neighbour under its frame;
            // the stamped seats, labels and numbers need none of them kept.
            #expect(counts.tiles.kept < tiles.count - 1, "\(cores) cores: \(counts.tiles.kept) tiles kept pixels")
            // Only where Cairo draws past a part (a row label's box, a
            // text's first drawings): a small share of what lies under.
            let pixels = counts.pixels
            #expect(pixels.covered > 0 && pixels.kept * 8 < pixels.covered, "\(cores) cores: \(pixels.kept) of \(pixels.covered) pixels kept")
            #expect(image.differingPixels(from: copied) == 0, "\(cores) cores: in place against copied")
        }
    }

    @Test("kept pixels: rects that partly overlap, kept with drawings between them, are put back so every covered pixel ends as it was, pixels outside the covered rects untouched; a rect within one kept adds nothing; past 64 rects everything is kept at once")
    func keptPixelsRestore() {
        // A 40 × 30 image whose pixel (0, 0) is the scene's (100, 50); every byte distinct in its neighbourhood.
        let width = 40, height = 30, stride = width * 4, originX = 100, originY = 50
        var pixels = (0..<(stride * height)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / stride) }
        let original = pixels
        // Two drawn tiles under the frame: the left half, and the top of the right half.
        let covered = [PixelRect(x: 100, y: 50, w: 20, h: 30), PixelRect(x: 120, y: 50, w: 20, h: 10)]
        func inCovered(_ x: Int, _ y: Int) -> Bool { covered.contains { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY } }
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let kept = KeptPixels()
            kept.begin(covered: covered, image: BandTarget(pointer: base), stride: stride, originX: originX, originY: originY)
            // Draws `value` over a rect (scene pixels), as Cairo would past a part.
            func draw(_ r: PixelRect, _ value: UInt8) {
                for y in r.y..<r.maxY { for x in r.x..<r.maxX { for c in 0..<4 { base[(y - originY) * stride + (x - originX) * 4 + c] = value } } }
            }
            let a = PixelRect(x: 110, y: 55, w: 20, h: 10), b = PixelRect(x: 115, y: 58, w: 20, h: 12)
            #expect(kept.keep(a) == 10 * 10 + 10 * 5, "the covered part of a: \(kept.saved)")
            draw(a, 0xA1)
            // b overlaps a: its overlap now holds a's drawing, kept again.
            #expect(kept.keep(b) == 5 * 12 + 15 * 2, "b's covered part, its overlap with a kept again: \(kept.saved)")
            draw(b, 0xB2)
            #expect(kept.keep(PixelRect(x: 112, y: 56, w: 3, h: 3)) == 0, "within a rect kept already")
            #expect(!kept.all)
            kept.restore()
            var wrong: [String] = []
            for y in 0..<height {
                for x in 0..<width where inCovered(x + originX, y + originY) {
                    let i = y * stride + x * 4
                    if Array(buffer[i..<i + 4]) != Array(original[i..<i + 4]) { wrong.append("(\(x + originX), \(y + originY))") }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) covered pixels not put back, first \(wrong.prefix(5))")
            // Past 64 rects, the next keeps every covered pixel at once.
            kept.begin(covered: covered, image: BandTarget(pointer: base), stride: stride, originX: originX, originY: originY)
            for k in 0..<64 { kept.keep(PixelRect(x: 100 + k % 20, y: 50 + k / 20, w: 1, h: 1)) }
            #expect(kept.saved.count == 64 && !kept.all)
            kept.keep(PixelRect(x: 130, y: 52, w: 1, h: 1))
            #expect(kept.all, "every covered pixel kept at once")
            draw(PixelRect(x: 100, y: 50, w: 40, h: 30), 0xC3)
            kept.restore()
        }
        // The drawing over the whole image stays outside the covered pixels.
        var outside = 0, wrongCovered = 0, wrongOutside = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = y * stride + x * 4
                if inCovered(x + originX, y + originY) {
                    if Array(pixels[i..<i + 4]) != Array(original[i..<i + 4]) { wrongCovered += 1 }
                } else {
                    outside += 1
                    if pixels[i..<i + 4].contains(where: { $0 != 0xC3 }) { wrongOutside += 1 }
                }
            }
        }
        #expect(wrongCovered == 0, "covered pixels not put back after every covered pixel was kept")
        #expect(wrongOutside == 0, "pixels no tile drew must keep the drawing")
        #expect(outside == 20 * 20)
    }

    @Test("a viewport is drawn in frames and copied (its tiles' frames reach past the image), the same pixels as before")
    func viewportCopies() throws {
        let scene = try Self.scene(alpha: 1)
        let full = try Renderer.$cores.withValue(2) { try Renderer.raster(scene) }
        let view = ViewTransform(layout: scene.layout, viewportWidth: 800, viewportHeight: 700, offsetX: 150.5, offsetY: 120)
        let counts = Renderer.InPlaceCounts()
        let part = try Renderer.$inPlaceCounts.withValue(counts) { try Renderer.$cores.withValue(2) { try Renderer.raster(scene, viewport: view) } }
        #expect(counts.tiles.placed == 0)
        let visible = try Renderer.visibleRect(scene, view)
        let a = full.rgbaPixels(), b = part.rgbaPixels()
        var differing = 0
        for y in 0..<part.height {
            for x in 0..<part.width where a[(y + visible.y) * full.width + x + visible.x] != b[y * part.width + x] { differing += 1 }
        }
        #expect(differing == 0)
    }

    @Test("the schedule hands every tile out once, never two whose frames meet at once, with the drawn tiles their frames meet")
    func schedule() {
        // A 5 × 6 grid of 100 px tiles with frames 30 px round them.
        let frames = (0..<30).map { PixelRect(x: $0 % 5 * 100 - 30, y: $0 / 5 * 100 - 30, w: 160, h: 160) }
        let schedule = TileSchedule(frames)
        final class Record: @unchecked Sendable {
            let lock = NSLock()
            var state: [Int], taken: [Int]
            var clashes = 0, wrongDrawn = 0
            init(_ n: Int) { state = Array(repeating: 0, count: n); taken = state }
        }
        let r = Record(frames.count)
        let meets: @Sendable (Int, Int) -> Bool = { i, j in i != j && !frames[i].intersection(frames[j]).isEmpty }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while let (i, drawn) = schedule.take() {
                r.lock.lock()
                r.taken[i] += 1
                if r.state.indices.contains(where: { r.state[$0] == 1 && meets(i, $0) }) { r.clashes += 1 }
                if Set(drawn) != Set(r.state.indices.filter { r.state[$0] == 2 && meets(i, $0) }) { r.wrongDrawn += 1 }
                r.state[i] = 1
                r.lock.unlock()
                usleep(UInt32.random(in: 50...400))
                r.lock.lock()
                r.state[i] = 2
                r.lock.unlock()
                schedule.finish(i)
            }
        }
        let taken = r.taken, clashes = r.clashes, wrongDrawn = r.wrongDrawn
        #expect(taken == Array(repeating: 1, count: frames.count))
        #expect(clashes == 0)
        #expect(wrongDrawn == 0)
    }
}

/// A text the theme's primary font covers is laid out in the primary family
/// alone (one fontconfig match a size instead of two): that must draw what
/// the family list draws, and any other text must still take the list.
@Suite("Text in the primary family alone")
struct PrimaryAloneTests {
    static func pixels(_ scene: Scene, primaryAlone: Bool) throws -> [UInt8] {
        let b = scene.layout.bounds
        let text = try PangoText(scene.theme, locale: scene.layout.locale)
        text.primaryAlone = primaryAlone
        let drawn = try Renderer.drawInFrame(scene, tile: b, part: b, text: text, stamping: .all)
        let surface = drawn.surface.pointer
        let stride = Int(cairo_image_surface_get_stride(surface)), height = Int(cairo_image_surface_get_height(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: stride * height))
    }

    /// Names mixing what the primary font has with what only a fallback
    /// has, and characters Pango never picks a font for.
    static let names = ["Théâtre Ærø 12", "环球影城 Saal 3", "مسرح Hall 2", "Saal\u{00A0}1 \u{200F}A", "Большой зал", "תיאטרון 7"]

    @Test("every example and mixed-script names draw the same pixels as with the theme's family list, in every shipped theme",
          arguments: TestTier.sample(["seed.json", "labels-rtl.json", "gala.json", "cinema-12x18.json", "mixed"], fast: 1))
    func samePixels(example: String) throws {
        for themeName in Theme.shippedNames {
            for (zoom, scale) in [(1.0, 1.0), (2.5, 2.0)] {
                let halls: [Hall] = example == "mixed"
                    ? try Self.names.map { name in
                        try Hall(cinemaName: name, hallName: name, movieStartTime: "2026-01-01 20:00",
                                 rows: [Row(number: 1, price: 10, seats: [Seat(column: 1, status: .available), Seat(column: 2, status: .sold)])])
                    }
                    : [try Fixtures.example(example)]
                for hall in halls {
                    let scene = try GeometryOptions(theme: try Theme.builtIn(themeName), zoom: zoom, scale: scale).scene(for: hall)
                    let alone = try Self.pixels(scene, primaryAlone: true)
                    let list = try Self.pixels(scene, primaryAlone: false)
                    #expect(!alone.isEmpty && Set(alone).count > 2, "something is drawn")
                    let differing = alone.count == list.count ? zip(alone, list).filter { $0 != $1 }.count : max(alone.count, list.count)
                    #expect(differing == 0, "\(example) \(hall.cinemaName) \(themeName) z\(zoom) s\(scale): \(differing) bytes differ")
                }
            }
        }
    }

    @Test("a text the primary font covers takes the primary family alone; one with a character it lacks, a control or a no-break space takes the list")
    func whichFamilies() throws {
        let theme = try Theme.builtIn("light")
        let text = try PangoText(theme, locale: try SeatMapLocale.named("en"))
        func families(_ s: String) throws -> String {
            try #require(text.layout(s, size: 20, what: "test")).families
        }
        #expect(try families("A 12") == theme.fontFamily)
        #expect(try families("环球影城") == theme.fontFamily, "the primary font has these")
        for s in ["مسرح", "Saal\u{00A0}1", "A\u{200F}B", "a\u{FE0F}"] {
            #expect(try families(s).hasPrefix(theme.fontFamily + ","), "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        try text.check()
    }
}

/// A render drawn on one core asks for its text sizes' fonts before it
/// draws (Pango then matches them on its threads while the drawing goes
/// on): the same fonts, asked for earlier.
@Suite("Fonts asked for ahead")
struct FontsAheadTests {
    @Test("a render that asks for its fonts ahead draws the same bytes as one that does not: every example in every shipped theme, whole, through a viewport and as a ticket",
          arguments: Fixtures.exampleNames)
    func sameBytes(example: String) throws {
        for themeName in Theme.shippedNames {
            let hall = try Fixtures.example(example)
            let scene = try GeometryOptions(theme: try Theme.builtIn(themeName), zoom: 1.37, scale: 1).scene(for: hall)
            #expect(scene.layout.width * scene.layout.height < Renderer.parallelPixels, "drawn on one core, where fonts are asked for ahead")
            var ticket = scene
            try ticket.makeTicket(for: Array(hall.cells.filter { $0.seat.isSeat }.map(\.id).prefix(2)), showOccupancy: true)
            let view = ViewTransform(layout: scene.layout, viewportWidth: 300, viewportHeight: 200, offsetX: 40, offsetY: 30)
            for (what, scene, viewport) in [("whole", scene, nil), ("viewport", scene, view), ("ticket", ticket, nil)] {
                let ahead = try Renderer.raster(scene, viewport: viewport)
                let not = try Renderer.$fontsAhead.withValue(false) { try Renderer.raster(scene, viewport: viewport) }
                #expect(ahead.differingPixels(from: not) == 0, "\(example) \(themeName) \(what)")
            }
        }
    }

    @Test("a render asks for its fonts ahead only when drawn on one core and of at most 1,000 seats (past that, noting the sizes costs more than the wait it saves)")
    func onlySmallHalls() throws {
        func hall(rows: Int, seats: Int) throws -> Hall {
            try Hall(cinemaName: "Grid", hallName: "Grid", movieStartTime: "2026-01-01 20:00",
                     rows: (1...rows).map { r in Row(number: r, price: 10, seats: (1...seats).map { Seat(column: $0, status: .available) }) })
        }
        let small = try GeometryOptions(zoom: 0.5, scale: 1).scene(for: try hall(rows: 25, seats: 40))
        let large = try GeometryOptions(zoom: 0.5, scale: 1).scene(for: try hall(rows: 25, seats: 41))
        #expect(small.layout.seats.count == 1_000 && large.layout.seats.count == 1_025)
        for scene in [small, large] { #expect(scene.layout.width * scene.layout.height < Renderer.parallelPixels, "drawn on one core") }
        #expect(Renderer.asksFontsAhead(small, pixels: small.layout.width * small.layout.height))
        #expect(!Renderer.asksFontsAhead(large, pixels: large.layout.width * large.layout.height))
        #expect(!Renderer.asksFontsAhead(small, pixels: Renderer.parallelPixels), "drawn on every core")
        #expect(!Renderer.$fontsAhead.withValue(false) { Renderer.asksFontsAhead(small, pixels: 1) })
    }

    @Test("the sizes asked for ahead are the sizes whose fonts the drawing loads, in the order it first draws them, for halls whose texts all fit")
    func sizesAsked() throws {
        for example in ["cinema-12x18.json", "theatre-curved.json", "imax-3-sections.json"] {
            let scene = try GeometryOptions(theme: try Theme.builtIn("light"), zoom: 1, scale: 2).scene(for: try Fixtures.example(example))
            let asked = Renderer.textSizes(scene)
            #expect(asked.count == Set(asked).count, "each size once")
            let texts = try Renderer.drawnTexts(scene)
            #expect(texts.allSatisfy { !$0.ellipsized }, "\(example): every text fits")
            // The sizes in the order the drawing first draws them.
            var drawn: [Double] = []
            for t in texts where !drawn.contains(t.size) { drawn.append(t.size) }
            #expect(asked == drawn, "\(example): asked \(asked), drawn \(drawn)")
            let text = try PangoText(scene.theme, locale: scene.layout.locale)
            let b = scene.layout.bounds
            _ = try Renderer.drawInFrame(scene, tile: b, part: b, text: text, stamping: .all)
            #expect(text.loadedSizes == Set(asked), "\(example): loaded \(text.loadedSizes.sorted()), asked \(asked.sorted())")
        }
    }
}
