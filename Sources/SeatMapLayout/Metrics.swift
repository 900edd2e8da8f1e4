/// Sizes of the seat map in points, before zoom and scale.
///
/// Defaults follow the seed app: 32 pt seats (it sizes them 28–36 pt from the
/// screen width), small gaps, a row-label gutter, the screen band, and
/// margins that play the part of the phone's safe area. Themes may override
/// any of them.
public struct Metrics: Sendable, Equatable {
    public var seatWidth: Double = 32
    public var seatHeight: Double = 30
    /// Gap between neighbouring columns.
    public var gapX: Double = 4
    /// Gap between neighbouring rows.
    public var rowGap: Double = 6
    /// Width of the row-label bar beside the grid.
    public var rowLabelGutter: Double = 28
    /// The header band (cinema · hall · start time).
    public var headerHeight: Double = 36
    /// The screen band above the grid, including the space below the screen.
    public var screenBandHeight: Double = 44
    /// One legend entry (swatch and text), and the space above the legend.
    public var legendItemWidth: Double = 92
    public var legendItemHeight: Double = 24
    public var legendTopGap: Double = 14
    /// Image insets on every side.
    public var margin: Double = 16
    /// The image is never narrower than this, so the header and legend fit.
    public var minContentWidth: Double = 320

    public init() {}

    /// The seed's seat sizes, for `Fit`.
    public static let seatWidthRange: ClosedRange<Double> = 28...36
}

/// What the layout includes besides the seats.
public struct LayoutOptions: Sendable, Equatable {
    public var header = true
    public var legend = true
    /// Row labels on the right of the grid as well as the left.
    public var rowLabelsRight = false

    public init(header: Bool = true, legend: Bool = true, rowLabelsRight: Bool = false) {
        self.header = header
        self.legend = legend
        self.rowLabelsRight = rowLabelsRight
    }
}
