import Foundation
import Testing
import XCTest
import SeatMapCore
import SeatMapGolden
import SeatMapRender
@testable import SeatMapTesting
import SeatMapTestSupport

/// A type of the caller's own, snapshot through a hall's strategy.
struct Venue: Sendable {
    var name: String
    var hall: Hall
}

/// Snapshot strategies as values (`.png`, `.svg`, `.layoutJSON`,
/// `pullback`), failures at the caller's line, record modes per call, per
/// test and from the environment. The references are beside this file.
@Suite("Snapshot strategies (SeatMapTesting)")
struct SnapshottingTests {
    static let seed: Hall? = try? Fixtures.example("seed.json")

    @Test("a hall as PNG, SVG and layout JSON matches its references; a type of one's own through pullback")
    func strategies() throws {
        let hall = try #require(Self.seed)
        assertSeatMapSnapshot(of: hall, as: .png(zoom: 1, scale: 1), named: "seed-png")
        assertSeatMapSnapshot(of: hall, as: .png(theme: try Theme.builtIn("dark"), zoom: 2, scale: 1, locale: try SeatMapLocale.named("en"),
                                                 viewport: SnapshotViewport(width: 240, height: 160, x: 120, y: 190), selected: ["1-2-2"]),
                              named: "seed-dark-phone")
        assertSeatMapSnapshot(of: hall, as: .svg(), named: "seed-svg")
        assertSeatMapSnapshot(of: hall, as: .layoutJSON(), named: "seed-layout")
        let venue = Venue(name: "Seed", hall: hall)
        assertSeatMapSnapshot(of: venue, as: Snapshotting.layoutJSON().pullback { $0.hall }, named: "seed-layout")
    }

    @Test("a difference is an issue at the line of the call, naming the first line that differs")
    func issueAtCall() throws {
        let hall = try #require(Self.seed)
        let line = #line + 2
        withKnownIssue {
            assertSeatMapSnapshot(of: hall, as: .layoutJSON(zoom: 2), named: "seed-layout")
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "SnapshottingTests.swift"
                && "\(issue.comments)".contains("seed-layout.json differs from its reference from line 2")
        }
        // A hall that cannot be drawn is an issue too, not a throw.
        withKnownIssue {
            assertSeatMapSnapshot(of: hall, as: .png(zoom: 1_000_000), named: "huge")
        } matching: { "\($0.comments)".contains("could not make the snapshot") }
    }

    @Test("a test's trait sets the record mode: with never, a missing reference fails and nothing is written",
          .snapshots(record: .never))
    func traitRecordMode() throws {
        let hall = try #require(Self.seed)
        withKnownIssue {
            assertSeatMapSnapshot(of: hall, as: .layoutJSON(), named: "never-recorded")
        } matching: { "\($0.comments)".contains("is missing (SEATMAP_RECORD=never)") }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__/SnapshottingTests")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never-recorded.json").path))
    }

    @Test("text references: recorded when missing, matched, a change named by its line, re-recorded on request")
    func textLifecycle() throws {
        let hall = try #require(Self.seed)
        let dir = try Fixtures.tempFolder()
        let testFile = dir.appendingPathComponent("MyTests.swift").path
        let layout = try Snapshotting<Hall>.layoutJSON().make(hall)
        let other = try Snapshotting<Hall>.layoutJSON(zoom: 3).make(hall)
        func verify(_ c: SnapshotContent, _ mode: GoldenFile.RecordMode) throws -> String? {
            try SnapshotCheck.verify(c, pathExtension: "json", named: "l", testFile: testFile, mode: mode)
        }
        #expect(try verify(layout, .missing)?.contains("was missing and has been recorded") == true)
        #expect(try verify(layout, .missing) == nil)
        #expect(try verify(other, .never)?.contains("differs from its reference from line 2") == true)
        #expect(try verify(other, .failed)?.contains("re-recorded") == true)
        #expect(try verify(other, .never) == nil, "the new reference")
        #expect(try verify(layout, .all)?.contains("re-recorded") == true)
        #expect(try SnapshotCheck.verify(layout, pathExtension: "json", named: "gone", testFile: testFile, mode: .never)?.contains("is missing") == true)
        // SnapshotRecording.$mode sets it for a whole body.
        try SnapshotRecording.$mode.withValue(.never) { () throws -> Void in
            #expect(SnapshotRecording.mode == .never)
            #expect(try verify(layout, SnapshotRecording.mode ?? .missing) == nil)
        }
    }
}

/// The same strategies from XCTest: a match passes; a difference is a
/// failure at the line of the call.
final class SnapshottingXCTests: XCTestCase {
    private var failures: [(String, Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing { failures.append((description, lineNumber)) } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testMatchesAndFailsAtTheCall() throws {
        let hall = try XCTUnwrap(SnapshottingTests.seed)
        // This file's references, the Swift Testing suite's.
        assertSeatMapSnapshot(of: hall, as: .layoutJSON(), named: "seed-layout")
        capturing = true
        let line = #line + 1
        assertSeatMapSnapshot(of: hall, as: .layoutJSON(zoom: 2), named: "seed-layout")
        capturing = false
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.1, line)
        XCTAssertTrue(failures.first?.0.contains("differs from its reference from line 2") ?? false, "\(failures)")
    }
}
