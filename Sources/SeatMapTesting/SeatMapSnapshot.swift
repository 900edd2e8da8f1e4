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

/// Snapshot tests of seat maps for other packages: render a hall with a
/// theme and compare it with a reference PNG kept next to the test file,
/// `__Snapshots__/<TestFile>/<name>.png`, with a `.json` sidecar recording
/// the environment it was made in (SeatMap, Cairo, libpng, fontconfig and
/// the font file), so a failure on another machine says so first.
///
/// ```swift
/// import SeatMapTesting
/// @Test func myTheme() throws {
///     let hall = try Files.readHall("Fixtures/hall.json")
///     let theme = try Theme.search("Fixtures/brand.json")
///     try assertSeatMapSnapshot(of: hall, theme: theme, named: "brand-z1")
/// }
/// ```
public struct SeatMapSnapshot: Sendable {
    public var zoom: Double = 1
    public var scale: Double = Layout.defaultScale
    /// A phone viewport: width, height and content offset, in points.
    public var viewport: (w: Double, h: Double, x: Double, y: Double)? = nil
    public var selected: Set<SeatID> = []
    public var highlighted: Set<SeatID> = []
    public var header = true
    public var legend = true
    /// pixelmatch's threshold, and regions left out of the comparison.
    public var comparison = PixelMatch.Options()
    /// The gates (none: any differing pixel fails).
    public var gates = DiffGates()
    /// Record mode; nil: `SEATMAP_RECORD` (all, missing, failed, never; default missing).
    public var record: GoldenFile.RecordMode? = nil

    public init(zoom: Double = 1, scale: Double = Layout.defaultScale) {
        self.zoom = zoom
        self.scale = scale
    }

    /// The environment a rendering depends on, as the sidecar records it.
    public static func fingerprint(theme: Theme) -> [String: String] {
        let font = try? FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage)
        let file = font?.file ?? ""
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int).flatMap { $0 }
        var out = ["seatmap": SeatMap.version, "font": theme.fontFamily, "fontFile": (file as NSString).lastPathComponent,
                   "fontBytes": size.map(String.init) ?? "?"]
        for (name, version) in CairoLibrary.linkedVersions { out[name] = version }
        return out
    }

    /// Renders and compares; nil when it matches, else the failure message
    /// (a recording is a failure too, so nobody records by accident).
    public func verify(_ hall: Hall, theme: Theme, named name: String, testFile: String) throws -> String? {
        let scene = try GeometryOptions(theme: theme, zoom: zoom, scale: scale, header: header, legend: legend)
            .scene(for: hall, selected: selected, highlighted: highlighted)
        let transform = viewport.map {
            ViewTransform(layout: scene.layout, viewportWidth: $0.w, viewportHeight: $0.h, offsetX: $0.x, offsetY: $0.y)
        }
        let raster = try Renderer.raster(scene, viewport: transform)
        return try SnapshotCheck.verify(.image(raster, gates: gates, comparison: comparison, environment: SeatMapSnapshot.fingerprint(theme: theme)),
                                        pathExtension: "png", named: name, testFile: testFile, mode: record ?? .fromEnvironment)
    }

    static func writeSidecar(_ fingerprint: [String: String], to path: String) throws {
        let json = JSONNode.object(fingerprint.keys.sorted().map { ($0, JSONNode.string(fingerprint[$0] ?? "")) })
        try Files.writeAtomically(JSONWriter.write(json), to: path)
    }
}

/// Swift Testing and XCTest: records an issue (or a failure) with the
/// message when the snapshot does not match or was recorded.
public func assertSeatMapSnapshot(of hall: Hall, theme: Theme, named name: String, _ snapshot: SeatMapSnapshot = SeatMapSnapshot(),
                                  filePath: String = #filePath, line: Int = #line) throws {
    guard let message = try snapshot.verify(hall, theme: theme, named: name, testFile: filePath) else { return }
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(fileID: "\(filePath)", filePath: filePath, line: line, column: 1))
        return
    }
    #endif
    #if canImport(XCTest)
    XCTFail(message)
    #else
    throw SeatMapError(.init(verbatim: message))
    #endif
}
