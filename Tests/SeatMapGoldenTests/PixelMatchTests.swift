import Foundation
import Testing
import SeatMapGolden
import SeatMapTestSupport

/// Expected counts computed once with the Python `pixelmatch` package
/// (diff count returned, anti-aliased count = yellow pixels in its output)
/// on the fixture pairs in Fixtures/.
private let parity: [(pair: String, threshold: Double, diff: Int, aa: Int)] = [
    ("seed", 0.05, 3521, 236), ("seed", 0.1, 3521, 236), ("seed", 0.2, 3521, 212),
    ("shapes", 0.05, 2128, 100), ("shapes", 0.1, 1867, 89), ("shapes", 0.2, 1550, 63),
]

func fixture(_ name: String) throws -> RGBAImage {
    try RGBAImage(contentsOf: Fixtures.root.appendingPathComponent("Tests/SeatMapGoldenTests/Fixtures/\(name).png").path)
}

@Suite("Pixel comparison")
struct PixelMatchTests {
    @Test("counts equal pixelmatch's on the same pairs and thresholds", arguments: 0..<6)
    func parityWithPixelmatch(_ k: Int) throws {
        let c = parity[k]
        let (r, _) = try PixelMatch.compare(try fixture("\(c.pair)-a"), try fixture("\(c.pair)-b"), threshold: c.threshold)
        #expect(r.diffPixels == c.diff, "\(c.pair) at \(c.threshold)")
        #expect(r.aaPixels == c.aa, "\(c.pair) at \(c.threshold)")
    }

    @Test("identical images have no differences, and the diff is all faded grey")
    func identical() throws {
        let a = try fixture("shapes-a")
        let (r, diff) = try PixelMatch.compare(a, a, diff: true)
        #expect(r.diffPixels == 0 && r.aaPixels == 0)
        let colours = Set(diff?.pixels ?? [])
        #expect(!colours.contains(PixelMatch.diffColor) && !colours.contains(PixelMatch.aaColor))
        #expect(colours.allSatisfy { ($0 & 0xFF) == (($0 >> 8) & 0xFF) }, "grey")
    }

    @Test("the diff image marks differing pixels red and anti-aliased ones yellow")
    func diffImage() throws {
        let (r, diff) = try PixelMatch.compare(try fixture("seed-a"), try fixture("seed-b"), diff: true)
        let pixels = try #require(diff).pixels
        #expect(pixels.filter { $0 == PixelMatch.diffColor }.count == r.diffPixels)
        #expect(pixels.filter { $0 == PixelMatch.aaColor }.count == r.aaPixels)
    }

