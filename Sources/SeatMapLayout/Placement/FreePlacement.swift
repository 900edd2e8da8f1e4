import Foundation
import SeatMapCore

/// Free venues: seats at their own positions (zones, arcs and lines already
/// resolved by `VenueGeometry`), areas, row labels beside each row's first
/// and/or last seat, and levels stacked top to bottom, each under its title.
///
/// Exactness: a seat's box is `ceil(size × zoom × scale)` pixels (as on the
/// grid, so seats of one size are pixel-identical) with its top-left corner
/// at `round(position × zoom × scale)`; a turned seat is that box's rounded
/// rect turned about the box's centre, a round seat the circle inscribed in
/// it. Areas are paths through whole-pixel vertices (ellipses and circles
/// through their centre and radii). A tap hits a shape when the centre of
/// its device pixel is inside the shape as drawn, rounded corners included;
/// where shapes overlap, the one drawn last (seats over areas, later over
/// earlier) wins.
public struct FreePlacement: Placement {
    public let hall: Hall
    public let sizes: PixelSizes
    let style: LayoutStyle
    let s: Double
    /// Resolved seats by row and seat index.
    let resolved: [[ResolvedSeat]]
    /// The levels drawn (one, with `style.level`), and each level's extent
    /// in points and its pixel top relative to the box.
    let levels: [LevelBand]
    public let size: (w: Int, h: Int)

    struct LevelBand {
        var level: Int
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        /// Pixel offsets of the level's content from the box's top-left.
        var left: Int, top: Int
        var title: String?
    }

    public init(hall: Hall, sizes: PixelSizes, style: LayoutStyle, zoom: Double, scale: Double) {
        self.hall = hall
        self.sizes = sizes
        self.style = style
        s = zoom * scale
        let pitch = style.seatWidth + style.gapX
        resolved = VenueGeometry.seats(of: hall, pitch: pitch)
        let wanted = style.level.map { [$0] } ?? hall.levels
        var bands: [LevelBand] = []
        var extents: [Int: (Double, Double, Double, Double)] = [:]
        func grow(_ level: Int, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            let e = extents[level] ?? (x0, y0, x1, y1)
            extents[level] = (min(e.0, x0), min(e.1, y0), max(e.2, x1), max(e.3, y1))
        }
        for (r, row) in hall.rows.enumerated() {
            let level = VenueGeometry.level(ofSection: row.section, in: hall)
            for seat in resolved[r] {
                let reach = FreePlacement.reach(seat, style)
                grow(level, seat.centre.x - reach, seat.centre.y - reach, seat.centre.x + reach, seat.centre.y + reach)
            }
            // Room for the row's labels (`RowLabelPlacer` fits them inside).
            // (A pill is at most 85 % of a seat tall, as wide as its text.)
            let labelReach = max(0.85 * max(style.seatWidth, style.seatHeight),
                                 TextPlacement.estimatedWidth(row.label, size: style.rowLabelTextSize) + style.rowLabelTextSize) / 2
            let rowPitch = VenueGeometry.pitch(resolved[r].map(\.centre)) ?? pitch
            for p in FreePlacement.labelPoints(row, resolved[r], pitch: 1.2 * max(pitch, rowPitch)) {
                let reach = labelReach
                grow(level, p.x - reach, p.y - reach, p.x + reach, p.y + reach)
            }
        }
        for area in hall.areas {
            let level = VenueGeometry.level(ofSection: area.section, in: hall)
            let pts = FreePlacement.outlinePoints(area, zone: VenueGeometry.zone(of: area, in: hall))
            for p in pts { grow(level, p.x, p.y, p.x, p.y) }
        }
        let titled = wanted.count > 1
        let titleH = titled ? Layout.pixels(style.headerHeight, zoom: zoom, scale: scale) : 0
        let pad = 2
        var top = 0
        var width = 1
        for level in wanted {
            guard let e = extents[level] else { continue }
            let w = Int((e.2 * s).rounded(.up)) - Int((e.0 * s).rounded(.down)) + 2 * pad
            let h = Int((e.3 * s).rounded(.up)) - Int((e.1 * s).rounded(.down)) + 2 * pad
            bands.append(LevelBand(level: level, minX: e.0, minY: e.1, maxX: e.2, maxY: e.3, left: pad, top: top + titleH + pad,
                                   title: titled ? hall.levelName(level, in: style.locale ?? .standard) : nil))
            top += titleH + h
            width = max(width, w)
        }
        // Centre each level horizontally in the box.
        for k in bands.indices {
            let w = Int((bands[k].maxX * s).rounded(.up)) - Int((bands[k].minX * s).rounded(.down)) + 2 * pad
            bands[k].left = (width - w) / 2 + pad
        }
        levels = bands
        size = (width, max(1, top))
    }

