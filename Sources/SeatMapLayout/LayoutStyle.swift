import SeatMapCore

/// Everything that decides where something is drawn, in points before zoom
/// and scale: sizes, spacing, text sizes and which parts the map includes.
///
/// One value owns every position-affecting number, so every command that
/// builds a layout from the same style (and zoom and scale) gets the same
/// geometry: `render`, `layout`, `hit` and `apply` all take it from the
/// theme (`Theme.style`) with `--no-header` / `--no-legend` applied.
/// Defaults follow the seed app: 32 pt seats (it sizes them 28–36 pt from
/// the screen width), small gaps, a row-label gutter, the screen band, and
/// margins that play the part of the phone's safe area.
public struct LayoutStyle: Sendable, Equatable {
    // MARK: Seats
    public var seatWidth: Double = 32
    public var seatHeight: Double = 30
    /// Gap between neighbouring columns.
    public var gapX: Double = 4
    /// Gap between neighbouring rows.
    public var rowGap: Double = 6
    /// Seat corner radius.
    public var cornerRadius: Double = 4
    /// The e-ticket outline drawn inside a highlighted seat (at least 2 px).
    public var highlightWidth: Double = 2
    /// Seat numbers are drawn on seats at least this many device pixels wide.
    public var seatNumberMinPixels: Double = 22

    // MARK: Bands and chrome
    /// Width of the row-label bar beside the grid.
    public var rowLabelGutter: Double = 28
    /// Space between a row label's box and the seats.
    public var rowLabelSpacing: Double = 4
    /// The header band (cinema · hall · start time).
    public var headerHeight: Double = 36
    /// The screen band above the grid, including the space below the screen.
    public var screenBandHeight: Double = 44
    /// The screen is never narrower than this.
    public var screenMinWidth: Double = 160
    /// How far the screen's bottom corners are drawn in from its top corners.
    public var screenInset: Double = 24
    /// The screen's outline, and the centre line's width and dashes.
    public var screenOutlineWidth: Double = 0.75
    public var centerLineWidth: Double = 1
    public var centerLineDash: Double = 4
    public var centerLineSpace: Double = 3
    /// One legend entry (swatch and text), and the space above the legend.
    public var legendItemWidth: Double = 92
    public var legendItemHeight: Double = 24
    public var legendTopGap: Double = 14
    /// Legend swatch inset from its entry's left edge, and the gap before its text.
    public var legendSwatchInset: Double = 4
    public var legendTextGap: Double = 5
    /// Image insets on every side.
    public var margin: Double = 16
    /// The image is never narrower than this, so the header and legend fit.
    public var minContentWidth: Double = 320
    /// Minimap inset from the viewport's corner, its corner radius, and its
    /// largest share of the viewport's width and height.
    public var minimapPadding: Double = 8
    public var minimapCornerRadius: Double = 3
    public var minimapFraction: Double = 0.32

    // MARK: Text sizes
    public var headerTextSize: Double = 14
    public var screenTextSize: Double = 11
    public var rowLabelTextSize: Double = 10
    public var legendTextSize: Double = 11
    /// The smallest chrome text (header, screen label, legend, level
    /// titles), in points × scale whatever the zoom: a zoomed-out overview
    /// stays legible, and the layout makes its bands and legend entries
    /// larger to hold it.
    public var chromeMinTextSize: Double = 9
    /// A row label's pill grows to hold labels longer than the gutter, up to
    /// this many times the gutter.
    public var rowLabelMaxGrowth: Double = 4

    // MARK: Parts
    /// Grid halls with two or more named sections: each section's name in
    /// an empty row above its block, and the block outlined.
    public var sectionNames = true
    /// The header band (cinema · hall · start time).
    public var header = true
    /// The legend of price tiers and statuses.
    public var legend = true
    /// The legend lists every seat type (wheelchair, couple), also those the
    /// hall has none of (by default: only those it has; every sale status is
    /// always listed, as statuses change live).
    public var legendAll = false
    /// Row labels on the right of the grid as well as the left.
    public var rowLabelsRight = false
    /// The one level of a free venue to draw (`render --level N`); nil
    /// draws every level, stacked top to bottom, each under its title.
    public var level: Int? = nil
    /// The language of every word drawn (legend, statuses, the default screen
    /// label, level titles, descriptions); right-to-left locales lay the
    /// legend out from the right. nil: the hall's locale, else zh-Hans (a
    /// layout's style always has it resolved).
    public var locale: SeatMapLocale? = nil

    public init() {}

    /// This style with the header and legend switched off where asked
    /// (`--no-header`, `--no-legend`); a style that has them off keeps them off.
    public func with(header: Bool = true, legend: Bool = true) -> LayoutStyle {
        var s = self
        s.header = s.header && header
        s.legend = s.legend && legend
        return s
    }

    /// The seed's seat sizes, for `Fit`.
    public static let seatWidthRange: ClosedRange<Double> = 28...36

    /// The lengths a theme may set (its `metrics` object), by key.
    nonisolated(unsafe) public static let lengthKeys: [(String, WritableKeyPath<LayoutStyle, Double>)] = [
        ("seatWidth", \.seatWidth), ("seatHeight", \.seatHeight), ("gapX", \.gapX), ("rowGap", \.rowGap),
        ("seatNumberMinPixels", \.seatNumberMinPixels),
        ("rowLabelGutter", \.rowLabelGutter), ("rowLabelSpacing", \.rowLabelSpacing),
        ("headerHeight", \.headerHeight), ("screenBandHeight", \.screenBandHeight),
        ("screenMinWidth", \.screenMinWidth), ("screenInset", \.screenInset),
        ("highlightWidth", \.highlightWidth), ("screenOutlineWidth", \.screenOutlineWidth),
        ("centerLineWidth", \.centerLineWidth), ("centerLineDash", \.centerLineDash), ("centerLineSpace", \.centerLineSpace),
        ("legendItemWidth", \.legendItemWidth), ("legendItemHeight", \.legendItemHeight), ("legendTopGap", \.legendTopGap),
        ("legendSwatchInset", \.legendSwatchInset), ("legendTextGap", \.legendTextGap),
        ("margin", \.margin), ("minContentWidth", \.minContentWidth),
        ("minimapPadding", \.minimapPadding), ("minimapCornerRadius", \.minimapCornerRadius),
        ("headerTextSize", \.headerTextSize), ("screenTextSize", \.screenTextSize), ("chromeMinTextSize", \.chromeMinTextSize),
        ("rowLabelTextSize", \.rowLabelTextSize), ("legendTextSize", \.legendTextSize),
    ]
}
