import Foundation
import SeatMapCore

/// The whole seat map in integer pixels for one style, zoom and scale: the
/// only place positions are computed.
///
/// The painter draws this value's items, the hit-tester queries its index,
/// and dirty rects are its items' rects: one geometry, so a tap lands on the
/// seat drawn under it. Every length is `ceil(points × zoom × scale)`; the
/// cells come from a `Placement` (the cinema grid, or a free venue's
/// positions, areas and levels) and the layout places the header, screen
/// (grid only), row labels and legend around them. The image
/// is exactly `width × height`, and image pixels are layout pixels.
public struct Layout: Sendable {
    /// Device pixels per point when none is given: 2, everywhere (the CLI,
    /// the service, `Scene`, snapshots), a phone's screen.
    public static let defaultScale: Double = 2
    public static let zoomRange: ClosedRange<Double> = 0.25...8
    /// How many times a chrome band or legend entry may grow to hold its text
    /// at `chromeMinTextSize` (zoom 0.25 needs about 3.3 at most).
    public static let maxChromeGrowth = 8.0
    /// A minimap is at most half the hall's own size.
    public static let maxMinimapFactor = 0.5
    public static let scaleRange: ClosedRange<Double> = 1...4

    public let zoom: Double
    public let scale: Double
    public let style: LayoutStyle
    /// "cinema · hall · start time" and the screen's text.
    public let title: String
    public let screenLabel: String
    /// The hall's currency (ISO 4217), for prices drawn and described.
    public let currency: String
    /// Section names for descriptions, when the hall has more than one.
    public let sectionLabels: [Int: String]

    /// Content (image) size in pixels.
    public let width: Int
    public let height: Int
    /// Seat size S × SH, column gap G and the row and column pitches.
    public let sizes: PixelSizes
    public var seatWidth: Int { sizes.seatWidth }
    public var seatHeight: Int { sizes.seatHeight }
    public var gapX: Int { sizes.gapX }
    public var gapY: Int { sizes.gapY }
    public var pitchX: Int { sizes.pitchX }
    public var pitchY: Int { sizes.pitchY }

    /// The box the placement lays its cells in (for the grid: every cell
    /// position, used or not), centred horizontally below the screen.
    public let gridX: Int
    public let gridY: Int
    public let gridRect: PixelRect

    /// Every cell in row, then column order.
    public let cells: [LaidOutCell]
    public let rowLabels: [RowLabelBox]
    /// Every section used by a cell, by id: the box around its cells.
    public let sections: [SectionBox]
    public let header: PixelRect?
    public let headerText: TextPlacement?
    /// The screen's box, its outline and inner shapes, and its text.
    public let screen: PixelRect
    public let screenOutline: Path
    public let screenFace: Path
    public let screenText: TextPlacement
    /// x of the centre line: the middle of the seat grid (rounded down).
    public let centerX: Int
    /// The centre line's dashes, from the screen to the last row.
    public let centerLine: [PixelRect]
    public let legend: PixelRect?
    public let legendItems: [LegendItem]
    /// The hall's price tiers, ascending.
    public let tiers: PriceTiers
    /// Finds the cell at a pixel (the placement's own index).
    public let index: SpatialIndex
    /// Free venues: areas (drawn under the seats, in order), level titles
    /// and zone outlines and names. Empty for the cinema grid.
    public let areas: [LaidOutArea]
    public let titles: [PlacedText]
    public let zones: [ZoneMark]
    /// Whether this is a free venue's layout (no screen band or centre line:
    /// a stage is an area).
    public let isFree: Bool

    /// Pixels per point.
    public var pixelsPerPoint: Double { zoom * scale }

    /// Pixels for a length in points: `ceil(points × zoom × scale)`. A
    /// tolerance of 1e-9 keeps products such as 0.1 × 30 from rounding up
    /// past the whole number they stand for.
    public static func pixels(_ points: Double, zoom: Double, scale: Double) -> Int {
        let v = points * zoom * scale
        return Int((v - 1e-9).rounded(.up))
    }

