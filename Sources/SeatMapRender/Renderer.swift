import CCairo
import CPNG
import CPNGStrips
import Foundation
import SeatMapCore
import SeatMapLayout

/// Renders scenes to PNG, SVG and PDF. All geometry comes from the scene's
/// layout; the same scene always gives the same bytes.
public enum Renderer {
    /// The cores one render may use (bands, PNG strips): every core, unless
    /// the caller runs several renders at once (`render --out-dir`) and
    /// gives each its share. Neither the pixels nor the bytes depend on it.
    @TaskLocal public static var cores: Int = ProcessInfo.processInfo.activeProcessorCount

    /// Whether opaque fills of raster renders are stamped (`Stamps`): the
    /// same bytes either way (tests draw both and compare); off only to
    /// measure or check the difference.
    @TaskLocal package static var stampsFills = true
    /// What this task's renders stamp (read where the drawing threads start:
    /// they are not tasks and see no task-local values).
    static var stamping: Stamping { Stamping(fills: stampsFills) }

    /// Images larger than this many pixels are refused.
    public static let maxPixels = ImageLimits.maxPixels

    /// A lower cap for the renders of one task (the HTTP service's
    /// `--max-image-megapixels`: what one request may make it allocate).
    @TaskLocal public static var pixelLimit: Int = ImageLimits.maxPixels

