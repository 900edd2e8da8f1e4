import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender

/// The geometry option group: the flags every face that draws, reports
/// rects or hit-tests takes. The same values give the same layout in
/// `render`, `layout`, `hit`, `apply` and every HTTP endpoint.
package enum GeometryOptions {
    package static let zoomOption = CommandSpec.Option.value("zoom", "Z", "Zoom, 0.25…8 (default 1).")
    package static let scaleOption = CommandSpec.Option.value("scale", "S", "Device pixels per point, 1…4 (default 2).")

    /// The options, read by `Geometry(_:)`.
    package static let all: [CommandSpec.Option] = [
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

    package static let localeOption = CommandSpec.Option.value(
        "locale", "TAG", "Language of words and prices (BCP 47: zh-Hans, zh-Hant, en, de, fr, es, ja, ko, ar, he; default: the hall's, else zh-Hans).")

    /// `--locale`, read (nil when not given: the hall's locale applies).
    package static func locale(_ a: Arguments) throws -> SeatMapLocale? {
        guard let tag = a.value("locale") else { return nil }
        do { return try SeatMapLocale.named(tag) } catch { throw UsageError(message: "--locale: \(error.message)") }
    }

    /// The locale for a hall's words: `--locale`, else the hall's, else zh-Hans.
    package static func locale(_ a: Arguments, for hall: Hall) throws -> SeatMapLocale {
        try locale(a) ?? hall.locale.flatMap { try? SeatMapLocale.named($0) } ?? .standard
    }
}

/// What the geometry options say: the theme (whose style is the layout's,
/// with the header and legend switched off as asked), zoom or fit, scale.
package struct Geometry {
    package var theme: Theme
    package var zoom: Double
    package var scale: Double
    /// `--fit W,H` in points: the zoom and seat width are chosen per hall.
    package var fit: (Double, Double)?

    /// The theme's style with `--no-header` / `--no-legend` applied.
    package var style: LayoutStyle { theme.style }

    /// The one way a face builds a layout. With `--fit`, also returns the
    /// chosen seat width and zoom.
    package func layout(_ hall: Hall) throws -> (layout: Layout, fitted: Fit.Result?) {
        guard let fit else { return (try Layout(hall: hall, style: style, zoom: zoom, scale: scale), nil) }
        let result = try Fit.fit(hall: hall, viewportWidth: fit.0, viewportHeight: fit.1, style: style, scale: scale)
        return (try Layout(hall: hall, style: result.style, zoom: result.zoom, scale: scale), result)
    }

    /// Zoom and scale from the options, checked against the layout's ranges.
    package static func zoomAndScale(_ a: Arguments) throws(UsageError) -> (Double, Double) {
        (try a.double("zoom", default: 1, in: Layout.zoomRange), try a.double("scale", default: Layout.defaultScale, in: Layout.scaleRange))
    }

    /// Reads the geometry options (see `GeometryOptions.all`).
    package init(_ a: Arguments) throws {
        let (zoom, scale) = try Geometry.zoomAndScale(a)
        let fit = try a.pair("fit")
        if let fit {
            if a.value("zoom") != nil { throw UsageError(message: "use either --zoom or --fit") }
            guard fit.0 > 0, fit.1 > 0 else { throw UsageError(message: "--fit expects a positive width and height") }
        }
        var theme = try Theme.load(a.value("theme") ?? "light")
        theme.style = theme.style.with(header: !a.flag("no-header"), legend: !a.flag("no-legend"))
        theme.style.legendAll = a.flag("legend-all")
        if a.value("level") != nil { theme.style.level = try a.int("level", in: 0...99) }
        theme.style.locale = try GeometryOptions.locale(a)
        self.init(theme: theme, zoom: zoom, scale: scale, fit: fit)
    }

    package init(theme: Theme, zoom: Double, scale: Double, fit: (Double, Double)?) {
        self.theme = theme
        self.zoom = zoom
        self.scale = scale
        self.fit = fit
    }
}
