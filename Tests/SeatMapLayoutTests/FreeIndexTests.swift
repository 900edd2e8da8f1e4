import Foundation
import Testing
import SeatMapCore
@testable import SeatMapLayout
import SeatMapTestSupport

/// The free index's run starts come in two forms: one-byte offsets from a
/// base per 16 buckets (what keeps them in cache), and whole starts when an
/// offset would not fit. Both must give every bucket its own run.
@Suite("Free index run starts")
struct FreeIndexTests {
    /// Bucket runs of random lengths: mostly short, some empty, a few long.
    static func starts(buckets: Int, seed: UInt64, longEvery: Int) -> [Int32] {
        var rng = SeededRandom(seed: seed)
        var out: [Int32] = [0]
        for k in 0..<buckets {
            let length = k % longEvery == longEvery - 1 ? Int.random(in: 500...5_000, using: &rng) : Int.random(in: 0...4, using: &rng)
            out.append(out[out.count - 1] + Int32(length))
        }
        return out
    }

    @Test("every bucket's run is its own, in the one-byte form and the whole one, at segment edges and past them")
    func runs() {
        let segment = 1 << RunStarts.segmentShift
        for (buckets, longEvery) in [(1, 1), (15, 7), (16, 1_000), (17, 5), (1_000, 97), (1_000, 2_000), (4_097, 13)] {
            let starts = Self.starts(buckets: buckets, seed: UInt64(buckets), longEvery: longEvery)
            let narrow = RunStarts(starts), whole = RunStarts(starts, offsetLimit: 3)
            // Runs of up to 4 entries, or a long one now and then: the
            // offsets fit unless a segment's runs pass 255 entries.
            var fits = true
            for seg in stride(from: 0, to: starts.count, by: segment) {
                if starts[min(seg + segment - 1, starts.count - 1)] - starts[seg] > Int32(UInt8.max) { fits = false }
            }
            #expect(narrow.wide.isEmpty == fits, "\(buckets) buckets")
            #expect(!whole.wide.isEmpty && whole.offsets.isEmpty, "\(buckets) buckets")
            for slot in 0..<buckets {
                let expected = Int(starts[slot])..<Int(starts[slot + 1])
                #expect(narrow.run(slot) == expected, "slot \(slot) of \(buckets)")
                #expect(whole.run(slot) == expected, "slot \(slot) of \(buckets)")
            }
            // About a third of the bytes of whole starts.
            if fits && buckets >= 4 * segment { #expect(narrow.byteCount * 3 <= whole.byteCount, "\(narrow.byteCount) of \(whole.byteCount) bytes") }
            if buckets == 1_000 && longEvery == 2_000 { #expect(fits, "the case where every offset fits") }
        }
    }

    @Test("an offset of 255 stays in a byte, 256 takes whole starts, and a segment's last bucket may hold any number")
    func offsetEdges() {
        // 16 buckets a segment: bucket 15's start is 255 past the base, and
        // its own run (1,000 entries) ends at the next segment's base.
        var kept: [Int32] = Array(repeating: 0, count: 15) + [255, 1_255]
        kept += [1_255, 1_256]
        let narrow = RunStarts(kept)
        #expect(narrow.wide.isEmpty && narrow.offsets.count == kept.count)
        #expect(narrow.run(14) == 0..<255 && narrow.run(15) == 255..<1_255 && narrow.run(16) == 1_255..<1_255 && narrow.run(17) == 1_255..<1_256)
        // One more entry before bucket 15: its start is 256 past the base.
        let over: [Int32] = Array(repeating: 0, count: 15) + [256, 300]
        let whole = RunStarts(over)
        #expect(!whole.wide.isEmpty && whole.offsets.isEmpty)
        #expect(whole.run(14) == 0..<256 && whole.run(15) == 256..<300)
    }

    /// 1,000 seats on one spot: every bucket the spot covers lists all of
    /// them, more than a byte can count within 16 buckets.
    @Test("seats piled on one spot: the index keeps whole starts, and a tap there hits the last drawn")
    func piled() throws {
        // Two rows of 500.
        let count = 1_000
        let seats = (0..<count / 2).map { _ in #"{"x": 0, "y": 0, "status": 0}"# }.joined(separator: ",")
        let rows = (1...2).map { #"{"row": \#($0), "price": 10, "seats": ["# + seats + "]}" }.joined(separator: ",")
        let hall = try HallFormat.decode(#"{"cinemaName": "C", "hallName": "Piled", "rows": ["# + rows + "]}")
        let l = try Layout(hall: hall, zoom: 1, scale: 1)
        guard case .free(let index) = l.index else {
            Issue.record("not a free layout")
            return
        }
        #expect(!index.runs.wide.isEmpty, "the one-byte form was kept for \(index.entries.count) entries")
        let tester = HitTester(layout: l)
        let spot = l.cells[count - 1].seatRect
        let hit = try tester.find(ViewPoint(Double(spot.centerX), Double(spot.centerY)), ViewTransform(layout: l))
        #expect(hit == .seat(count - 1))
        // Outside the pile, nothing.
        let off = try tester.find(ViewPoint(Double(spot.x - 3), Double(spot.y - 3)), ViewTransform(layout: l))
        #expect(off == .gap || off == .outside, "\(off)")
    }
}