    /// Refuses images Cairo cannot hold or that would need too much memory.
    public static func checkSize(width: Int, height: Int) throws(SeatMapError) {
        let limit = min(maxPixels, max(1, pixelLimit))
        if width > CairoLibrary.maxSide || height > CairoLibrary.maxSide || width * height > limit {
            throw SeatMapError("the image would be \(width)×\(height) px, over \(limit == maxPixels ? "Cairo's limit of \(CairoLibrary.maxSide) px a side or " : "")\(limit / 1_000_000) megapixels; use a lower {{zoom}} or {{scale}}, or render a {{viewport}}")
        }
        guard width > 0, height > 0 else { throw SeatMapError("the image would be empty (\(width)×\(height) px)") }
    }

    /// Draws the whole scene, or what a viewport shows of it (the viewport
    /// image is exactly that region of the full image), into a raster image.
    public static func raster(_ scene: Scene, viewport: ViewTransform? = nil, minimap: Bool = false) throws(SeatMapError) -> RasterImage {
        let visible = try visibleRect(scene, viewport)
        try checkSize(width: visible.w, height: visible.h)
        let image = try RasterImage(width: visible.w, height: visible.h)
        // A render drawn on one core: its image's pages faulted in on
        // another meanwhile (from before the text engine, which may wait
        // for the fonts' configuration).
        if scene.ticket == nil, viewport == nil, cores > 1, visible.w * visible.h < parallelPixels {
            image.surface.faultInAside()
        }
        let text = try PangoText(scene.theme, locale: scene.layout.locale)
        // A render drawn on one core asks for its text sizes' fonts first
        // (see `PangoText.loadFontsAhead`); tiles drawn on every core draw
        // with engines of their own.
        if asksFontsAhead(scene, pixels: visible.w * visible.h) {
            text.loadFontsAhead(textSizes(scene, region: scene.ticket?.crop ?? (viewport == nil ? nil : visible)))
        }
        if let ticket = scene.ticket {
            // The crop exactly as a full render draws it, the band and callout over it.
            try overlay(image, visible, text, "drawing the ticket", checkText: false) { $0.fill(.rect(visible), scene.theme.background) }
            try drawRegion(scene, ticket.crop, text: text, into: image, originX: visible.x, originY: visible.y)
            try overlay(image, visible, text, "drawing the ticket") { Painter(scene: scene, canvas: $0).drawTicketOverlay(ticket) }
            return image
        } else if viewport == nil, tiles(visible, scene.layout).count == 1 {
            // One tile: one pass at the origin.
            try overlay(image, visible, text, "drawing the seat map") { Painter(scene: scene, canvas: $0).draw() }
        } else {
            if visible.intersection(scene.layout.bounds) != visible {
                // A view reaching past the layout: background there, as a full render's edge shows.
                try overlay(image, visible, text, "drawing the view", checkText: false) { $0.fill(.rect(visible), scene.theme.background) }
            }
            try drawRegion(scene, visible, text: text, into: image, originX: visible.x, originY: visible.y)
            if scene.pinRowLabels {
                try overlay(image, visible, text, "drawing the row labels") { Painter(scene: scene, canvas: $0).drawPinnedRowLabels(visible: visible) }
            }
        }
        if minimap {
            try overlay(image, visible, text, "drawing the minimap") { Painter(scene: scene, canvas: $0).drawMinimap(visible: visible) }
        }
        return image
    }

    /// Draws on an image that shows `visible` of the layout, in the layout's
    /// frame, then checks Cairo (and Pango) for errors: every pass over a
    /// raster but the tiles.
    static func overlay(_ image: RasterImage, _ visible: PixelRect, _ text: PangoText, _ what: String, checkText: Bool = true,
                        _ draw: (CairoCanvas) -> Void) throws(SeatMapError) {
        let context = try CairoContext(image.surface)
        let canvas = CairoCanvas(context, text: text, stamping: stamping)
        canvas.translate(Double(-visible.x), Double(-visible.y))
        draw(canvas)
        try context.check(what)
        if checkText { try text.check() }
    }

    /// Draws a scene (or the part of it that meets `region`) on any canvas:
    /// the same drawing routine the PNG, SVG and PDF writers use, for another
    /// backend (CoreGraphics, Skia, …) to draw the very layout the
    /// hit-tester answers from.
    public static func draw(_ scene: Scene, on canvas: Canvas, region: PixelRect? = nil) {
        Painter(scene: scene, canvas: canvas).draw(region: region, clip: region != nil)
    }

    /// The sizes of the texts the drawing routine draws in `region` (nil:
    /// all), each once, in the order it first draws them.
    package static func textSizes(_ scene: Scene, region: PixelRect? = nil) -> [Double] {
        let canvas = TextSizeCanvas()
        Painter(scene: scene, canvas: canvas).draw(region: region)
        return canvas.sizes
    }

    /// Whether a render drawn on one core asks for its fonts ahead; off only
    /// to compare the two (tests).
    @TaskLocal package static var fontsAhead = true

    /// Whether a render of `pixels` asks for its fonts ahead: drawn on one
    /// core (under `parallelPixels`), and with at most `fontsAheadSeats`
    /// seats. The pass that notes the text sizes walks the whole drawing
    /// routine, about 0.6 µs a seat (6.2 ms at arena-10k drawn at 0.25 ×
    /// 1, 14 % of its drawing); what it saves is the wait for each size's
    /// fonts, about a millisecond a render (whole `render` processes:
    /// cinema-200 0.974×, arena-10k at zoom 0.25 and 0.5 1.08× and 1.09×
    /// in one pairing, 0.99–1.01× in another: within the machine's noise).
    /// It counts the whole hall's seats, also for a viewport or ticket.
    package static func asksFontsAhead(_ scene: Scene, pixels: Int) -> Bool {
        fontsAhead && pixels < parallelPixels && scene.layout.cells.lazy.filter(\.isSeat).prefix(fontsAheadSeats + 1).count <= fontsAheadSeats
    }
    static let fontsAheadSeats = 1_000

    /// Runs the drawing routine on a counting canvas: the Swift-side work of
    /// a full render, without Cairo. Returns the number of drawing operations.
    public static func dryRun(_ scene: Scene) -> Int {
        let canvas = CountingCanvas()
        Painter(scene: scene, canvas: canvas).draw()
        return canvas.operations
    }

    /// Full renders of at least this many pixels draw their tiles on every core.
    package static let parallelPixels = 4_000_000

    /// The tile grid every raster pixel is drawn in: tiles of `tileWidth` ×
    /// `tileHeight` px from the layout's origin. Cairo's arithmetic is not
    /// translation-invariant (a stroke's edge point is a sum whose rounding
    /// depends on its magnitude), so a pixel is exact only when drawn in the
    /// same frame every time: each pixel is always drawn in its tile's
    /// frame (the tile's origin less `regionPadding`, within the layout),
    /// by the full render, a viewport, an incremental redraw and a ticket
    /// alike — whatever the core count. An image of one tile is drawn in
    /// one pass at its origin, as before.
    static let tileWidth = 2048
    static let tileHeight = 1024

    /// The tiles (within the layout) that meet `r`, in row order.
    static func tiles(_ r: PixelRect, _ layout: Layout) -> [PixelRect] {
        let b = layout.bounds
        let area = r.intersection(b)
        guard !area.isEmpty else { return [] }
        var out: [PixelRect] = []
        for row in (area.y - b.y) / tileHeight...(area.maxY - 1 - b.y) / tileHeight {
            for column in (area.x - b.x) / tileWidth...(area.maxX - 1 - b.x) / tileWidth {
                let x = b.x + column * tileWidth, y = b.y + row * tileHeight
                out.append(PixelRect(x: x, y: y, w: min(tileWidth, b.maxX - x), h: min(tileHeight, b.maxY - y)))
            }
        }
        return out
    }

    /// A tile's frame: the padded tile within the layout (its origin and size).
    /// The surface is always the whole padded tile: Cairo clips what it
    /// draws to the surface, and a clip at another place rounds an edge
    /// differently, so the surface is part of the frame too.
    static func frame(of tile: PixelRect, _ layout: Layout) -> PixelRect {
        let pad = layout.regionPadding, b = layout.bounds
        let fx = max(tile.x - pad, b.x), fy = max(tile.y - pad, b.y)
        return PixelRect(x: fx, y: fy, w: min(tile.maxX + pad, b.maxX) - fx, h: min(tile.maxY + pad, b.maxY) - fy)
    }

    /// Draws `part` (inside `tile`) in the tile's frame — the padded tile's
    /// surface, translated to its origin — with everything within
    /// `regionPadding` of it; returns the surface (flushed), whose pixel
    /// (0, 0) is the frame's origin, and that origin. Refused, with the
    /// documented message, when it would pass Cairo's size limit.
    /// `memory`: where the frame's pixels go (one worker's, reused tile
    /// after tile), or nil for a fresh surface.
    /// `inPlace`: the target's pixels at the frame's origin and their
    /// stride, to draw the frame straight into the target (see `drawRegion`).
    /// `beforeDrawingPastPart`: called before Cairo draws what may reach
    /// past the part (stamps never do), with the frame pixels it may change
    /// (nil: any; see `CairoCanvas.beforeDrawingPastKeep`); nil when
    /// nothing past the part needs keeping.
    static func drawInFrame(_ scene: Scene, tile: PixelRect, part: PixelRect, text: PangoText, stamping: Stamping,
                            memory: FrameMemory? = nil, inPlace: (pixels: UnsafeMutablePointer<UInt8>, stride: Int)? = nil,
                            beforeDrawingPastPart: ((PixelRect?) -> Void)? = nil)
        throws(SeatMapError) -> (surface: CairoSurface, x: Int, y: Int) {
        let layout = scene.layout, pad = layout.regionPadding, b = layout.bounds
        let frame = frame(of: tile, layout)
        let fx = frame.x, fy = frame.y, width = frame.w, height = frame.h
        let x0 = max(part.x - pad, b.x), y0 = max(part.y - pad, b.y)
        let x1 = min(part.maxX + pad, b.maxX), y1 = min(part.maxY + pad, b.maxY)
        if width > CairoLibrary.maxSide || height > CairoLibrary.maxSide {
            throw SeatMapError("drawing this view needs a \(width)×\(height) px surface (the view and a seat's margin), over Cairo's limit of \(CairoLibrary.maxSide) px a side; use a smaller {{viewport}}")
        }
        let surface: CairoSurface
        if let inPlace {
            // As fresh memory is: cleared under a translucent background.
            if scene.theme.background.a < 1 {
                for row in 0..<height { memset(inPlace.pixels + row * inPlace.stride, 0, width * 4) }
            }
            surface = try CairoSurface(adopting: cairo_image_surface_create_for_data(inPlace.pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                                                                                     Int32(inPlace.stride)), what: "a \(width)×\(height) tile")
        } else if let reused = try memory?.surface(width: width, height: height, clear: scene.theme.background.a < 1) {
            surface = reused
        } else {
            surface = try CairoSurface(width: width, height: height)
        }
        let context = try CairoContext(surface)
        let canvas = CairoCanvas(context, text: text, stamping: stamping)
        if fx != 0 || fy != 0 { canvas.translate(Double(-fx), Double(-fy)) }
        // Only the part's pixels are kept from this frame.
        if part != frame { canvas.keep = PixelRect(x: part.x - fx, y: part.y - fy, w: part.w, h: part.h) }
        canvas.beforeDrawingPastKeep = beforeDrawingPastPart
        let region = PixelRect(x: x0, y: y0, w: x1 - x0, h: y1 - y0)
        // Seats are drawn only where they can reach the part: one in the
        // padding alone would be cropped away, and one crossing the
        // surface's edge would go to Cairo instead of a stamp.
        let near = layout.seatInkReach.map { PixelRect(x: part.x - $0, y: part.y - $0, w: part.w + 2 * $0, h: part.h + 2 * $0) }
        Painter(scene: scene, canvas: canvas).draw(region: region == b ? nil : region, seatsNear: near)
        try context.check("drawing the seat map")
        try text.check()
        cairo_surface_flush(surface.pointer)
        return (surface, fx, fy)
    }

    /// Draws `region` of the scene exactly as the full render draws those
    /// pixels (tile by tile, each in its frame) into `target`, whose pixel
    /// (0, 0) is the scene's (`originX`, `originY`); tiles on every core when
    /// there are several and the work is large.
    static func drawRegion(_ scene: Scene, _ region: PixelRect, text: PangoText, into target: RasterImage,
                           originX: Int, originY: Int) throws(SeatMapError) {
        let tiles = tiles(region, scene.layout)
        let parts = tiles.map { $0.intersection(region) }
        cairo_surface_flush(target.surface.pointer)
        guard let data = cairo_image_surface_get_data(target.surface.pointer) else { throw SeatMapError("the image has no pixel data") }
        let stride = target.stride
        let destination = BandTarget(pointer: data)
        let workers = max(1, min(cores, tiles.count))
        // Read here: the workers below are not tasks and see no task-local values.
        let stamping = self.stamping
        let whole = PixelRect(x: originX, y: originY, w: target.width, h: target.height)
        let frames = tiles.map { frame(of: $0, scene.layout) }
        let inPlace = tilesInPlace && region == whole && frames.allSatisfy { whole.intersection($0) == $0 }
        if workers == 1 || region.w * region.h < parallelPixels {
            if inPlace {
                // Tile after tile, each straight into the image (see `drawInPlace`).
                let serialStamping = stamping.ownMasks(), kept = KeptPixels(), counts = inPlaceCounts
                for i in tiles.indices {
                    try drawTileInPlace(scene, tiles, frames, i, drawn: Array(0..<i), text: text, stamping: serialStamping, kept: kept,
                                        destination, stride, originX, originY, counts: counts)
                }
                cairo_surface_mark_dirty(target.surface.pointer)
                return
            }
            // The frames' memory outlives every surface over it (each is copied from before the next is made).
            let frames = FrameMemory(), serialStamping = stamping.ownMasks()
            defer { withExtendedLifetime(frames) {} }
            for (tile, part) in zip(tiles, parts) {
                try copyPart(try drawInFrame(scene, tile: tile, part: part, text: text, stamping: serialStamping, memory: frames), part, destination, stride, originX, originY)
            }
        } else if inPlace, inPlaceAtOnce(tiles) >= workers {
            try drawInPlace(scene, tiles, frames, workers: workers, stamping: stamping, into: target, originX: originX, originY: originY)
        } else {
            let errors = BandErrors(count: tiles.count)
            DispatchQueue.concurrentPerform(iterations: workers) { k in
                let own: PangoText
                do throws(SeatMapError) { own = try PangoText(scene.theme, locale: scene.layout.locale) } catch { errors.set(k, error); return }
                let frames = FrameMemory(), mine = stamping.ownMasks()
                defer { withExtendedLifetime(frames) {} }
                for i in Swift.stride(from: k, to: tiles.count, by: workers) {
                    do throws(SeatMapError) {
                        try copyPart(try drawInFrame(scene, tile: tiles[i], part: parts[i], text: own, stamping: mine, memory: frames), parts[i], destination, stride, originX, originY)
                    } catch {
                        errors.set(i, error)
                    }
                }
            }
            if let error = errors.first { throw error }
        }
        cairo_surface_mark_dirty(target.surface.pointer)
    }

    /// Whether a parallel full render draws each tile's frame straight into
    /// the image (see `drawInPlace`) rather than in a frame of its own
    /// copied in; off only to compare the two (tests).
    @TaskLocal package static var tilesInPlace = true

    /// Tiles drawn in place, and of which kept the pixels of drawn tiles
    /// under their frame, by the renders of one task (tests: the process's
    /// totals move with every test running beside).
    package final class InPlaceCounts: @unchecked Sendable {
        private let lock = NSLockBox()
        private var placed = 0, kept = 0, covered = 0, keptPixels = 0
        package init() {}
        package var tiles: (placed: Int, kept: Int) { lock.withLock { (placed, kept) } }
        /// The drawn tiles' pixels under the frames, and of them those kept.
        package var pixels: (covered: Int, kept: Int) { lock.withLock { (covered, keptPixels) } }
        func add(placed: Int = 0, kept: Int = 0, covered: Int = 0, keptPixels: Int = 0) {
            lock.withLock {
                self.placed += placed
                self.kept += kept
                self.covered += covered
                self.keptPixels += keptPixels
            }
        }
    }
    @TaskLocal package static var inPlaceCounts: InPlaceCounts?

    /// How many tiles can be drawn in place at once: every frame meets its
    /// eight neighbours' (the padding is wider than a seat), so one tile in
    /// each 2 × 2 block. With fewer than the workers, the tiles are drawn in
    /// frames of their own and copied, all at once.
    private static func inPlaceAtOnce(_ tiles: [PixelRect]) -> Int {
        let columns = Set(tiles.map(\.x)).count, rows = Set(tiles.map(\.y)).count
        return (columns + 1) / 2 * ((rows + 1) / 2)
    }

    /// Draws every tile of a full render on every core, each tile's frame
    /// straight into the image: no frame memory of its own, no copy. A
    /// frame reaches past its tile into the neighbours' tiles, so
    /// - a tile starts only when no tile whose frame meets its frame is
    ///   being drawn (`TileSchedule`): two frames never draw on the same
    ///   pixels at once;
    /// - stamps write only the tile's part; before Cairo first draws past
    ///   it, a tile keeps the pixels of the tiles already drawn that its
    ///   frame covers, and puts them back after (`drawTileInPlace`): every
    ///   pixel ends as its own tile drew it, in whatever order the tiles
    ///   were drawn.
    /// A tile not yet drawn needs nothing kept: its own part is filled
    /// with the background (its frame cleared first, under a translucent
    /// one) before anything is drawn on it. The bytes equal the copying
    /// path's ("Tiles drawn in place" in the render tests).
    static func drawInPlace(_ scene: Scene, _ tiles: [PixelRect], _ frames: [PixelRect], workers: Int, stamping: Stamping, into target: RasterImage,
                            originX: Int, originY: Int) throws(SeatMapError) {
        // Read here: the workers below are not tasks and see no task-local values.
        let counts = inPlaceCounts
        guard let data = cairo_image_surface_get_data(target.surface.pointer) else { throw SeatMapError("the image has no pixel data") }
        let destination = BandTarget(pointer: data), stride = target.stride
        let schedule = TileSchedule(frames)
        let errors = BandErrors(count: tiles.count)
        DispatchQueue.concurrentPerform(iterations: workers) { k in
            let own: PangoText
            do throws(SeatMapError) { own = try PangoText(scene.theme, locale: scene.layout.locale) } catch { errors.set(k, error); return }
            let mine = stamping.ownMasks(), kept = KeptPixels()
            while let (i, drawn) = schedule.take() {
                defer { schedule.finish(i) }
                if errors.first != nil { continue }
                do throws(SeatMapError) {
                    try drawTileInPlace(scene, tiles, frames, i, drawn: drawn, text: own, stamping: mine, kept: kept,
                                        destination, stride, originX, originY, counts: counts)
                } catch {
                    errors.set(i, error)
                }
            }
        }
        if let error = errors.first { throw error }
    }

    /// Draws tile `i` of a full render straight into the image (its frame
    /// within it), after the tiles `drawn`: the pixels of theirs that its
    /// frame covers are kept before anything can change them, and put back
    /// after. Stamps write only the tile's part, so pixels are kept only
    /// where Cairo is about to draw past the part (those Cairo may change),
    /// or all of them when the frame is cleared first (a translucent
    /// background).
    static func drawTileInPlace(_ scene: Scene, _ tiles: [PixelRect], _ frames: [PixelRect], _ i: Int, drawn: [Int], text: PangoText,
                                stamping: Stamping, kept: KeptPixels, _ destination: BandTarget, _ stride: Int,
                                _ originX: Int, _ originY: Int, counts: InPlaceCounts?) throws(SeatMapError) {
        let f = frames[i]
        let covered = drawn.map { tiles[$0].intersection(f) }.filter { !$0.isEmpty }
        counts?.add(placed: 1, covered: covered.reduce(0) { $0 + $1.w * $1.h })
        kept.begin(covered: covered, image: destination, stride: stride, originX: originX, originY: originY)
        // Keeps the covered pixels Cairo may change (frame pixels; nil: all).
        func keep(_ reach: PixelRect?) {
            let first = kept.saved.isEmpty
            let pixels = kept.keep(reach.map { PixelRect(x: $0.x + f.x, y: $0.y + f.y, w: $0.w, h: $0.h) })
            if pixels > 0 { counts?.add(kept: first ? 1 : 0, keptPixels: pixels) }
        }
        defer { kept.restore() }
        let framePixels = destination.at(x: f.x, y: f.y, stride: stride, originX: originX, originY: originY)
        if covered.isEmpty {
            _ = try drawInFrame(scene, tile: tiles[i], part: tiles[i], text: text, stamping: stamping, inPlace: (framePixels, stride))
            return
        }
        // The frame is cleared first under a translucent background.
        if scene.theme.background.a < 1 { keep(nil) }
        _ = try drawInFrame(scene, tile: tiles[i], part: tiles[i], text: text, stamping: stamping, inPlace: (framePixels, stride),
                            beforeDrawingPastPart: keep)
    }

    /// Copies a drawn part into the target's pixels.
    static func copyPart(_ drawn: (surface: CairoSurface, x: Int, y: Int), _ part: PixelRect, _ destination: BandTarget, _ stride: Int,
                         _ originX: Int, _ originY: Int) throws(SeatMapError) {
        guard let source = cairo_image_surface_get_data(drawn.surface.pointer) else { throw SeatMapError("the tile has no pixel data") }
        let sourceStride = Int(cairo_image_surface_get_stride(drawn.surface.pointer))
        for row in 0..<part.h {
            let from = source + (part.y - drawn.y + row) * sourceStride + (part.x - drawn.x) * 4
            let to = destination.at(x: part.x, y: part.y + row, stride: stride, originX: originX, originY: originY)
            to.update(from: from, count: part.w * 4)
        }
    }

    /// Redraws only `dirty` rects of `image` (a full render of the scene, or
    /// of its previous state) in place, each exactly as a full render of
    /// the scene draws those pixels.
    public static func redraw(_ image: RasterImage, scene: Scene, dirty: [PixelRect]) throws(SeatMapError) {
        guard image.width == scene.layout.width, image.height == scene.layout.height else {
            throw SeatMapError("the image is \(image.width)×\(image.height) px but the layout is \(scene.layout.width)×\(scene.layout.height) px; render it at the same zoom, scale and theme")
        }
        let text = try PangoText(scene.theme, locale: scene.layout.locale)
        let regions = dirty.map { $0.intersection(scene.layout.bounds) }.filter { !$0.isEmpty }
        // When the padded regions would cover half the image, one full
        // redraw is cheaper than many small ones (and gives the same pixels).
        let pad = scene.layout.regionPadding
        let work = regions.reduce(0) { $0 + ($1.w + 2 * pad) * ($1.h + 2 * pad) }
        if work * 2 >= image.width * image.height {
            try drawRegion(scene, scene.layout.bounds, text: text, into: image, originX: 0, originY: 0)
            return
        }
        for r in regions { try drawRegion(scene, r, text: text, into: image, originX: 0, originY: 0) }
    }

    static func visibleRect(_ scene: Scene, _ viewport: ViewTransform?) throws(SeatMapError) -> PixelRect {
        if let ticket = scene.ticket {
            if viewport != nil { throw SeatMapError("a ticket is its own crop: it takes no viewport") }
            return ticket.frame
        }
        guard let viewport else { return scene.layout.bounds }
        try viewport.check(scene.layout)
        let v = viewport.visiblePixels
        guard v.w > 0, v.h > 0 else { throw SeatMapError("the viewport must have a positive width and height") }
        return v
    }

    public static func png(_ scene: Scene, viewport: ViewTransform? = nil, minimap: Bool = false,
                           compression: PNGCompression = .default) throws(SeatMapError) -> [UInt8] {
        try raster(scene, viewport: viewport, minimap: minimap).pngData(compression: compression)
    }

    /// Semantic SVG (see `SVGCanvas`).
    /// With `textAsPaths`, every text is written as the outlines of the
    /// glyphs the PNG draws (a `<path>` with the text as its `<title>` and
    /// `aria-label`), so the SVG looks the same without the fonts.
    public static func svg(_ scene: Scene, viewport: ViewTransform? = nil, minimap: Bool = false,
                           textAsPaths: Bool = false) throws(SeatMapError) -> String {
        let visible = try visibleRect(scene, viewport)
        let text = try PangoText(scene.theme, locale: scene.layout.locale)
        // Outlines are built on an unbounded recording surface: Pango skips
        // glyphs outside a context's clip, and this one has none.
        let outliner = textAsPaths
            ? try CairoContext(CairoSurface(adopting: cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil), what: "an outline surface"))
            : nil
        let canvas = SVGCanvas(fontFamilies: [scene.theme.fontFamily] + scene.theme.fontFallbacks, language: scene.layout.locale.language,
                               rightToLeft: scene.layout.locale.rightToLeft, text: text, outliner: outliner)
        let painter = Painter(scene: scene, canvas: canvas)
        if let ticket = scene.ticket {
            canvas.fill(.rect(visible), scene.theme.background)
            painter.draw(region: ticket.crop, clip: true)
            painter.drawTicketOverlay(ticket)
        } else {
            painter.draw(region: viewport == nil ? nil : visible)
            if scene.pinRowLabels && viewport != nil { painter.drawPinnedRowLabels(visible: visible) }
            if minimap { painter.drawMinimap(visible: visible) }
        }
        try text.check()
        return canvas.document(viewBox: visible, title: scene.title, description: summary(scene))
    }

