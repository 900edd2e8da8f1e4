import CCairo
import Foundation
import SeatMapCore
import SeatMapLayout

/// The masks one drawing thread has made, by key: a mask depends on its
/// key alone (not on the surface or where it is stamped), so the tiles a
/// thread draws one after another share them. Used by one thread at a time.
final class StampMasks: @unchecked Sendable {
    var masks: [[Int32]: Stamps.Mask] = [:]
}

/// Stamped fills: a seat map is a few shapes drawn thousands of times, so
/// an opaque fill's coverage is worked out once per distinct shape (an A8
/// mask Cairo fills) and composited at each place it is drawn through
/// Cairo's public API (`cairo_mask_surface` at a whole pixel). Shapes are
/// told apart by their coordinates exactly as Cairo would rasterise them
/// (24.8 fixed point, after the canvas's translation) relative to their
/// whole-pixel origin: two fills share a stamp only when Cairo would see
/// the same path translated by whole pixels, so a stamp covers the pixels
/// `cairo_fill` covers, by the same amounts. Cairo composites a mask with
/// pixman's arithmetic and its own fills with its span filler's, which
/// rounds differently: an edge pixel may differ from `cairo_fill`'s by 1 in
/// a channel (tested: never more, and on few pixels). Fills that are not
/// opaque, that reach past the surface or the clip, or on a canvas that is
/// scaled, go to Cairo.
final class Stamps {
    /// A shape's coverage: 8 bits a pixel, the path filled at (0, 0).
    final class Mask {
        let surface: CairoSurface

        /// `lineWidth`: the path stroked as `CairoCanvas` strokes (butt
        /// caps, round joins, no dash) instead of filled.
        /// `clip`: a whole-pixel rect within the stamp that cuts the
        /// shape, as the canvas's clip cut it.
        init(path relative: [Double], ops: [UInt8], lineWidth: Double?, clip: PixelRect?, width: Int, height: Int) throws(SeatMapError) {
            surface = try CairoSurface(adopting: ImageMemory.clearedSurface(CAIRO_FORMAT_A8, width: Int32(width), height: Int32(height)),
                                       what: "a \(width)×\(height) stamp")
            let context = try CairoContext(surface)
            if let clip {
                cairo_rectangle(context.cr, Double(clip.x), Double(clip.y), Double(clip.w), Double(clip.h))
                cairo_clip(context.cr)
            }
            Stamps.addPath(context.cr, ops: ops, coordinates: relative)
            cairo_set_source_rgba(context.cr, 0, 0, 0, 1)
            if let lineWidth {
                CairoCanvas.setStrokeStyle(context.cr, width: lineWidth)
                cairo_stroke(context.cr)
            } else {
                cairo_fill(context.cr)
            }
            try context.check("making a stamp")
            cairo_surface_flush(surface.pointer)
        }
    }

    /// Path operations as stamps key them.
    static let move: UInt8 = 0, line: UInt8 = 1, curve: UInt8 = 2, close: UInt8 = 3

    private let target: CairoSurface
    private let width: Int, height: Int
    /// Stamps' own context on the surface, or on the part of it drawing
    /// may change (`keep`): a stamp composites there, under no clip but
    /// that window (the canvas's clip is in the stamp itself, see `stamp`).
    private var composite: (keep: PixelRect?, window: OpaquePointer?, cr: OpaquePointer)?
    /// Masks by key: the drawing thread's (`StampMasks`, kept from tile
    /// to tile), or this canvas's own.
    private let known: StampMasks
    /// The masks stamped last, most recent first, with their keys.
    private var recent: [(key: [Int32], mask: Mask)] = []
    private static let recentCount = 4
    private var scratchOps: [UInt8] = [], scratchFixed: [Int64] = [], scratchKey: [Int32] = []
    /// Fills stamped by every canvas of the process (for tests and the benchmark).
    package static var totalStamped: Int { counter.withLock { counted } }
    /// Of which strokes.
    package static var totalStampedStrokes: Int { counter.withLock { countedStrokes } }
    /// Of which cut by a clip inside them (a locked seat's hatching).
    package static var totalStampedCut: Int { counter.withLock { countedCut } }
    private static let counter = NSLockBox()
    nonisolated(unsafe) private static var counted = 0, countedStrokes = 0, countedCut = 0
    private var stamped = 0, stampedStrokes = 0, stampedCut = 0

