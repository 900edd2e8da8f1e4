import SeatMapCore

/// Chooses a seat size and zoom that show the whole hall in a viewport, as
/// the seed does when the page opens.
public enum Fit {
    public struct Result: Sendable, Equatable {
        /// The style with the chosen seat width (28…36 pt) and a height scaled alike.
        public var style: LayoutStyle
        /// The largest zoom, in steps of 0.01, at which the layout fits
        /// (never below 0.25; at 0.25 a huge hall may still overflow).
        public var zoom: Double
    }

    /// Starts from `base` (a theme's style, with its header and legend
    /// switches) and changes only the seat size.
    public static func fit(hall: Hall, viewportWidth: Double, viewportHeight: Double,
                           style base: LayoutStyle = LayoutStyle(), scale: Double = Layout.defaultScale) throws(SeatMapError) -> Result {
        guard viewportWidth > 0, viewportHeight > 0, viewportWidth.isFinite, viewportHeight.isFinite else {
            throw SeatMapError("the viewport must have a positive width and height")
        }
        var m = base
        let cols = Double(max(1, hall.gridColumns))
        let chrome = 2 * (m.margin + m.rowLabelGutter)
        let perColumn = (viewportWidth - chrome) / cols - m.gapX
        let ratio = m.seatHeight / m.seatWidth
        // A free venue keeps its seat sizes (its positions are in points);
        // only the zoom is chosen.
        if !hall.isFree {
            m.seatWidth = min(max(perColumn, LayoutStyle.seatWidthRange.lowerBound), LayoutStyle.seatWidthRange.upperBound).rounded(.down)
            m.seatHeight = (m.seatWidth * ratio).rounded()
        }
        let one = try Layout(hall: hall, style: m, zoom: 1, scale: scale)
        let guess = min(viewportWidth / (Double(one.width) / scale), viewportHeight / (Double(one.height) / scale))
        var steps = Int((min(guess, Layout.zoomRange.upperBound) * 100).rounded(.down))
        let minSteps = Int(Layout.zoomRange.lowerBound * 100)
        while steps > minSteps {
            let z = Double(steps) / 100
            let l = try Layout(hall: hall, style: m, zoom: z, scale: scale)
            if Double(l.width) / scale <= viewportWidth && Double(l.height) / scale <= viewportHeight { break }
            steps -= 1
        }
        return Result(style: m, zoom: Double(max(steps, minSteps)) / 100)
    }
}
