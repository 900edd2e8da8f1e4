import Foundation
import SeatMapCore
import SeatMapGolden

extension SeatMapCLI {
    static let diffCommand = Command(
        spec: CommandSpec(
            name: "diff",
            usage: "diff A.png B.png [--threshold T] [--max-diff-pixels N] [--max-diff-ratio R] [--out DIFF.png] [--composite COMPOSITE.png] [--json]",
            summary: "Compare two PNGs pixel by pixel (pixelmatch), with pass/fail gates.",
            options: [
                .value("threshold", "T", "Colour distance threshold 0…1 (default 0.1)."),
                .value("max-diff-pixels", "N", "Pass with at most N differing pixels (default 0)."),
                .value("max-diff-ratio", "R", "Pass with at most this fraction of pixels differing, 0…1 (default 0)."),
                .value("out", "DIFF.png", "Write the diff image: unchanged faded grey, differing red, anti-aliased yellow."),
                .value("composite", "PNG", "Write expected | diff | actual side by side."),
                .flag("json", "Print {width, height, diffPixels, aaPixels, diffRatio, pass}."),
            ],
            details: "Prints `N differing pixels (R %), M anti-aliased`. Exit status: 0 within the gates, 1 outside them (or sizes differ), 2 on an error (unreadable file, not a PNG) or bad usage."),
        run: { args, console in
            let files = try positionals(args, ["A.png", "B.png"])
            let threshold = try args.double("threshold", default: 0.1, in: 0...1)
            let maxPixels = try args.double("max-diff-pixels", default: 0, in: 0...Double(Int32.max))
            guard maxPixels == maxPixels.rounded() else { throw UsageError(message: "--max-diff-pixels expects a whole number") }
            let ratio = try args.double("max-diff-ratio", default: 0, in: 0...1)
            let gates = DiffGates(maxDiffPixels: Int(maxPixels), maxDiffRatio: ratio)
            // Sizes come from the headers: a mismatch (or an image over the
            // limits) is found before either image is decoded.
            let bytes: [[UInt8]]
            do {
                bytes = try files.map { try Files.read($0).bytes }
            } catch {
                console.err("seatmap diff: \((error as? SeatMapError)?.message ?? "\(error)")")
                return 2
            }
            var sizes: [(width: Int, height: Int)] = []
            for (file, data) in zip(files, bytes) {
                guard let size = RGBAImage.pngSize(data) else {
                    console.err("seatmap diff: \(file): not a readable PNG: no PNG signature and header")
                    return 2
                }
                sizes.append(size)
            }
            guard sizes[0] == sizes[1] else {
                console.err("seatmap diff: size mismatch: \(files[0]) is \(sizes[0].width)×\(sizes[0].height), \(files[1]) is \(sizes[1].width)×\(sizes[1].height)")
                if args.flag("json") {
                    console.out(JSONWriter.write(.object([("width", .null), ("height", .null), ("diffPixels", .null), ("aaPixels", .null),
                                                          ("diffRatio", .null), ("pass", .bool(false))]), pretty: false))
                }
                return 1
            }
            let a: RGBAImage, b: RGBAImage
            do {
                a = try RGBAImage(png: bytes[0])
                b = try RGBAImage(png: bytes[1])
            } catch {
                console.err("seatmap diff: \(error)")
                return 2
            }
            let wantsImage = args.value("out") != nil || args.value("composite") != nil
            let (result, diff) = try PixelMatch.compare(a, b, threshold: threshold, diff: wantsImage)
            if let diff {
                // A write that fails is an error (2), not a difference (1).
                do {
                    var outputs: [(bytes: [UInt8], path: String)] = []
                    if let out = args.value("out") { outputs.append((try diff.pngData(), out)) }
                    if let out = args.value("composite") {
                        outputs.append((try RGBAImage.composite(expected: a, diff: diff, actual: b).pngData(), out))
                    }
                    try Files.writeAll(outputs)
                } catch {
                    console.err("seatmap diff: \((error as? SeatMapError)?.message ?? "\(error)")")
                    return 2
                }
            }
            let pass = gates.passes(result)
            if args.flag("json") {
                console.out(JSONWriter.write(.object([
                    ("width", .int(result.width)), ("height", .int(result.height)), ("diffPixels", .int(result.diffPixels)),
                    ("aaPixels", .int(result.aaPixels)), ("diffRatio", .number(String(result.diffRatio))), ("pass", .bool(pass)),
                ]), pretty: false))
            } else {
                console.out(GoldenFile.summary(result))
            }
            return pass ? 0 : 1
        })
}
