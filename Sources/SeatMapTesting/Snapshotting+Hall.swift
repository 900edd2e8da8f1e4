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
                          environment: SnapshotEnvironment.fingerprint(theme: geometry.theme))
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