    /// The one way to get a layout: a hall, a style (a theme's, with the
    /// command's `--no-header` / `--no-legend`), a zoom and a scale. Its
    /// words are in `locale` when given, else the style's, else the hall's,
    /// else zh-Hans.
    public init(hall: Hall, style given: LayoutStyle = LayoutStyle(), zoom: Double = 1, scale: Double = Layout.defaultScale,
                locale: SeatMapLocale? = nil) throws(SeatMapError) {
        var style = given
        if let locale { style.locale = locale }
        if style.locale == nil { style.locale = hall.locale.flatMap { try? SeatMapLocale.named($0) } ?? .standard }
        guard zoom.isFinite, Layout.zoomRange.contains(zoom) else {
            throw SeatMapError("{{zoom}} \(LayoutJSON.format(zoom)) is outside \(LayoutJSON.format(Layout.zoomRange.lowerBound))…\(LayoutJSON.format(Layout.zoomRange.upperBound))")
        }
        guard scale.isFinite, Layout.scaleRange.contains(scale) else {
            throw SeatMapError("{{scale}} \(LayoutJSON.format(scale)) is outside \(LayoutJSON.format(Layout.scaleRange.lowerBound))…\(LayoutJSON.format(Layout.scaleRange.upperBound))")
        }
        self.zoom = zoom
        self.scale = scale
        self.style = style
        title = [hall.cinemaName, hall.hallName, hall.movieStartTime].filter { !$0.isEmpty }.joined(separator: " · ")
        // The default screen text is the locale's; a hall's own stays as written.
        screenLabel = hall.screenLabel == Hall.defaultScreenLabel ? (style.locale ?? .standard).text("screen") : hall.screenLabel
        currency = hall.currency
        sectionLabels = hall.sectionLabels
        let s = zoom * scale
        let px = { (pt: Double) in Layout.pixels(pt, zoom: zoom, scale: scale) }

        sizes = PixelSizes(style, px: px)
        isFree = hall.isFree
        if let level = style.level, !hall.levels.contains(level) {
            throw SeatMapError("{{level}} \(level): the hall has no level \(level) (levels: \(hall.levels.map(String.init).joined(separator: ", ")))")
        }
        let placement = Layout.placement(for: hall, sizes: sizes, style: style, zoom: zoom, scale: scale)
        let (gridW, gridH) = placement.size

        let margin = px(style.margin)
        // Chrome text never shrinks below `chromeMinTextSize` × scale; its
        // bands and legend entries grow with it (factor ≥ 1).
        let chromeMin = style.chromeMinTextSize * scale
        // At most `maxChromeGrowth` times: a theme's odd sizes (a 0.000001 pt
        // screen text, a 1000 pt minimum) cannot blow a band up without bound.
        func growth(_ points: Double) -> Double { points > 0 ? min(Layout.maxChromeGrowth, max(1, chromeMin / (points * s))) : 1 }
        func grown(_ pixels: Int, _ g: Double) -> Int { g == 1 ? pixels : Int((Double(pixels) * g).rounded(.up)) }
        // The row-label gutter grows to hold the longest label at its size
        // (estimated), up to `rowLabelMaxGrowth` gutters.
        let bandsFromTop = placement.rowBands(originY: 0)
        let longest = bandsFromTop.map { TextPlacement.estimatedWidth($0.label, size: style.rowLabelTextSize) }.max() ?? 0
        let gutterPoints = min(style.rowLabelGutter * max(1, style.rowLabelMaxGrowth),
                               max(style.rowLabelGutter, longest / 0.75 + style.rowLabelSpacing))
        let gutter = isFree ? 0 : px(gutterPoints)
        width = max(px(style.minContentWidth), 2 * margin + 2 * gutter + gridW)
        gridX = (width - gridW) / 2

        var y = margin
        if style.header {
            let g = growth(style.headerTextSize)
            let r = PixelRect(x: margin, y: y, w: width - 2 * margin, h: grown(px(style.headerHeight), g))
            header = r
            headerText = TextPlacement(x: r.centerX, y: r.centerY, size: style.headerTextSize * s * g, box: r, minSize: chromeMin)
            y += r.h
        } else {
            header = nil
            headerText = nil
        }
        // The screen is 5/11 of its band and its text 0.55 of the screen.
        let screenGrowth = growth(style.screenTextSize)
        let band = isFree ? px(style.legendTopGap)
            : screenGrowth == 1 ? px(style.screenBandHeight)
            : min(grown(px(style.screenBandHeight), Layout.maxChromeGrowth),
                  max(grown(px(style.screenBandHeight), screenGrowth), Int((chromeMin / 0.55 * 11 / 5).rounded(.up)) + 2))
        centerX = gridX + gridW / 2
        let screenW = min(width - 2 * margin, max(gridW, px(style.screenMinWidth)))
        screen = isFree ? .zero : PixelRect(x: centerX - screenW / 2, y: y, w: screenW, h: max(1, band * 5 / 11))
        (screenOutline, screenFace) = Layout.screenShapes(screen, inset: style.screenInset * s,
                                                          line: max(1, (style.screenOutlineWidth * s).rounded()))
        let faceInset = Int((style.screenInset * s).rounded(.up))
        screenText = TextPlacement(x: screen.centerX, y: Double(screen.y) + Double(screen.h) * 0.58,
                                   size: min(style.screenTextSize * s * growth(style.screenTextSize), Double(screen.h) * 0.55),
                                   box: PixelRect(x: screen.x + faceInset, y: screen.y, w: max(1, screen.w - 2 * faceInset), h: screen.h),
                                   minSize: chromeMin)
        y += band
        gridY = y
        gridRect = PixelRect(x: gridX, y: gridY, w: gridW, h: gridH)
        y += gridH
        centerLine = isFree ? [] : Layout.dashes(x: centerX, from: screen.maxY, to: gridRect.maxY,
                                   width: max(1, Int((style.centerLineWidth * s).rounded())),
                                   dash: max(1, Int((style.centerLineDash * s).rounded())),
                                   space: max(1, Int((style.centerLineSpace * s).rounded())))

        tiers = PriceTiers(hall)
        let placed = placement.place(atX: gridX, y: gridY, tiers: tiers)
        cells = placed.cells
        index = placed.index
        seatInkReach = Layout.seatInkReach(isFree: isFree, cells: cells,
                                           numberSize: Double(max(sizes.seatWidth, sizes.seatHeight)) * Layout.numberFraction)
        areas = placed.areas
        titles = placed.titles
        zones = placed.zones
        sections = Layout.sectionBoxes(cells, hall)

        let labelW = max(1, gutter - px(style.rowLabelSpacing))
        var labels: [RowLabelBox] = placed.rowLabels
        labels.reserveCapacity(bandsFromTop.count * (style.rowLabelsRight ? 2 : 1))
        for top in bandsFromTop {
            let b = RowBand(row: top.row, label: top.label, y: top.y + gridY, h: top.h)
            labels.append(Layout.rowLabel(b, PixelRect(x: gridX - gutter, y: b.y, w: labelW, h: b.h), style: style, s: s))
            if style.rowLabelsRight {
                labels.append(Layout.rowLabel(b, PixelRect(x: gridX + gridW + gutter - labelW, y: b.y, w: labelW, h: b.h),
                                              style: style, s: s))
            }
        }
        rowLabels = labels

        if style.legend {
            y += px(style.legendTopGap)
            // In one pass over the seats: the tiers drawn (all of the hall's,
            // or with `level` only that level's; each keeps its hall-wide
            // index, so its colour is the same in every level's picture) and
            // the tiers each listed seat type is in.
            var drawn = Set<Int>()
            var typeTiers: [SeatType: Set<Int>] = [:]
            for c in placed.cells where c.isSeat {
                guard let t = c.tier else { continue }
                drawn.insert(t)
                if LegendItem.Kind.seatTypes.contains(c.type) { typeTiers[c.type, default: []].insert(t) }
            }
            for a in placed.areas where a.isStanding { if let t = tiers.tier(of: a.area.price) { drawn.insert(t) } }
            // Categories drawn in one colour are one entry (its text names them all).
            var kinds: [LegendItem.Kind] = []
            var listed = Set<Int>()
            for (t, price) in tiers.prices.enumerated() where drawn.contains(t) && !listed.contains(t) {
                kinds.append(.tier(t, price))
                listed.formUnion(tiers.sharingColor(with: t))
            }
            if placed.areas.contains(where: \.isStanding) { kinds.append(.standing) }
            // Every sale status (statuses change live: the legend, like every
            // box, is the same for every state of the hall); seat types only
            // where the hall has them (`legendAll`: every type).
            kinds += [.locked, .sold, .selected]
            for type in LegendItem.Kind.seatTypes {
                let tiers = typeTiers[type].map { $0.sorted() } ?? (style.legendAll ? [0] : [])
                kinds += tiers.compactMap { LegendItem.Kind.seats(type, tier: $0) }
            }
            // Sections the map names and outlines, when there are several.
            let outlined = placed.zones.filter { $0.outline != nil && $0.name != nil }
            if outlined.count >= 2 { kinds += outlined.map { .section($0.section) } }
            let g = growth(style.legendTextSize)
            let itemW = grown(px(style.legendItemWidth), g)
            let itemH = grown(px(style.legendItemHeight), g)
            // A category's entry is as wide as its words need (TextPlacement's estimate, after
            // the swatch; the text is still fitted to its box); every other one is itemW.
            let room = max(1, width - 2 * margin)
            let locale = style.locale ?? .standard, kindTiers = tiers, currency = hall.currency
            let em = style.legendTextSize * s * g, inset = Int(style.legendSwatchInset * s * g)
            var widths: [Int] = []
            for kind in kinds {
                guard case .tier(let t, _) = kind, kindTiers.sharingColor(with: t).contains(where: { kindTiers.categories[$0] != nil }) else {
                    widths.append(itemW)
                    continue
                }
                let words = Layout.tierText(t, kindTiers, money: { locale.money($0, currency: currency) }, locale: locale)
                let need = Int(TextPlacement.estimatedWidth(words, size: em).rounded(.up)) + itemH + 2 * inset
                widths.append(min(room, max(itemW, need)))
            }
            var items: [LegendItem] = []
            var start = 0
            var line = 0
            while start < kinds.count {
                var n = 1, lineW = widths[start]
                while start + n < kinds.count && lineW + widths[start + n] <= room { lineW += widths[start + n]; n += 1 }
                let x0 = (width - lineW) / 2
                // Right-to-left locales read the legend from the right.
                let rtl = style.locale?.rightToLeft == true
                var x = rtl ? x0 + lineW : x0
                for k in 0..<n {
                    let w = widths[start + k]
                    if rtl { x -= w }
                    let r = PixelRect(x: x, y: y + line * itemH, w: w, h: itemH)
                    if !rtl { x += w }
                    items.append(Layout.legendItem(kinds[start + k], r, sizes: sizes, style: style, s: s * g, minSize: chromeMin))
                }
                start += n
                line += 1
            }
            legend = PixelRect(x: margin, y: y, w: width - 2 * margin, h: line * itemH)
            legendItems = items
            y += line * itemH
        } else {
            legend = nil
            legendItems = []
        }
        height = y + margin
    }