    /// Stamps for an ARGB32 image surface; nil for any other surface.
    init?(_ surface: CairoSurface, masks: StampMasks? = nil) {
        guard cairo_surface_get_type(surface.pointer) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(surface.pointer) == CAIRO_FORMAT_ARGB32 else { return nil }
        target = surface
        width = Int(cairo_image_surface_get_width(surface.pointer))
        height = Int(cairo_image_surface_get_height(surface.pointer))
        known = masks ?? StampMasks()
    }

    var distinct: Int { known.masks.count }

    deinit {
        closeComposite()
        let n = stamped, strokes = stampedStrokes, cut = stampedCut
        Stamps.counter.withLock {
            Stamps.counted += n
            Stamps.countedStrokes += strokes
            Stamps.countedCut += cut
        }
    }

    /// Fills `path` in an opaque `color` by a stamp when it can; false when
    /// the caller must fill it with Cairo. `dx`, `dy`: the canvas's
    /// translation; `clip`: the device rect drawing is limited to, if any.
    /// `keep`: the device pixels whose values are kept (see
    /// `CairoCanvas.keep`): a whole-pixel rect is written only there.
    func fill(_ path: Path, _ color: Color, dx: Double, dy: Double, clip: PixelRect?, keep: PixelRect? = nil) -> Bool {
        // A whole-pixel rect (a background) has full coverage within and
        // none without: no mask, the colour written over the box.
        if color.a == 1, let whole = wholePixelRect(path, dx: dx, dy: dy) {
            let box = keep.map { whole.intersection($0) } ?? whole
            if !box.isEmpty, box.x >= 0, box.y >= 0, box.maxX <= width, box.maxY <= height,
               clip.map({ $0.intersection(box) == box }) ?? true, let (cr, origin) = context(keep) {
                // Cairo fills a whole-pixel rect in an opaque colour by writing the colour (pixman's fill).
                cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
                cairo_rectangle(cr, Double(box.x - origin.x), Double(box.y - origin.y), Double(box.w), Double(box.h))
                cairo_fill(cr)
                stamped += 1
                return true
            }
        }
        return stamp(path, color, lineWidth: nil, dx: dx, dy: dy, clip: clip, keep: keep)
    }

    /// The device rect a path covers when it is a rect (`Path.rect`: four
    /// sides, along the axes) whose corners fall on whole pixels once
    /// translated and rounded to 24.8 fixed point as Cairo rounds them.
    private func wholePixelRect(_ path: Path, dx: Double, dy: Double) -> PixelRect? {
        guard path.elements.count == 5, case .move(let x0, let y0) = path.elements[0], case .line(let x1, let y1) = path.elements[1],
              case .line(let x2, let y2) = path.elements[2], case .line(let x3, let y3) = path.elements[3],
              case .close = path.elements[4], y1 == y0, x2 == x1, y3 == y2, x3 == x0 else { return nil }
        func whole(_ v: Double) -> Int? {
            let f = (v * 256).rounded(.toNearestOrEven)
            guard abs(f) < Double(1 << 30), f.truncatingRemainder(dividingBy: 256) == 0 else { return nil }
            return Int(f) / 256
        }
        guard let ax = whole(x0 + dx), let ay = whole(y0 + dy), let bx = whole(x2 + dx), let by = whole(y2 + dy) else { return nil }
        return PixelRect(x: min(ax, bx), y: min(ay, by), w: abs(bx - ax), h: abs(by - ay))
    }

