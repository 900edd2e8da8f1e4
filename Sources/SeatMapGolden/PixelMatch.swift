import Dispatch
import Foundation
/// Pixel comparison with the published pixelmatch algorithm (v7.2.0
/// semantics): YIQ colour distance with the Kotsarenko–Ramos weights, a
/// pixel differs when its squared distance exceeds `35215 × threshold²`,
/// semi-transparent pixels are blended over white, and differing pixels
/// that look like anti-aliasing (Vyšniauskas: the darkest or brightest
/// neighbour sits in a flat area in both images) are counted apart.
public enum PixelMatch {
    /// The outcome of comparing two equally sized images.
    public struct Result: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// Pixels that differ, not counting anti-aliasing.
        public var diffPixels: Int
        /// Differing pixels judged to be anti-aliasing.
        public var aaPixels: Int
        public var totalPixels: Int { width * height }

        public init(width: Int, height: Int, diffPixels: Int, aaPixels: Int) {
            self.width = width
            self.height = height
            self.diffPixels = diffPixels
            self.aaPixels = aaPixels
        }
        public var diffRatio: Double { totalPixels == 0 ? 0 : Double(diffPixels) / Double(totalPixels) }
    }

    /// Colours of the diff image.
    public static let diffColor = RGBAImage.pack(255, 0, 0)
    public static let aaColor = RGBAImage.pack(255, 255, 0)
    /// Opacity of the original image in the diff image's faded grey.
    public static let fade = 0.1

    /// A rectangle of pixels left out of a comparison (a clock, a banner).
    public struct Region: Sendable, Equatable {
        public var x: Int, y: Int, w: Int, h: Int
        public init(x: Int, y: Int, w: Int, h: Int) {
            self.x = x
            self.y = y
            self.w = w
            self.h = h
        }
        /// Overflow-safe: the distances from the corner, never the far edges.
        func contains(_ i: Int, _ j: Int) -> Bool {
            i >= x && j >= y && i.subtractingReportingOverflow(x).partialValue < w && j.subtractingReportingOverflow(y).partialValue < h
        }
    }

    /// pixelmatch's options, and regions to ignore.
    public struct Options: Sendable, Equatable {
        public var threshold: Double = 0.1
        /// Pixels in these regions count as equal (and are drawn unchanged).
        public var ignore: [Region] = []
        public var diffColor: UInt32 = PixelMatch.diffColor
        public var aaColor: UInt32 = PixelMatch.aaColor
        /// The colour of differences where the second image is darker (pixelmatch's `diffColorAlt`); nil: `diffColor`.
        public var diffColorAlt: UInt32? = nil
        /// Draw only the differences, on a transparent background (pixelmatch's `diffMask`).
        public var diffMask = false
        public init(threshold: Double = 0.1, ignore: [Region] = []) {
            self.threshold = threshold
            self.ignore = ignore
        }
    }

    /// Compares `a` with `b`. With `diff`, also returns the diff image:
    /// unchanged pixels faded grey, differing ones red, anti-aliased yellow.
    public static func compare(_ a: RGBAImage, _ b: RGBAImage, threshold: Double = 0.1,
                               diff: Bool = false) throws(GoldenError) -> (Result, RGBAImage?) {
        try compare(a, b, options: Options(threshold: threshold), diff: diff)
    }

    /// Compares `a` with `b` with pixelmatch's options and ignored regions
    /// (counts equal pixelmatch's when nothing is ignored).
    public static func compare(_ a: RGBAImage, _ b: RGBAImage, options: Options,
                               diff: Bool = false) throws(GoldenError) -> (Result, RGBAImage?) {
        let threshold = options.threshold
        let ignore = options.ignore
        let mask = options.diffMask
        /// An unchanged pixel in the diff image: faded grey, or transparent for a mask.
        func unchanged(_ p: UInt32) -> UInt32 { mask ? 0 : grey(p) }
        guard a.width == b.width, a.height == b.height else {
            throw GoldenError("image sizes differ: \(a.width)×\(a.height) and \(b.width)×\(b.height)")
        }
        guard threshold >= 0, threshold <= 1 else { throw GoldenError("threshold \(threshold) is outside 0…1") }
        let w = a.width, h = a.height
        var result = Result(width: w, height: h, diffPixels: 0, aaPixels: 0)
        let maxDelta = 35215 * threshold * threshold
        // Counting only (no diff image, nothing ignored): rows are compared
        // eight pixels at a time, so the cost
        // follows the changed pixels; identical images stay a buffer compare.
        if !diff && ignore.isEmpty {
            let counts = a.pixels.withUnsafeBufferPointer { pa in
                b.pixels.withUnsafeBufferPointer { pb in
                    PixelMatch.countRows(pa, pb, w: w, h: h, maxDelta: maxDelta)
                }
            }
            result.diffPixels = counts.diff
            result.aaPixels = counts.aa
            return (result, nil)
        }
        var output: [UInt32]? = nil
        // Identical buffers return at once.
        if a.pixels == b.pixels {
            if diff { output = a.pixels.map(unchanged) }
            return (result, output.map { RGBAImage(width: w, height: h, pixels: $0) })
        }
        if diff { output = [UInt32](repeating: 0, count: w * h) }
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let i = row + x
                        let pixelA = pa[i], pixelB = pb[i]
                        if pixelA == pixelB || (!ignore.isEmpty && ignore.contains { $0.contains(x, y) }) {
                            output?[i] = unchanged(pixelA)
                            continue
                        }
                        let delta = colorDelta(pixelA, pixelB, yOnly: false)
                        if delta > maxDelta {
                            if antialiased(pa, x, y, w, h, pb) || antialiased(pb, x, y, w, h, pa) {
                                result.aaPixels += 1
                                output?[i] = options.aaColor
                            } else {
                                result.diffPixels += 1
                                if output != nil {
                                    let darker = options.diffColorAlt != nil && colorDelta(pixelA, pixelB, yOnly: true) > 0
                                    output?[i] = darker ? (options.diffColorAlt ?? options.diffColor) : options.diffColor
                                }
                            }
                        } else {
                            output?[i] = unchanged(pixelA)
                        }
                    }
                }
            }
        }
        return (result, output.map { RGBAImage(width: w, height: h, pixels: $0) })
    }

    /// Counts differing and anti-aliased pixels, bands of rows on every
    /// core (the counts are sums: the same whatever the split). Rows are
    /// compared eight pixels at a time and only differing pixels examined.
    static func countRows(_ pa: UnsafeBufferPointer<UInt32>, _ pb: UnsafeBufferPointer<UInt32>, w: Int, h: Int,
                          maxDelta: Double) -> (diff: Int, aa: Int) {
        guard let ba = pa.baseAddress, let bb = pb.baseAddress, w > 0, h > 0 else { return (0, 0) }
        let images = ImagePair(a: pa, b: pb, ba: ba, bb: bb)
        // Four parts per core, each taking every n-th chunk of 32 rows
        // (changes cluster: interleaved chunks share them out evenly); a
        // core that gets ahead takes more parts when another is held up.
        let workers = max(1, min(4 * ProcessInfo.processInfo.activeProcessorCount, (h + 31) / 32))
        let totals = CountBox(workers)
        DispatchQueue.concurrentPerform(iterations: workers) { k in
            let pa = images.a, pb = images.b, ba = images.ba, bb = images.bb
            var diff = 0, aa = 0
            // The last pair's verdict: a changed seat is many pixels of one pair.
            var lastP: UInt32 = 0, lastQ: UInt32 = 0, lastDiffers = false
            /// Counts differing pixel x of row y as anti-aliased or not.
            func classify(_ x: Int, _ y: Int) {
                if flat(ba, x, y, w, h) && flat(bb, x, y, w, h) {
                    diff += 1  // neither image looks anti-aliased here
                } else if antialiased(pa, x, y, w, h, pb) || antialiased(pb, x, y, w, h, pa) { aa += 1 } else { diff += 1 }
            }
            for y in 0..<h where (y / 32) % workers == k {
                let row = y * w
                let ra = ba + row, rb = bb + row
                if memcmp(ra, rb, w * 4) == 0 { continue }
                let inner = y > 0 && y < h - 1
                var x = firstDifference(ra, rb, from: 0, to: w)
                while x < w {
                    let p = ra[x], q = rb[x]
                    if p != lastP || q != lastQ {
                        lastP = p
                        lastQ = q
                        lastDiffers = colorDelta(p, q, yOnly: false) > maxDelta
                    }
                    // The run of this same pair (a changed seat's inside is one long run).
                    var end = x + 1
                    while end < w && ra[end] == p && rb[end] == q { end += 1 }
                    if lastDiffers {
                        classify(x, y)
                        if end - x > 2 && inner {
                            // Inside the run both row neighbours equal the pixel in each
                            // image, so `flat` needs one more equal neighbour above or below.
                            let ua = ra - w, da = ra + w, ub = rb - w, db = rb + w
                            for i in x + 1 ..< end - 1 {
                                if (ua[i] == p || da[i] == p || ua[i - 1] == p || ua[i + 1] == p || da[i - 1] == p || da[i + 1] == p)
                                    && (ub[i] == q || db[i] == q || ub[i - 1] == q || ub[i + 1] == q || db[i - 1] == q || db[i + 1] == q) {
                                    diff += 1
                                } else {
                                    classify(i, y)
                                }
                            }
                        } else {
                            for i in x + 1 ..< max(x + 1, end - 1) { classify(i, y) }
                        }
                        if end - 1 > x { classify(end - 1, y) }
                    }
                    x = firstDifference(ra, rb, from: end, to: w)
                }
            }
            totals.set(k, diff, aa)
        }
        return totals.sum
    }

    /// The first index in `from..<to` where the rows differ (`to` when
    /// none): equal stretches skipped 64 pixels at a time by the C
    /// library's `memcmp` (vectorised), then eight pixels at a time.
    @inline(__always)
    static func firstDifference(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, from start: Int, to end: Int) -> Int {
        var x = start
        while x + 64 <= end && memcmp(a + x, b + x, 256) == 0 { x += 64 }
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while x + 8 <= end {
            let o = x * 4
            let d = (ra.loadUnaligned(fromByteOffset: o, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o, as: UInt64.self))
                | (ra.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self))
                | (ra.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self))
                | (ra.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self))
            if d != 0 { break }
            x += 8
        }
        while x < end && a[x] == b[x] { x += 1 }
        return x
    }

    /// Whether an inner pixel has three or more neighbours of exactly its
    /// colour, so that `antialiased` is sure to answer no (false at the
    /// image's edge, where `antialiased` decides).
    @inline(__always)
    static func flat(_ img: UnsafePointer<UInt32>, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Bool {
        guard x > 0, y > 0, x < w - 1, y < h - 1 else { return false }
        let c = img + (y * w + x), up = c - w, down = c + w
        let v = c[0]
        // The four side neighbours first: inside an area three of them
        // answer, and the corners are not read.
        var n = (c[-1] == v ? 1 : 0) + (c[1] == v ? 1 : 0) + (up[0] == v ? 1 : 0)
        if n > 2 { return true }
        if down[0] == v { n += 1 }
        if n > 2 { return true }
        n += (up[-1] == v ? 1 : 0) + (up[1] == v ? 1 : 0) + (down[-1] == v ? 1 : 0) + (down[1] == v ? 1 : 0)
        return n > 2
    }

    @inline(__always)
    static func channels(_ p: UInt32) -> (Double, Double, Double, Double) {
        (Double(p & 0xFF), Double((p >> 8) & 0xFF), Double((p >> 16) & 0xFF), Double(p >> 24))
    }

    @inline(__always)
    static func blend(_ c: Double, _ a: Double) -> Double { 255 + (c - 255) * a }

    @inline(__always)
    static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }

    /// A pixel's brightness (Y of YIQ), blended over white when translucent.
    @inline(__always)
    static func brightness(_ p: UInt32) -> Double {
        var (r, g, b, a) = channels(p)
        if a < 255 {
            a /= 255
            r = blend(r, a); g = blend(g, a); b = blend(b, a)
        }
        return luma(r, g, b)
    }

    /// Squared YIQ distance, or with `yOnly` the signed brightness difference.
    @inline(__always)
    static func colorDelta(_ p1: UInt32, _ p2: UInt32, yOnly: Bool) -> Double {
        if p1 == p2 { return 0 }
        var (r1, g1, b1, a1) = channels(p1)
        var (r2, g2, b2, a2) = channels(p2)
        if a1 < 255 {
            a1 /= 255
            r1 = blend(r1, a1); g1 = blend(g1, a1); b1 = blend(b1, a1)
        }
        if a2 < 255 {
            a2 /= 255
            r2 = blend(r2, a2); g2 = blend(g2, a2); b2 = blend(b2, a2)
        }
        let y = luma(r1, g1, b1) - luma(r2, g2, b2)
        if yOnly { return y }
        let i = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let q = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
    }

    /// Whether pixel (x1, y1) of `img` looks anti-aliased: among its eight
    /// neighbours it has both darker and brighter ones, at most two equal
    /// ones, and its darkest or brightest neighbour has three or more equal
    /// neighbours of its own in both images.
    static func antialiased(_ img: UnsafeBufferPointer<UInt32>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int,
                            _ other: UnsafeBufferPointer<UInt32>) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        let centre = img[y1 * w + x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        // Inside a flat area (three equal neighbours, counting an edge as
        // one) the answer is no: the loop below would stop there too, since
        // an equal neighbour's brightness difference is 0. Comparing words
        // first spares most differing pixels the colour arithmetic.
        var equal = zeroes
        for y in y0...y2 {
            let row = y * w
            for x in x0...x2 where img[row + x] == centre { equal += 1 }
        }
        if equal - 1 > 2 { return false }
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        // The centre's brightness once (colorDelta's yOnly is the difference
        // of the two brightnesses, computed the same way).
        let yc = brightness(centre)
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                let p = img[y * w + x]
                let delta = p == centre ? 0 : yc - brightness(p)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(img, minX, minY, w, h) && hasManySiblings(other, minX, minY, w, h))
            || (hasManySiblings(img, maxX, maxY, w, h) && hasManySiblings(other, maxX, maxY, w, h))
    }

    /// Whether a pixel has three or more neighbours of exactly its colour.
    static func hasManySiblings(_ img: UnsafeBufferPointer<UInt32>, _ x1: Int, _ y1: Int, _ w: Int, _ h: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, w - 1), y2 = min(y1 + 1, h - 1)
        let value = img[y1 * w + x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if img[y * w + x] == value { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// The diff image's faded grey for an unchanged pixel.
    @inline(__always)
    static func grey(_ p: UInt32) -> UInt32 {
        let (r, g, b, a) = channels(p)
        let v = blend(luma(r, g, b), fade * a / 255)
        let c = UInt32(max(0, min(255, v)))
        return RGBAImage.pack(c, c, c)
    }
}

/// Pass/fail limits for a comparison: the stricter of the two wins.
public struct DiffGates: Sendable, Equatable {
    /// At most this many differing pixels (nil: not a gate).
    public var maxDiffPixels: Int?
    /// At most this share of the pixels differing (nil: not a gate).
    public var maxDiffRatio: Double?

    /// A gate given alone is the only gate; with none, any differing pixel fails.
    public init(maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil) {
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
    }

    /// The gates a result fails, each as `gate (value > limit)`; empty when it passes.
    public func failures(_ r: PixelMatch.Result) -> [(gate: String, message: String)] {
        var out: [(gate: String, message: String)] = []
        if maxDiffPixels == nil && maxDiffRatio == nil && r.diffPixels > 0 {
            out.append(("maxDiffPixels", "max-diff-pixels (\(r.diffPixels) > 0)"))
        }
        if let limit = maxDiffPixels, r.diffPixels > limit {
            out.append(("maxDiffPixels", "max-diff-pixels (\(r.diffPixels) > \(limit))"))
        }
        if let limit = maxDiffRatio, r.diffRatio > limit {
            out.append(("maxDiffRatio", "max-diff-ratio (\(r.diffRatio) > \(limit))"))
        }
        return out
    }

    public func passes(_ r: PixelMatch.Result) -> Bool { failures(r).isEmpty }
}

extension RGBAImage {
    /// expected | diff | actual side by side, separated by 4-pixel grey bars.
    public static func composite(expected: RGBAImage, diff: RGBAImage, actual: RGBAImage) -> RGBAImage {
        let bar = 4
        let h = max(expected.height, diff.height, actual.height)
        let w = expected.width + diff.width + actual.width + 2 * bar
        var out = RGBAImage(width: w, height: h, fill: RGBAImage.pack(128, 128, 128))
        var x0 = 0
        for image in [expected, diff, actual] {
            for y in 0..<image.height {
                let src = y * image.width
                let dst = y * w + x0
                out.pixels.replaceSubrange(dst..<(dst + image.width), with: image.pixels[src..<(src + image.width)])
            }
            x0 += image.width + bar
        }
        return out
    }
}

/// Two images' pixels, read (never written) by the counting threads.
private struct ImagePair: @unchecked Sendable {
    let a: UnsafeBufferPointer<UInt32>, b: UnsafeBufferPointer<UInt32>
    let ba: UnsafePointer<UInt32>, bb: UnsafePointer<UInt32>
}

/// Per-thread counts, summed at the end.
private final class CountBox: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [(Int, Int)]
    init(_ n: Int) { counts = Array(repeating: (0, 0), count: n) }
    func set(_ k: Int, _ diff: Int, _ aa: Int) {
        lock.lock()
        counts[k] = (diff, aa)
        lock.unlock()
    }
    var sum: (diff: Int, aa: Int) { counts.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) } }
}