    // MARK: Items

    /// The placement that lays out this hall's cells: a free venue's (seats
    /// at positions, row paths, areas) or the cinema grid.
    static func placement(for hall: Hall, sizes: PixelSizes, style: LayoutStyle, zoom: Double, scale: Double) -> any Placement {
        hall.isFree ? FreePlacement(hall: hall, sizes: sizes, style: style, zoom: zoom, scale: scale) : GridPlacement(hall: hall, sizes: sizes, style: style, pixelsPerPoint: zoom * scale)
    }

    /// The box around each section's cells, sections in id order.
    static func sectionBoxes(_ cells: [LaidOutCell], _ hall: Hall) -> [SectionBox] {
        var boxes: [Int: (x0: Int, y0: Int, x1: Int, y1: Int)] = [:]
        var current: (id: Int, x0: Int, y0: Int, x1: Int, y1: Int)? = nil
        func flush() {
            guard let c = current else { return }
            let b = boxes[c.id] ?? (c.x0, c.y0, c.x1, c.y1)
            boxes[c.id] = (min(b.x0, c.x0), min(b.y0, c.y0), max(b.x1, c.x1), max(b.y1, c.y1))
        }
        // Cells come row by row, so a section's cells are long runs: one
        // dictionary update per run, plain comparisons per cell.
        for cell in cells {
            let r = cell.rect
            if let c = current, c.id == cell.section {
                current = (c.id, min(c.x0, r.x), min(c.y0, r.y), max(c.x1, r.maxX), max(c.y1, r.maxY))
            } else {
                flush()
                current = (cell.section, r.x, r.y, r.maxX, r.maxY)
            }
        }
        flush()
        return boxes.keys.sorted().compactMap { id in
            boxes[id].map { SectionBox(id: id, name: hall.sectionName(id), rect: PixelRect(x: $0.x0, y: $0.y0, w: $0.x1 - $0.x0, h: $0.y1 - $0.y0)) }
        }
    }