    @Test("a size mismatch names both sizes")
    func sizeMismatch() throws {
        #expect {
            try PixelMatch.compare(RGBAImage(width: 2, height: 3), RGBAImage(width: 3, height: 2))
        } throws: { error in
            "\(error)".contains("2×3 and 3×2")
        }
    }

    @Test("gates: the stricter of pixels and ratio wins")
    func gates() {
        let r = PixelMatch.Result(width: 100, height: 100, diffPixels: 50, aaPixels: 0)
        #expect(!DiffGates().passes(r))
        #expect(DiffGates(maxDiffPixels: 50, maxDiffRatio: 0.005).passes(r))
        #expect(!DiffGates(maxDiffPixels: 100, maxDiffRatio: 0.004).passes(r))
        #expect(!DiffGates(maxDiffPixels: 49, maxDiffRatio: 1).passes(r))
    }

    @Test("a file that is not a PNG is a clear error")
    func notPNG() {
        #expect {
            try RGBAImage(png: Array("not a png".utf8))
        } throws: { error in
            "\(error)".hasPrefix("not a readable PNG")
        }
    }

    @Test("PNG encode → decode keeps every pixel, semi-transparent ones too")
    func roundTrip() throws {
        let a = try fixture("shapes-a")
        let again = try RGBAImage(png: try a.pngData())
        // Premultiplying for the encoder can move a low-alpha channel by a little.
        var far = 0
        for (p, q) in zip(a.pixels, again.pixels) where p != q {
            let alpha = Int(p >> 24)
            for shift in [0, 8, 16] as [UInt32] where abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)) > 255 / max(1, alpha) + 1 {
                far += 1
            }
            if (p >> 24) != (q >> 24) { far += 1 }
        }
        #expect(far == 0)
    }

    @Test("counting alone (the fast path: rows compared as memory, equal runs skipped) counts as the full comparison does")
    func fastPathAgrees() throws {
        let a = try fixture("seed-a"), b = try fixture("seed-b")
        var rng = SystemRandomNumberGenerator()
        var c = a
        // Scattered single pixels, short runs, the first and last pixels, odd widths of change.
        for _ in 0..<300 {
            let i = Int.random(in: 0..<c.pixels.count, using: &rng)
            c.pixels[i] = RGBAImage.pack(UInt32.random(in: 0...255, using: &rng), 0, 0)
        }
        c.pixels[0] = RGBAImage.pack(1, 2, 3)
        c.pixels[c.pixels.count - 1] = RGBAImage.pack(3, 2, 1)
        for (x, y) in [(a, b), (a, c), (b, c), (a, a)] {
            for threshold in [0.0, 0.1, 0.5] {
                let fast = try PixelMatch.compare(x, y, threshold: threshold).0
                let full = try PixelMatch.compare(x, y, threshold: threshold, diff: true).0
                #expect(fast == full)
            }
        }
    }

    @Test("counting alone agrees on areas changed as runs: every small width, at each edge, broken and overlapping")
    func fastPathAgreesOnRuns() throws {
        // A changed seat is a run of one pixel pair per row; the counting path
        // takes a run's inside by its neighbours above and below.
        let w = 41, h = 23
        var a = RGBAImage(width: w, height: h, fill: RGBAImage.pack(255, 255, 255))
        var b = a
        func rect(_ x: Int, _ y: Int, _ rw: Int, _ rh: Int, _ ca: UInt32, _ cb: UInt32) {
            for j in y..<min(h, y + rh) { for i in x..<min(w, x + rw) { a.pixels[j * w + i] = ca; b.pixels[j * w + i] = cb } }
        }
        let grey = RGBAImage.pack(90, 90, 90), red = RGBAImage.pack(200, 30, 30), blue = RGBAImage.pack(30, 30, 200)
        // Widths 1…6 and 12 on rows touching the top and bottom edges and the left and right ones.
        for (k, rw) in [1, 2, 3, 4, 5, 6, 12].enumerated() {
            rect(k * 5, 0, rw, 1 + k % 3, grey, red)
            rect(w - rw - k, h - 1 - k % 3, rw, 1 + k % 3, grey, blue)
        }
        rect(0, 8, 7, 5, red, blue)           // at the left edge
        rect(w - 9, 8, 9, 6, blue, red)       // at the right edge
        rect(12, 6, 14, 9, grey, red)         // inside
        b.pixels[10 * w + 18] = blue          // a run broken in the middle
        a.pixels[7 * w + 20] = red            // a neighbour above that differs between the images
        rect(14, 14, 8, 1, grey, red)         // one row below the area, shifted in one image only
        b.pixels[14 * w + 13] = red
        var state: UInt64 = 12345
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        // Overlapping areas of random sizes, a pair at a time.
        var c = a, d = a
        for _ in 0..<40 {
            let x = next(w), y = next(h), rw = 1 + next(9), rh = 1 + next(5)
            let ca = RGBAImage.pack(UInt32(next(256)), 60, 60), cb = RGBAImage.pack(60, UInt32(next(256)), 60)
            for j in y..<min(h, y + rh) { for i in x..<min(w, x + rw) { c.pixels[j * w + i] = ca; d.pixels[j * w + i] = cb } }
        }
        for (x, y) in [(a, b), (b, a), (c, d), (a, d)] {
            for threshold in [0.0, 0.1, 0.5] {
                let fast = try PixelMatch.compare(x, y, threshold: threshold).0
                let full = try PixelMatch.compare(x, y, threshold: threshold, diff: true).0
                #expect(fast == full, "threshold \(threshold)")
                if threshold < 0.5 { #expect(fast.diffPixels + fast.aaPixels > 0) }
            }
        }
    }

    @Test("record mode: a missing reference is recorded and fails; then it matches")
    func recording() throws {
        let dir = try Fixtures.tempFolder()
        let image = try fixture("seed-a")
        let png = { try image.pngData() }
        let first = try GoldenFile.check(image, png: png, name: "case", folder: dir.path, artifacts: dir.path + "/art", mode: .missing)
        guard case .recorded = first else { Issue.record("expected a recording, got \(first)"); return }
        let second = try GoldenFile.check(image, png: png, name: "case", folder: dir.path, artifacts: dir.path + "/art", mode: .missing)
        guard case .matched = second else { Issue.record("expected a match, got \(second)"); return }
        let forced = try GoldenFile.check(image, png: png, name: "case", folder: dir.path, artifacts: dir.path + "/art", mode: .all)
        guard case .recorded = forced else { Issue.record("SEATMAP_RECORD must re-record and fail"); return }
        let other = try fixture("seed-b")
        let third = try GoldenFile.check(other, png: { try other.pngData() }, name: "case", folder: dir.path,
                                         artifacts: dir.path + "/art", mode: .missing)
        guard case .mismatch(let message) = third else { Issue.record("expected a mismatch"); return }
        #expect(message.contains("3521 differing pixels"))
        #expect(message.contains("SEATMAP_RECORD=1"))
        let artefacts = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/art").sorted()
        #expect(artefacts == ["case-actual.png", "case-composite.png", "case-diff.png", "case-expected.png"])
    }
}
