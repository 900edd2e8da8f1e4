import CPNGStrips
import CZlib
import Foundation
import Testing

/// The encoder's strips, each compressed by zlib on its own core: zlib inflates every
/// piece back to the bytes given, and pieces joined as the encoder joins
/// strips (sync-flushed, then the final one) inflate as one stream.
@Suite("Strips compressed apart, inflated as one")
struct DeflateTests {
    /// Deterministic pseudo-random bytes.
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed, out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count { x = x &* 6364136223846793005 &+ 1442695040888963407; out.append(UInt8(truncatingIfNeeded: x >> 33)) }
        return out
    }

    /// Inputs a strip can be: empty, tiny, zero runs of every length around
    /// a match's 258, noise (nothing to match), and seat-map-like rows.
    static func inputs() -> [(String, [UInt8])] {
        var cases: [(String, [UInt8])] = [("empty", []), ("one byte", [7]), ("two zeros", [0, 0])]
        for run in [3, 4, 257, 258, 259, 260, 261, 516, 517, 100_000] {
            cases.append(("\(run) zeros after a byte", [9] + [UInt8](repeating: 0, count: run) + [5, 0, 0]))
        }
        cases.append(("noise", noise(300_000, seed: 1)))
        // Rows of a seat map: a filter byte, a pattern every 60 bytes in zeros, some rows differing.
        var rows: [UInt8] = []
        let noiseRow = noise(4_000, seed: 2)
        for y in 0..<400 {
            rows.append(y % 7 == 0 ? 1 : 2)
            for x in 0..<4_000 { rows.append(y % 7 == 0 && x % 60 < 5 ? UInt8(x % 60 + 1) : y % 50 == 3 ? noiseRow[x] : 0) }
        }
        cases.append(("seat-map rows", rows))
        return cases
    }

    static func inflateRaw(_ data: [UInt8], expecting count: Int) -> (Int32, [UInt8]) {
        var z = z_stream()
        guard inflateInit2_(&z, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return (-99, []) }
        defer { inflateEnd(&z) }
        var input = data, output = [UInt8](repeating: 0, count: count + 64)
        let rc = input.withUnsafeMutableBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                z.next_in = i.baseAddress
                z.avail_in = UInt32(i.count)
                z.next_out = o.baseAddress
                z.avail_out = UInt32(o.count)
                return inflate(&z, Z_FINISH)
            }
        }
        return (rc, Array(output[0..<Int(z.total_out)]))
    }

    static func deflate(_ bytes: [UInt8], level: Int32, last: Bool) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?, size = 0
        let rc = bytes.withUnsafeBufferPointer { seatmap_strips_deflate($0.baseAddress, $0.count, level, last ? 1 : 0, &out, &size) }
        guard rc == 0, let out else { return nil }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    @Test("zlib inflates each piece, at every level, to the bytes given; noise grows by under 1 %")
    func roundTrip() throws {
        for (name, bytes) in DeflateTests.inputs() {
            for level: Int32 in [1, 6, 9] {
                let packed = try #require(DeflateTests.deflate(bytes, level: level, last: true), "\(name)")
                let (rc, back) = DeflateTests.inflateRaw(packed, expecting: bytes.count)
                #expect(rc == Z_STREAM_END, "\(name), level \(level): inflate said \(rc)")
                #expect(back == bytes, "\(name), level \(level)")
                if name == "noise" { #expect(packed.count < bytes.count + bytes.count / 100) }
                if name.hasPrefix("100000") { #expect(packed.count < 1_000, "\(name): \(packed.count) bytes") }
            }
        }
    }

    @Test("pieces joined (sync-flushed, then the final one) inflate as one stream")
    func joined() throws {
        let pieces = DeflateTests.inputs().map(\.1)
        var stream: [UInt8] = []
        for (i, p) in pieces.enumerated() { stream += try #require(DeflateTests.deflate(p, level: 6, last: i == pieces.count - 1)) }
        let whole = pieces.flatMap { $0 }
        let (rc, back) = DeflateTests.inflateRaw(stream, expecting: whole.count)
        #expect(rc == Z_STREAM_END)
        #expect(back == whole)
    }
}