    static func rowLabel(_ band: RowBand, _ r: PixelRect, style: LayoutStyle, s: Double) -> RowLabelBox {
        let pillW = max(1, Int((Double(r.w) * 0.75).rounded()))
        let pill = PixelRect(x: r.x + (r.w - pillW) / 2, y: r.y, w: pillW, h: r.h)
        return RowLabelBox(row: band.row, label: band.label, rect: r, pill: pill,
                           textSize: min(style.rowLabelTextSize * s, Double(r.h) * 0.6, Double(pillW) * 0.8))
    }

    static func legendItem(_ kind: LegendItem.Kind, _ r: PixelRect, sizes: PixelSizes, style: LayoutStyle, s: Double,
                           minSize: Double) -> LegendItem {
        let sh = max(2, Int((Double(r.h) * 0.6).rounded()))
        let sw = max(2, Int((Double(sh) * Double(sizes.seatWidth) / Double(max(1, sizes.seatHeight))).rounded()))
        let inset = Int((style.legendSwatchInset * s).rounded())
        let isCouple = kind.seatType == .coupleLeft
        let wide = isCouple ? 2 * sw : sw
        // Right to left: the swatch at the item's right, the text before it.
        let rtl = style.locale?.rightToLeft == true
        let x = rtl ? r.maxX - inset - wide : r.x + inset
        let y = r.y + (r.h - sh) / 2
        let radius = style.cornerRadius * s * Double(sh) / Double(max(1, sizes.seatHeight))
        let first = PixelRect(x: x, y: y, w: sw, h: sh)
        var shapes = [Path.roundedRect(first, radius: radius)]
        if isCouple {
            let second = PixelRect(x: x + sw, y: y, w: sw, h: sh)
            shapes = [.roundedRect(first, radius: radius, right: false), .roundedRect(second, radius: radius, left: false)]
        }
        let gap = style.legendTextGap * s
        return LegendItem(kind: kind, rect: r, swatch: shapes, markBox: rtl && isCouple ? PixelRect(x: x + sw, y: y, w: sw, h: sh) : first,
                          text: TextPlacement(x: rtl ? Double(x) - gap : Double(x + wide) + gap, y: r.centerY, align: rtl ? .right : .left,
                                              size: min(style.legendTextSize * s, Double(r.h) * 0.55),
                                              // From the swatch to the entry's far edge (the gap takes a glyph's overhang).
                                              box: rtl ? PixelRect(x: r.x, y: r.y, w: max(1, x - r.x), h: r.h)
                                                       : PixelRect(x: x + wide, y: r.y, w: max(1, r.maxX - x - wide), h: r.h),
                                              minSize: minSize))
    }