    /// "154 of 214 seats available" in the layout's locale: the SVG's
    /// description and the PDF figure's alternate text. A ticket's is its
    /// callout ("Your seats: …"), unless it shows occupancy.
    static func summary(_ scene: Scene) -> String {
        if let ticket = scene.ticket, !scene.showOccupancy { return ticket.calloutText }
        let seats = scene.layout.cells.filter(\.isSeat)
        let locale = scene.layout.locale
        return locale.text("summary", ["seats": locale.number(seats.count),
                                       "available": locale.number(seats.filter { $0.status == .available }.count)])
    }

    /// Vector PDF on one page, the map centred and scaled to fit inside a
    /// margin (or the page the size of the map with `.fit`). The creation
    /// and modification dates are fixed so the bytes never change.
    /// With a viewport, the page shows what the viewport shows (clipped to
    /// it), and `minimap` adds the thumbnail, as for PNG and SVG.
    public static func pdf(_ scene: Scene, page: PageSize = .fit, viewport: ViewTransform? = nil,
                           minimap: Bool = false) throws(SeatMapError) -> [UInt8] {
        let text = try PangoText(scene.theme, locale: scene.layout.locale)
        let l = scene.layout
        let visible = try visibleRect(scene, viewport)
        var (pageW, pageH) = page.points ?? (Double(visible.w) / l.scale, Double(visible.h) / l.scale)
        // A paper size is turned to landscape when that draws the map larger.
        if page.points != nil, l.placement(of: visible, onPage: pageH, pageW, margin: page.margin).scale
            > l.placement(of: visible, onPage: pageW, pageH, margin: page.margin).scale {
            swap(&pageW, &pageH)
        }
        let onPage = l.placement(of: visible, onPage: pageW, pageH, margin: page.margin)
        let sink = ByteSink()
        // Cairo writes through the pointer until the surface is destroyed,
        // also when drawing fails and the surface goes on the error path:
        // `sink` must outlive it (a use after free otherwise).
        defer { withExtendedLifetime(sink) {} }
        let unmanaged = Unmanaged.passUnretained(sink).toOpaque()
        let created = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, unmanaged, pageW, pageH)
        do {
            let surface = try CairoSurface(adopting: created, what: "a PDF page")
            cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00Z")
            cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_MOD_DATE, "2000-01-01T00:00:00Z")
            cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_TITLE, scene.title)
            cairo_pdf_surface_set_metadata(surface.pointer, CAIRO_PDF_METADATA_CREATOR, "SeatMap")
            let context = try CairoContext(surface)
            // Tagged: H1, a Figure for the map, a Sect of P for the legend
            // (Cairo 1.16 fails to write a "Document" element round them).
            let canvas = CairoCanvas(context, text: text, tagged: true)
            canvas.translate(onPage.x, onPage.y)
            canvas.scale(onPage.scale)
            let painter = Painter(scene: scene, canvas: canvas)
            if let ticket = scene.ticket {
                canvas.translate(Double(-visible.x), Double(-visible.y))
                canvas.fill(.rect(visible), scene.theme.background)
                painter.draw(region: ticket.crop, clip: true)
                painter.drawTicketOverlay(ticket)
            } else if viewport != nil {
                canvas.translate(Double(-visible.x), Double(-visible.y))
                painter.draw(region: visible, clip: true)
                if scene.pinRowLabels { painter.drawPinnedRowLabels(visible: visible) }
            } else {
                painter.draw()
            }
            if minimap && scene.ticket == nil { painter.drawMinimap(visible: visible) }
            try context.check("drawing the PDF")
            try text.check()
            cairo_surface_finish(surface.pointer)
            try surface.check("writing the PDF")
        }
        // Cairo 1.16 writes the structure tree but no alternate text or
        // document language: add both.
        return TaggedPDF.annotate(sink.bytes, figureAlt: scene.title + ". " + summary(scene), language: scene.layout.locale.language)
    }

    /// Renders to a file in `format`, or the format its extension names
    /// (see `OutputFormat.all`), through a temporary file and a rename.
    public static func write(_ scene: Scene, to path: String, format: OutputFormat? = nil,
                             options: RenderOptions = RenderOptions()) throws(SeatMapError) {
        guard let format = format ?? OutputFormat.forPath(path) else {
            throw SeatMapError(file: path, "unknown output format (use \(OutputFormat.list(prefix: ".")))")
        }
        let bytes: [UInt8]
        do {
            bytes = try format.bytes(scene, options)
        } catch {
            throw SeatMapError(file: error.file ?? path, diagnostics: error.diagnostics)
        }
        try Files.writeAtomically(bytes, to: path)
    }
}

