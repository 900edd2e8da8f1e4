import Foundation
import Testing
import SeatMapCore
import SeatMapGolden
import SeatMapRender
import SeatMapTesting
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
        var theme = try Theme.search("light")
        var snapshot = SeatMapSnapshot(zoom: 1, scale: 1)
        snapshot.record = .missing
        let first = try #require(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile))
        #expect(first.contains("was missing and has been recorded"))
        let reference = dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.png").path
        #expect(FileManager.default.fileExists(atPath: reference))
        let sidecar = try String(contentsOfFile: dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.json").path, encoding: .utf8)
        #expect(sidecar.contains("\"cairo\": \"\(CairoLibrary.version)\"") && sidecar.contains("\"fontFile\""))
        #expect(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile) == nil, "matches its own recording")

        theme.tierPalette[0] = Color(r: 0.8, g: 0.1, b: 0.1)
        let changed = try #require(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile))
        #expect(changed.contains("differing pixels") && changed.contains("FAIL: max-diff-pixels"), "\(changed)")
        #expect(changed.contains("seed-diff.png") && changed.contains("seed-composite.png"), "names the artefacts")
        // A gate loose enough passes; ignoring the seats' region passes too.
        var loose = snapshot
        loose.gates = DiffGates(maxDiffRatio: 0.5)
        #expect(try loose.verify(hall, theme: theme, named: "seed", testFile: testFile) == nil)

        // A sidecar from another environment is named first.
        try #"{"cairo": "0.9.0", "seatmap": "0.0.1"}"#.write(toFile: dir.appendingPathComponent("__Snapshots__/MyThemeTests/seed.json").path,
                                                             atomically: true, encoding: .utf8)
        let elsewhere = try #require(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile))
        #expect(elsewhere.hasPrefix("The environment differs from the one the reference was recorded in (cairo 0.9.0 → \(CairoLibrary.version)"))

        // Record mode `failed` rewrites the reference; then it matches.
        snapshot.record = .failed
        #expect(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile)?.contains("re-recorded") == true)
        snapshot.record = .never
        #expect(try snapshot.verify(hall, theme: theme, named: "seed", testFile: testFile) == nil)
        // A change of size fails, and `failed` re-records it too.
        var bigger = snapshot
        bigger.scale = 2
        #expect(try bigger.verify(hall, theme: theme, named: "seed", testFile: testFile)?.contains("size changed") == true)
        bigger.record = .failed
        #expect(try bigger.verify(hall, theme: theme, named: "seed", testFile: testFile)?.contains("changed size") == true)
        bigger.record = .never
        #expect(try bigger.verify(hall, theme: theme, named: "seed", testFile: testFile) == nil, "the new size is the reference")
        #expect(try snapshot.verify(hall, theme: theme, named: "other", testFile: testFile)?.contains("is missing (SEATMAP_RECORD=never)") == true)
    }
}
