import Foundation
import SeatMapCore

/// How far a box of half sizes `hw` × `hh`, turned by the angle whose
/// cosine and sine are given, reaches from its centre along x and y.
@inline(__always)
func turnedReach(_ hw: Double, _ hh: Double, cos c: Double, sin s: Double) -> (x: Double, y: Double) {
    (abs(hw * c) + abs(hh * s), abs(hw * s) + abs(hh * c))
}

/// How a cell's drawn shape relates to its boxes.
public enum CellShape: Sendable, Equatable {
    /// The grid's (and an unturned free rect's) rounded rect filling `seatRect`.
    case box
    /// A rounded rect of `seatRect`'s size turned by `radians` about its centre.
    case rotated(Double)
    /// The circle inscribed in `seatRect` (square).
    case circle
}

/// An area placed in pixels: its outline, how it is hit and where its text goes.
public struct LaidOutArea: Sendable, Equatable {
    /// Index in `Hall.areas`.
    public let index: Int
    public let id: String
    public let area: Area
    /// The drawn outline (empty for a text area).
    public let path: Path
    /// The box around the outline and its text.
    public let rect: PixelRect
    public let text: TextPlacement?
    /// Whether taps can land on it (text areas are decoration).
    public var isHittable: Bool {
        if case .text = area.shape { return false }
        return true
    }
    public var isStanding: Bool { area.isStanding }
}

/// A text the layout places that is not a seat's: level titles and zone names.
public struct PlacedText: Sendable, Equatable {
    public let text: String
    public let placement: TextPlacement
}

/// A zone's drawn outline and name (`outline` / `showName`).
public struct ZoneMark: Sendable, Equatable {
    public let section: Int
    public let outline: Stroke?
    public let name: PlacedText?
}

/// What a placement produces: its cells and the index that finds them, and
/// for free venues its areas, row labels at their rows' ends, level titles
/// and zone marks.
public struct PlacedItems: Sendable {
    public var cells: [LaidOutCell]
    public var index: SpatialIndex
    public var areas: [LaidOutArea] = []
    public var rowLabels: [RowLabelBox] = []
    public var titles: [PlacedText] = []
    public var zones: [ZoneMark] = []
}

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

/// One hit-testable shape of a free layout, in pixels.
struct HitShape: Sendable {
    static let roundedRect: UInt8 = 0, circle: UInt8 = 1, ellipse: UInt8 = 2, polygon: UInt8 = 3
    var cx: Double, cy: Double
    // Sizes and the turn in single precision (48 bytes a shape, so more of
    // the index stays in cache): half-pixel sizes are exact, a turn is good
    // to about 1e-5 pixel across a seat.
    private var hw32: Float, hh32: Float, cos32: Float, sin32: Float, radius32: Float
    /// A seat's index in `Layout.cells`, or an area's in `Layout.areas`.
    var target: Int32
    /// A polygon's points in `FreeIndex.polygonPoints` (pairs).
    var first: Int32
    var count: UInt16
    var kind: UInt8

    init(kind: UInt8, target: Int32, cx: Double, cy: Double, hw: Double, hh: Double, cos: Double, sin: Double, radius: Double,
         first: Int32, count: Int32) {
        self.kind = kind
        self.target = target
        self.cx = cx
        self.cy = cy
        hw32 = Float(hw)
        hh32 = Float(hh)
        cos32 = Float(cos)
        sin32 = Float(sin)
        radius32 = Float(radius)
        self.first = first
        self.count = UInt16(clamping: count)
    }

    var hw: Double { Double(hw32) }
    var hh: Double { Double(hh32) }
    var cos: Double {
        get { Double(cos32) }
        set { cos32 = Float(newValue) }
    }
    var sin: Double {
        get { Double(sin32) }
        set { sin32 = Float(newValue) }
    }
    var radius: Double {
        get { Double(radius32) }
        set { radius32 = Float(newValue) }
    }

    var isArea: Bool { kind == HitShape.ellipse || kind == HitShape.polygon }