    /// The screen: a band with a gently curved top edge, narrowing towards
    /// the seats, as an outline shape and the face drawn over it `line`
    /// pixels in. Built from straight segments to be filled: large strokes
    /// and curves are flattened by Cairo differently when part of them lies
    /// off-surface, and a viewport must match the full render pixel for pixel.
    static func screenShapes(_ r: PixelRect, inset insetPoints: Double, line: Double) -> (Path, Path) {
        let x = Double(r.x), y = Double(r.y), w = Double(r.w), h = Double(r.h)
        let inset = min(w * 0.06, insetPoints)
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
        return (shape(0), shape(line))
    }

    /// Whole-pixel dashes down a vertical line, so they are crisp and the
    /// same in every region drawn.
    static func dashes(x: Int, from top: Int, to bottom: Int, width: Int, dash: Int, space: Int) -> [PixelRect] {
        var out: [PixelRect] = []
        var y = top
        while y < bottom {
            out.append(PixelRect(x: x, y: y, w: width, h: min(dash, bottom - y)))
            y += dash + space
        }
        return out
    }

    /// A seat's drawn (and hit) shape: its rect with rounded corners; couple
    /// halves round only their outer side, so the pair reads as one piece.
    public func shape(of cell: LaidOutCell) -> Path {
        let own = cell.seatRect
        switch cell.outline {
        case .box where isFree:
            return .roundedRect(own, radius: style.cornerRadius * pixelsPerPoint)
        case .box:
            return .roundedRect(cell.rect, radius: style.cornerRadius * pixelsPerPoint,
                                left: cell.type != .coupleRight, right: cell.type != .coupleLeft)
        case .rotated(let a):
            return Path.roundedRect(own, radius: style.cornerRadius * pixelsPerPoint).rotated(by: a, aboutX: own.centerX, y: own.centerY)
        case .circle:
            return .circle(own.centerX, own.centerY, Double(own.w) / 2)
        }
    }

