import SeatMapCore
import SeatMapLayout

/// The geometry option group, typed: what decides where every seat is
/// drawn (the theme's metrics, zoom or fit, scale, header, legend, level,
/// locale). The CLI's geometry flags, the HTTP service's query
/// parameters, the snapshot strategies and the benchmark all fill one of
/// these, and every layout that is drawn is built by `layout(for:)`, so
/// the same values give the same seats everywhere.
public struct GeometryOptions: Sendable {
    /// The zoom when none is given.
    public static let defaultZoom: Double = 1
    /// Allowed zooms and scales (the layout's own).
    public static var zoomRange: ClosedRange<Double> { Layout.zoomRange }
    public static var scaleRange: ClosedRange<Double> { Layout.scaleRange }
    /// Allowed levels.
    public static let levelRange: ClosedRange<Int> = 0...99

    /// A viewport, in points, that the hall is fitted into.
    public struct FitBox: Sendable, Equatable {
        public var width: Double
        public var height: Double
        public init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// The theme (its metrics are part of the geometry).
    public var theme: Theme
    public var zoom: Double
    public var scale: Double
    /// Instead of `zoom`: the seat width (28…36 pt) and the largest zoom
    /// that show the whole hall in this viewport.
    public var fit: FitBox?
    public var header: Bool
    public var legend: Bool
    /// Every seat type in the legend, not only the hall's.
    public var legendAll: Bool
    /// A free venue's level only (nil: every level, stacked).
    public var level: Int?
    /// The words' and prices' language (nil: the hall's, else zh-Hans).
    public var locale: SeatMapLocale?

    /// The built-in light theme at zoom 1, scale 2, with header and legend,
    /// unless told otherwise: what `seatmap render` draws by default.
    public init(theme: Theme? = nil, zoom: Double = GeometryOptions.defaultZoom, scale: Double = Layout.defaultScale,
                fit: FitBox? = nil, header: Bool = true, legend: Bool = true, legendAll: Bool = false,
                level: Int? = nil, locale: SeatMapLocale? = nil) throws(SeatMapError) {
        let theme: Theme = if let theme { theme } else { try Theme.builtIn("light") }
        self.init(checkedTheme: theme, zoom: zoom, scale: scale, fit: fit, header: header,
                  legend: legend, legendAll: legendAll, level: level, locale: locale)
        try check()
    }

    init(checkedTheme theme: Theme, zoom: Double, scale: Double, fit: FitBox?, header: Bool, legend: Bool, legendAll: Bool,
         level: Int?, locale: SeatMapLocale?) {
        self.theme = theme
        self.zoom = zoom
        self.scale = scale
        self.fit = fit
        self.header = header
        self.legend = legend
        self.legendAll = legendAll
        self.level = level
        self.locale = locale
    }

    /// Refuses values no layout takes, naming the input (`{{zoom}}`: the
    /// CLI says `--zoom`, the service `zoom`).
    public func check() throws(SeatMapError) {
        func outside(_ name: String, _ v: Double, _ r: ClosedRange<Double>) -> SeatMapError {
            SeatMapError("{{\(name)}} \(LayoutJSON.format(v)) is outside \(LayoutJSON.format(r.lowerBound))…\(LayoutJSON.format(r.upperBound))")
        }
        guard zoom.isFinite, GeometryOptions.zoomRange.contains(zoom) else { throw outside("zoom", zoom, GeometryOptions.zoomRange) }
        guard scale.isFinite, GeometryOptions.scaleRange.contains(scale) else { throw outside("scale", scale, GeometryOptions.scaleRange) }
        if let fit {
            guard fit.width > 0, fit.height > 0, fit.width.isFinite, fit.height.isFinite else {
                throw SeatMapError("{{fit}} expects a positive width and height")
            }
            if zoom != GeometryOptions.defaultZoom { throw SeatMapError("use either {{zoom}} or {{fit}}") }
        }
        if let level, !GeometryOptions.levelRange.contains(level) {
            throw SeatMapError("{{level}} expects a whole number in \(GeometryOptions.levelRange.lowerBound)…\(GeometryOptions.levelRange.upperBound), got \(level)")
        }
    }

    /// The theme's style with these switches.
    public var style: LayoutStyle {
        var style = theme.style.with(header: header, legend: legend)
        style.legendAll = legendAll
        if level != nil { style.level = level }
        style.locale = locale
        return style
    }

    /// The theme with `style` as its style: what a scene is drawn with.
    public var styledTheme: Theme {
        var t = theme
        t.style = style
        return t
    }

    /// The one way a drawn layout is built. With `fit`, also the chosen
    /// seat width and zoom.
    public func layout(for hall: Hall) throws(SeatMapError) -> (layout: Layout, fitted: Fit.Result?) {
        guard let fit else { return (try Layout(hall: hall, style: style, zoom: zoom, scale: scale), nil) }
        let result = try Fit.fit(hall: hall, viewportWidth: fit.width, viewportHeight: fit.height, style: style, scale: scale)
        return (try Layout(hall: hall, style: result.style, zoom: result.zoom, scale: scale), result)
    }

    /// The hall's scene in this geometry and theme.
    public func scene(for hall: Hall, selected: Set<SeatID> = [], highlighted: Set<SeatID> = []) throws(SeatMapError) -> Scene {
        try Scene(layout: layout(for: hall).layout, theme: styledTheme, selected: selected, highlighted: highlighted)
    }

    /// The same geometry at another zoom and scale.
    public func with(zoom: Double, scale: Double) throws(SeatMapError) -> GeometryOptions {
        var copy = self
        copy.zoom = zoom
        copy.scale = scale
        copy.fit = nil
        try copy.check()
        return copy
    }
}
