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

    @Test("counting alone agrees with the full comparison on random seat-like pairs: changed runs with anti-aliased edges, across the image's edges")
    func fastPathAgreesOnRuns() throws {
        // A changed seat is a run of one pixel pair per row, and its edge a
        // one-pixel ring halfway to the background: the ring's top and bottom
        // are runs whose pixels are anti-aliased (darker on one side, lighter
        // on the other, each side flat). The counting path takes a run's
        // inside by its neighbours above and below; a wrong "flat" there
        // counts such a pixel as a difference.
        var state: UInt64 = 0x5EA7_3A9
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        let white: (UInt32, UInt32, UInt32) = (255, 255, 255)
        let palette: [(UInt32, UInt32, UInt32)] = [(40, 40, 40), (200, 30, 30), (30, 30, 200), (30, 160, 60), (120, 120, 120)]
        /// A seat at (x, y), `rw` × `rh` inside a one-pixel ring of its colour halfway to white, clipped to the image.
        func seat(_ img: inout RGBAImage, _ x: Int, _ y: Int, _ rw: Int, _ rh: Int, _ c: (UInt32, UInt32, UInt32)) {
            let fill = RGBAImage.pack(c.0, c.1, c.2)
            let ring = RGBAImage.pack((c.0 + white.0) / 2, (c.1 + white.1) / 2, (c.2 + white.2) / 2)
            for j in stride(from: max(0, y - 1), to: min(img.height, y + rh + 1), by: 1) {
                for i in stride(from: max(0, x - 1), to: min(img.width, x + rw + 1), by: 1) {
                    let inside = i >= x && i < x + rw && j >= y && j < y + rh
                    img.pixels[j * img.width + i] = inside ? fill : ring
                }
            }
        }
        var totals = (diff: 0, aa: 0, pairs: 0)
        for _ in 0..<200 {
            let w = 6 + next(40), h = 3 + next(20)
            var a = RGBAImage(width: w, height: h, fill: RGBAImage.pack(white.0, white.1, white.2)), b = a
            for _ in 0..<(1 + next(8)) {
                // Seats may cross any edge of the image; one in three changes colour.
                let x = next(w + 4) - 3, y = next(h + 4) - 3, rw = 1 + next(14), rh = 1 + next(7)
                let ca = palette[next(palette.count)], cb = next(3) == 0 ? palette[next(palette.count)] : ca
                seat(&a, x, y, rw, rh, ca)
                seat(&b, x, y, rw, rh, cb)
            }
            // A few stray pixels: runs broken in the middle.
            for _ in 0..<next(3) { b.pixels[next(w * h)] = RGBAImage.pack(UInt32(next(256)), UInt32(next(256)), 0) }
            for (x, y) in [(a, b), (b, a)] {
                for threshold in [0.0, 0.1, 0.3] {
                    let fast = try PixelMatch.compare(x, y, threshold: threshold).0
                    let full = try PixelMatch.compare(x, y, threshold: threshold, diff: true).0
                    #expect(fast == full, "\(w)×\(h) at \(threshold)")
                    totals.diff += full.diffPixels
                    totals.aa += full.aaPixels
                    totals.pairs += full.diffPixels + full.aaPixels > 0 ? 1 : 0
                }
            }
        }
        // The pairs hold both kinds of pixel, in most of the comparisons.
        #expect(totals.diff > 1000 && totals.aa > 1000 && totals.pairs > 400, "\(totals)")
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
        #expect(artefacts == ["case-actual.png", "case-composite.png", "case-diff.png", "case-expected.png", "case-report.html"])
        // The review page of `seatmap diff --report`, for this pair.
        let report = try String(contentsOfFile: dir.path + "/art/case-report.html", encoding: .utf8)
        #expect(report.contains("3521 differing pixels") && report.contains("Fails: max-diff-pixels") && message.contains("case-report.html"))
    }
}
