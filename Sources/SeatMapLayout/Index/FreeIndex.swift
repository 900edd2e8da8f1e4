import Foundation

/// How far a box of half sizes `hw` × `hh`, turned by the angle whose
/// cosine and sine are given, reaches from its centre along x and y.
@inline(__always)
func turnedReach(_ hw: Double, _ hh: Double, cos c: Double, sin s: Double) -> (x: Double, y: Double) {
    (abs(hw * c) + abs(hh * s), abs(hw * s) + abs(hh * c))
}

/// One hit-testable shape of a free layout, in pixels.
struct HitShape: Sendable {
    static let roundedRect: UInt8 = 0, circle: UInt8 = 1, ellipse: UInt8 = 2, polygon: UInt8 = 3
    var cx: Double, cy: Double
    // Sizes and the turn in single precision (48 bytes a shape, so more of
    // the index stays in cache): half-pixel sizes are exact, a turn is good
    // to about 1e-5 pixel across a seat.
    private var hw32: Float, hh32: Float, cos32: Float, sin32: Float, radius32: Float
    /// A seat's index in `Layout.cells`, or an area's in `Layout.areas`.
    var target: Int32
    /// A polygon's points in `FreeIndex.polygonPoints` (pairs).
    var first: Int32
    var count: UInt16
    var kind: UInt8

    init(kind: UInt8, target: Int32, cx: Double, cy: Double, hw: Double, hh: Double, cos: Double, sin: Double, radius: Double,
         first: Int32, count: Int32) {
        self.kind = kind
        self.target = target
        self.cx = cx
        self.cy = cy
        hw32 = Float(hw)
        hh32 = Float(hh)
        cos32 = Float(cos)
        sin32 = Float(sin)
        radius32 = Float(radius)
        self.first = first
        self.count = UInt16(clamping: count)
    }

    var hw: Double { Double(hw32) }
    var hh: Double { Double(hh32) }
    var cos: Double {
        get { Double(cos32) }
        set { cos32 = Float(newValue) }
    }
    var sin: Double {
        get { Double(sin32) }
        set { sin32 = Float(newValue) }
    }
    var radius: Double {
        get { Double(radius32) }
        set { radius32 = Float(newValue) }
    }

    var isArea: Bool { kind == HitShape.ellipse || kind == HitShape.polygon }

    /// Whether a point (continuous pixels) is inside the shape as drawn, for
    /// every kind but polygons (`polygonContains`).
    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool {
        let dx = x - cx, dy = y - cy
        switch kind {
        case HitShape.roundedRect:
            let u = abs(dx * cos + dy * sin), v = abs(-dx * sin + dy * cos)
            guard u < hw && v < hh else { return false }
            let cu = u - (hw - radius), cv = v - (hh - radius)
            return cu <= 0 || cv <= 0 || cu * cu + cv * cv < radius * radius
        case HitShape.circle:
            return dx * dx + dy * dy < radius * radius
        case HitShape.ellipse:
            let u = (dx * cos + dy * sin) / hw, v = (-dx * sin + dy * cos) / hh
            return u * u + v * v < 1
        default:
            return false
        }
    }

    /// Non-zero winding, as Cairo and SVG fill.
    func polygonContains(_ x: Double, _ y: Double, _ points: [Double]) -> Bool {
        do {
            var winding = 0
            let n = Int(count), base = Int(first) * 2
            var px = points[base + 2 * (n - 1)], py = points[base + 2 * (n - 1) + 1]
            for k in 0..<n {
                let qx = points[base + 2 * k], qy = points[base + 2 * k + 1]
                if py <= y {
                    if qy > y && (qx - px) * (y - py) - (x - px) * (qy - py) > 0 { winding += 1 }
                } else if qy <= y && (qx - px) * (y - py) - (x - px) * (qy - py) < 0 {
                    winding -= 1
                }
                px = qx
                py = qy
            }
            return winding != 0
        }
    }
}

/// One shape's entry in one bucket, 16 bytes, so that a query reads its
/// bucket's short run and a small size table and nothing else: the centre in
/// half pixels from the bucket's corner (seat boxes are whole pixels, so a
/// centre is a half-pixel multiple: exact), the turn in single precision
/// (good to about 1e-5 pixel across a seat), and `code`: a size class (the
/// top 8 bits, an index in `FreeIndex.sizes`) and the seat's index in
/// `Layout.cells` (the low 24 bits). Class `wide` is any other shape (areas,
/// a seat beyond these ranges): the low bits index `FreeIndex.shapes`, tested
/// in double precision.
struct HitEntry: Sendable {
    static let classShift: UInt32 = 24
    static let valueMask: UInt32 = (1 << 24) - 1
    static let wide: UInt32 = 255
    var x: Int16, y: Int16
    var cos: Float, sin: Float
    var code: UInt32