    /// Whether a point (continuous pixels) is inside the shape as drawn, for
    /// every kind but polygons (`polygonContains`).
    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool {
        let dx = x - cx, dy = y - cy
        switch kind {
        case HitShape.roundedRect:
            let u = abs(dx * cos + dy * sin), v = abs(-dx * sin + dy * cos)
            guard u < hw && v < hh else { return false }
            let cu = u - (hw - radius), cv = v - (hh - radius)
            return cu <= 0 || cv <= 0 || cu * cu + cv * cv < radius * radius
        case HitShape.circle:
            return dx * dx + dy * dy < radius * radius
        case HitShape.ellipse:
            let u = (dx * cos + dy * sin) / hw, v = (-dx * sin + dy * cos) / hh
            return u * u + v * v < 1
        default:
            return false
        }
    }

    /// Non-zero winding, as Cairo and SVG fill.
    func polygonContains(_ x: Double, _ y: Double, _ points: [Double]) -> Bool {
        do {
            var winding = 0
            let n = Int(count), base = Int(first) * 2
            var px = points[base + 2 * (n - 1)], py = points[base + 2 * (n - 1) + 1]
            for k in 0..<n {
                let qx = points[base + 2 * k], qy = points[base + 2 * k + 1]
                if py <= y {
                    if qy > y && (qx - px) * (y - py) - (x - px) * (qy - py) > 0 { winding += 1 }
                } else if qy <= y && (qx - px) * (y - py) - (x - px) * (qy - py) < 0 {
                    winding -= 1
                }
                px = qx
                py = qy
            }
            return winding != 0
        }
    }
}

/// One shape's entry in one bucket, 16 bytes, so that a query reads its
/// bucket's short run and a small size table and nothing else: the centre in
/// half pixels from the bucket's corner (seat boxes are whole pixels, so a
/// centre is a half-pixel multiple: exact), the turn in single precision
/// (good to about 1e-5 pixel across a seat), and `code`: a size class (the
/// top 8 bits, an index in `FreeIndex.sizes`) and the seat's index in
/// `Layout.cells` (the low 24 bits). Class `wide` is any other shape (areas,
/// a seat beyond these ranges): the low bits index `FreeIndex.shapes`, tested
/// in double precision.
struct HitEntry: Sendable {
    static let classShift: UInt32 = 24
    static let valueMask: UInt32 = (1 << 24) - 1
    static let wide: UInt32 = 255
    var x: Int16, y: Int16
    var cos: Float, sin: Float
    var code: UInt32

    var sizeClass: UInt32 { code >> HitEntry.classShift }
    var value: Int { Int(code & HitEntry.valueMask) }
}

/// A seat size shared by entries: half sizes and corner radius (pixels),
/// single precision (half pixels are exact), or a circle of `radius`.
struct HitSize: Sendable, Hashable {
    var hw: Float, hh: Float, radius: Float
    var circle: Bool

    /// Whether a point relative to the seat's centre is inside.
    @inline(__always)
    func contains(_ dx: Float, _ dy: Float, _ cos: Float, _ sin: Float) -> Bool {
        if circle { return dx * dx + dy * dy < radius * radius }
        let u = abs(dx * cos + dy * sin), v = abs(-dx * sin + dy * cos)
        // Without branches: random taps make every branch here a coin toss.
        let cu = max(u - (hw - radius), 0), cv = max(v - (hh - radius), 0)
        let inBox = (u < hw ? 1 : 0) & (v < hh ? 1 : 0)
        let inCorner = cu * cu + cv * cv < radius * radius ? 1 : 0
        return inBox & inCorner != 0
    }
}

/// The free placement's index: uniform square buckets over the placed box,
/// each listing the shapes that may cover it in drawing order; a query tests
/// the bucket's shapes from the last drawn: O(1) expected. A class, so a
/// query retains one reference rather than each of its arrays.
public final class FreeIndex: Sendable {
    let originX: Int, originY: Int, width: Int, height: Int
    let bucket: Int, shift: Int, columns: Int, rows: Int
    let starts: [Int32]
    /// Each bucket's shapes, in drawing order, with what the test needs
    /// inline (so a query reads one bucket's run, not shapes all over memory).
    let entries: [HitEntry]
    /// Size classes of seat entries (at most 255).
    let sizes: [HitSize]

    let shapes: [HitShape]
    let polygonPoints: [Double]
    /// Cell index by (row, column).
    let byPosition: [Int: Int32]

