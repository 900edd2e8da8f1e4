import CCairo
import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
@testable import SeatMapRender
import SeatMapTestSupport

/// Stamped fills must cover what Cairo's own fills cover, by the same
/// amounts: every example in every shipped theme at three zooms and three
/// scales, drawn with and without stamps, compared pixel for pixel; and
/// with selections, highlights, viewports, minimaps and tickets, which draw
/// through clips and overlays. A stamp is composited by Cairo as a mask
/// (pixman's arithmetic) where Cairo's fill uses its span filler's, whose
/// rounding differs: an antialiased edge pixel may differ by 1 in a
/// channel, never more, and on at most one pixel in a thousand.
@Suite("Stamped seats")
struct StampTests {
    /// How many pixels differ between two renders, and by how much at most in a channel.
    static func compare(_ a: RasterImage, _ b: RasterImage) -> (pixels: Int, delta: Int, of: Int) {
        guard a.width == b.width, a.height == b.height,
              let pa = cairo_image_surface_get_data(a.surface.pointer), let pb = cairo_image_surface_get_data(b.surface.pointer) else { return (Int.max, Int.max, 0) }
        let sa = Int(cairo_image_surface_get_stride(a.surface.pointer)), sb = Int(cairo_image_surface_get_stride(b.surface.pointer))
        var n = 0, delta = 0
        for y in 0..<a.height {
            let ra = pa + y * sa, rb = pb + y * sb
            if memcmp(ra, rb, a.width * 4) == 0 { continue }
            for x in 0..<a.width {
                var d = 0
                for k in 0..<4 { d = max(d, abs(Int(ra[4 * x + k]) - Int(rb[4 * x + k]))) }
                if d > 0 { n += 1; delta = max(delta, d) }
            }
        }
        return (n, delta, a.width * a.height)
    }

    /// The render with stamps against the render without: whether they
    /// differ only as the two arithmetics do (at most 1, on at most one
    /// pixel in a thousand), and how.
    static func differing(_ scene: Scene, viewport: ViewTransform? = nil, minimap: Bool = false) throws -> (ok: Bool, pixels: Int, delta: Int) {
        let stamped = try Renderer.raster(scene, viewport: viewport, minimap: minimap)
        let plain = try Renderer.$stampsFills.withValue(false) { try Renderer.raster(scene, viewport: viewport, minimap: minimap) }
        let c = compare(stamped, plain)
        return (c.delta <= 1 && c.pixels * 1000 <= c.of, c.pixels, c.delta)
    }

    @Test("every example × theme × zoom 1, 1.37, 2.5 × scale 1, 2, 3: the same pixels stamped and filled", arguments: TestTier.sample(Fixtures.exampleNames, fast: 2))
    func sameBytes(example: String) throws {
        let hall = try Fixtures.example(example)
        let before = Stamps.totalStamped, strokesBefore = Stamps.totalStampedStrokes, cutBefore = Stamps.totalStampedCut
        for theme in Theme.shippedNames {
            for zoom in [1, 1.37, 2.5] {
                for scale in [1.0, 2, 3] {
                    let scene = try GeometryOptions(theme: Theme.builtIn(theme), zoom: zoom, scale: scale).scene(for: hall)
                    let d = try Self.differing(scene)
                    #expect(d.ok, "\(example) \(theme) z\(zoom) s\(scale): \(d.pixels) pixels differ, by up to \(d.delta)")
                }
            }
        }
        // The stamps were used: at least one fill a seat in every render.
        let seats = hall.cells.filter { $0.seat.isSeat }.count
        #expect(Stamps.totalStamped - before >= seats * Theme.shippedNames.count * 9, "\(Stamps.totalStamped - before) fills stamped")
        // And the marks' strokes (a sold seat's cross, a locked seat's
        // hatching cut at its edge, a wheelchair's lines).
        // One stroke a cross or hatching, two a free wheelchair space.
        let marks = hall.cells.reduce(0) { n, c in
            n + ([.seat(.sold), .seat(.locked)].contains(c.seat.kind) ? 1 : c.seat.isSeat && c.seat.type == .wheelchair ? 2 : 0)
        }
        let strokes = Stamps.totalStampedStrokes - strokesBefore
        // (At least once a theme: a stamp must lie within its tile's frame,
        // so a mark straddling a tile's edge at a large zoom goes to Cairo.)
        #expect(strokes >= marks * Theme.shippedNames.count, "\(strokes) strokes stamped for \(marks) marks' strokes")
        // Every locked seat's hatching, cut at the seat's edge, stamped.
        let locked = hall.cells.filter { $0.seat.kind == .seat(.locked) }.count
        #expect(Stamps.totalStampedCut - cutBefore >= locked * Theme.shippedNames.count, "\(Stamps.totalStampedCut - cutBefore) cut stamps for \(locked) locked seats")
    }

