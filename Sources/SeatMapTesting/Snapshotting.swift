import Foundation
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
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

/// A phone-sized window onto the drawing: its size and the content offset, in points.
public struct SnapshotViewport: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var x: Double
    public var y: Double
    public init(width: Double, height: Double, x: Double = 0, y: Double = 0) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }
}

extension Snapshotting where Value == Hall {
    /// The hall drawn as a PNG (the built-in light theme unless one is
    /// given; zoom 1, scale 2, as `seatmap render` draws by default),
    /// compared pixel by pixel: any differing pixel fails unless `gates`
    /// allow it; `comparison` sets pixelmatch's threshold and ignored regions.
    public static func png(theme: Theme? = nil, zoom: Double = GeometryOptions.defaultZoom, scale: Double = Layout.defaultScale,
                           locale: SeatMapLocale? = nil, header: Bool = true, legend: Bool = true, viewport: SnapshotViewport? = nil,
                           selected: Set<SeatID> = [], highlighted: Set<SeatID> = [],
                           gates: DiffGates = DiffGates(), comparison: PixelMatch.Options = PixelMatch.Options()) -> Snapshotting {
        Snapshotting(pathExtension: "png") { hall in
            let geometry = try GeometryOptions(theme: theme, zoom: zoom, scale: scale, header: header, legend: legend, locale: locale)
            return try png(geometry, viewport: viewport, selected: selected, highlighted: highlighted, gates: gates, comparison: comparison)
                .make(hall)
        }
    }

    /// The hall drawn as a PNG in a geometry of your own (the typed group
    /// `seatmap render`'s geometry flags fill: theme, zoom or fit, scale,
    /// header, legend, level, locale).
    public static func png(_ geometry: GeometryOptions, viewport: SnapshotViewport? = nil,
                           selected: Set<SeatID> = [], highlighted: Set<SeatID> = [],
                           gates: DiffGates = DiffGates(), comparison: PixelMatch.Options = PixelMatch.Options()) -> Snapshotting {
        Snapshotting(pathExtension: "png") { hall in
            let scene = try geometry.scene(for: hall, selected: selected, highlighted: highlighted)
            let transform = viewport.map {
                ViewTransform(layout: scene.layout, viewportWidth: $0.width, viewportHeight: $0.height, offsetX: $0.x, offsetY: $0.y)
            }
            return .image(try Renderer.raster(scene, viewport: transform), gates: gates, comparison: comparison,
                          environment: SeatMapSnapshot.fingerprint(theme: geometry.theme))
        }
    }

    /// The hall as SVG text (one `<g id="seat-…">` per seat), compared exactly.
    public static func svg(theme: Theme? = nil, zoom: Double = GeometryOptions.defaultZoom, scale: Double = Layout.defaultScale,
                           locale: SeatMapLocale? = nil, header: Bool = true, legend: Bool = true, selected: Set<SeatID> = []) -> Snapshotting {
        Snapshotting(pathExtension: "svg") { hall in
            let geometry = try GeometryOptions(theme: theme, zoom: zoom, scale: scale, header: header, legend: legend, locale: locale)
            return try svg(geometry, selected: selected).make(hall)
        }
    }

    /// The hall as SVG text in a geometry of your own.
    public static func svg(_ geometry: GeometryOptions, selected: Set<SeatID> = []) -> Snapshotting {
        Snapshotting(pathExtension: "svg") { hall in .text(try Renderer.svg(geometry.scene(for: hall, selected: selected))) }
    }

    /// Every rect of the hall's layout as `seatmap layout --json` prints
    /// them (pretty, one member a line), compared exactly: a geometry
    /// snapshot that no font or rasteriser can shift.
    public static func layoutJSON(theme: Theme? = nil, zoom: Double = GeometryOptions.defaultZoom, scale: Double = Layout.defaultScale,
                                  locale: SeatMapLocale? = nil, header: Bool = true, legend: Bool = true) -> Snapshotting {
        Snapshotting(pathExtension: "json") { hall in
            let geometry = try GeometryOptions(theme: theme, zoom: zoom, scale: scale, header: header, legend: legend, locale: locale)
            return try layoutJSON(geometry).make(hall)
        }
    }

    /// The layout's rects as JSON in a geometry of your own.
    public static func layoutJSON(_ geometry: GeometryOptions) -> Snapshotting {
        Snapshotting(pathExtension: "json") { hall in .text(JSONWriter.write(LayoutJSON.json(try geometry.layout(for: hall).layout))) }
    }
}

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

/// The comparison behind `assertSeatMapSnapshot(of:as:named:)`.
enum SnapshotCheck {
    /// Nil when the snapshot matches; else why not (a recording is a failure too).
    static func verify(_ made: SnapshotContent, pathExtension: String, named name: String, testFile: String,
                              mode: GoldenFile.RecordMode) throws -> String? {
        let testURL = URL(fileURLWithPath: testFile)
        let folder = testURL.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testURL.deletingPathExtension().lastPathComponent).path
        let artifacts = GoldenFile.artifactsFolder(default: FileManager.default.temporaryDirectory
            .appendingPathComponent("seatmap-snapshot-artifacts-\(getuid())").path)
        switch made {
        case .image(let raster, let gates, let comparison, let environment):
            let image = RGBAImage(width: raster.width, height: raster.height, pixels: raster.rgbaPixels())
            let sidecar = (folder as NSString).appendingPathComponent(name + ".json")
            let then = (try? Data(contentsOf: URL(fileURLWithPath: sidecar)))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }
            switch try GoldenFile.check(image, png: { try raster.pngData(compression: .best) }, name: name, folder: folder,
                                        artifacts: artifacts, mode: mode, gates: gates, options: comparison) {
            case .matched: return nil
            case .recorded(let message):
                try SeatMapSnapshot.writeSidecar(environment, to: sidecar)
                return message
            case .mismatch(let message):
                guard let then, then != environment else { return message }
                let changes = Set(then.keys).union(environment.keys).sorted().compactMap { key -> String? in
                    then[key] == environment[key] ? nil : "\(key) \(then[key] ?? "-") → \(environment[key] ?? "-")"
                }
                return "The environment differs from the one the reference was recorded in (\(changes.joined(separator: ", "))); "
                    + "the difference may come from it.\n" + message
            }
        case .text(let text):
            let reference = (folder as NSString).appendingPathComponent("\(name).\(pathExtension)")
            let old = try? String(contentsOfFile: reference, encoding: .utf8)
            func record(_ why: String) throws -> String {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Files.writeAtomically(text, to: reference)
                return "\(reference) \(why). Look at it, then re-run to assert against it."
            }
            guard let old else {
                return mode == .never ? "\(reference) is missing (SEATMAP_RECORD=never)" : try record("was missing and has been recorded")
            }
            if mode == .all { return try record("was re-recorded (record mode all)") }
            if old == text { return nil }
            let a = old.components(separatedBy: "\n"), b = text.components(separatedBy: "\n")
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
            let actual = (artifacts as NSString).appendingPathComponent("\(name)-actual.\(pathExtension)")
            try Files.writeAtomically(text, to: actual)
            if mode == .failed { return try record("did not match and was re-recorded (record mode failed)") }
            let was = first < a.count ? a[first] : "(the end)", now = first < b.count ? b[first] : "(the end)"
            return "\(name).\(pathExtension) differs from its reference from line \(first + 1):\n  was: \(was.prefix(200))\n  now: \(now.prefix(200))\nActual: \(actual)"
        }
    }
}