    /// The box a seat's marks (check, cross, hatching, wheelchair) are drawn
    /// in: its own box, or for a turned or round seat the square inside its
    /// shape, so no mark reaches past the shape (and a tap on a mark is a tap
    /// on the seat).
    public func markBox(of cell: LaidOutCell) -> PixelRect {
        let own = cell.seatRect
        if case .box = cell.outline { return own }
        let side = max(1, Int((Double(min(own.w, own.h)) * 0.65).rounded(.down)))
        return PixelRect(x: own.x + (own.w - side) / 2, y: own.y + (own.h - side) / 2, w: side, h: side)
    }

    /// A seat number's size, as a fraction of the seat's smaller side.
    static let numberFraction = 0.42

    /// Where a seat's number goes, or nil when seats are too small for numbers.
    public func numberText(of cell: LaidOutCell) -> TextPlacement? {
        guard Double(seatWidth) >= style.seatNumberMinPixels else { return nil }
        let own = cell.seatRect
        return TextPlacement(x: own.centerX, y: own.centerY, size: min(Double(own.h), Double(own.w)) * Layout.numberFraction, box: own)
    }

    /// The e-ticket outline of a highlighted seat: an outer ring (in the
    /// highlight colour) and a thin inner ring (in the background colour),
    /// stroked inside the rect so they never touch a neighbour.
    public func highlightRings(of cell: LaidOutCell) -> [Stroke] {
        let s = pixelsPerPoint
        let lw = max(2, (style.highlightWidth * s).rounded())
        let r = isFree ? cell.seatRect : cell.rect
        if isFree {
            return [(lw / 2, lw), (lw * 1.25, lw / 2)].map { inset, width in
                let path: Path
                switch cell.outline {
                case .circle: path = .circle(r.centerX, r.centerY, max(0, Double(r.w) / 2 - inset))
                case .box, .rotated:
                    let p = Path.roundedRect(Double(r.x) + inset, Double(r.y) + inset, Double(r.w) - 2 * inset, Double(r.h) - 2 * inset,
                                             radius: max(0, style.cornerRadius * s - inset))
                    if case .rotated(let a) = cell.outline { path = p.rotated(by: a, aboutX: r.centerX, y: r.centerY) } else { path = p }
                }
                return Stroke(path: path, width: width)
            }
        }
        return [(lw / 2, lw), (lw * 1.25, lw / 2)].map { inset, width in
            Stroke(path: .roundedRect(Double(r.x) + inset, Double(r.y) + inset, Double(r.w) - 2 * inset, Double(r.h) - 2 * inset,
                                      radius: max(0, style.cornerRadius * s - inset),
                                      left: cell.type != .coupleRight, right: cell.type != .coupleLeft),
                   width: width)
        }
    }