/// The first error of the bands drawn in parallel.
private final class BandErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [SeatMapError?]
    init(count: Int) { errors = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ e: SeatMapError) {
        lock.lock()
        errors[i] = e
        lock.unlock()
    }
    var first: SeatMapError? {
        lock.lock()
        defer { lock.unlock() }
        return errors.compactMap { $0 }.first
    }
}

/// What a raster canvas stamps rather than hands to Cairo (the same
/// pixels either way, but for rounding: see `Stamps`): opaque fills and strokes.
struct Stamping: Sendable {
    var fills: Bool
    /// The drawing thread's masks, shared by the tiles it draws (nil: each
    /// canvas makes its own).
    var masks: StampMasks? = nil
    static let none = Stamping(fills: false)
    static let all = Stamping(fills: true)

    /// The same, with masks of one thread's own.
    func ownMasks() -> Stamping {
        var s = self
        s.masks = StampMasks()
        return s
    }
}

/// Which tiles of an in-place render (`Renderer.drawInPlace`) are being
/// drawn and which are done. `take` hands out the first tile, in row
/// order, whose frame meets no frame being drawn, with the tiles already
/// drawn whose frames meet its own; it waits while every tile left is
/// blocked, and returns nil when none is left. Whenever it waits, another
/// tile is being drawn, and `finish` wakes it.
final class TileSchedule: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: [UInt8]  // 0: to draw, 1: being drawn, 2: drawn
    private let meets: [[Int]]
    private var first = 0

    init(_ frames: [PixelRect]) {
        state = Array(repeating: 0, count: frames.count)
        meets = frames.indices.map { i in frames.indices.filter { $0 != i && !frames[$0].intersection(frames[i]).isEmpty } }
    }

    func take() -> (Int, [Int])? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while first < state.count && state[first] != 0 { first += 1 }
            if first == state.count { return nil }
            for i in first..<state.count where state[i] == 0 && !meets[i].contains(where: { state[$0] == 1 }) {
                state[i] = 1
                return (i, meets[i].filter { state[$0] == 2 })
            }
            condition.wait()
        }
    }

    func finish(_ i: Int) {
        condition.lock()
        state[i] = 2
        condition.broadcast()
        condition.unlock()
    }
}

