import Foundation
import SeatMapCore
import SeatMapService
import SeatMapGolden

extension SeatMapCLI {
    static let diffCommand = Command(
        spec: CommandSpec(
            name: "diff",
            usage: "diff A.png B.png | OLD_DIR NEW_DIR [--threshold T] [--max-diff-pixels N] [--max-diff-ratio R] [--ignore X,Y,W,H ...] [--out DIFF.png [--diff-mask] [--diff-color RRGGBB] [--aa-color RRGGBB] [--diff-color-alt RRGGBB]] [--composite COMPOSITE.png] [--json]",
            summary: "Compare two PNGs, or two folders of PNGs, pixel by pixel (pixelmatch), with pass/fail gates.",
            options: [
                .value("threshold", "T", "Colour distance threshold 0…1 (default 0.1)."),
                .value("max-diff-pixels", "N", "Pass with at most N differing pixels."),
                .value("max-diff-ratio", "R", "Pass with at most this fraction of pixels differing, 0…1."),
                .values("ignore", "X,Y,W,H", "Leave this pixel region out of the comparison (repeatable)."),
                .value("out", "DIFF.png", "Write the diff image: unchanged faded grey, differing red, anti-aliased yellow."),
                .flag("diff-mask", "In the diff image, draw only the differences, on transparent."),
                .value("diff-color", "RRGGBB", "Colour of differing pixels in the diff image (default FF0000)."),
                .value("aa-color", "RRGGBB", "Colour of anti-aliased pixels in the diff image (default FFFF00)."),
                .value("diff-color-alt", "RRGGBB", "Colour of differences where B is darker (default: --diff-color)."),
                .value("composite", "PNG", "Write expected | diff | actual side by side."),
                .value("report", "OUT.html", "Write a review page: each changed image with old, new, the diff and a slider, then the rest."),
                .flag("json", "Print {width, height, diffPixels, aaPixels, diffRatio, pass, failedGates} (folders: {pass, changed, unchanged, added, removed})."),
            ],
            details: """
            Prints `N differing pixels (R %), M anti-aliased`, then PASS or FAIL: GATE (VALUE > LIMIT).
            A gate given alone is the only gate; with none, any differing pixel fails. Counts are pixelmatch's.
            Exit status: 0 within the gates, 1 outside them (or sizes differ), 2 on an error (unreadable file,
            not a PNG, a diff image that cannot be written) or bad usage.
            Two folders: every PNG below them (subfolders too) compared with the PNG of the same path on the
            other side, with the same gates. Prints one line a file (changed, unchanged, added, removed), the
            changed first. Exit 1 when any image is changed or on one side only, 0 when none is; 2 on an
            error (a folder or PNG that cannot be read, a report that cannot be written). --out and
            --composite are for two files.
            """),
        run: { args, console in
            let files = try positionals(args, ["A.png", "B.png"])
            let folders = files.map { path -> Bool in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
            let threshold = try args.double("threshold", default: 0.1, in: 0...1)
            var gates = DiffGates()
            if args.value("max-diff-pixels") != nil {
                let n = try args.double("max-diff-pixels", default: 0, in: 0...Double(Int32.max))
                guard n == n.rounded() else { throw UsageError(message: "--max-diff-pixels expects a whole number") }
                gates.maxDiffPixels = Int(n)
            }
            if args.value("max-diff-ratio") != nil { gates.maxDiffRatio = try args.double("max-diff-ratio", default: 0, in: 0...1) }
            var options = PixelMatch.Options(threshold: threshold)
            for text in args.values["ignore"] ?? [] {
                let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int(String($0).trimmingCharacters(in: .whitespaces)) }
                let bound = 1_000_000_000
                guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3], w >= 0, h >= 0,
                      abs(x) <= bound, abs(y) <= bound, w <= bound, h <= bound else {
                    throw UsageError(message: "--ignore expects X,Y,W,H (whole numbers within ±\(bound), W and H ≥ 0), got \"\(text)\"")
                }
                options.ignore.append(PixelMatch.Region(x: x, y: y, w: w, h: h))
            }
            func colour(_ name: String) throws(UsageError) -> UInt32? {
                guard let text = args.value(name) else { return nil }
                let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
                guard hex.count == 6, hex.allSatisfy({ $0.isHexDigit && $0.isASCII }), let v = UInt32(hex, radix: 16) else {
                    throw UsageError(message: "--\(name) expects RRGGBB, got \"\(text)\"")
                }
                return RGBAImage.pack(v >> 16 & 0xFF, v >> 8 & 0xFF, v & 0xFF)
            }
            if let c = try colour("diff-color") { options.diffColor = c }
            if let c = try colour("aa-color") { options.aaColor = c }
            options.diffColorAlt = try colour("diff-color-alt")
            options.diffMask = args.flag("diff-mask")
            if folders[0] || folders[1] {
                guard folders[0] && folders[1] else {
                    throw UsageError(message: "give two PNG files or two folders: \(folders[0] ? files[0] : files[1]) is a folder, \(folders[0] ? files[1] : files[0]) is not")
                }
                if args.value("out") != nil || args.value("composite") != nil {
                    throw UsageError(message: "--out and --composite compare two files; for folders use --report OUT.html")
                }
                return try compareFolders(files[0], files[1], options: options, gates: gates, args: args, console: console)
            }
            // Sizes come from the headers: a mismatch (or an image over the
            // limits) is found before either image is decoded.
            let bytes: [[UInt8]]
            do {
                bytes = try files.map { try Files.read($0).bytes }
            } catch {
                console.err("seatmap diff: \(CLIMessages.say(error))")
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
                                                          ("diffRatio", .null), ("pass", .bool(false)),
                                                          ("failedGates", .array([.string("size")]))]), pretty: false))
                }
                return 1
            }
            var images: [RGBAImage] = []
            for (file, data) in zip(files, bytes) {
                do {
                    images.append(try RGBAImage(png: data))
                } catch {
                    console.err("seatmap diff: \(file): \(error)")
                    return 2
                }
            }
            let a = images[0], b = images[1]
            let wantsImage = args.value("out") != nil || args.value("composite") != nil
            let (result, diff) = try PixelMatch.compare(a, b, options: options, diff: wantsImage)
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
                    console.err("seatmap diff: \(CLIMessages.say(error))")
                    return 2
                }
            }
            let failures = gates.failures(result)
            let pass = failures.isEmpty
            if let out = args.value("report") {
                do {
                    let item = try ImageComparison.compare(name: (files[1] as NSString).lastPathComponent, old: a, new: b,
                                                           oldBytes: bytes[0], newBytes: bytes[1], options: options, gates: gates)
                    try Files.writeAtomically(SnapshotReport.html(title: "Image review", oldLabel: files[0], newLabel: files[1], [item]), to: out)
                } catch {
                    console.err("seatmap diff: \(CLIMessages.say(error))")
                    return 2
                }
            }
            let report: String
            if args.flag("json") {
                report = JSONWriter.write(.object([
                    ("width", .int(result.width)), ("height", .int(result.height)), ("diffPixels", .int(result.diffPixels)),
                    ("aaPixels", .int(result.aaPixels)), ("diffRatio", .number(String(result.diffRatio))), ("pass", .bool(pass)),
                    ("failedGates", .array(failures.map { .string($0.gate) })),
                ]), pretty: false)
            } else {
                report = GoldenFile.summary(result) + "\n" + (pass ? "PASS" : "FAIL: " + failures.map(\.message).joined(separator: ", "))
            }
            // With an image on standard output, the report goes to stderr.
            if args.value("out") == "-" || args.value("composite") == "-" { console.err(report) } else { console.out(report) }
            return pass ? 0 : 1
        })

    /// `diff OLD_DIR NEW_DIR`: every PNG by name, one line each, the changed first.
    static func compareFolders(_ old: String, _ new: String, options: PixelMatch.Options, gates: DiffGates, args: Arguments,
                               console: Console) throws -> Int32 {
        let items: [ImageComparison]
        do {
            items = try SnapshotReport.compareFolders(old: old, new: new, options: options, gates: gates)
            if let out = args.value("report") {
                try Files.writeAtomically(SnapshotReport.html(title: "Snapshot review", oldLabel: old, newLabel: new, items), to: out)
            }
        } catch {
            console.err("seatmap diff: \(CLIMessages.say(error))")
            return 2
        }
        let ordered = items.filter(\.fails) + items.filter { !$0.fails }
        let pass = !items.contains(where: \.fails)
        if args.flag("json") {
            func names(_ keep: (ImageComparison) -> Bool) -> JSONNode { .array(items.filter(keep).map { .string($0.name) }) }
            console.out(JSONWriter.write(.object([
                ("pass", .bool(pass)),
                ("changed", names(\.isChanged)),
                ("unchanged", names { !$0.fails }), ("added", names { $0.outcome == .added }), ("removed", names { $0.outcome == .removed }),
            ]), pretty: false))
        } else {
            let changes = items.filter(\.fails).count
            console.out((ordered.map(SnapshotReport.summary) + [pass ? "PASS: \(items.count) images, none changed"
                                                                      : "FAIL: \(changes) of \(items.count) images changed, added or removed"])
                .joined(separator: "\n"))
        }
        return pass ? 0 : 1
    }
}
