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
            let a: RGBAImage, b: RGBAImage
            do {
                a = try RGBAImage(contentsOf: files[0])
                b = try RGBAImage(contentsOf: files[1])
            } catch {
                console.err("seatmap diff: \(error)")
                return 2
            }
            guard a.width == b.width, a.height == b.height else {
                console.err("seatmap diff: size mismatch: \(files[0]) is \(a.width)×\(a.height), \(files[1]) is \(b.width)×\(b.height)")
                if args.flag("json") {
                    console.out(JSONWriter.write(.object([("width", .null), ("height", .null), ("diffPixels", .null), ("aaPixels", .null),
                                                          ("diffRatio", .null), ("pass", .bool(false))]), pretty: false))
                }
                return 1
            }
            let wantsImage = args.value("out") != nil || args.value("composite") != nil
            let (result, diff) = try PixelMatch.compare(a, b, threshold: threshold, diff: wantsImage)
            if let diff {
                if let out = args.value("out") { try Files.writeAtomically(try diff.pngData(), to: out) }
                if let out = args.value("composite") {
                    try Files.writeAtomically(try RGBAImage.composite(expected: a, diff: diff, actual: b).pngData(), to: out)
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
