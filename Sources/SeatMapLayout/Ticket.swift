import Foundation
import SeatMapCore

/// An e-ticket's geometry, in layout pixels: the part of the map around the
/// buyer's seats, a callout naming them, and (when the screen or stage is
/// outside that part) a band on the side it lies on with an arrow pointing
/// to it.
///
/// The ticket image is `frame`: the map's pixels inside `crop` exactly as
/// a full render draws them, and the band and callout drawn over it. Every
/// rect may reach outside the layout's bounds (the band does).
public struct TicketLayout: Sendable, Equatable {
    /// The buyer's seats, in seat order.
    public let seats: [SeatID]
    /// The box around the buyer's seats.
    public let group: PixelRect
    /// The part of the map shown: inside the layout, except where the
    /// callout needs more room than the hall has (there it is background).
    public let crop: PixelRect
    /// The whole ticket image: `crop` and the direction band.
    public let frame: PixelRect

    public struct Callout: Sendable, Equatable {
        public let pill: PixelRect
        public let radius: Double
        /// The triangle from the pill to the seats.
        public let pointer: Path
        public let text: TextPlacement
    }
    public let callout: Callout
    /// The callout's words: "您的座位：5排7座 5排8座" in the layout's locale.
    public let calloutText: String

    /// Where the screen (or stage) is when it is not in the crop.
    public struct Direction: Sendable, Equatable {
        public let band: PixelRect
        /// A triangle pointing at the screen's centre.
        public let arrow: Path
        public let text: TextPlacement
        /// The screen's label, or the stage's.
        public let name: String
    }
    public let direction: Direction?
}

extension Layout {
    /// Seat pitches of context shown beside and above/below the buyer's seats.
    public static let ticketContextColumns = 3
    public static let ticketContextRows = 2

