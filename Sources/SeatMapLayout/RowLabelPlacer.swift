import Foundation
import SeatMapCore

/// Places a free venue's row labels so that none overlaps a seat's box,
/// another row label or a text the map draws (area text, level titles, zone
/// names), in the pixels of this layout, so at every zoom by construction.
///
/// A label is a pill sized from its row: as tall as 85 % of the smaller of
/// the row's seat size and its pitch (the median distance between
/// neighbouring seats; at least three quarters of a seat), as wide as its
/// text needs. It goes at the row's start, end or both
/// (`Row.labelPosition`), on the row's line beyond the end seat.
/// Candidates, tried in order until one is clear: the row's own seat gap
/// clear of the end seat, one pitch out, then half a pitch and a pitch
/// further; each at full size, then 80 % and 64 % (a candidate past the
/// map's edge is slid back inside it). When none is clear the label is left
/// out: the row is still named in every seat's title and accessible name.
struct RowLabelPlacer {
    let cells: [LaidOutCell]
    let index: FreeIndex
    let texts: [PixelRect]
    let bounds: PixelRect
    let style: LayoutStyle
    let s: Double

    /// The pill's height as a share of the row's seat size or pitch.
    static let heightShare = 0.85
    /// The smaller sizes tried when the full one collides.
    static let shrinkSteps = [1.0, 0.8, 0.64]

    func place(_ rows: [(row: Row, cells: Range<Int>)]) -> [RowLabelBox] {
        var placed: [RowLabelBox] = []
        for (row, range) in rows where !row.label.isEmpty {
            let seats = range.filter { cells[$0].isSeat }
            guard let first = seats.first, let last = seats.last else { continue }
            let pitch = VenueGeometry.pitch(seats.map { centre(cells[$0]) }) ?? Double(max(cells[first].seatRect.w, cells[first].seatRect.h))
            var ends: [(seat: Int, toward: Int?)] = []
            if row.labelPosition == .start || row.labelPosition == .both { ends.append((first, seats.count > 1 ? seats[1] : nil)) }
            if row.labelPosition == .end || row.labelPosition == .both { ends.append((last, seats.count > 1 ? seats[seats.count - 2] : nil)) }
            for (end, inner) in ends {
                if let label = spot(for: row, end: end, inner: inner, pitch: pitch, avoiding: placed) { placed.append(label) }
            }
        }
        return placed
    }

    func centre(_ c: LaidOutCell) -> Point { Point(x: c.seatRect.centerX, y: c.seatRect.centerY) }

    /// The first clear place for the label beside seat `end`, pointing away
    /// from `inner` (its neighbour in the row; a lone seat: along its turn).
    func spot(for row: Row, end: Int, inner: Int?, pitch: Double, avoiding placed: [RowLabelBox]) -> RowLabelBox? {
        let seat = cells[end]
        let c = centre(seat)
        var u = (x: -1.0, y: 0.0)
        if let inner {
            let o = centre(cells[inner])
            let dx = c.x - o.x, dy = c.y - o.y, l = (dx * dx + dy * dy).squareRoot()
            if l > 0 { u = (dx / l, dy / l) }
        } else if case .rotated(let a) = seat.outline {
            u = (-cos(a), -sin(a))
        }
        let size = Double(min(seat.seatRect.w, seat.seatRect.h))
        let seatHalf = abs(u.x) * Double(seat.rect.w) / 2 + abs(u.y) * Double(seat.rect.h) / 2
        let gap = max(2, pitch - size)
        // Seats closer than their size (they overlap) leave no room between
        // rows to size from: the label then takes three quarters of a seat.
        let fullHeight = max(1, min(size, max(pitch, 0.75 * size)) * RowLabelPlacer.heightShare)
        for shrink in RowLabelPlacer.shrinkSteps {
            let h = max(1, (fullHeight * shrink).rounded())
            let textSize = min(style.rowLabelTextSize * s, h * 0.62)
            let w = max(h, (TextPlacement.estimatedWidth(row.label, size: textSize) + h * 0.6).rounded(.up))
            let labelHalf = abs(u.x) * w / 2 + abs(u.y) * h / 2
            let near = seatHalf + gap + labelHalf
            for d in [near, max(near, pitch), max(near, pitch) + pitch / 2, max(near, pitch) + pitch] {
                let x = c.x + u.x * d, y = c.y + u.y * d
                var pill = PixelRect(x: Int((x - w / 2).rounded()), y: Int((y - h / 2).rounded()), w: Int(w), h: Int(h))
                // At the map's edge: slid back inside it.
                pill.x = min(max(pill.x, bounds.x), bounds.maxX - pill.w)
                pill.y = min(max(pill.y, bounds.y), bounds.maxY - pill.h)
                guard isClear(pill, placed) else { continue }
                // Drawn as the pill itself: its box is the pill.
                return RowLabelBox(row: row.number, label: row.label, rect: pill, pill: pill, textSize: textSize)
            }
        }
        return nil
    }

    func isClear(_ pill: PixelRect, _ placed: [RowLabelBox]) -> Bool {
        guard pill.x >= bounds.x, pill.y >= bounds.y, pill.maxX <= bounds.maxX, pill.maxY <= bounds.maxY else { return false }
        if !index.cellIndexes(intersecting: pill, cells: cells).isEmpty { return false }
        if placed.contains(where: { $0.pill.intersects(pill) }) { return false }
        return !texts.contains(where: { $0.intersects(pill) })
    }

}

extension TextPlacement {
    /// Roughly where the text's ink goes: its estimated width (at most its
    /// box's) by 1.2 times its size, about its anchor.
    public func inkBox(_ text: String) -> PixelRect {
        var w = TextPlacement.estimatedWidth(text, size: size)
        if let box { w = min(w, Double(box.w)) }
        let h = size * 1.2
        let x0: Double
        switch align {
        case .left: x0 = x
        case .center: x0 = x - w / 2
        case .right: x0 = x - w
        }
        if rotation != 0 {
            // The turned ink's bounding box.
            let a = rotation * .pi / 180
            let cx = x0 + w / 2 - x
            let mx = x + cx * cos(a), my = y + cx * sin(a)
            let (ex, ey) = turnedReach(w / 2, h / 2, cos: cos(a), sin: sin(a))
            let left = Int((mx - ex).rounded(.down)), top = Int((my - ey).rounded(.down))
            return PixelRect(x: left, y: top, w: Int((mx + ex).rounded(.up)) - left, h: Int((my + ey).rounded(.up)) - top)
        }
        let left = Int(x0.rounded(.down)), top = Int((y - h / 2).rounded(.down))
        return PixelRect(x: left, y: top, w: Int((x0 + w).rounded(.up)) - left, h: Int((y + h / 2).rounded(.up)) - top)
    }
}