    var sizeClass: UInt32 { code >> HitEntry.classShift }
    var value: Int { Int(code & HitEntry.valueMask) }
}

/// A seat size shared by entries: half sizes and corner radius (pixels),
/// single precision (half pixels are exact), or a circle of `radius`.
struct HitSize: Sendable, Hashable {
    var hw: Float, hh: Float, radius: Float
    var circle: Bool

    /// Whether a point relative to the seat's centre is inside.
    @inline(__always)
    func contains(_ dx: Float, _ dy: Float, _ cos: Float, _ sin: Float) -> Bool {
        if circle { return dx * dx + dy * dy < radius * radius }
        let u = abs(dx * cos + dy * sin), v = abs(-dx * sin + dy * cos)
        // Without branches: random taps make every branch here a coin toss.
        let cu = max(u - (hw - radius), 0), cv = max(v - (hh - radius), 0)
        let inBox = (u < hw ? 1 : 0) & (v < hh ? 1 : 0)
        let inCorner = cu * cu + cv * cv < radius * radius ? 1 : 0
        return inBox & inCorner != 0
    }
}

/// Where each bucket's run starts in an index's entries (a run ends where
/// the next one starts), kept small enough to stay in cache so that a
/// query's one trip to memory is its run: a 4-byte base per 16 buckets and
/// a 1-byte offset from it per bucket (0.40 MB for a 668 × 481 grid, a
/// third of whole starts; two-byte offsets per 64 buckets, 0.66 MB, took
/// 5–12 % longer a query in the bench). When a bucket's start lies more
/// than 255 entries past its segment's base (the buckets before it in its
/// 16 hold 256 entries or more: seats piled on one spot), `wide` holds
/// every start whole instead and the two others are empty. A segment's last
/// bucket may hold any number: its run ends at the next segment's base.
struct RunStarts: Sendable {
    static let segmentShift = 4
    let bases: [Int32], offsets: [UInt8], wide: [Int32]

    /// From `starts`: bucket k's run is `starts[k]..<starts[k + 1]` (never
    /// decreasing). `offsetLimit` is the largest offset kept in a byte
    /// (less only in tests, to take the whole form).
    init(_ starts: [Int32], offsetLimit: Int32 = Int32(UInt8.max)) {
        let segments = starts.isEmpty ? 0 : (starts.count - 1) >> RunStarts.segmentShift + 1
        var bases = [Int32](repeating: 0, count: segments), offsets = [UInt8](repeating: 0, count: starts.count)
        for seg in 0..<segments { bases[seg] = starts[seg << RunStarts.segmentShift] }
        for (slot, start) in starts.enumerated() {
            let offset = start - bases[slot >> RunStarts.segmentShift]
            guard offset >= 0, offset <= min(offsetLimit, Int32(UInt8.max)) else {
                (self.bases, self.offsets, wide) = ([], [], starts)
                return
            }
            offsets[slot] = UInt8(offset)
        }
        (self.bases, self.offsets, wide) = (bases, offsets, [])
    }

    /// Bucket `slot`'s run.
    @inline(__always)
    func run(_ slot: Int) -> Range<Int> {
        guard wide.isEmpty else { return Int(wide[slot])..<max(Int(wide[slot]), Int(wide[slot + 1])) }
        let s = RunStarts.segmentShift
        let lo = Int(bases[slot >> s]) + Int(offsets[slot]), hi = Int(bases[(slot + 1) >> s]) + Int(offsets[slot + 1])
        return lo..<max(lo, hi)
    }

    var byteCount: Int { 4 * bases.count + offsets.count + 4 * wide.count }
}

/// The free placement's index: uniform square buckets over the placed box,
/// each listing the shapes that may cover it in drawing order; a query tests
/// the bucket's shapes from the last drawn: O(1) expected. A class, so a
/// query retains one reference rather than each of its arrays.
public final class FreeIndex: Sendable {
    let originX: Int, originY: Int, width: Int, height: Int
    let bucket: Int, shift: Int, columns: Int, rows: Int
    /// Where each bucket's run lies in `entries`.
    let runs: RunStarts
    /// Each bucket's shapes, in drawing order, with what the test needs
    /// inline (so a query reads one bucket's run, not shapes all over memory).
    let entries: [HitEntry]
    /// Size classes of seat entries (at most 255).
    let sizes: [HitSize]

