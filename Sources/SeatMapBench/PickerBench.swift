import Foundation
import SeatMapCore
import SeatMapServer
import SeatMapStore

extension Bench {
    /// The picker page of a 10,000-seat hall served by `seatmap serve` (in
    /// this process, a memory store): bytes on the wire for the page and its
    /// statuses, gzipped; first contentful paint and frames per second while
    /// panning in headless Chromium (Tests/Browser/picker_perf.py, with the
    /// browser tests' tools: skipped without them).
    mutating func picker() throws {
        let name = quick ? "cinema-200" : "arena-10k"
        guard let hall = try BenchScenes.make(name) else { return }
        let script = FileManager.default.currentDirectoryPath + "/Tests/Browser/picker_perf.py"
        let python = FileManager.default.currentDirectoryPath + "/.build/browser-venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script),
              Bench.which("chromium") != nil else {
            log("picker: skipped (run from the project folder after scripts/install-browser-deps.sh)")
            return
        }
        let dir = try Bench.scratchFolder("seatmap-bench-picker-")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Files.writeAtomically(HallFormat.encodeText(hall), to: dir.appendingPathComponent("\(name).json").path)
        let service = try SeatMapHTTPService(halls: dir.path, inventory: MemoryInventoryStore(), port: 0, workers: 2)
        defer { service.stop() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [script, "--base", "http://127.0.0.1:\(service.port)", "--hall", name] + (quick ? ["--loads", "1", "--seconds", "1"] : [])
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let line = String(data: data, encoding: .utf8)?.split(separator: "\n").last,
              let json = try? JSONParser.parse(Array(line.utf8)) else {
            log("picker: picker_perf.py failed (exit \(p.terminationStatus))")
            return
        }
        func number(_ key: String) -> Double {
            if case .number(let n)? = json[key]?.value { return Double(n) ?? 0 }
            return 0
        }
        func once(_ v: Double, _ unit: String) -> Stat { Stat(median: v, min: v, max: v, unit: unit) }
        let page = number("pageBytes") / 1024, statuses = number("statusBytes") / 1024
        add(name, "picker page, gzipped", once(page, "KB"))
        add(name, "picker statuses, gzipped", once(statuses, "KB"))
        add(name, "picker first contentful paint (headless Chromium, median of 5)", once(number("fcpMs"), "ms"))
        add(name, "picker panning at twice the fitted scale", once(number("fpsOverview"), "fps"),
            "worst frame \(fmt(number("worstFrameOverviewMs"))) ms, after the drop \(fmt(number("worstFrameAfterDropOverviewMs"))) ms")
        add(name, "picker panning with seats drawn (8 px)", once(number("fpsSeats"), "fps"),
            "worst frame \(fmt(number("worstFrameSeatsMs"))) ms, after the drop \(fmt(number("worstFrameAfterDropSeatsMs"))) ms")
        add(name, "picker panning at a readable zoom (seats of 24 px, numbers drawn)", once(number("fpsReadable"), "fps"),
            "worst frame \(fmt(number("worstFrameReadableMs"))) ms, after the drop \(fmt(number("worstFrameAfterDropReadableMs"))) ms")
        target("\(name) picker page + statuses gzipped (KB)", page + statuses, "≤ 400", page + statuses <= 400)
        target("\(name) picker first contentful paint (ms)", number("fcpMs"), "≤ 500", number("fcpMs") <= 500)
        target("\(name) picker panning zoomed out (fps)", number("fpsOverview"), "≥ 55", number("fpsOverview") >= 55)
        target("\(name) picker panning at a readable zoom (fps)", number("fpsReadable"), "≥ 50", number("fpsReadable") >= 50)
    }
}
