import Foundation
import SeatMapCore
import SeatMapLayout

/// The one drawing routine: draws a scene on any canvas, reading every
/// position from the layout. With a `region`, it draws only what meets that
/// rect (cells are found through the layout's grid, not by a scan), which
/// is how viewports and incremental redraws stay cheap and pixel-identical.
struct Painter {
    let scene: Scene
    let canvas: Canvas
    var layout: Layout { scene.layout }
    var theme: Theme { scene.theme }
    /// Seat numbers are drawn once seats are at least this many pixels wide.
    static let labelMinWidth = 22

    /// Pixels per point.
    var s: Double { layout.zoom * layout.scale }

    /// Draws everything that meets `region` (all of it by default). With
    /// `clip`, nothing outside the region is touched; without, shapes that
    /// cross its edge are drawn whole (the caller crops), which keeps every
    /// pixel identical to a full render.
    func draw(region: PixelRect? = nil, clip: Bool = false) {
        let area = region ?? layout.bounds
        let clipped = clip && region != nil
        if clipped { canvas.pushClip(area) }
        canvas.fill(.rect(area), theme.background)
        if let header = layout.header, header.intersects(area) { drawHeader(header) }
        if layout.screen.intersects(area) { drawScreen() }
        drawCenterLine(area)
        for label in layout.rowLabels where label.rect.intersects(area) { drawRowLabel(label) }
        for k in layout.cellIndexes(intersecting: area) {
            let cell = layout.cells[k]
            if cell.isSeat { drawSeat(cell) }
        }
        if let legend = layout.legend, legend.intersects(area) {
            for item in layout.legendItems where item.rect.intersects(area) { drawLegendItem(item) }
        }
        if clipped { canvas.popClip() }
    }

    // MARK: Bands

    func drawHeader(_ r: PixelRect) {
        canvas.text(scene.title, x: r.centerX, y: r.centerY, align: .center,
                    style: TextStyle(size: 14 * s, color: theme.text))
    }

    /// The screen: a band with a gently curved top edge, narrowing towards
    /// the seats. Built from straight segments and filled (outline = a fill
    /// of the outer shape under the inner one): large strokes and curves are
    /// flattened by Cairo differently when part of them lies off-surface, and
    /// a viewport must match the full render pixel for pixel.
    func drawScreen() {
        let r = layout.screen
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let inset = min(w * 0.06, 24 * s)
        func shape(_ d: Double) -> Path {
            var p = Path()
            let segments = 48
            for i in 0...segments {
                let t = Double(i) / Double(segments)
                // A parabola that sags a quarter of the height in the middle.
                let px = x + d + (w - 2 * d) * t
                let py = y + d + h * 0.25 * 4 * t * (1 - t) * 0.75
                if i == 0 { p.move(px, py) } else { p.line(px, py) }
            }
            p.line(x + w - inset - d * 0.5, y + h - d)
            p.line(x + inset + d * 0.5, y + h - d)
            p.close()
            return p
        }
        let line = max(1, (0.75 * s).rounded())
        canvas.fill(shape(0), theme.centerLine)
        canvas.fill(shape(line), theme.screen)
        canvas.text(scene.screenLabel, x: r.centerX, y: y + h * 0.58, align: .center,
                    style: TextStyle(size: min(11 * s, h * 0.55), color: theme.screenText))
    }

    /// The dashed line through the middle of the seat grid, from the screen
    /// down to the last row; seats are drawn over it. Dashes are whole-pixel
    /// rectangles, so they are crisp and the same in every region drawn.
    func drawCenterLine(_ area: PixelRect) {
        let width = max(1, Int(s.rounded()))
        let top = layout.screen.maxY, bottom = layout.gridRect.maxY
        let dash = max(1, Int((4 * s).rounded())), space = max(1, Int((3 * s).rounded()))
        var y = top
        while y < bottom {
            let piece = PixelRect(x: layout.centerX, y: y, w: width, h: min(dash, bottom - y))
            if piece.intersects(area) { canvas.fill(.rect(piece), theme.centerLine) }
            y += dash + space
        }
    }

    func drawRowLabel(_ label: RowLabelBox) {
        let r = label.rect
        let pillW = max(1, Int((Double(r.w) * 0.75).rounded()))
        let pill = PixelRect(x: r.x + (r.w - pillW) / 2, y: r.y, w: pillW, h: r.h)
        canvas.fill(.roundedRect(pill, radius: Double(pillW) / 2), theme.rowLabelBackground)
        canvas.text(label.label, x: pill.centerX, y: pill.centerY, align: .center,
                    style: TextStyle(size: min(10 * s, Double(r.h) * 0.6, Double(pillW) * 0.8), color: theme.rowLabel))
    }

    // MARK: Seats

    /// Whether a seat is selected / highlighted (ids are built only when
    /// there is something to look them up in).
    func isSelected(_ cell: LaidOutCell) -> Bool { !scene.selected.isEmpty && scene.selected.contains(cell.id) }
    func isHighlighted(_ cell: LaidOutCell) -> Bool { !scene.highlighted.isEmpty && scene.highlighted.contains(cell.id) }