    /// The minimap for a visible region: in its top-right corner, the hall's
    /// shape at most `minimapFraction` of the region's width and height and
    /// at most half the hall's own size (a thumbnail, never larger than the
    /// map); nil when the region shows the whole hall (nothing to find) or
    /// it would be empty.
    public func minimap(visible: PixelRect) -> Minimap? {
        guard visible.intersection(bounds) != bounds else { return nil }
        let pad = Int((style.minimapPadding * scale).rounded())
        let maxW = Double(visible.w) * style.minimapFraction, maxH = Double(visible.h) * style.minimapFraction
        let f = min(maxW / Double(width), maxH / Double(height), Layout.maxMinimapFactor)
        guard f > 0 else { return nil }
        let w = max(1, Int((Double(width) * f).rounded())), h = max(1, Int((Double(height) * f).rounded()))
        let box = PixelRect(x: visible.maxX - pad - w, y: visible.y + pad, w: w, h: h)
        let v = visible.intersection(bounds)
        let ox = Double(box.x), oy = Double(box.y)
        return Minimap(box: box, cornerRadius: style.minimapCornerRadius * scale, factor: f,
                       outline: Stroke(path: .rect(ox + Double(v.x) * f, oy + Double(v.y) * f, Double(v.w) * f, Double(v.h) * f),
                                       width: max(1, scale)))
    }

    /// The row labels a phone view keeps at its edges (`--pin-row-labels`):
    /// every label whose row meets `visible`, each moved sideways by `dx` so
    /// that none is closer to the view's edge than `rowLabelSpacing` once the
    /// view has scrolled past it (left labels to the left edge; the right
    /// column, with `rowLabelsRight`, to the right edge). At rest (`dx == 0`)
    /// a label is the full render's. Free venues label rows beside each
    /// block and pin nothing.
    public func pinnedRowLabels(visible: PixelRect) -> [(dx: Int, label: RowLabelBox)] {
        guard !isFree else { return [] }
        let pad = Int((style.rowLabelSpacing * pixelsPerPoint).rounded())
        let middle = gridRect.centerX
        let left = rowLabels.filter { $0.rect.centerX < middle }, right = rowLabels.filter { $0.rect.centerX >= middle }
        let dxLeft = left.first.map { max(0, visible.x + pad - $0.rect.x) } ?? 0
        let dxRight = right.first.map { min(0, visible.maxX - pad - $0.rect.maxX) } ?? 0
        return rowLabels.filter { $0.rect.y < visible.maxY && $0.rect.maxY > visible.y }.map { label in
            let dx = label.rect.centerX < middle ? dxLeft : dxRight
            return (dx, dx == 0 ? label : label.shifted(dx))
        }
    }

    /// Where a part of the map (all of it by default) goes on a page of
    /// `width × height` points: centred inside `margin`, scaled (points per
    /// layout pixel) to fit.
    public func placement(of part: PixelRect? = nil, onPage width: Double, _ height: Double,
                          margin: Double) -> (x: Double, y: Double, scale: Double) {
        let r = part ?? bounds
        let f = min((width - 2 * margin) / Double(r.w), (height - 2 * margin) / Double(r.h))
        return ((width - Double(r.w) * f) / 2, (height - Double(r.h) * f) / 2, f)
    }

    /// How far beyond a region a partial render must draw before cropping:
    /// a small shape (a seat, a label) that crosses the edge of a surface is
    /// rasterised slightly differently from a whole one, so a region is drawn
    /// with a seat's size (and a little) to spare. Large shapes are built so
    /// that this does not touch them (see `screenShapes`).
    public var regionPadding: Int { max(seatWidth, seatHeight) + 8 }

    /// How far what is drawn for a seat can reach past its cell's `rect`,
    /// or nil when that is not bounded. In a grid hall the shape, marks and
    /// rings lie within the rect; a number is fitted to the seat by its
    /// advance and the font's line, and its ink may overhang that by a
    /// glyph's side bearing or an accent: a whole em of the number's size
    /// (and 8 px) is allowed. Combining marks stack without limit, so a
    /// hall whose seat labels have any is unbounded, as is a free venue
    /// (its turned seats reach past their rects).
    public let seatInkReach: Int?