    let shapes: [HitShape]
    let polygonPoints: [Double]
    /// Cell index by (row, column).
    let byPosition: [Int: Int32]

    init(originX: Int, originY: Int, width: Int, height: Int, cells: [LaidOutCell], shapes: [HitShape],
         polygonPoints: [Double], areaCount: Int, bucket wanted: Int) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
        // A power of two (a query shifts instead of dividing), at most `wanted`.
        var shift = 3
        while 1 << (shift + 1) <= wanted { shift += 1 }
        while (width >> shift + 1) * (height >> shift + 1) > 4_000_000 { shift += 1 }
        let b = 1 << shift
        self.shift = shift
        bucket = b
        let columns = width / b + 1, rows = height / b + 1
        self.columns = columns
        self.rows = rows
        self.shapes = shapes
        self.polygonPoints = polygonPoints
        var byPosition: [Int: Int32] = [:]
        byPosition.reserveCapacity(cells.count)
        for (k, c) in cells.enumerated() { byPosition[c.row << 32 | c.column] = Int32(k) }
        self.byPosition = byPosition
        // Bucket ranges of each shape's box.
        func range(_ sh: HitShape, _ polygonPoints: [Double], _ originX: Int, _ originY: Int) -> (Int, Int, Int, Int) {
            var x0: Double, y0: Double, x1: Double, y1: Double
            if sh.kind == HitShape.polygon {
                x0 = .infinity; y0 = .infinity; x1 = -.infinity; y1 = -.infinity
                let base = Int(sh.first) * 2
                for k in 0..<Int(sh.count) {
                    x0 = min(x0, polygonPoints[base + 2 * k]); x1 = max(x1, polygonPoints[base + 2 * k])
                    y0 = min(y0, polygonPoints[base + 2 * k + 1]); y1 = max(y1, polygonPoints[base + 2 * k + 1])
                }
            } else {
                let e = sh.kind == HitShape.circle ? (sh.radius, sh.radius) : turnedReach(sh.hw, sh.hh, cos: sh.cos, sin: sh.sin)
                x0 = sh.cx - e.0; x1 = sh.cx + e.0; y0 = sh.cy - e.1; y1 = sh.cy + e.1
            }
            let c0 = max(0, min(columns - 1, (Int(x0.rounded(.down)) - originX) / b))
            let c1 = max(0, min(columns - 1, (Int(x1.rounded(.up)) - originX) / b))
            let r0 = max(0, min(rows - 1, (Int(y0.rounded(.down)) - originY) / b))
            let r1 = max(0, min(rows - 1, (Int(y1.rounded(.up)) - originY) / b))
            return (c0, c1, r0, r1)
        }
        let ranges = shapes.map { range($0, polygonPoints, originX, originY) }
        /// Whether a shape may cover bucket (c, r): a seat's turned rect or
        /// circle is tested against the bucket's square (separating axes);
        /// areas by their boxes.
        func meets(_ sh: HitShape, _ c: Int, _ r: Int) -> Bool {
            let x0 = Double(originX + c * b), y0 = Double(originY + r * b), x1 = x0 + Double(b), y1 = y0 + Double(b)
            switch sh.kind {
            case HitShape.circle:
                let dx = max(x0 - sh.cx, 0, sh.cx - x1), dy = max(y0 - sh.cy, 0, sh.cy - y1)
                return dx * dx + dy * dy <= sh.radius * sh.radius
            case HitShape.roundedRect:
                // The square's half size and centre, projected on the rect's axes.
                let h = Double(b) / 2, mx = x0 + h - sh.cx, my = y0 + h - sh.cy
                let co = sh.cos, si = sh.sin
                let squareOnU = h * (abs(co) + abs(si))
                if abs(mx * co + my * si) > sh.hw + squareOnU { return false }
                if abs(-mx * si + my * co) > sh.hh + squareOnU { return false }
                return true
            default:
                return true
            }
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        for (k, (c0, c1, r0, r1)) in ranges.enumerated() {
            for r in r0...r1 { for c in c0...c1 where meets(shapes[k], c, r) { counts[r * columns + c + 1] += 1 } }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts
        var entries = [HitEntry](repeating: HitEntry(x: 0, y: 0, cos: 1, sin: 0, code: 0), count: Int(counts[counts.count - 1]))
        var sizes: [HitSize] = []
        var sizeClass: [HitSize: UInt32] = [:]
        for (k, (c0, c1, r0, r1)) in ranges.enumerated() {
            let sh = shapes[k]
            // A seat gets a size class when its sizes and index fit one.
            var cls = HitEntry.wide
            if !sh.isArea && Int(sh.target) <= Int(HitEntry.valueMask) {
                let size = HitSize(hw: Float(sh.hw), hh: Float(sh.hh), radius: Float(sh.radius), circle: sh.kind == HitShape.circle)
                if let known = sizeClass[size] {
                    cls = known
                } else if sizes.count < Int(HitEntry.wide) {
                    cls = UInt32(sizes.count)
                    sizeClass[size] = cls
                    sizes.append(size)
                }
            }
            for r in r0...r1 {
                for c in c0...c1 where meets(sh, c, r) {
                    let slot = r * columns + c
                    // The centre in half pixels from the bucket's corner.
                    let hx = 2 * (sh.cx - Double(originX + c * b)), hy = 2 * (sh.cy - Double(originY + r * b))
                    let exact = hx == hx.rounded() && hy == hy.rounded() && abs(hx) <= Double(Int16.max) && abs(hy) <= Double(Int16.max)
                    let own = cls != HitEntry.wide && exact
                    entries[Int(fill[slot])] = HitEntry(
                        x: own ? Int16(hx) : 0, y: own ? Int16(hy) : 0, cos: Float(sh.cos), sin: Float(sh.sin),
                        code: own ? cls << HitEntry.classShift | UInt32(sh.target) : HitEntry.wide << HitEntry.classShift | UInt32(k))
                    fill[slot] += 1
                }
            }
        }
        runs = RunStarts(counts)
        self.entries = entries
        self.sizes = sizes
    }

    @inline(__always)
    func cell(at i: Int, _ j: Int) -> CellHit {
        let dx = i - originX, dy = j - originY
        guard dx >= 0, dy >= 0, dx < width, dy < height else { return .outside }
        let bx = dx >> shift, by = dy >> shift
        let run = runs.run(by * columns + bx)
        var k = run.upperBound - 1
        let lo = run.lowerBound
        // The pixel centre relative to the bucket's corner.
        let lx = Float(dx - bx * bucket) + 0.5, ly = Float(dy - by * bucket) + 0.5
        while k >= lo {
            let e = entries[k]
            let cls = Int(e.sizeClass)
            if cls < sizes.count {
                if sizes[cls].contains(lx - Float(e.x) * 0.5, ly - Float(e.y) * 0.5, e.cos, e.sin) { return .seat(e.value) }
            } else if let hit = wideHit(e.value, i, j) {
                return hit
            }
            k -= 1
        }
        return .gap
    }

    /// The bytes every hit-test reads from: the run starts, the entries and
    /// the size classes (the shapes, read only for wide entries, left out).
    var queryBytes: Int {
        runs.byteCount + entries.count * MemoryLayout<HitEntry>.stride + sizes.count * MemoryLayout<HitSize>.stride
    }

    /// A wide entry's answer for pixel (i, j), or nil when it misses.
    func wideHit(_ shape: Int, _ i: Int, _ j: Int) -> CellHit? {
        let sh = shapes[shape], x = Double(i) + 0.5, y = Double(j) + 0.5
        let inside = sh.kind == HitShape.polygon ? sh.polygonContains(x, y, polygonPoints) : sh.contains(x, y)
        guard inside else { return nil }
        return sh.isArea ? .area(Int(sh.target)) : .seat(Int(sh.target))
    }

    /// The seat (its index in `Layout.cells`) an entry stands for, or nil for an area.
    func seat(of e: HitEntry) -> Int? {
        if Int(e.sizeClass) < sizes.count { return e.value }
        let sh = shapes[e.value]
        return sh.isArea ? nil : Int(sh.target)
    }

    func cellIndexes(intersecting area: PixelRect, cells: [LaidOutCell]) -> [Int] {
        guard !area.isEmpty else { return [] }
        let c0 = max(0, (area.x - originX) / bucket - 1), c1 = min(columns - 1, (area.maxX - originX) / bucket + 1)
        let r0 = max(0, (area.y - originY) / bucket - 1), r1 = min(rows - 1, (area.maxY - originY) / bucket + 1)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var out = Set<Int>()
        for r in r0...r1 {
            for c in c0...c1 {
                let slot = r * columns + c
                for k in runs.run(slot) {
                    guard let t = seat(of: entries[k]) else { continue }
                    if cells[t].rect.intersects(area) { out.insert(t) }
                }
            }
        }
        // Aisles of free rows are never drawn or hit; they are not in the index.
        return out.sorted()
    }

    func cellIndex(row: Int, column: Int) -> Int? {
        byPosition[row << 32 | column].map { Int($0) }
    }

    /// Pairs of seats (cell indexes, lower first) whose drawn shapes share a
    /// pixel centre, in cell order.
    /// Stops after `limit` pairs; each pair is checked on at most about 4,096
    /// pixel centres of the boxes' overlap (evenly spread).
    func overlappingSeats(cells: [LaidOutCell], limit: Int = Int.max) -> [(Int, Int)] {
        var seatShape = [Int](repeating: 0, count: cells.count)
        for (k, sh) in shapes.enumerated() where !sh.isArea { seatShape[Int(sh.target)] = k }
        var pairs = Set<Int>()
        var out: [(Int, Int)] = []
        for slot in 0..<(columns * rows) {
            let run = runs.run(slot)
            guard run.count > 1 else { continue }
            let seatsHere = run.compactMap { seat(of: entries[$0]).map { seatShape[$0] } }
            for (n, ka) in seatsHere.enumerated() {
                let sa = shapes[ka]
                for kb in seatsHere[(n + 1)...] {
                    let sb = shapes[kb]
                    let (i, j) = (min(Int(sa.target), Int(sb.target)), max(Int(sa.target), Int(sb.target)))
                    let key = i << 32 | j
                    guard !pairs.contains(key) else { continue }
                    let box = cells[i].rect.intersection(cells[j].rect)
                    guard !box.isEmpty else { continue }
                    var shared = false
                    let step = max(1, Int((Double(box.w) * Double(box.h) / 4096).squareRoot().rounded(.up)))
                    for y in stride(from: box.y, to: box.maxY, by: step) where !shared {
                        for x in stride(from: box.x, to: box.maxX, by: step)
                        where sa.contains(Double(x) + 0.5, Double(y) + 0.5) && sb.contains(Double(x) + 0.5, Double(y) + 0.5) {
                            shared = true
                            break
                        }
                    }
                    if shared {
                        pairs.insert(key)
                        out.append((i, j))
                        if out.count >= limit { return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) } }
                    }
                }
            }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// Distance from a point to a free seat's shape (0 inside): to the circle
    /// of a round seat, to the turned box of a turned one.
    static func distance(from x: Double, _ y: Double, to cell: LaidOutCell) -> Double {
        let own = cell.seatRect
        let dx = x - own.centerX, dy = y - own.centerY
        switch cell.outline {
        case .circle:
            return max(0, (dx * dx + dy * dy).squareRoot() - Double(own.w) / 2)
        case .rotated(let a):
            let u = abs(dx * cos(a) + dy * sin(a)) - Double(own.w) / 2, v = abs(-dx * sin(a) + dy * cos(a)) - Double(own.h) / 2
            let eu = max(u, 0), ev = max(v, 0)
            return (eu * eu + ev * ev).squareRoot()
        case .box:
            return own.distance(toX: x, y: y)
        }
    }

    func nearestSeat(_ x: Double, _ y: Double, within slop: Double, cells: [LaidOutCell]) -> Int? {
        let reach = Int(slop.rounded(.up)) + 1
        let area = PixelRect(x: Int(x.rounded(.down)) - reach, y: Int(y.rounded(.down)) - reach, w: 2 * reach + 1, h: 2 * reach + 1)
        var best: (d: Double, centre: Double, index: Int)? = nil
        for k in cellIndexes(intersecting: area, cells: cells) where cells[k].isSeat {
            let cell = cells[k]
            let d = FreeIndex.distance(from: x, y, to: cell)
            guard d <= slop else { continue }
            let cx = cell.seatRect.centerX - x, cy = cell.seatRect.centerY - y
            let centre = cx * cx + cy * cy
            if let b = best, (d, centre) >= (b.d, b.centre) { continue }
            best = (d, centre, k)
        }
        return best?.index
    }
}