    /// Strokes `path` `width` px wide in an opaque `color` by a stamp, as
    /// `CairoCanvas` strokes it (butt caps, round joins, no dash); false
    /// when the caller must stroke it with Cairo. Cairo's stroker works on
    /// the path in 24.8 fixed point and offsets it by amounts that depend
    /// only on the segments' directions and the width, so a stroke keyed
    /// like a fill (its fixed-point path relative to a whole-pixel origin,
    /// and its width) covers the same pixels wherever it is moved.
    /// `keep`: as for `fill`, the device pixels whose values are kept: only
    /// they are written.
    func stroke(_ path: Path, _ color: Color, width: Double, dx: Double, dy: Double, clip: PixelRect?, keep: PixelRect? = nil) -> Bool {
        guard width.isFinite, width > 0, width < 4096 else { return false }
        return stamp(path, color, lineWidth: width, dx: dx, dy: dy, clip: clip, keep: keep)
    }

    private func closeComposite() {
        guard let composite else { return }
        cairo_destroy(composite.cr)
        if let window = composite.window { cairo_surface_destroy(window) }
        self.composite = nil
    }

    /// The stamps' context for the device pixels they may write (the kept
    /// ones, or all) and the device pixel its origin is; nil when Cairo
    /// cannot make one.
    private func context(_ keep: PixelRect?) -> (OpaquePointer, (x: Int, y: Int))? {
        if let composite, composite.keep == keep { return (composite.cr, (keep?.x ?? 0, keep?.y ?? 0)) }
        closeComposite()
        var window: OpaquePointer? = nil
        if let keep {
            guard !keep.isEmpty, let part = cairo_surface_create_for_rectangle(target.pointer, Double(keep.x), Double(keep.y), Double(keep.w), Double(keep.h)),
                  cairo_surface_status(part) == CAIRO_STATUS_SUCCESS else { return nil }
            window = part
        }
        guard let cr = cairo_create(window ?? target.pointer), cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            if let window { cairo_surface_destroy(window) }
            return nil
        }
        composite = (keep, window, cr)
        return (cr, (keep?.x ?? 0, keep?.y ?? 0))
    }

    private func stamp(_ path: Path, _ color: Color, lineWidth: Double?, dx: Double, dy: Double, clip: PixelRect?, keep: PixelRect?) -> Bool {
        guard color.a == 1, !path.elements.isEmpty else { return false }
        // Device coordinates as Cairo computes them: (1·x + 0·y) + x0, then
        // rounded to 1/256 px, ties to even.
        // (Scratch arrays of this canvas's, kept empty between fills and
        // refilled: no allocation a fill once they have grown.)
        var ops = scratchOps, fixed = scratchFixed, key = scratchKey
        scratchOps = []; scratchFixed = []; scratchKey = []
        defer {
            ops.removeAll(keepingCapacity: true); fixed.removeAll(keepingCapacity: true); key.removeAll(keepingCapacity: true)
            scratchOps = ops; scratchFixed = fixed; scratchKey = key
        }
        var minX = Int64.max, minY = Int64.max, maxX = Int64.min, maxY = Int64.min
        func point(_ x: Double, _ y: Double) {
            let fx = ((x + dx) * 256).rounded(.toNearestOrEven), fy = ((y + dy) * 256).rounded(.toNearestOrEven)
            let ix = Int64(fx), iy = Int64(fy)
            fixed.append(ix)
            fixed.append(iy)
            minX = min(minX, ix); maxX = max(maxX, ix)
            minY = min(minY, iy); maxY = max(maxY, iy)
        }
        for e in path.elements {
            switch e {
            case .move(let x, let y): ops.append(Stamps.move); point(x, y)
            case .line(let x, let y): ops.append(Stamps.line); point(x, y)
            case .curve(let a, let b, let c, let d, let x, let y): ops.append(Stamps.curve); point(a, b); point(c, d); point(x, y)
            case .close: ops.append(Stamps.close)
            }
        }
        // Far from anything Cairo's 24.8 numbers hold: leave it to Cairo.
        let limit = Int64(1) << 30
        guard minX > -limit, minY > -limit, maxX < limit, maxY < limit else { return false }
        // A stroke reaches half its width from the path (round joins, butt
        // caps), and Cairo's rounding of the offsets a 1/256 px more.
        if let lineWidth {
            let reach = Int64((lineWidth / 2 * 256).rounded(.up)) + 2
            minX -= reach; minY -= reach; maxX += reach; maxY += reach
        }
        // The whole-pixel box the coverage can reach, a pixel of slack round it.
        let ox = Int(minX >> 8) - 1, oy = Int(minY >> 8) - 1
        let w = Int((maxX + 255) >> 8) + 1 - ox, h = Int((maxY + 255) >> 8) + 1 - oy
        // The stamp lies within the surface, and within the clip or the
        // clip within it (a hatched seat: lines cut at the seat's edge);
        // then Cairo cuts the shape at the same place relative to it.
        guard ox >= 0, oy >= 0, ox + w <= width, oy + h <= height else { return false }
        var cut: PixelRect? = nil
        if let clip {
            let box = PixelRect(x: ox, y: oy, w: w, h: h)
            if box.intersection(clip) != box {
                guard !clip.isEmpty, clip.intersection(box) == clip else { return false }
                cut = PixelRect(x: clip.x - ox, y: clip.y - oy, w: clip.w, h: clip.h)
            }
        }
        // The stamp's size, whether and how wide it is stroked, the path.
        let bits = lineWidth?.bitPattern ?? 0
        key.append(Int32(w)); key.append(Int32(h)); key.append(lineWidth == nil ? 0 : 1)
        key.append(Int32(truncatingIfNeeded: bits >> 32)); key.append(Int32(truncatingIfNeeded: bits))
        key.append(cut == nil ? 0 : 1)
        key.append(Int32(cut?.x ?? 0)); key.append(Int32(cut?.y ?? 0)); key.append(Int32(cut?.w ?? 0)); key.append(Int32(cut?.h ?? 0))
        let header = key.count
        for op in ops { key.append(Int32(op)) }
        for (k, v) in fixed.enumerated() { key.append(Int32(v - Int64(k % 2 == 0 ? ox : oy) * 256)) }
        let mask: Mask
        if let hit = recent.firstIndex(where: { $0.key == key }) {
            // A seat map repeats a few shapes in turn (a seat, its mark, the
            // next seat): the last few are compared before any hashing.
            mask = recent[hit].mask
            if hit != 0 { recent.swapAt(0, hit) }
        } else {
            if let found = known.masks[key] {
                mask = found
            } else {
                let relative = key[(header + ops.count)...].map { Double($0) / 256 }
                guard let made = try? Mask(path: relative, ops: ops, lineWidth: lineWidth, clip: cut, width: w, height: h) else { return false }
                known.masks[Array(key)] = made
                mask = made
            }
            // A copy: the scratch key is refilled for the next stamp.
            if recent.count == Stamps.recentCount { recent.removeLast() }
            recent.insert((Array(key), mask), at: 0)
        }
        guard let (cr, origin) = context(keep) else { return false }
        cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
        cairo_mask_surface(cr, mask.surface.pointer, Double(ox - origin.x), Double(oy - origin.y))
        stamped += 1
        if lineWidth != nil { stampedStrokes += 1 }
        if cut != nil { stampedCut += 1 }
        return true
    }

    static func addPath(_ cr: OpaquePointer, ops: [UInt8], coordinates c: [Double]) {
        cairo_new_path(cr)
        var i = 0
        for op in ops {
            switch op {
            case move: cairo_move_to(cr, c[i], c[i + 1]); i += 2
            case line: cairo_line_to(cr, c[i], c[i + 1]); i += 2
            case curve: cairo_curve_to(cr, c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5]); i += 6
            default: cairo_close_path(cr)
            }
        }
    }
}
