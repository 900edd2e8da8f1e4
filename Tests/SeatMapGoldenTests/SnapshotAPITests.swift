import Foundation
import Testing
import SeatMapCore
import SeatMapGolden
import SeatMapRender
@testable import SeatMapTesting
import SeatMapTestSupport

/// The snapshot API other packages use: records when asked, matches, and
/// fails with a useful message when a theme changes.
@Suite("Snapshot API (SeatMapTesting)")
struct SnapshotAPITests {
    @Test("records a missing reference (and fails), then matches, then fails on a changed colour, naming the artefacts")
    func lifecycle() throws {
        let dir = try Fixtures.tempFolder()
        let testFile = dir.appendingPathComponent("MyThemeTests.swift").path
        let hall = try Fixtures.example("seed.json")
        var theme = try Theme.builtIn("light")
        /// What `assertSeatMapSnapshot(of: hall, as: .png(…), named:, record:)` would record as its issue.
        func verify(_ mode: GoldenFile.RecordMode, _ named: String = "seed", scale: Double = 1, gates: DiffGates = DiffGates()) throws -> String? {
            let strategy = Snapshotting<Hall>.png(theme: theme, zoom: 1, scale: scale, gates: gates)
            return try SnapshotCheck.verify(try strategy.make(hall), pathExtension: strategy.pathExtension, named: named, testFile: testFile, mode: mode)
        }
        let first = try #require(try verify(.missing))
        #expect(first.contains("was missing and has been recorded"))
        let reference = dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.png").path
        #expect(FileManager.default.fileExists(atPath: reference))
        let sidecar = try String(contentsOfFile: dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.json").path, encoding: .utf8)
        #expect(sidecar.contains("\"cairo\": \"\(CairoLibrary.version)\"") && sidecar.contains("\"fontFile\""))
        #expect(try verify(.missing) == nil, "matches its own recording")

        theme.tierPalette[0] = Color(r: 0.8, g: 0.1, b: 0.1)
        let changed = try #require(try verify(.missing))
        #expect(changed.contains("differing pixels") && changed.contains("FAIL: max-diff-pixels"), "\(changed)")
        #expect(changed.contains("seed-diff.png") && changed.contains("seed-composite.png"), "names the artefacts")
        // The review page `seatmap diff --report` writes, for this pair: old, new and diff embedded, the gate that failed.
        let reportPath = try #require(changed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasSuffix("seed-report.html") }, "names the report: \(changed)")
        let report = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(report.contains("<h3 id=\"c0\">seed</h3>") && report.contains("Fails: max-diff-pixels"), "\(report.prefix(2000))")
        #expect(report.components(separatedBy: "src=\"data:image/png;base64,").count - 1 == 5, "old and new in the slider, then old, new and diff")
        #expect(report.contains(reference), "names the reference")
        // A gate loose enough passes.
        #expect(try verify(.missing, gates: DiffGates(maxDiffRatio: 0.5)) == nil)

        // A sidecar from another environment is named first.
        try #"{"cairo": "0.9.0", "seatmap": "0.0.1"}"#.write(toFile: dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.json").path,
                                                             atomically: true, encoding: .utf8)
        let elsewhere = try #require(try verify(.missing))
        #expect(elsewhere.hasPrefix("The environment differs from the one the reference was recorded in (cairo 0.9.0 → \(CairoLibrary.version)"))

        // Record mode `failed` rewrites the reference; then it matches.
        #expect(try verify(.failed)?.contains("re-recorded") == true)
        #expect(try verify(.never) == nil)
        // A change of size fails, and `failed` re-records it too.
        #expect(try verify(.never, scale: 2)?.contains("size changed") == true)
        #expect(try verify(.failed, scale: 2)?.contains("changed size") == true)
        #expect(try verify(.never, scale: 2) == nil, "the new size is the reference")
        #expect(try verify(.never, "other")?.contains("is missing (SEATMAP_RECORD=never)") == true)
    }
}
