import Foundation
import SeatMapCore

/// One cell of the hall placed in pixels: a seat, or an explicit aisle.
public struct LaidOutCell: Sendable, Equatable {
    public let row: Int
    public let column: Int
    public let section: Int
    public let rowLabel: String
    public let seatLabel: String
    public let status: SeatStatus
    public let type: SeatType
    public let price: Decimal?
    /// Index into the hall's price tiers (ascending), nil for aisles.
    public let tier: Int?
    /// Where the cell is drawn and hit. A couple half covers its share of the
    /// joined pair; every other cell is exactly one seat size.
    public let rect: PixelRect

    public var isSeat: Bool { status.isSeat }
    /// `"<section>-<row>-<column>"` (computed: a layout stores no strings of its own).
    public var id: String { Hall.seatID(section: section, row: row, column: column) }
    /// The other half of a couple seat.
    public var partnerID: String? {
        switch type {
        case .coupleLeft: return Hall.seatID(section: section, row: row, column: column + 1)
        case .coupleRight: return Hall.seatID(section: section, row: row, column: column - 1)
        default: return nil
        }
    }
    /// "3排5座".
    public var chineseDescription: String { "\(rowLabel)排\(seatLabel)座" }
}

/// A row label placed in pixels.
public struct RowLabelBox: Sendable, Equatable {
    public let row: Int
    public let label: String
    public let rect: PixelRect
}

/// One legend entry placed in pixels.
public struct LegendItem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Available seats of a price tier.
        case tier(Int, Decimal)
        case locked, sold, selected, wheelchair, couple
    }
    public let kind: Kind
    public let rect: PixelRect
}

/// The whole seat map in integer pixels for one zoom and one scale.
///
/// The renderer draws from this value and the hit-tester answers taps from
/// it: one geometry, so a tap lands on the seat drawn under it. Every size is
/// `ceil(points × zoom × scale)`; seats sit on a fixed pitch, so all seats
/// share one size and every gap in a row is the same whole number of pixels.
/// The image is exactly `width × height`, and image pixels are layout pixels.
public struct Layout: Sendable {
    public static let zoomRange: ClosedRange<Double> = 0.25...8
    public static let scaleRange: ClosedRange<Double> = 1...4

    public let zoom: Double
    public let scale: Double
    public let metrics: Metrics
    public let options: LayoutOptions

    /// Content (image) size in pixels.
    public let width: Int
    public let height: Int
    /// Seat size S × SH, column gap G and the row and column pitches.
    public let seatWidth: Int
    public let seatHeight: Int
    public let gapX: Int
    public let gapY: Int
    public var pitchX: Int { seatWidth + gapX }
    public var pitchY: Int { seatHeight + gapY }

    /// Grid geometry: column 1 / row 1 start at `gridX`, `gridY`.
    public let gridX: Int
    public let gridY: Int
    public let gridColumns: Int
    public let gridRows: Int
    /// The seat grid's bounding box (every cell position, used or not).
    public let gridRect: PixelRect

    /// Every cell in row, then column order.
    public let cells: [LaidOutCell]
    public let rowLabels: [RowLabelBox]
    public let header: PixelRect?
    /// The screen shape, centred on `centerX`.
    public let screen: PixelRect
    /// x of the centre line: the middle of the seat grid (rounded down).
    public let centerX: Int
    public let legend: PixelRect?
    public let legendItems: [LegendItem]
    /// The hall's price tiers, ascending.
    public let tiers: PriceTiers

    /// Dense `gridRows × gridColumns` table of indexes into `cells` (-1 for
    /// empty floor): the hit-tester's O(1) lookup.
    let cellTable: [Int32]

    /// Pixels for a length in points: `ceil(points × zoom × scale)`. A
    /// tolerance of 1e-9 keeps products such as 0.1 × 30 from rounding up
    /// past the whole number they stand for.
    public static func pixels(_ points: Double, zoom: Double, scale: Double) -> Int {
        let v = points * zoom * scale
        return Int((v - 1e-9).rounded(.up))
    }