    func fillColor(_ cell: LaidOutCell) -> Color {
        if isSelected(cell) { return theme.selected }
        switch cell.status {
        case .available: return theme.tierColor(cell.tier)
        case .locked: return theme.locked
        case .sold: return theme.sold
        case .aisle: return theme.background
        }
    }

    func tag(_ cell: LaidOutCell) -> SeatTag {
        let selected = isSelected(cell)
        var classes = ["seat", cell.status.name, cell.type.rawValue]
        if let tier = cell.tier { classes.append("tier-\(tier)") }
        if selected { classes.append("selected") }
        if isHighlighted(cell) { classes.append("highlighted") }
        let price = cell.price?.plainText ?? ""
        let state = selected ? "已选" : cell.status.chineseName
        return SeatTag(id: cell.id, classes: classes, row: cell.row, column: cell.column, price: price,
                       title: "\(cell.chineseDescription) ¥\(price) \(state)")
    }

    func drawSeat(_ cell: LaidOutCell) {
        if canvas.wantsSeatTags { canvas.beginSeat(tag(cell)) }
        let selected = isSelected(cell)
        let shape = Path.roundedRect(cell.rect, radius: theme.cornerRadius * s,
                                     left: cell.type != .coupleRight, right: cell.type != .coupleLeft)
        canvas.fill(shape, fillColor(cell))
        // Marks and icons sit on the seat's own S × SH cell, so a couple
        // half's mark is centred on its seat, not on the joined shape.
        let own = ownCell(cell)
        var marked = false
        if selected {
            drawCheck(own)
            marked = true
        } else if cell.status == .sold && theme.soldMark != .none {
            drawMark(theme.soldMark, in: cell.rect, own: own)
            marked = true
        } else if cell.status == .locked && theme.lockedMark != .none {
            drawMark(theme.lockedMark, in: cell.rect, own: own)
            marked = true
        }
        if cell.type == .wheelchair && !marked {
            drawWheelchair(own)
            marked = true
        }
        if !marked && layout.seatWidth >= Painter.labelMinWidth {
            let size = min(Double(own.h) * 0.42, Double(own.w) * 0.42)
            canvas.text(cell.seatLabel, x: own.centerX, y: own.centerY, align: .center,
                        style: TextStyle(size: size, color: theme.seatText))
        }
        if isHighlighted(cell) {
            // A ring in the highlight colour with a thin background-coloured
            // ring inside it, so it shows on every fill; stroked inside the
            // rect, so it never touches a neighbour.
            let lw = max(2, (2 * s).rounded())
            let r = cell.rect
            for (inset, width, color) in [(lw / 2, lw, theme.highlight), (lw * 1.25, lw / 2, theme.background)] {
                let ring = Path.roundedRect(Double(r.x) + inset, Double(r.y) + inset, Double(r.w) - 2 * inset, Double(r.h) - 2 * inset,
                                            radius: max(0, theme.cornerRadius * s - inset),
                                            left: cell.type != .coupleRight, right: cell.type != .coupleLeft)
                canvas.stroke(ring, color, width: width, dash: [])
            }
        }
        if canvas.wantsSeatTags { canvas.endSeat() }
    }

    /// The S × SH cell a seat stands on (a couple half's rect is wider).
    func ownCell(_ cell: LaidOutCell) -> PixelRect {
        let x = layout.gridX + (cell.column - 1) * layout.pitchX
        return PixelRect(x: x, y: cell.rect.y, w: layout.seatWidth, h: layout.seatHeight)
    }

    func drawCheck(_ r: PixelRect) {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        var p = Path()
        p.move(x + 0.27 * w, y + 0.52 * h)
        p.line(x + 0.44 * w, y + 0.69 * h)
        p.line(x + 0.75 * w, y + 0.33 * h)
        canvas.stroke(p, theme.seatText, width: max(1, 0.1 * min(w, h)), dash: [])
    }

    func drawMark(_ mark: Theme.Mark, in rect: PixelRect, own r: PixelRect) {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let lw = max(1, 0.08 * min(w, h))
        switch mark {
        case .none: return
        case .cross:
            var p = Path()
            p.move(x + 0.28 * w, y + 0.28 * h)
            p.line(x + 0.72 * w, y + 0.72 * h)
            p.move(x + 0.72 * w, y + 0.28 * h)
            p.line(x + 0.28 * w, y + 0.72 * h)
            canvas.stroke(p, theme.seatText, width: lw, dash: [])
        case .hatch:
            canvas.pushClip(rect)
            let step = max(3, 0.25 * min(w, h))
            let rx = Double(rect.x), rw = Double(rect.w)
            var p = Path()
            var d = -h
            while d < rw {
                p.move(rx + d, y + h)
                p.line(rx + d + h, y)
                d += step
            }
            canvas.stroke(p, theme.seatText, width: max(1, lw * 0.7), dash: [])
            canvas.popClip()
        }
    }