    /// How far a seat's drawn shape can reach from its centre, in points.
    static func reach(_ seat: ResolvedSeat, _ style: LayoutStyle) -> Double {
        switch seat.shape {
        case .circle(let r): return r + 1
        case .rect(let w, let h):
            let hw = (w ?? style.seatWidth) / 2, hh = (h ?? style.seatHeight) / 2
            return (hw * hw + hh * hh).squareRoot() + 1
        }
    }

    /// The size of the box a turned shape's label may fill, in points, in
    /// the shape's own frame (nil for shapes that do not turn their label).
    static func localBox(_ area: Area) -> (w: Double, h: Double)? {
        switch area.shape {
        case .rect(_, _, let w, let h): return (w, h)
        // The rect inscribed in the ellipse with its proportions.
        case .ellipse(_, _, let rx, let ry): return (2 * rx * 0.7071, 2 * ry * 0.7071)
        default: return nil
        }
    }

    /// Where a row's labels may go (points, hall frame), for the map's extent:
    /// `pitch` before its first seat and/or after its last, along the row.
    static func labelPoints(_ row: Row, _ seats: [ResolvedSeat], pitch: Double) -> [Point] {
        guard let first = seats.first, let last = seats.last, row.labelPosition != .none else { return [] }
        /// The unit step from seat a to seat b, or nil when they coincide.
        func step(_ a: Point, _ b: Point) -> (Double, Double)? {
            let x = b.x - a.x, y = b.y - a.y, l = (x * x + y * y).squareRoot()
            return l > 0 ? (x / l, y / l) : nil
        }
        // Along the row at each end (a lone seat: along its own turn).
        let (c, s) = VenueGeometry.cosSin(first.rotation)
        let along = seats.count >= 2 ? step(first.centre, seats[1].centre) ?? (c, s) : (c, s)
        let alongEnd = seats.count >= 2 ? step(seats[seats.count - 2].centre, last.centre) ?? along : along
        let start = Point(x: first.centre.x - along.0 * pitch, y: first.centre.y - along.1 * pitch)
        let end = Point(x: last.centre.x + alongEnd.0 * pitch, y: last.centre.y + alongEnd.1 * pitch)
        switch row.labelPosition {
        case .start: return [start]
        case .end: return [end]
        case .both: return [start, end]
        case .none: return []
        }
    }