    @Test("selected and highlighted seats, a viewport with a minimap and pinned row labels, a ticket: the same pixels", arguments: ["seed.json", "imax-3-sections.json", "theatre-curved.json"])
    func overlays(example: String) throws {
        let hall = try Fixtures.example(example)
        let ids = hall.cells.filter { $0.seat.isSeat && $0.seat.status == .available }.map(\.id)
        let selected = Set(ids.prefix(3)), highlighted = Set(ids.dropFirst(3).prefix(2))
        let geometry = try GeometryOptions(zoom: 1.37, scale: 2)
        var scene = try geometry.scene(for: hall, selected: selected, highlighted: highlighted)
        scene.pinRowLabels = !hall.isFree
        let view = ViewTransform(layout: scene.layout, viewportWidth: 240, viewportHeight: 180, offsetX: 37.5, offsetY: 21.25)
        let viewed = try Self.differing(scene, viewport: view, minimap: true)
        #expect(viewed.ok, "\(example) viewport: \(viewed.pixels) pixels differ, by up to \(viewed.delta)")
        var ticket = try geometry.scene(for: hall)
        try ticket.makeTicket(for: Array(ids.prefix(2)), showOccupancy: false)
        let ticketed = try Self.differing(ticket)
        #expect(ticketed.ok, "\(example) ticket: \(ticketed.pixels) pixels differ, by up to \(ticketed.delta)")
    }

