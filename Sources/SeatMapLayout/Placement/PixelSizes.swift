/// The whole-pixel sizes of one layout: every length of the style as
/// `ceil(points × zoom × scale)` (see `Layout.pixels`).
public struct PixelSizes: Sendable, Equatable {
    public let seatWidth: Int
    public let seatHeight: Int
    public let gapX: Int
    public let gapY: Int
    public var pitchX: Int { seatWidth + gapX }
    public var pitchY: Int { seatHeight + gapY }

    init(_ style: LayoutStyle, px: (Double) -> Int) {
        seatWidth = max(1, px(style.seatWidth))
        seatHeight = max(1, px(style.seatHeight))
        gapX = px(style.gapX)
        gapY = px(style.rowGap)
    }
}