    public init(hall: Hall, metrics: Metrics = Metrics(), options: LayoutOptions = LayoutOptions(),
                zoom: Double = 1, scale: Double = 1) throws(SeatMapError) {
        guard zoom.isFinite, Layout.zoomRange.contains(zoom) else {
            throw SeatMapError("zoom \(zoom) is outside 0.25…8")
        }
        guard scale.isFinite, Layout.scaleRange.contains(scale) else {
            throw SeatMapError("scale \(scale) is outside 1…4")
        }
        self.zoom = zoom
        self.scale = scale
        self.metrics = metrics
        self.options = options
        let px = { (pt: Double) in Layout.pixels(pt, zoom: zoom, scale: scale) }

        seatWidth = max(1, px(metrics.seatWidth))
        seatHeight = max(1, px(metrics.seatHeight))
        gapX = px(metrics.gapX)
        gapY = px(metrics.rowGap)
        gridColumns = hall.gridColumns
        gridRows = hall.gridRows
        let gridW = gridColumns * seatWidth + max(0, gridColumns - 1) * gapX
        let gridH = gridRows * seatHeight + max(0, gridRows - 1) * gapY

        let margin = px(metrics.margin)
        let gutter = px(metrics.rowLabelGutter)
        width = max(px(metrics.minContentWidth), 2 * margin + 2 * gutter + gridW)
        gridX = (width - gridW) / 2

        var y = margin
        if options.header {
            header = PixelRect(x: margin, y: y, w: width - 2 * margin, h: px(metrics.headerHeight))
            y += px(metrics.headerHeight)
        } else {
            header = nil
        }
        let band = px(metrics.screenBandHeight)
        centerX = gridX + gridW / 2
        let screenW = min(width - 2 * margin, max(gridW, px(160)))
        screen = PixelRect(x: centerX - screenW / 2, y: y, w: screenW, h: max(1, band * 5 / 11))
        y += band
        gridY = y
        gridRect = PixelRect(x: gridX, y: gridY, w: gridW, h: gridH)
        y += gridH

        tiers = PriceTiers(hall)
        var cells: [LaidOutCell] = []
        cells.reserveCapacity(hall.rows.reduce(0) { $0 + $1.seats.count })
        var labels: [RowLabelBox] = []
        labels.reserveCapacity(hall.rows.count * (options.rowLabelsRight ? 2 : 1))
        var table = [Int32](repeating: -1, count: gridRows * gridColumns)
        let labelW = max(1, gutter - px(4))
        for row in hall.rows {
            let ry = gridY + (row.number - 1) * (seatHeight + gapY)
            labels.append(RowLabelBox(row: row.number, label: row.label,
                                      rect: PixelRect(x: gridX - gutter, y: ry, w: labelW, h: seatHeight)))
            if options.rowLabelsRight {
                labels.append(RowLabelBox(row: row.number, label: row.label,
                                          rect: PixelRect(x: gridX + gridW + gutter - labelW, y: ry, w: labelW, h: seatHeight)))
            }
            let rowTier = tiers.tier(of: row.price)
            for seat in row.seats {
                let cx = gridX + (seat.column - 1) * (seatWidth + gapX)
                var rect = PixelRect(x: cx, y: ry, w: seatWidth, h: seatHeight)
                let halfGap = gapX / 2
                if seat.type == .coupleLeft {
                    rect.w = seatWidth + halfGap
                } else if seat.type == .coupleRight {
                    rect.x = cx - (gapX - halfGap)
                    rect.w = seatWidth + gapX - halfGap
                }
                let price = seat.status.isSeat ? (seat.price ?? row.price) : nil
                table[(row.number - 1) * gridColumns + (seat.column - 1)] = Int32(cells.count)
                cells.append(LaidOutCell(
                    row: row.number, column: seat.column, section: row.section,
                    rowLabel: row.label, seatLabel: seat.label, status: seat.status, type: seat.type,
                    price: price, tier: !seat.status.isSeat ? nil : seat.price == nil ? rowTier : tiers.tier(of: price),
                    rect: rect))
            }
        }
        self.cells = cells
        self.rowLabels = labels
        self.cellTable = table

        if options.legend {
            y += px(metrics.legendTopGap)
            var kinds: [LegendItem.Kind] = tiers.prices.enumerated().map { .tier($0.offset, $0.element) }
            kinds += [.locked, .sold, .selected]
            if cells.contains(where: { $0.type == .wheelchair && $0.isSeat }) { kinds.append(.wheelchair) }
            if cells.contains(where: { $0.type == .coupleLeft && $0.isSeat }) { kinds.append(.couple) }
            let itemW = px(metrics.legendItemWidth)
            let itemH = px(metrics.legendItemHeight)
            let perLine = max(1, (width - 2 * margin) / max(1, itemW))
            var items: [LegendItem] = []
            var start = 0
            var line = 0
            while start < kinds.count {
                let n = min(perLine, kinds.count - start)
                let x0 = (width - n * itemW) / 2
                for k in 0..<n {
                    items.append(LegendItem(kind: kinds[start + k],
                                            rect: PixelRect(x: x0 + k * itemW, y: y + line * itemH, w: itemW, h: itemH)))
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

    /// Seats only (statuses 0–2), in row, then column order.
    public var seats: [LaidOutCell] { cells.filter(\.isSeat) }

    /// The cell with this id, or nil.
    public func cell(id: String) -> LaidOutCell? {
        guard let i = index(of: id) else { return nil }
        return cells[i]
    }

    /// The index in `cells` of the cell with this id: the id names its grid
    /// position, so this is a table lookup, not a search.
    func index(of id: String) -> Int? {
        guard let p = Hall.parseSeatID(id), p.row >= 1, p.row <= gridRows, p.column >= 1, p.column <= gridColumns else { return nil }
        let k = Int(cellTable[(p.row - 1) * gridColumns + (p.column - 1)])
        guard k >= 0, cells[k].section == p.section else { return nil }
        return k
    }

    /// The cell at a grid position (1-based), or nil for empty floor.
    public func cell(row: Int, column: Int) -> LaidOutCell? {
        guard row >= 1, row <= gridRows, column >= 1, column <= gridColumns else { return nil }
        let i = cellTable[(row - 1) * gridColumns + (column - 1)]
        return i < 0 ? nil : cells[Int(i)]
    }

    /// Indexes into `cells` of the cells whose rects meet `area`, in cell
    /// order. Found through the grid table: the cost follows the area, not
    /// the hall.
    public func cellIndexes(intersecting area: PixelRect) -> [Int] {
        guard !area.isEmpty else { return [] }
        // Couple halves reach into the neighbouring gap: widen by a column.
        let c0 = max(0, (area.x - gridX) / pitchX - 1)
        let c1 = min(gridColumns - 1, (area.maxX - gridX) / pitchX + 1)
        let r0 = max(0, (area.y - gridY) / pitchY)
        let r1 = min(gridRows - 1, (area.maxY - gridY) / pitchY)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var out: [Int] = []
        for r in r0...r1 {
            for c in c0...c1 {
                let k = Int(cellTable[r * gridColumns + c])
                if k >= 0 && cells[k].rect.intersects(area) { out.append(k) }
            }
        }
        return out
    }

    /// The content rect of everything (the whole image).
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, w: width, h: height) }
}