    /// The international wheelchair symbol, drawn as paths (no icon font).
    func drawWheelchair(_ r: PixelRect) {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let m = min(w, h)
        let lw = max(1, 0.08 * m)
        canvas.fill(.circle(x + 0.46 * w, y + 0.2 * h, 0.08 * m), theme.seatText)
        var body = Path()
        body.move(x + 0.44 * w, y + 0.32 * h)
        body.line(x + 0.44 * w, y + 0.58 * h)
        body.line(x + 0.64 * w, y + 0.58 * h)
        body.line(x + 0.72 * w, y + 0.8 * h)
        body.move(x + 0.44 * w, y + 0.44 * h)
        body.line(x + 0.6 * w, y + 0.44 * h)
        canvas.stroke(body, theme.seatText, width: lw, dash: [])
        var wheel = Path()
        let cx = x + 0.44 * w, cy = y + 0.64 * h, rad = 0.19 * m
        let k = 0.5522847498 * rad
        // Three quarters of a circle, open at the top right where the seat is.
        wheel.move(cx + rad, cy)
        wheel.curve(cx + rad, cy + k, cx + k, cy + rad, cx, cy + rad)
        wheel.curve(cx - k, cy + rad, cx - rad, cy + k, cx - rad, cy)
        wheel.curve(cx - rad, cy - k, cx - k, cy - rad, cx, cy - rad)
        canvas.stroke(wheel, theme.seatText, width: lw, dash: [])
    }

    // MARK: Legend

    func legendText(_ kind: LegendItem.Kind) -> String {
        switch kind {
        case .tier(_, let price): return "¥\(price.plainText)"
        case .locked: return "已锁定"
        case .sold: return "已售"
        case .selected: return "已选"
        case .wheelchair: return "轮椅座"
        case .couple: return "情侣座"
        }
    }

    func drawLegendItem(_ item: LegendItem) {
        let r = item.rect
        let sh = max(2, Int((Double(r.h) * 0.6).rounded()))
        let sw = max(2, Int((Double(sh) * Double(layout.seatWidth) / Double(max(1, layout.seatHeight))).rounded()))
        let x = r.x + Int((4 * s).rounded())
        let y = r.y + (r.h - sh) / 2
        let swatch = PixelRect(x: x, y: y, w: sw, h: sh)
        let radius = theme.cornerRadius * s * Double(sh) / Double(max(1, layout.seatHeight))
        var textX = Double(swatch.maxX) + 5 * s
        switch item.kind {
        case .tier(let t, _):
            canvas.fill(.roundedRect(swatch, radius: radius), theme.tierColor(t))
        case .locked:
            canvas.fill(.roundedRect(swatch, radius: radius), theme.locked)
            drawMark(theme.lockedMark, in: swatch, own: swatch)
        case .sold:
            canvas.fill(.roundedRect(swatch, radius: radius), theme.sold)
            drawMark(theme.soldMark, in: swatch, own: swatch)
        case .selected:
            canvas.fill(.roundedRect(swatch, radius: radius), theme.selected)
            drawCheck(swatch)
        case .wheelchair:
            canvas.fill(.roundedRect(swatch, radius: radius), theme.tierColor(0))
            drawWheelchair(swatch)
        case .couple:
            let half = sw
            let left = PixelRect(x: x, y: y, w: half, h: sh)
            let right = PixelRect(x: x + half, y: y, w: half, h: sh)
            canvas.fill(.roundedRect(left, radius: radius, right: false), theme.tierColor(0))
            canvas.fill(.roundedRect(right, radius: radius, left: false), theme.tierColor(0))
            textX = Double(right.maxX) + 5 * s
        }
        canvas.text(legendText(item.kind), x: textX, y: r.centerY, align: .left,
                    style: TextStyle(size: min(11 * s, Double(r.h) * 0.55), color: theme.text))
    }

    // MARK: Minimap

    /// A thumbnail of the whole hall in the viewport's top-right corner with
    /// the visible part outlined, as Maoyan shows while zoomed.
    func drawMinimap(visible: PixelRect) {
        let pad = Int((8 * layout.scale).rounded())
        let maxW = Double(visible.w) * 0.32, maxH = Double(visible.h) * 0.32
        let f = min(maxW / Double(layout.width), maxH / Double(layout.height))
        guard f > 0 else { return }
        let w = max(1, Int((Double(layout.width) * f).rounded())), h = max(1, Int((Double(layout.height) * f).rounded()))
        let box = PixelRect(x: visible.maxX - pad - w, y: visible.y + pad, w: w, h: h)
        canvas.fill(.roundedRect(box, radius: 3 * layout.scale), theme.minimapBackground)
        let ox = Double(box.x), oy = Double(box.y)
        for cell in layout.cells where cell.isSeat {
            let r = cell.rect
            canvas.fill(.rect(ox + Double(r.x) * f, oy + Double(r.y) * f, max(0.5, Double(r.w) * f), max(0.5, Double(r.h) * f)),
                        fillColor(cell))
        }
        let v = PixelRect(x: visible.x, y: visible.y, w: visible.w, h: visible.h).intersection(layout.bounds)
        let lw = max(1, layout.scale)
        canvas.stroke(.rect(ox + Double(v.x) * f, oy + Double(v.y) * f, Double(v.w) * f, Double(v.h) * f),
                      theme.highlight, width: lw, dash: [])
    }
}

