import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender

extension SeatMapCLI {
    static let zoomOption = CommandSpec.Option.value("zoom", "Z", "Zoom, 0.25…8 (default 1).")
    static let scaleOption = CommandSpec.Option.value("scale", "S", "Device pixels per point, 1…4 (default 2).")

    /// The flags every command that draws, reports rects or hit-tests takes,
    /// read by `geometry(_:)`: the same flags give the same layout in
    /// `render`, `layout`, `hit` and `apply`.
    static let geometryOptions: [CommandSpec.Option] = [
        .value("theme", "NAME|PATH", "light (default), dark, print, high-contrast, or a theme file (its metrics are part of the geometry)."),
        zoomOption,
        .value("fit", "W,H", "Instead of --zoom: choose the seat width (28…36 pt) and the largest zoom that show the whole hall in a W×H pt viewport."),
        scaleOption,
        .flag("no-header", "Leave out the header."),
        .flag("no-legend", "Leave out the legend."),
        .flag("legend-all", "List every seat type in the legend (default: only the types the hall has; statuses are always listed)."),
        .value("level", "N", "A free venue's level N only (default: every level, stacked, each titled)."),
        localeOption,
    ]

    static let localeOption = CommandSpec.Option.value(
        "locale", "TAG", "Language of words and prices (BCP 47: zh-Hans, zh-Hant, en, de, fr, es, ja, ko, ar, he; default: the hall's, else zh-Hans).")

    /// `--locale`, read (nil when not given: the hall's locale applies).
    static func locale(_ a: Arguments) throws -> SeatMapLocale? {
        guard let tag = a.value("locale") else { return nil }
        do { return try SeatMapLocale.named(tag) } catch { throw UsageError(message: "--locale: \(error.message)") }
    }

    /// The locale for a hall's words: `--locale`, else the hall's, else zh-Hans.
    static func locale(_ a: Arguments, for hall: Hall) throws -> SeatMapLocale {
        try locale(a) ?? hall.locale.flatMap { try? SeatMapLocale.named($0) } ?? .standard
    }

    /// What the geometry flags say: the theme (whose style is the layout's,
    /// with the header and legend switched off as asked), zoom or fit, scale.
    struct Geometry {
        var theme: Theme
        var zoom: Double
        var scale: Double
        /// `--fit W,H` in points: the zoom and seat width are chosen per hall.
        var fit: (Double, Double)?

        /// The theme's style with `--no-header` / `--no-legend` applied.
        var style: LayoutStyle { theme.style }

        /// The one way the CLI builds a layout. With `--fit`, also returns
        /// the chosen seat width and zoom.
        func layout(_ hall: Hall) throws -> (layout: Layout, fitted: Fit.Result?) {
            guard let fit else { return (try Layout(hall: hall, style: style, zoom: zoom, scale: scale), nil) }
            let result = try Fit.fit(hall: hall, viewportWidth: fit.0, viewportHeight: fit.1, style: style, scale: scale)
            return (try Layout(hall: hall, style: result.style, zoom: result.zoom, scale: scale), result)
        }
    }

    /// Zoom and scale from the options, checked against the layout's ranges.
    static func zoomAndScale(_ a: Arguments) throws(UsageError) -> (Double, Double) {
        (try a.double("zoom", default: 1, in: Layout.zoomRange), try a.double("scale", default: 2, in: Layout.scaleRange))
    }

    /// Reads the geometry flags (see `geometryOptions`).
    static func geometry(_ a: Arguments) throws -> Geometry {
        let (zoom, scale) = try zoomAndScale(a)
        let fit = try a.pair("fit")
        if let fit {
            if a.value("zoom") != nil { throw UsageError(message: "use either --zoom or --fit") }
            guard fit.0 > 0, fit.1 > 0 else { throw UsageError(message: "--fit expects a positive width and height") }
        }
        var theme = try Theme.load(a.value("theme") ?? "light")
        theme.style = theme.style.with(header: !a.flag("no-header"), legend: !a.flag("no-legend"))
        theme.style.legendAll = a.flag("legend-all")
        if a.value("level") != nil { theme.style.level = try a.int("level", in: 0...99) }
        theme.style.locale = try locale(a)
        return Geometry(theme: theme, zoom: zoom, scale: scale, fit: fit)
    }
}