/// The pixels of drawn tiles a frame drawn in place covers, kept while it
/// is drawn (one drawing thread's, reused tile after tile).
final class KeptPixels {
    private var bytes: [UInt8] = []
    /// The rects kept (scene pixels), in order, and where each starts in `bytes`.
    private(set) var saved: [(rect: PixelRect, at: Int)] = []
    /// Whether every covered pixel is kept.
    private(set) var all = false
    /// The drawn tiles' pixels under the frame (scene pixels), and their count.
    private var covered: [PixelRect] = []
    private var coveredPixels = 0
    /// The image's pixels and stride; its pixel (0, 0) is the scene's
    /// (`originX`, `originY`).
    private var image: Image?
    private typealias Image = (pixels: BandTarget, stride: Int, originX: Int, originY: Int)

    /// Starts a tile whose frame covers `covered` pixels of drawn tiles in
    /// `image`: nothing kept yet.
    func begin(covered: [PixelRect], image: BandTarget, stride: Int, originX: Int, originY: Int) {
        bytes.removeAll(keepingCapacity: true)
        saved.removeAll(keepingCapacity: true)
        all = false
        self.covered = covered
        coveredPixels = covered.reduce(0) { $0 + $1.w * $1.h }
        self.image = (image, stride, originX, originY)
    }