    /// Points of an area's outline in the hall's frame (ellipses and circles
    /// by their box's corners, turned), for extents.
    static func outlinePoints(_ area: Area, zone: ZonePlace) -> [Point] {
        let c = area.shape.centre
        var local: [Point]
        switch area.shape {
        case .rect(let x, let y, let w, let h):
            local = [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)]
        case .ellipse(let cx, let cy, let rx, let ry):
            local = [Point(x: cx - rx, y: cy - ry), Point(x: cx + rx, y: cy - ry), Point(x: cx + rx, y: cy + ry), Point(x: cx - rx, y: cy + ry)]
        case .circle(let cx, let cy, let r):
            // The square around it: turned by a zone, it still holds the circle.
            local = [Point(x: cx - r, y: cy - r), Point(x: cx + r, y: cy - r), Point(x: cx + r, y: cy + r), Point(x: cx - r, y: cy + r)]
        case .polygon(let ps): local = ps
        case .text(let x, let y, let size):
            let half = Double(max(1, area.label.count)) * size * 0.35
            local = [Point(x: x - half, y: y - size * 0.6), Point(x: x + half, y: y + size * 0.6)]
        }
        // Text turns about its anchor.
        if case .text(let x, let y, _) = area.shape {
            let box = [local[0], Point(x: local[1].x, y: local[0].y), local[1], Point(x: local[0].x, y: local[1].y)]
            return box.map { zone.apply(VenueGeometry.turn($0, about: Point(x: x, y: y), by: area.rotation)) }
        }
        return local.map { zone.apply(VenueGeometry.turn($0, about: c, by: area.rotation)) }
    }

    public func rowBands(originY y: Int) -> [RowBand] { [] }

    /// The level band a section's items are drawn in, or nil when its level is not drawn.
    func band(ofSection id: Int?) -> LevelBand? {
        let level = VenueGeometry.level(ofSection: id, in: hall)
        return levels.first(where: { $0.level == level })
    }

    public func place(atX ox: Int, y oy: Int, tiers: PriceTiers) -> PlacedItems {
        var cells: [LaidOutCell] = []
        var shapes: [HitShape] = []
        var polygonPoints: [Double] = []
        var areas: [LaidOutArea] = []

        /// Pixel position of a point of a level (continuous).
        func px(_ p: Point, _ b: LevelBand) -> (Double, Double) {
            (Double(ox + b.left) + p.x * s - (b.minX * s).rounded(.down), Double(oy + b.top) + p.y * s - (b.minY * s).rounded(.down))
        }

        // Areas first: they are drawn under the seats.
        for (k, area) in hall.areas.enumerated() {
            guard let b = band(ofSection: area.section) else { continue }
            let zone = VenueGeometry.zone(of: area, in: hall)
            let c = area.shape.centre
            let turnAll = { (p: Point) -> (Double, Double) in px(zone.apply(VenueGeometry.turn(p, about: c, by: area.rotation)), b) }
            var path = Path()
            var hit: HitShape? = nil
            var xs: [Double] = [], ys: [Double] = []
            switch area.shape {
            case .rect, .polygon:
                let local: [Point]
                if case .rect(let x, let y, let w, let h) = area.shape {
                    local = [Point(x: x, y: y), Point(x: x + w, y: y), Point(x: x + w, y: y + h), Point(x: x, y: y + h)]
                } else if case .polygon(let ps) = area.shape {
                    local = ps
                } else {
                    local = []
                }
                let start = polygonPoints.count / 2
                for (n, p) in local.enumerated() {
                    let (x, y) = turnAll(p)
                    let rx = x.rounded(), ry = y.rounded()
                    if n == 0 { path.move(rx, ry) } else { path.line(rx, ry) }
                    polygonPoints += [rx, ry]
                    xs.append(rx)
                    ys.append(ry)
                }
                path.close()
                hit = HitShape(kind: HitShape.polygon, target: Int32(k), cx: 0, cy: 0, hw: 0, hh: 0, cos: 1, sin: 0, radius: 0,
                               first: Int32(start), count: Int32(local.count))
            case .ellipse, .circle:
                var e = (cx: 0.0, cy: 0.0, rx: 1.0, ry: 1.0)
                if case .ellipse(let a, let b, let c, let d) = area.shape { e = (a, b, c, d) }
                if case .circle(let a, let b, let c) = area.shape { e = (a, b, c, c) }
                let (cx, cy) = px(zone.apply(Point(x: e.cx, y: e.cy)), b)
                let a = (area.rotation + zone.rotation) * .pi / 180
                let hx = e.rx * s, hy = e.ry * s
                path = Path.ellipse(cx, cy, hx, hy, angle: a)
                let reachX = (hx * hx * cos(a) * cos(a) + hy * hy * sin(a) * sin(a)).squareRoot()
                let reachY = (hx * hx * sin(a) * sin(a) + hy * hy * cos(a) * cos(a)).squareRoot()
                xs = [cx - reachX, cx + reachX]
                ys = [cy - reachY, cy + reachY]
                hit = HitShape(kind: HitShape.ellipse, target: Int32(k), cx: cx, cy: cy, hw: hx, hh: hy, cos: cos(a), sin: sin(a),
                               radius: 0, first: 0, count: 0)
            case .text(let x, let y, let size):
                let (tx, ty) = px(zone.apply(Point(x: x, y: y)), b)
                // Half the text's width: 0.7 em a character, wide (CJK) ones 1 em.
                let half = max(Double(max(1, area.label.count)) * size * s * 0.35, TextPlacement.estimatedWidth(area.label, size: size * s) / 2)
                xs = [tx - half, tx + half]
                ys = [ty - size * s * 0.6, ty + size * s * 0.6]
                let turn = (area.rotation + zone.rotation) * .pi / 180
                if turn != 0 {
                    // The turned text's box.
                    let e = turnedReach(half, size * s * 0.6, cos: cos(turn), sin: sin(turn))
                    xs = [tx - e.x, tx + e.x]
                    ys = [ty - e.y, ty + e.y]
                }
            }
            let x0 = Int((xs.min() ?? 0).rounded(.down)), y0 = Int((ys.min() ?? 0).rounded(.down))
            let rect = PixelRect(x: x0, y: y0, w: Int((xs.max() ?? 0).rounded(.up)) - x0 + 1, h: Int((ys.max() ?? 0).rounded(.up)) - y0 + 1)
            var text: TextPlacement? = nil
            // A rect's or ellipse's text turns with it; a text area by its own rotation.
            let turn = (area.rotation + zone.rotation).truncatingRemainder(dividingBy: 360)
            if case .text(let x, let y, let size) = area.shape {
                let (tx, ty) = px(zone.apply(Point(x: x, y: y)), b)
                text = TextPlacement(x: tx, y: ty, size: size * s, box: turn == 0 ? rect : nil)
                text?.rotation = turn
            } else if turn != 0, !area.label.isEmpty || area.isStanding, let local = FreePlacement.localBox(area) {
                // In the shape's own frame: the label's box is what the shape holds about its point.
                let at = area.labelAt ?? c
                let (tx, ty) = px(zone.apply(VenueGeometry.turn(at, about: c, by: area.rotation)), b)
                let halfW = max(0.5, (local.w / 2 - abs(at.x - c.x)) * s), halfH = max(0.5, (local.h / 2 - abs(at.y - c.y)) * s)
                let box = PixelRect(x: Int((tx - halfW).rounded(.up)), y: Int((ty - halfH).rounded(.up)),
                                    w: max(1, Int((2 * halfW).rounded(.down))), h: max(1, Int((2 * halfH).rounded(.down))))
                text = TextPlacement(x: tx, y: ty, size: area.labelSize.map { $0 * s } ?? min(style.legendTextSize * s * 1.2, Double(box.h) * 0.3), box: box)
                text?.rotation = turn
            } else if !area.label.isEmpty || area.isStanding {
                let (tx, ty) = px(zone.apply(area.labelAt ?? c), b)
                // The label stays inside the area's box, centred on its point.
                let halfW = min(tx - Double(rect.x), Double(rect.maxX) - tx), halfH = min(ty - Double(rect.y), Double(rect.maxY) - ty)
                let box = PixelRect(x: Int((tx - halfW).rounded(.up)), y: Int((ty - halfH).rounded(.up)),
                                    w: max(1, Int((2 * halfW).rounded(.down))), h: max(1, Int((2 * halfH).rounded(.down))))
                // The plan's own size, else one that suits the shape.
                text = TextPlacement(x: tx, y: ty, size: area.labelSize.map { $0 * s } ?? min(style.legendTextSize * s * 1.2, Double(rect.h) * 0.3), box: box)
            }
            if var h = hit {
                h.target = Int32(areas.count)
                shapes.append(h)
            }
            areas.append(LaidOutArea(index: k, id: area.id, area: area, path: path, rect: rect, text: text))
        }

        // Seats, row by row, in their order.
        let sw = sizes.seatWidth, sh = sizes.seatHeight
        let radius = style.cornerRadius * s
        var marks: [Int: (Int, Int, Int, Int)] = [:]
        var labelled: [(row: Int, cells: Range<Int>)] = []
        for (r, row) in hall.rows.enumerated() {
            guard let b = band(ofSection: row.section) else { continue }
            let firstCell = cells.count
            let rowTier = tiers.tier(of: row.price)
            for (j, seat) in row.seats.enumerated() where j < resolved[r].count {
                let rs = resolved[r][j]
                var w = sw, h = sh
                var shape = CellShape.box
                switch rs.shape {
                case .circle(let rad):
                    w = max(1, Layout.pixels(2 * rad, zoom: s, scale: 1))
                    h = w
                    shape = .circle
                case .rect(let rw, let rh):
                    if let rw { w = max(1, Layout.pixels(rw, zoom: s, scale: 1)) }
                    if let rh { h = max(1, Layout.pixels(rh, zoom: s, scale: 1)) }
                    let turn = rs.rotation.truncatingRemainder(dividingBy: 360)
                    if turn != 0 { shape = .rotated(turn * .pi / 180) }
                }
                let (pcx, pcy) = px(rs.centre, b)
                let own = PixelRect(x: Int((pcx - Double(w) / 2).rounded()), y: Int((pcy - Double(h) / 2).rounded()), w: w, h: h)
                var rect = own
                var hit = HitShape(kind: HitShape.roundedRect, target: Int32(cells.count), cx: own.centerX, cy: own.centerY,
                                   hw: Double(w) / 2, hh: Double(h) / 2, cos: 1, sin: 0,
                                   radius: max(0, min(radius, Double(min(w, h)) / 2)), first: 0, count: 0)
                switch shape {
                case .circle:
                    hit.kind = HitShape.circle
                    hit.radius = Double(w) / 2
                case .rotated(let a):
                    hit.cos = cos(a)
                    hit.sin = sin(a)
                    let (ex, ey) = turnedReach(hit.hw, hit.hh, cos: hit.cos, sin: hit.sin)
                    let x0 = Int((own.centerX - ex).rounded(.down)), y0 = Int((own.centerY - ey).rounded(.down))
                    rect = PixelRect(x: x0, y: y0, w: Int((own.centerX + ex).rounded(.up)) - x0, h: Int((own.centerY + ey).rounded(.up)) - y0)
                case .box: break
                }
                let price = seat.isSeat ? (seat.price ?? row.price) : nil
                if seat.isSeat { shapes.append(hit) }
                let m = marks[row.section] ?? (rect.x, rect.y, rect.maxX, rect.maxY)
                marks[row.section] = (min(m.0, rect.x), min(m.1, rect.y), max(m.2, rect.maxX), max(m.3, rect.maxY))
                cells.append(LaidOutCell(
                    row: row.number, column: seat.column, section: row.section,
                    rowLabel: row.label, seatLabel: seat.label, kind: seat.kind, type: seat.type,
                    price: price, tier: !seat.isSeat ? nil : seat.category == nil && seat.price == nil ? rowTier : tiers.tier(of: price, category: seat.category),
                    rect: rect, seatRect: own, outline: shape, externalID: seat.externalID))
            }
            if row.labelPosition != .none { labelled.append((r, firstCell..<cells.count)) }
        }

        var titles: [PlacedText] = []
        for b in levels {
            if let t = b.title {
                let h = Layout.pixels(style.headerHeight, zoom: s, scale: 1)
                titles.append(PlacedText(text: t, placement: TextPlacement(x: Double(ox) + Double(size.w) / 2,
                                                                           y: Double(oy + b.top) - Double(h) / 2,
                                                                           size: style.headerTextSize * s,
                                                                           box: PixelRect(x: ox, y: oy + b.top - h, w: size.w, h: h))))
            }
        }
        var zoneMarks: [ZoneMark] = []
        for section in hall.sections {
            guard let z = section.place, z.outline || (z.showName && !section.name.isEmpty), let m = marks[section.id] else { continue }
            let pad = Double(max(2, sw / 3))
            let r = (Double(m.0) - pad, Double(m.1) - pad, Double(m.2 - m.0) + 2 * pad, Double(m.3 - m.1) + 2 * pad)
            let outline = z.outline ? Stroke(path: .roundedRect(r.0 + 0.5, r.1 + 0.5, r.2 - 1, r.3 - 1, radius: radius * 2), width: 1) : nil
            let name = z.showName && !section.name.isEmpty
                ? PlacedText(text: section.name, placement: TextPlacement(
                    x: r.0 + r.2 / 2, y: r.1 - style.rowLabelTextSize * s * 0.8, size: style.rowLabelTextSize * s * 1.2,
                    box: PixelRect(x: Int(r.0.rounded(.up)), y: Int((r.1 - style.rowLabelTextSize * s * 1.6).rounded(.up)),
                                   w: max(1, Int(r.2.rounded(.down))), h: max(1, Int((style.rowLabelTextSize * s * 1.6).rounded(.down))))))
                : nil
            zoneMarks.append(ZoneMark(section: section.id, outline: outline, name: name))
        }
        let index = FreeIndex(originX: ox, originY: oy, width: size.w, height: size.h, cells: cells, shapes: shapes,
                              polygonPoints: polygonPoints, areaCount: areas.count,
                              bucket: max(8, max(sw, sh)))
        // Texts a row label keeps off: areas' text, level titles, zone names.
        var texts: [PixelRect] = areas.compactMap { a in a.text.map { $0.inkBox(a.area.label) } }
        texts += titles.map { $0.placement.inkBox($0.text) }
        texts += zoneMarks.compactMap { z in z.name.map { $0.placement.inkBox($0.text) } }
        let rowLabels = RowLabelPlacer(cells: cells, index: index, texts: texts, bounds: PixelRect(x: ox, y: oy, w: size.w, h: size.h),
                                       style: style, s: s).place(labelled.map { (hall.rows[$0.row], $0.cells) })
        return PlacedItems(cells: cells, index: .free(index), areas: areas, rowLabels: rowLabels, titles: titles, zones: zoneMarks)
    }
}