    @Test("a tile of a grid hall draws the seats within an em and 8 px of its part; combining marks in a label, or a free venue, draw every seat of the frame")
    func seatInkReach() throws {
        let text = try String(contentsOf: Fixtures.root.appendingPathComponent("Examples/cinema-12x18.json"), encoding: .utf8)
        let options = try GeometryOptions(theme: Theme.builtIn("light"), zoom: 1, scale: 2)
        let layout = try options.scene(for: HallFormat.decode(SourceText(name: "c.json", bytes: Array(text.utf8))).hall).layout
        let em = Int((Double(max(layout.seatWidth, layout.seatHeight)) * 0.42).rounded(.up))
        #expect(layout.seatInkReach == 8 + em)
        #expect((layout.seatInkReach ?? .max) < layout.regionPadding, "fewer seats than the padded frame holds")
        // One seat numbered with stacked accents: their ink has no bound.
        let first = #"{"column": 1, "status": 0}"#
        #expect(text.contains(first))
        let marked = text.replacingOccurrences(of: first, with: #"{"column": 1, "status": 0, "label": "1\u0301\u0301\u0301"}"#)
        let hall = try HallFormat.decode(SourceText(name: "m.json", bytes: Array(marked.utf8))).hall
        #expect(hall.rows[0].seats[0].label.unicodeScalars.count == 4)
        #expect(try options.scene(for: hall).layout.seatInkReach == nil)
        for name in Fixtures.exampleNames {
            let l = try options.scene(for: Fixtures.example(name)).layout
            if l.isFree { #expect(l.seatInkReach == nil, "\(name)") }
        }
    }
}

@Suite("Whole-pixel rects written straight")
struct WholeRectTests {
    @Test("a whole-pixel rect (small, and a background large enough for streaming stores) gives the bytes Cairo's fill gives, at every alignment, within a clip, and not when a fraction off")
    func sameAsCairo() throws {
        let theme = try Theme.builtIn("light")
        let text = try PangoText(theme, locale: .standard)
        func draw(_ stamping: Stamping, _ body: (CairoCanvas) -> Void) throws -> RasterImage {
            let image = try RasterImage(width: 1601, height: 1203)
            let context = try CairoContext(image.surface)
            // Something under the rects, so that what they leave shows (drawn by Cairo in both).
            let under = CairoCanvas(context, text: text, stamping: .none)
            under.fill(Path.roundedRect(PixelRect(x: 3, y: 5, w: 1500, h: 1100), radius: 40), Color(r: 0.2, g: 0.5, b: 0.3))
            let canvas = CairoCanvas(context, text: text, stamping: stamping)
            body(canvas)
            try context.check("drawing")
            return image
        }
        let rects: [(Double, Double, Double, Double)] = [(0, 0, 1601, 1203), (1, 2, 3, 4), (7, 9, 1590, 1190), (13, 0, 1, 1203), (5, 5, 0, 9),
                                                         (1600, 1202, 1, 1), (2.5, 3, 10, 10), (4, 4, 10.25, 7)]
        for (x, y, w, h) in rects {
            for translated in [0.0, 3.0, 0.5] {
                let body: (CairoCanvas) -> Void = { canvas in
                    canvas.translate(translated, -translated)
                    canvas.fill(Path.rect(x, y, w, h), Color(r: 0.9, g: 0.1, b: 0.4))
                    canvas.pushClip(PixelRect(x: 100, y: 100, w: 700, h: 500))
                    canvas.fill(Path.rect(x + 150, y + 150, min(w, 300), min(h, 200)), Color(r: 0.1, g: 0.1, b: 0.8))
                    canvas.popClip()
                }
                let stamped = try draw(.all, body), plain = try draw(.none, body)
                #expect(stamped.differingPixels(from: plain) == 0, "rect \(x), \(y), \(w) × \(h) translated by \(translated)")
            }
        }
    }
}

/// Masks and text scratch surfaces take memory whose pixels are written
/// before Cairo first reads them: a first read of fresh memory maps the
/// kernel's zero page, and the first write then copies it (another page
/// fault, and an interrupt to the processor of any other thread running).
@Suite("Cleared image surfaces")
struct ClearedSurfaceTests {
    @Test("a cleared surface is Cairo's image surface (format, size, stride), zero, and every page of its pixels already in memory, even one larger than the allocator ever takes from its heap; an impossible size gets Cairo's error")
    func cleared() throws {
        // 8200 × 4100 A8 is 33.6 MB: past the largest block the allocator
        // serves from its heap, so calloc would hand fresh, untouched pages.
        for (format, width, height) in [(CAIRO_FORMAT_A8, 8200, 4100), (CAIRO_FORMAT_A8, 37, 23), (CAIRO_FORMAT_ARGB32, 517, 300)] {
            let surface = try #require(ImageMemory.clearedSurface(format, width: Int32(width), height: Int32(height)))
            defer { cairo_surface_destroy(surface) }
            #expect(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
            #expect(cairo_image_surface_get_format(surface) == format)
            #expect(Int(cairo_image_surface_get_width(surface)) == width && Int(cairo_image_surface_get_height(surface)) == height)
            let stride = Int(cairo_image_surface_get_stride(surface))
            #expect(stride == Int(cairo_format_stride_for_width(format, Int32(width))))
            let data = try #require(cairo_image_surface_get_data(surface))
            let bytes = stride * height
            // Asked before the pixels are read here: a read maps the zero page, which counts as in memory.
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let start = UInt(bitPattern: data) & ~UInt(page - 1)
            let length = Int(UInt(bitPattern: data) + UInt(bytes) - start)
            var resident = [UInt8](repeating: 0, count: (length + page - 1) / page)
            #expect(mincore(UnsafeMutableRawPointer(bitPattern: start), length, &resident) == 0)
            #expect(resident.allSatisfy { $0 & 1 == 1 }, "\(width)×\(height): \(resident.filter { $0 & 1 == 0 }.count) of \(resident.count) pages not in memory")
            #expect(UnsafeBufferPointer(start: data, count: bytes).allSatisfy { $0 == 0 })
        }
        // A negative size, and one past Cairo's 32767 px a side: an error
        // surface, as Cairo's own constructor gives. (That it is refused
        // before any memory is taken is the code's order, not observed
        // here: a test process's peak memory is shared with the others.)
        for (width, height) in [(-1, 10), (32768, 1), (1, 40000)] {
            let bad = try #require(ImageMemory.clearedSurface(CAIRO_FORMAT_A8, width: Int32(width), height: Int32(height)))
            defer { cairo_surface_destroy(bad) }
            #expect(cairo_surface_status(bad) == CAIRO_STATUS_INVALID_SIZE, "\(width)×\(height)")
        }
    }
}
