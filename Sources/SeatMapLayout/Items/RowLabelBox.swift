
/// A row label placed in pixels: its box beside the grid, the pill drawn in
/// it and where its text goes.
public struct RowLabelBox: Sendable, Equatable {
    public let row: Int
    public let label: String
    public let rect: PixelRect
    public let pill: PixelRect
    public let pillRadius: Double
    public let text: TextPlacement

    /// The same label moved `dx` pixels sideways.
    public func shifted(_ dx: Int) -> RowLabelBox {
        var t = text
        t.x += Double(dx)
        t.box = t.box.map { PixelRect(x: $0.x + dx, y: $0.y, w: $0.w, h: $0.h) }
        return RowLabelBox(row: row, label: label, rect: PixelRect(x: rect.x + dx, y: rect.y, w: rect.w, h: rect.h),
                           pill: PixelRect(x: pill.x + dx, y: pill.y, w: pill.w, h: pill.h), pillRadius: pillRadius, text: t)
    }
}

extension RowLabelBox {
    /// A label in `rect` drawn as `pill`, its text centred on the pill at
    /// `textSize`: a pill wider than high has round ends, and the text keeps off them.
    init(row: Int, label: String, rect: PixelRect, pill: PixelRect, textSize: Double) {
        let inset = pill.w > pill.h ? pill.h / 4 : 0
        let box = PixelRect(x: pill.x + inset, y: pill.y, w: max(1, pill.w - 2 * inset), h: pill.h)
        self.init(row: row, label: label, rect: rect, pill: pill, pillRadius: Double(min(pill.w, pill.h)) / 2,
                  text: TextPlacement(x: pill.centerX, y: pill.centerY, size: textSize, box: box))
    }
}