    static func seatInkReach(isFree: Bool, cells: [LaidOutCell], numberSize: Double) -> Int? {
        guard !isFree else { return nil }
        for cell in cells where cell.isSeat {
            for u in cell.seatLabel.unicodeScalars where u.value >= 0x300 {
                switch u.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .spacingMark: return nil
                default: continue
                }
            }
        }
        return 8 + Int(numberSize.rounded(.up))
    }

    // MARK: Queries

    /// Seats only (statuses 0–2), in row, then column order.
    public var seats: [LaidOutCell] { cells.filter(\.isSeat) }

    /// The cell with this id, or nil: the id names its grid position, so
    /// this is an index lookup, not a search.
    public func cell(id: SeatID) -> LaidOutCell? {
        guard let k = index.cellIndex(row: id.row, column: id.column), cells[k].section == id.section else { return nil }
        return cells[k]
    }

    /// The cell at a grid position (1-based), or nil for empty floor.
    public func cell(row: Int, column: Int) -> LaidOutCell? {
        index.cellIndex(row: row, column: column).map { cells[$0] }
    }

    /// Indexes into `cells` of the cells whose rects meet `area`, in cell
    /// order. Found through the index: the cost follows the area, not the hall.
    public func cellIndexes(intersecting area: PixelRect) -> [Int] {
        index.cellIndexes(intersecting: area, cells: cells)
    }

    /// Seats whose drawn shapes overlap (free venues; grid seats never do),
    /// as id pairs in seat order: `validate` warns about them at zoom 1.
    /// At most `limit` pairs (the first found, in seat order).
    public func overlappingSeats(limit: Int = Int.max) -> [(SeatID, SeatID)] {
        guard case .free(let f) = index else { return [] }
        return f.overlappingSeats(cells: cells, limit: limit).map { (cells[$0.0].id, cells[$0.1].id) }
    }

    /// The content rect of everything (the whole image).
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, w: width, h: height) }

    /// A cell's description in the layout's locale: `3排5座`, `Row 3, Seat 5`,
    /// with its section's name when the hall has more than one.
    public func describe(_ cell: LaidOutCell) -> String {
        locale.seat(row: cell.rowLabel, seat: cell.seatLabel, section: sectionLabels[cell.section])
    }

    /// A tier's legend words: its price, after its category's name when it
    /// has one; with every category drawn in the same colour
    /// ("Parkett vorne 45,00 €, Parkett mitte 40,00 €").
    public func tierText(_ t: Int) -> String { Layout.tierText(t, tiers, money: money, locale: locale) }

    static func tierText(_ t: Int, _ tiers: PriceTiers, money: (Decimal) -> String, locale: SeatMapLocale) -> String {
        guard tiers.prices.indices.contains(t) else { return "" }
        let words = tiers.sharingColor(with: t).map { u in
            // A category with ticket types at several prices shows their range.
            let price = tiers.ranges[u].map { locale.text("price.range", ["low": money($0.lowerBound), "high": money($0.upperBound)]) }
                ?? money(tiers.prices[u])
            return tiers.categories[u].map { "\($0) \(price)" } ?? price
        }
        return words.count == 1 ? words[0] : locale.list(words)
    }

    /// A price in the hall's currency as the layout's locale writes it.
    public func money(_ amount: Decimal) -> String {
        locale.money(amount, currency: currency)
    }

    /// The locale of every word the layout holds: `style.locale` as resolved.
    public var locale: SeatMapLocale { style.locale ?? .standard }

    /// This layout's geometry (its style, zoom and scale, a fit resolved
    /// once) for another state of the same hall: statuses changed, places
    /// not. An incremental redraw draws the new state in the old geometry.
    public func relaid(_ hall: Hall) throws(SeatMapError) -> Layout {
        try Layout(hall: hall, style: style, zoom: zoom, scale: scale)
    }
}
