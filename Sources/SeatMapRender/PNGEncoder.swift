import CPNGStrips
import Dispatch
import Foundation
import SeatMapCore

/// SeatMap's PNG encoder: 8-bit RGB when every pixel is opaque (RGBA,
/// un-premultiplied, otherwise), rows filtered by a cheap per-row choice
/// (a row equal to the one above takes Up and becomes zeros), and the zlib
/// stream built from horizontal strips of about `stripBytes` each, compressed on
/// every core and joined (each strip ends with a sync flush, the last with
/// the final block; the Adler-32s are combined). The strips depend only on
/// the image, so the bytes are the same whatever the number of cores.
enum PNGEncoder {
    /// Filtered bytes per strip (a few rows at least): a sixteenth of the
    /// image, at least 256 KiB and at most 4 MiB. A small image (a hall a
    /// web back end renders per request) is still shared out over the
    /// cores; a strip restarts zlib's window, which at 256 KiB costs about
    /// 0.5 % of the file. Fixed by the image alone, so the bytes never
    /// depend on the core count.
    static func stripBytes(filtered: Int) -> Int { min(1 << 22, max(1 << 18, filtered / 16)) }

    /// zlib level and filter effort (see `seatmap_strips_filter`).
    static func settings(_ c: PNGCompression) -> (level: Int32, effort: Int32) {
        switch c {
        case .fast: return (1, 0)
        case .default: return (5, 1)
        case .best: return (9, 1)
        }
    }

    struct Strip {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        var adler: UInt32 = 1
        var length = 0
        var failed = false
    }

    /// Encodes Cairo's premultiplied ARGB32 pixels. `workers`: how many
    /// strips run at once (default: `Renderer.cores`); it never changes the bytes.
    static func encode(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, compression: PNGCompression,
                       workers: Int? = nil) throws(SeatMapError) -> [UInt8] {
        guard width > 0, height > 0 else { throw SeatMapError("the image is empty") }
        // RGB when every pixel is opaque. Each strip checks its own rows
        // before filtering them (on every core, each while its rows are
        // read anyway); when one is not, the image is encoded again as
        // RGBA. A translucent first pixel says so at once.
        let firstOpaque = pixels.withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee >> 24 == 0xFF }
        var made = try strips(pixels, width: width, height: height, stride: stride, compression: compression, workers: workers,
                              channels: firstOpaque ? 3 : 4)
        if made == nil {
            made = try strips(pixels, width: width, height: height, stride: stride, compression: compression, workers: workers, channels: 4)
        }
        // (An RGBA encoding is never refused.)
        guard let box = made else { throw SeatMapError("the PNG encoder ran out of memory") }
        defer { for s in box.strips { free(s.bytes) } }
        let opaque = box.channels == 3
        let (level, _) = settings(compression)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(box.strips.reduce(64) { $0 + $1.size + 12 })
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ parts: [UnsafeBufferPointer<UInt8>]) {
            let t = Array(type.utf8)
            png += be32(UInt32(parts.reduce(0) { $0 + $1.count }))
            png += t
            var crc = t.withUnsafeBufferPointer { seatmap_strips_crc32(0, $0.baseAddress, 4) }
            for p in parts where p.count > 0 {
                png.append(contentsOf: p)
                crc = seatmap_strips_crc32(crc, p.baseAddress, p.count)
            }
            png += be32(crc)
        }
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, opaque ? 2 : 6, 0, 0, 0]
        header.withUnsafeBufferPointer { chunk("IHDR", [$0]) }
        // The zlib header (deflate, 32 KiB window, the level's hint) and trailer.
        let flag: UInt8 = level <= 1 ? 0x01 : level < 6 ? 0x5E : level == 6 ? 0x9C : 0xDA
        var adler = box.strips[0].adler
        for s in box.strips.dropFirst() { adler = seatmap_strips_adler32_combine(adler, s.adler, s.length) }
        let zHeader: [UInt8] = [0x78, flag], trailer = be32(adler)
        for (i, s) in box.strips.enumerated() {
            let body = UnsafeBufferPointer(start: s.bytes, count: s.size)
            let first = i == 0 ? zHeader : [], last = i == box.strips.count - 1 ? trailer : []
            first.withUnsafeBufferPointer { f in last.withUnsafeBufferPointer { l in chunk("IDAT", [f, body, l]) } }
        }
        chunk("IEND", [])
        return png
    }
}


