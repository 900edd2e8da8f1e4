import Foundation
import SeatMapCore
import SeatMapGolden
import SeatMapRender
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// How a value becomes a snapshot: a PNG compared pixel by pixel (with
/// gates and ignored regions), or text compared exactly (an SVG, a
/// layout's JSON). Strategies are values: `.png(theme:zoom:scale:)`,
/// `.svg(…)`, `.layoutJSON(…)` for a hall, and `pullback` makes one for
/// your own type from a hall's.
///
/// ```swift
/// assertSeatMapSnapshot(of: hall, as: .png(zoom: 2), named: "hall-z2")
/// assertSeatMapSnapshot(of: venue, as: Snapshotting.png().pullback { $0.hall }, named: "venue")
/// ```
public struct Snapshotting<Value>: Sendable {

    /// The reference file's extension (`png`, `svg`, `json`).
    public var pathExtension: String
    /// Makes the snapshot of a value.
    public var make: @Sendable (Value) throws -> SnapshotContent

    public init(pathExtension: String, make: @escaping @Sendable (Value) throws -> SnapshotContent) {
        self.pathExtension = pathExtension
        self.make = make
    }

    /// The same strategy for another type, through a way to get this one's value from it.
    public func pullback<Other>(_ transform: @escaping @Sendable (Other) throws -> Value) -> Snapshotting<Other> {
        let make = self.make
        return Snapshotting<Other>(pathExtension: pathExtension) { try make(transform($0)) }
    }
}

/// What a strategy makes of a value.
public enum SnapshotContent {
    /// A rendering, with the environment it depends on (recorded beside the reference).
    case image(RasterImage, gates: DiffGates, comparison: PixelMatch.Options, environment: [String: String])
    /// Text compared byte for byte.
    case text(String)
}

/// Compares a value's snapshot with its reference,
/// `__Snapshots__/<TestFile>/<name>.<ext>` beside the calling file, and
/// records a test issue at the call's file and line when it differs or
/// was recorded (Swift Testing) or a failure (XCTest). Never throws: a
/// value that cannot be drawn is a failure too.
public func assertSeatMapSnapshot<Value>(of value: @autoclosure () throws -> Value, as strategy: Snapshotting<Value>, named name: String,
                                         record: GoldenFile.RecordMode? = nil, fileID: String = #fileID, filePath: StaticString = #filePath,
                                         line: UInt = #line, column: UInt = #column) {
    let file = "\(filePath)"
    let message: String?
    do {
        message = try SnapshotCheck.verify(try strategy.make(value()), pathExtension: strategy.pathExtension, named: name, testFile: file,
                                           mode: record ?? SnapshotRecording.mode ?? .fromEnvironment)
    } catch {
        message = "\(name): could not make the snapshot: \(error)"
    }
    guard let message else { return }
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(fileID: fileID, filePath: file, line: Int(line), column: Int(column)))
        return
    }
    #endif
    #if canImport(XCTest)
    XCTFail(message, file: filePath, line: line)
    #else
    FileHandle.standardError.write(Data("\(file):\(line): \(message)\n".utf8))
    #endif
}
