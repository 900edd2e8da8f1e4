import Foundation
import SeatMapCore

/// The peers a back end might pick instead of SeatMap, on the same seats,
/// each as a ratio to SeatMap's own time measured in the same rounds:
/// Skia (skia-python in a warm process: anti-aliased rounded rects and
/// Skia's PNG encoder) against SeatMap's full render in this process, and a
/// headless Chromium screenshot of SeatMap's SVG (a whole process, start-up
/// included) against the whole `seatmap render` process on the same hall
/// file. A peer that is not installed is skipped and said
/// (`make bench-peers` installs them into `.build/bench-venv`).
extension Bench {
    /// An executable of the bench's own virtual environment, when there.
    static func peerVenv(_ name: String) -> String? {
        let path = FileManager.default.currentDirectoryPath + "/.build/bench-venv/bin/" + name
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs a child to its end; its standard output and the seconds it took.
    static func timedRun(_ executable: String, _ arguments: [String]) throws -> (output: String, seconds: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        let t0 = Bench.now()
        let child = try Child(p)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let status = try child.wait()
        let seconds = Double(Bench.now() - t0) / 1e9
        guard status == 0 else { throw SeatMapError("\(executable) \(arguments.joined(separator: " ")) failed (exit \(status))") }
        return (String(decoding: data, as: UTF8.self), seconds)
    }

    /// The median of some values.
    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    mutating func peers(_ name: String, _ hall: Hall, spec: JSONNode, dir: URL, quick: Bool, ours: () throws -> Double) throws {
        let rounds = quick ? 1 : 3
        // Skia, warm: the script times its own runs after a first one that loads Skia.
        let script = FileManager.default.currentDirectoryPath + "/Tests/Bench/skia_peer.py"
        if let python = Bench.peerVenv("python"), FileManager.default.fileExists(atPath: script),
           (try? Bench.timedRun(python, ["-c", "import skia"])) != nil {
            let specPath = dir.appendingPathComponent("peer-spec.json").path
            try Files.writeAtomically(JSONWriter.write(spec), to: specPath)
            var skia: [Double] = [], roundRatios: [Double] = []
            for _ in 0..<rounds {
                let answer = try JSONParser.parse(Array(try Bench.timedRun(python, [script, specPath, dir.appendingPathComponent("skia.png").path, "1"]).output.utf8))
                guard case .array(let runs)? = answer["seconds"]?.value, case .number(let text)? = runs.first?.value, let s = Double(text) else {
                    throw SeatMapError("the Skia peer answered no time")
                }
                let o = try ours()
                skia.append(s); roundRatios.append(s / o)
            }
            add(name, "Skia peer (skia-python, warm): AA rounded rects + Skia's PNG encoder", Stat(median: Bench.median(skia) * 1e3,
                min: (skia.min() ?? 0) * 1e3, max: (skia.max() ?? 0) * 1e3, unit: "ms"))
            let ratio = Bench.median(roundRatios)
            ratios.append(("Skia (skia-python) / SeatMap full render, \(name)", ratio))
            if name == "arena-10k" { target("Skia peer vs SeatMap full render at \(name)", ratio, "≥ 3×", ratio >= 3) }
        } else {
            log("(Skia peer skipped: no skia-python in .build/bench-venv; make bench-peers)")
        }
        // Chromium, cold: a screenshot of SeatMap's SVG of the hall at its own size, against `seatmap render` on the hall file.
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let seatmap = here.appendingPathComponent("seatmap").path
        guard let chromium = Bench.which("chromium"), FileManager.default.isExecutableFile(atPath: seatmap) else {
            log("(Chromium peer skipped: needs chromium on PATH and the seatmap binary beside seatmap-bench)")
            return
        }
        let hallPath = dir.appendingPathComponent("peer-hall.json").path, svgPath = dir.appendingPathComponent("peer-hall.svg").path
        try Files.writeAtomically(HallFormat.encodeText(hall), to: hallPath)
        _ = try Bench.timedRun(seatmap, ["render", hallPath, "-o", svgPath])
        guard case .number(let w)? = spec["width"]?.value, case .number(let h)? = spec["height"]?.value else { return }
        let shot = ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--window-size=\(w),\(h)", "--screenshot=" + dir.appendingPathComponent("chromium.png").path, "file://" + svgPath]
        var browser: [Double] = [], own: [Double] = [], roundRatios: [Double] = []
        for _ in 0..<rounds {
            let c = try Bench.timedRun(chromium, shot).seconds
            let o = try Bench.timedRun(seatmap, ["render", hallPath, "-o", dir.appendingPathComponent("peer.png").path]).seconds
            browser.append(c); own.append(o); roundRatios.append(c / o)
        }
        add(name, "Chromium peer: headless screenshot of SeatMap's SVG (whole process)", Stat(median: Bench.median(browser) * 1e3,
            min: (browser.min() ?? 0) * 1e3, max: (browser.max() ?? 0) * 1e3, unit: "ms"))
        add(name, "  the whole `seatmap render` process on the same hall", Stat(median: Bench.median(own) * 1e3,
            min: (own.min() ?? 0) * 1e3, max: (own.max() ?? 0) * 1e3, unit: "ms"))
        ratios.append(("Chromium screenshot of the SVG / seatmap render (whole processes), \(name)", Bench.median(roundRatios)))
    }
}
