import SeatMapGolden
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Record modes beyond the environment's `SEATMAP_RECORD`: per call
/// (`record:`), or for everything a body runs (`SnapshotRecording.$mode`,
/// or a suite's `.snapshots(record:)` trait).
public enum SnapshotRecording {
    @TaskLocal public static var mode: GoldenFile.RecordMode? = nil
}

#if canImport(Testing)
/// `@Suite(.snapshots(record: .all))`: the record mode for every snapshot of a suite or test.
public struct SnapshotRecordTrait: SuiteTrait, TestTrait, TestScoping {
    public var mode: GoldenFile.RecordMode
    public var isRecursive: Bool { true }
    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await SnapshotRecording.$mode.withValue(mode) { try await function() }
    }
}

extension Trait where Self == SnapshotRecordTrait {
    public static func snapshots(record mode: GoldenFile.RecordMode) -> Self { SnapshotRecordTrait(mode: mode) }
}
#endif