    /// The ticket for `ids` (at least one seat of this layout).
    ///
    /// The crop is the buyer's seats with `ticketContextColumns` pitches on
    /// each side and `ticketContextRows` above and below (more where the
    /// callout needs the room), inside the layout. The screen of a grid hall,
    /// or a free venue's area whose id or label says stage or screen, is
    /// "in view" when the crop shows half its height; otherwise a band on its
    /// side (above or below) holds an arrow pointing at it and its name.
    public func ticket(_ ids: [SeatID]) throws(SeatMapError) -> TicketLayout {
        let chosen = ids.compactMap { cell(id: $0) }.filter(\.isSeat)
        guard !chosen.isEmpty, chosen.count == ids.count else {
            let missing = ids.filter { cell(id: $0)?.isSeat != true }.map(\.description)
            throw SeatMapError("{{ticket}}: no such seat \(missing.isEmpty ? "(none given)" : missing.joined(separator: ", "))")
        }
        let s = pixelsPerPoint
        let chromeMin = style.chromeMinTextSize * scale
        var gx0 = Int.max, gy0 = Int.max, gx1 = Int.min, gy1 = Int.min
        for c in chosen {
            gx0 = min(gx0, c.rect.x); gy0 = min(gy0, c.rect.y); gx1 = max(gx1, c.rect.maxX); gy1 = max(gy1, c.rect.maxY)
        }
        let group = PixelRect(x: gx0, y: gy0, w: gx1 - gx0, h: gy1 - gy0)
        let ordered = chosen.sorted { $0.id < $1.id }
        let callout = locale.text("ticket.callout", ["seats": locale.list(ordered.map(describe))])

        // The callout's size (its text is measured when drawn and fitted
        // into the pill).
        let textSize = max(style.legendTextSize * s, chromeMin)
        let pad = (textSize * 0.6).rounded(.up)
        let pillH = Int((textSize * 1.9).rounded(.up))
        let pointerH = Int(max(4, (6 * s).rounded()))
        let margin = Int((style.margin * s / 2).rounded(.up))
        let wanted = Int((TextPlacement.estimatedWidth(callout, size: textSize) + 2 * pad).rounded(.up))

        // The crop: context around the group, wide enough for the callout,
        // tall enough above (or below) the group to hold it.
        let cx = Layout.ticketContextColumns * pitchX, cy = Layout.ticketContextRows * pitchY
        var x0 = group.x - cx, x1 = group.maxX + cx
        let need = pillH + pointerH + margin
        var y0 = group.y - max(cy, need), y1 = group.maxY + cy
        let minW = wanted + 2 * margin
        if x1 - x0 < minW {
            let grow = minW - (x1 - x0)
            x0 -= grow / 2
            x1 += grow - grow / 2
        }
        // Inside the layout, keeping the width where the edge cuts it; a
        // callout wider than the hall widens the crop past it (background).
        if x1 - x0 <= width {
            if x0 < 0 { x1 -= x0; x0 = 0 }
            if x1 > width { x0 -= x1 - width; x1 = width }
        }
        y0 = max(0, y0)
        y1 = min(height, y1)
        var crop = PixelRect(x: x0, y: y0, w: x1 - x0, h: y1 - y0)

        // The callout above the group when it fits, else below, past the
        // hall's bottom edge when there is no room inside it.
        let above = group.y - crop.y >= need
        if !above && crop.maxY - group.maxY < need {
            crop.h = group.maxY + need - crop.y
        }
        let pillW = min(wanted, crop.w - 2 * margin)
        // The pointer ends on a buyer's seat: the one nearest the group's
        // centre (seats far apart may have someone else's between them).
        let aim = ordered.min { a, b in
            (abs(a.rect.centerX - group.centerX), a.id) < (abs(b.rect.centerX - group.centerX), b.id)
        } ?? ordered[0]
        // Centred on the group, or on that seat when the group is wider.
        let centre = group.w > pillW ? aim.rect.centerX : group.centerX
        let pillX = min(max(Int(centre.rounded()) - pillW / 2, crop.x + margin), crop.maxX - margin - pillW)
        let pillY = above ? group.y - pointerH - pillH - 1 : group.maxY + pointerH + 1
        let pill = PixelRect(x: pillX, y: pillY, w: max(1, pillW), h: pillH)
        // Between two of the buyer's seats side by side, the pointer ends
        // between them; otherwise on the middle of `aim`.
        let between = ordered.contains { c in
            c.rect.y == aim.rect.y && Double(c.rect.x - gapX) <= group.centerX && group.centerX <= Double(c.rect.maxX + gapX)
        }
        let tip = between ? group.centerX : aim.rect.centerX
        let tipX = min(max(tip, Double(pill.x) + Double(pointerH)), Double(pill.maxX) - Double(pointerH))
        var pointer = Path()
        let baseY = Double(above ? pill.maxY : pill.y)
        pointer.move(tipX - Double(pointerH), baseY)
        pointer.line(tipX + Double(pointerH), baseY)
        pointer.line(tip, Double(above ? aim.rect.y : aim.rect.maxY))
        pointer.close()
        let inner = PixelRect(x: pill.x + Int(pad / 2), y: pill.y, w: max(1, pill.w - Int(pad)), h: pill.h)
        let calloutLayout = TicketLayout.Callout(
            pill: pill, radius: Double(pillH) / 2, pointer: pointer,
            text: TextPlacement(x: pill.centerX, y: pill.centerY, size: textSize, box: inner, minSize: chromeMin))

        // The screen or stage, and whether the crop shows it.
        var target: PixelRect? = nil
        var targetName = screenLabel
        if !isFree {
            target = screen
        } else if let stage = areas.first(where: { a in
            // A word "stage" or "screen" (not "backstage"), or 舞台 / 银幕.
            [a.id, a.area.label].contains { name in
                name.lowercased().split { !$0.isLetter }.contains { $0 == "stage" || $0 == "screen" }
                    || name.contains("舞台") || name.contains("银幕")
            }
        }) {
            target = stage.rect
            targetName = stage.area.label
        }
        var direction: TicketLayout.Direction? = nil
        var frame = crop
        if let t = target, t.w > 0, t.h > 0 {
            let seen = t.intersection(crop)
            if seen.w <= 0 || seen.h * 2 < t.h {
                let bandH = Int((max(style.screenTextSize * s, chromeMin) * 2.2).rounded(.up))
                let up = t.centerY < crop.centerY
                let band = PixelRect(x: crop.x, y: up ? crop.y - bandH : crop.maxY, w: crop.w, h: bandH)
                frame = PixelRect(x: crop.x, y: min(crop.y, band.y), w: crop.w, h: crop.h + bandH)
                // An arrow at the band's point nearest the target, turned the
                // way the target lies from the crop's centre.
                let half = Double(bandH) * 0.3
                let ax = min(max(t.centerX, Double(band.x) + half * 2), Double(band.maxX) - half * 2)
                let ay = band.centerY
                let angle = atan2(t.centerY - crop.centerY, t.centerX - crop.centerX)
                var arrow = Path()
                arrow.move(ax + cos(angle) * half, ay + sin(angle) * half)
                arrow.line(ax + cos(angle + 2.5) * half, ay + sin(angle + 2.5) * half)
                arrow.line(ax + cos(angle - 2.5) * half, ay + sin(angle - 2.5) * half)
                arrow.close()
                let textX = ax + half * 1.6
                let rightRoom = Double(band.maxX - margin) - textX
                let leftRoom = ax - half * 1.6 - Double(band.x + margin)
                let text: TextPlacement
                if rightRoom >= leftRoom {
                    text = TextPlacement(x: textX, y: ay, align: .left, size: max(style.screenTextSize * s, chromeMin),
                                         box: PixelRect(x: Int(textX), y: band.y, w: max(1, Int(rightRoom)), h: band.h), minSize: chromeMin)
                } else {
                    let right = ax - half * 1.6
                    text = TextPlacement(x: right, y: ay, align: .right, size: max(style.screenTextSize * s, chromeMin),
                                         box: PixelRect(x: band.x + margin, y: band.y, w: max(1, Int(leftRoom)), h: band.h), minSize: chromeMin)
                }
                direction = TicketLayout.Direction(band: band, arrow: arrow, text: text, name: targetName)
            }
        }
        return TicketLayout(seats: ordered.map(\.id), group: group, crop: crop, frame: frame,
                            callout: calloutLayout, calloutText: callout, direction: direction)
    }
}