extension PNGEncoder {
    /// The image's rows filtered (`channels` 3: RGB, 4: RGBA) and
    /// compressed in strips on `workers` cores. Nil when a strip of an RGB
    /// encoding has a pixel that is not opaque; throws when memory runs out.
    fileprivate static func strips(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, compression: PNGCompression,
                                   workers: Int?, channels: Int) throws(SeatMapError) -> StripBox? {
        let rowBytes = width * channels + 1
        let rowsPerStrip = max(1, stripBytes(filtered: rowBytes * height) / rowBytes)
        let count = (height + rowsPerStrip - 1) / rowsPerStrip
        let (level, effort) = settings(compression)
        let box = StripBox(count: count, channels: channels)
        // The pixels outlive the concurrent loop, which only reads them.
        let source = UnsafeSendable(pixels)
        let n = max(1, min(workers ?? Renderer.cores, count))
        DispatchQueue.concurrentPerform(iterations: n) { w in
            let pixels = source.value
            // One filter buffer per worker, reused strip after strip.
            let filtered = malloc(rowsPerStrip * rowBytes)?.assumingMemoryBound(to: UInt8.self)
            defer { free(filtered) }
            var s = w
            while s < count, !box.translucent {
                let y0 = s * rowsPerStrip, y1 = min(height, y0 + rowsPerStrip)
                if channels == 3, seatmap_strips_opaque(pixels + y0 * stride, Int32(width), Int32(y1 - y0), Int32(stride)) != 1 {
                    box.setTranslucent()
                    return
                }
                let length = (y1 - y0) * rowBytes
                var strip = Strip()
                strip.length = length
                if let filtered {
                    seatmap_strips_filter(pixels, Int32(width), Int32(stride), Int32(y0), Int32(y1), Int32(channels), effort, filtered)
                    strip.adler = seatmap_strips_adler32(1, filtered, length)
                    var out: UnsafeMutablePointer<UInt8>? = nil
                    var size = 0
                    if seatmap_strips_deflate(filtered, length, level, s == count - 1 ? 1 : 0, &out, &size) == 0 {
                        strip.bytes = out
                        strip.size = size
                    } else {
                        strip.failed = true
                    }
                } else {
                    strip.failed = true
                }
                box.set(s, strip)
                s += n
            }
        }
        if box.translucent {
            for s in box.strips { free(s.bytes) }
            return nil
        }
        guard box.strips.allSatisfy({ !$0.failed && $0.bytes != nil }) else {
            for s in box.strips { free(s.bytes) }
            throw SeatMapError("the PNG encoder ran out of memory")
        }
        return box
    }
}

/// Strip results written from several threads, each slot by one.
private final class StripBox: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var strips: [PNGEncoder.Strip]
    /// 3 (RGB) or 4 (RGBA).
    let channels: Int
    private var sawTranslucent = false
    init(count: Int, channels: Int) {
        strips = Array(repeating: PNGEncoder.Strip(), count: count)
        self.channels = channels
    }
    func set(_ i: Int, _ s: PNGEncoder.Strip) {
        lock.lock()
        strips[i] = s
        lock.unlock()
    }
    /// Whether a strip of an RGB encoding found a pixel that is not opaque.
    var translucent: Bool {
        lock.lock()
        defer { lock.unlock() }
        return sawTranslucent
    }
    func setTranslucent() {
        lock.lock()
        sawTranslucent = true
        lock.unlock()
    }
}

/// A value handed to the encoder's worker threads, which only read it.
private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