    init(originX: Int, originY: Int, width: Int, height: Int, cells: [LaidOutCell], shapes: [HitShape],
         polygonPoints: [Double], areaCount: Int, bucket wanted: Int) {
        self.originX = originX
        self.originY = originY
        self.width = width
        self.height = height
        // A power of two (a query shifts instead of dividing), at most `wanted`.
        var shift = 3
        while 1 << (shift + 1) <= wanted { shift += 1 }
        while (width >> shift + 1) * (height >> shift + 1) > 4_000_000 { shift += 1 }
        let b = 1 << shift
        self.shift = shift
        bucket = b
        let columns = width / b + 1, rows = height / b + 1
        self.columns = columns
        self.rows = rows
        self.shapes = shapes
        self.polygonPoints = polygonPoints
        var byPosition: [Int: Int32] = [:]
        byPosition.reserveCapacity(cells.count)
        for (k, c) in cells.enumerated() { byPosition[c.row << 32 | c.column] = Int32(k) }
        self.byPosition = byPosition
        // Bucket ranges of each shape's box.
        func range(_ sh: HitShape, _ polygonPoints: [Double], _ originX: Int, _ originY: Int) -> (Int, Int, Int, Int) {
            var x0: Double, y0: Double, x1: Double, y1: Double
            if sh.kind == HitShape.polygon {
                x0 = .infinity; y0 = .infinity; x1 = -.infinity; y1 = -.infinity
                let base = Int(sh.first) * 2
                for k in 0..<Int(sh.count) {
                    x0 = min(x0, polygonPoints[base + 2 * k]); x1 = max(x1, polygonPoints[base + 2 * k])
                    y0 = min(y0, polygonPoints[base + 2 * k + 1]); y1 = max(y1, polygonPoints[base + 2 * k + 1])
                }
            } else {
                let e = sh.kind == HitShape.circle ? (sh.radius, sh.radius) : turnedReach(sh.hw, sh.hh, cos: sh.cos, sin: sh.sin)
                x0 = sh.cx - e.0; x1 = sh.cx + e.0; y0 = sh.cy - e.1; y1 = sh.cy + e.1
            }
            let c0 = max(0, min(columns - 1, (Int(x0.rounded(.down)) - originX) / b))
            let c1 = max(0, min(columns - 1, (Int(x1.rounded(.up)) - originX) / b))
            let r0 = max(0, min(rows - 1, (Int(y0.rounded(.down)) - originY) / b))
            let r1 = max(0, min(rows - 1, (Int(y1.rounded(.up)) - originY) / b))
            return (c0, c1, r0, r1)
        }
        let ranges = shapes.map { range($0, polygonPoints, originX, originY) }
        /// Whether a shape may cover bucket (c, r): a seat's turned rect or
        /// circle is tested against the bucket's square (separating axes);
        /// areas by their boxes.
        func meets(_ sh: HitShape, _ c: Int, _ r: Int) -> Bool {
            let x0 = Double(originX + c * b), y0 = Double(originY + r * b), x1 = x0 + Double(b), y1 = y0 + Double(b)
            switch sh.kind {
            case HitShape.circle:
                let dx = max(x0 - sh.cx, 0, sh.cx - x1), dy = max(y0 - sh.cy, 0, sh.cy - y1)
                return dx * dx + dy * dy <= sh.radius * sh.radius
            case HitShape.roundedRect:
                // The square's half size and centre, projected on the rect's axes.
                let h = Double(b) / 2, mx = x0 + h - sh.cx, my = y0 + h - sh.cy
                let co = sh.cos, si = sh.sin
                let squareOnU = h * (abs(co) + abs(si))
                if abs(mx * co + my * si) > sh.hw + squareOnU { return false }
                if abs(-mx * si + my * co) > sh.hh + squareOnU { return false }
                return true
            default:
                return true
            }
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        for (k, (c0, c1, r0, r1)) in ranges.enumerated() {
            for r in r0...r1 { for c in c0...c1 where meets(shapes[k], c, r) { counts[r * columns + c + 1] += 1 } }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts
        var entries = [HitEntry](repeating: HitEntry(x: 0, y: 0, cos: 1, sin: 0, code: 0), count: Int(counts[counts.count - 1]))
        var sizes: [HitSize] = []
        var sizeClass: [HitSize: UInt32] = [:]
        for (k, (c0, c1, r0, r1)) in ranges.enumerated() {
            let sh = shapes[k]
            // A seat gets a size class when its sizes and index fit one.
            var cls = HitEntry.wide
            if !sh.isArea && Int(sh.target) <= Int(HitEntry.valueMask) {
                let size = HitSize(hw: Float(sh.hw), hh: Float(sh.hh), radius: Float(sh.radius), circle: sh.kind == HitShape.circle)
                if let known = sizeClass[size] {
                    cls = known
                } else if sizes.count < Int(HitEntry.wide) {
                    cls = UInt32(sizes.count)
                    sizeClass[size] = cls
                    sizes.append(size)
                }
            }
            for r in r0...r1 {
                for c in c0...c1 where meets(sh, c, r) {
                    let slot = r * columns + c
                    // The centre in half pixels from the bucket's corner.
                    let hx = 2 * (sh.cx - Double(originX + c * b)), hy = 2 * (sh.cy - Double(originY + r * b))
                    let exact = hx == hx.rounded() && hy == hy.rounded() && abs(hx) <= Double(Int16.max) && abs(hy) <= Double(Int16.max)
                    let own = cls != HitEntry.wide && exact
                    entries[Int(fill[slot])] = HitEntry(
                        x: own ? Int16(hx) : 0, y: own ? Int16(hy) : 0, cos: Float(sh.cos), sin: Float(sh.sin),
                        code: own ? cls << HitEntry.classShift | UInt32(sh.target) : HitEntry.wide << HitEntry.classShift | UInt32(k))
                    fill[slot] += 1
                }
            }
        }
        starts = counts
        self.entries = entries
        self.sizes = sizes
    }

    @inline(__always)
    func cell(at i: Int, _ j: Int) -> CellHit {
        let dx = i - originX, dy = j - originY
        guard dx >= 0, dy >= 0, dx < width, dy < height else { return .outside }
        let bx = dx >> shift, by = dy >> shift
        let slot = by * columns + bx
        var k = Int(starts[slot + 1]) - 1
        let lo = Int(starts[slot])
        // The pixel centre relative to the bucket's corner.
        let lx = Float(dx - bx * bucket) + 0.5, ly = Float(dy - by * bucket) + 0.5
        while k >= lo {
            let e = entries[k]
            let cls = Int(e.sizeClass)
            if cls < sizes.count {
                if sizes[cls].contains(lx - Float(e.x) * 0.5, ly - Float(e.y) * 0.5, e.cos, e.sin) { return .seat(e.value) }
            } else if let hit = wideHit(e.value, i, j) {
                return hit
            }
            k -= 1
        }
        return .gap
    }

    /// A wide entry's answer for pixel (i, j), or nil when it misses.
    func wideHit(_ shape: Int, _ i: Int, _ j: Int) -> CellHit? {
        let sh = shapes[shape], x = Double(i) + 0.5, y = Double(j) + 0.5
        let inside = sh.kind == HitShape.polygon ? sh.polygonContains(x, y, polygonPoints) : sh.contains(x, y)
        guard inside else { return nil }
        return sh.isArea ? .area(Int(sh.target)) : .seat(Int(sh.target))
    }

    /// The seat (its index in `Layout.cells`) an entry stands for, or nil for an area.
    func seat(of e: HitEntry) -> Int? {
        if Int(e.sizeClass) < sizes.count { return e.value }
        let sh = shapes[e.value]
        return sh.isArea ? nil : Int(sh.target)
    }

    func cellIndexes(intersecting area: PixelRect, cells: [LaidOutCell]) -> [Int] {
        guard !area.isEmpty else { return [] }
        let c0 = max(0, (area.x - originX) / bucket - 1), c1 = min(columns - 1, (area.maxX - originX) / bucket + 1)
        let r0 = max(0, (area.y - originY) / bucket - 1), r1 = min(rows - 1, (area.maxY - originY) / bucket + 1)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var out = Set<Int>()
        for r in r0...r1 {
            for c in c0...c1 {
                let slot = r * columns + c
                for k in Int(starts[slot])..<Int(starts[slot + 1]) {
                    guard let t = seat(of: entries[k]) else { continue }
                    if cells[t].rect.intersects(area) { out.insert(t) }
                }
            }
        }
        // Aisles of free rows are never drawn or hit; they are not in the index.
        return out.sorted()
    }

    func cellIndex(row: Int, column: Int) -> Int? {
        byPosition[row << 32 | column].map { Int($0) }
    }

    /// Pairs of seats (cell indexes, lower first) whose drawn shapes share a
    /// pixel centre, in cell order.
    /// Stops after `limit` pairs; each pair is checked on at most about 4,096
    /// pixel centres of the boxes' overlap (evenly spread).
    func overlappingSeats(cells: [LaidOutCell], limit: Int = Int.max) -> [(Int, Int)] {
        var seatShape = [Int](repeating: 0, count: cells.count)
        for (k, sh) in shapes.enumerated() where !sh.isArea { seatShape[Int(sh.target)] = k }
        var pairs = Set<Int>()
        var out: [(Int, Int)] = []
        for slot in 0..<(columns * rows) {
            let run = Int(starts[slot])..<Int(starts[slot + 1])
            guard run.count > 1 else { continue }
            let seatsHere = run.compactMap { seat(of: entries[$0]).map { seatShape[$0] } }
            for (n, ka) in seatsHere.enumerated() {
                let sa = shapes[ka]
                for kb in seatsHere[(n + 1)...] {
                    let sb = shapes[kb]
                    let (i, j) = (min(Int(sa.target), Int(sb.target)), max(Int(sa.target), Int(sb.target)))
                    let key = i << 32 | j
                    guard !pairs.contains(key) else { continue }
                    let box = cells[i].rect.intersection(cells[j].rect)
                    guard !box.isEmpty else { continue }
                    var shared = false
                    let step = max(1, Int((Double(box.w) * Double(box.h) / 4096).squareRoot().rounded(.up)))
                    for y in stride(from: box.y, to: box.maxY, by: step) where !shared {
                        for x in stride(from: box.x, to: box.maxX, by: step)
                        where sa.contains(Double(x) + 0.5, Double(y) + 0.5) && sb.contains(Double(x) + 0.5, Double(y) + 0.5) {
                            shared = true
                            break
                        }
                    }
                    if shared {
                        pairs.insert(key)
                        out.append((i, j))
                        if out.count >= limit { return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) } }
                    }
                }
            }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }

    /// Distance from a point to a free seat's shape (0 inside): to the circle
    /// of a round seat, to the turned box of a turned one.
    static func distance(from x: Double, _ y: Double, to cell: LaidOutCell) -> Double {
        let own = cell.seatRect
        let dx = x - own.centerX, dy = y - own.centerY
        switch cell.outline {
        case .circle:
            return max(0, (dx * dx + dy * dy).squareRoot() - Double(own.w) / 2)
        case .rotated(let a):
            let u = abs(dx * cos(a) + dy * sin(a)) - Double(own.w) / 2, v = abs(-dx * sin(a) + dy * cos(a)) - Double(own.h) / 2
            let eu = max(u, 0), ev = max(v, 0)
            return (eu * eu + ev * ev).squareRoot()
        case .box:
            return own.distance(toX: x, y: y)
        }
    }

    func nearestSeat(_ x: Double, _ y: Double, within slop: Double, cells: [LaidOutCell]) -> Int? {
        let reach = Int(slop.rounded(.up)) + 1
        let area = PixelRect(x: Int(x.rounded(.down)) - reach, y: Int(y.rounded(.down)) - reach, w: 2 * reach + 1, h: 2 * reach + 1)
        var best: (d: Double, centre: Double, index: Int)? = nil
        for k in cellIndexes(intersecting: area, cells: cells) where cells[k].isSeat {
            let cell = cells[k]
            let d = FreeIndex.distance(from: x, y, to: cell)
            guard d <= slop else { continue }
            let cx = cell.seatRect.centerX - x, cy = cell.seatRect.centerY - y
            let centre = cx * cx + cy * cy
            if let b = best, (d, centre) >= (b.d, b.centre) { continue }
            best = (d, centre, k)
        }
        return best?.index
    }
}