    /// Keeps the covered pixels within `reach` (scene pixels; nil: all) not
    /// kept already, and answers how many it kept. Past 64 rects, or as
    /// many bytes as lie under the frame, every covered pixel is kept at
    /// once: the work stays bounded.
    @discardableResult
    func keep(_ reach: PixelRect?) -> Int {
        guard !all, let image else { return 0 }
        let bounded = saved.count < 64 && bytes.count < coveredPixels * 4
        let within = bounded ? reach : nil
        if within == nil { all = true }
        var count = 0
        for c in covered {
            let r = within.map { c.intersection($0) } ?? c
            if r.isEmpty || saved.contains(where: { $0.rect.intersection(r) == r }) { continue }
            saved.append((r, bytes.count))
            count += r.w * r.h
            let first = start(of: r, image)
            for row in 0..<r.h { bytes.append(contentsOf: UnsafeBufferPointer(start: first + row * image.stride, count: r.w * 4)) }
        }
        return count
    }

    /// Where rect `r`'s first row starts in the image.
    private func start(of r: PixelRect, _ image: Image) -> UnsafeMutablePointer<UInt8> {
        image.pixels.at(x: r.x, y: r.y, stride: image.stride, originX: image.originX, originY: image.originY)
    }

    /// Puts every kept pixel back, the rects kept last first: a pixel kept
    /// twice ends as it was before the first.
    func restore() {
        guard let image else { return }
        bytes.withUnsafeBufferPointer { kept in
            guard let base = kept.baseAddress else { return }
            for (r, at) in saved.reversed() {
                let first = start(of: r, image)
                for row in 0..<r.h { (first + row * image.stride).update(from: base + at + row * r.w * 4, count: r.w * 4) }
            }
        }
    }
}

/// The image's pixels, written by the band threads (each its own rows).
struct BandTarget: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<UInt8>

    /// Scene pixel (`x`, `y`)'s first byte, in an image whose pixel (0, 0)
    /// is the scene's (`originX`, `originY`).
    func at(x: Int, y: Int, stride: Int, originX: Int, originY: Int) -> UnsafeMutablePointer<UInt8> {
        pointer + (y - originY) * stride + (x - originX) * 4
    }
}
