import Foundation
import SeatMapCore

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

/// A placement turns a hall's cells into laid-out items at whole pixels and
/// builds the index that finds them again. The layout places the chrome
/// (header, screen, legend) around whatever a placement produces, and asks
/// only the placement's index what lies at a pixel, so another placement
/// (free positions, arcs, areas) is one more conforming type.
public protocol Placement: Sendable {
    /// The size of the placed cells' box, in pixels.
    var size: (w: Int, h: Int) { get }
    /// Places every cell with the box's top-left corner at (x, y).
    func place(atX x: Int, y: Int, tiers: PriceTiers) -> PlacedItems
    /// The rows to label, with their vertical extent, for a box whose top is at `y`.
    func rowBands(originY y: Int) -> [RowBand]
}

/// A labelled row's vertical extent in pixels.
public struct RowBand: Sendable, Equatable {
    public var row: Int
    public var label: String
    public var y: Int
    public var h: Int
}

/// The cinema grid: seat `(row, c)` at `(c − 1) × pitchX, slot(row) × pitchY`
/// from the grid's origin, every seat the same size, every gap the same
/// whole number of pixels. A couple pair spans `2S + G`: the left half takes
/// `S + ⌊G/2⌋` pixels and the right half the rest.
///
/// A row's slot is its number − 1, plus one empty slot before the first row
/// of each section when sections are named (`LayoutStyle.sectionNames` and
/// at least two named sections): the section's name is drawn in that slot,
/// above its block, and the block is outlined. The index stays one packed
/// table at one pitch (the name slots are empty rows of it).
public struct GridPlacement: Placement {
    public let hall: Hall
    public let sizes: PixelSizes
    public let columns: Int
    /// Slots (grid rows and name slots).
    public let rows: Int
    /// `slots[n]`: the slot of row number n (index 0 unused).
    public let slots: [Int]
    /// The sections named above their blocks: each with the slot its name is in.
    public let namedSections: [(section: Section, slot: Int)]
    let style: LayoutStyle
    let pixelsPerPoint: Double

    public init(hall: Hall, sizes: PixelSizes, style: LayoutStyle = LayoutStyle(), pixelsPerPoint: Double = 1) {
        self.hall = hall
        self.sizes = sizes
        self.style = style
        self.pixelsPerPoint = pixelsPerPoint
        columns = hall.gridColumns
        let named = hall.sections.filter { !$0.name.isEmpty }
        var firstRow: [Int: Int] = [:]
        if style.sectionNames && named.count >= 2 {
            // Only when every section is one block of rows: sections that
            // interleave have no block to name or outline.
            var runs: [Int] = []
            for row in hall.rows.sorted(by: { $0.number < $1.number }) where row.seats.contains(where: \.isSeat) {
                if runs.last != row.section { runs.append(row.section) }
                firstRow[row.section] = min(firstRow[row.section] ?? Int.max, row.number)
            }
            if Set(runs).count != runs.count { firstRow = [:] }
        }
        let breaks = Set(named.compactMap { firstRow[$0.id] })
        var slots = [Int](repeating: 0, count: hall.gridRows + 1)
        var extra = 0
        if hall.gridRows > 0 {
            for n in 1...hall.gridRows {
                if breaks.contains(n) { extra += 1 }
                slots[n] = n - 1 + extra
            }
        }
        self.slots = slots
        rows = hall.gridRows + extra
        namedSections = named.compactMap { s in firstRow[s.id].map { (s, slots[$0] - 1) } }.sorted { $0.slot < $1.slot }
    }

    public var size: (w: Int, h: Int) {
        (columns * sizes.seatWidth + max(0, columns - 1) * sizes.gapX,
         rows * sizes.seatHeight + max(0, rows - 1) * sizes.gapY)
    }

    /// The top of grid row `number` (1-based) in a grid whose origin is at `y`.
    public func rowY(_ number: Int, originY y: Int) -> Int {
        y + (slots.indices.contains(number) ? slots[number] : number - 1) * sizes.pitchY
    }

    public func rowBands(originY y: Int) -> [RowBand] {
        hall.rows.map { RowBand(row: $0.number, label: $0.label, y: rowY($0.number, originY: y), h: sizes.seatHeight) }
    }

    public func place(atX gridX: Int, y gridY: Int, tiers: PriceTiers) -> PlacedItems {
        let s = sizes
        var cells: [LaidOutCell] = []
        cells.reserveCapacity(hall.rows.reduce(0) { $0 + $1.seats.count })
        var table = [Int32](repeating: -1, count: rows * columns)
        let halfGap = s.gapX / 2
        for row in hall.rows {
            let ry = rowY(row.number, originY: gridY)
            let rowTier = tiers.tier(of: row.price)
            for seat in row.seats {
                let cx = gridX + (seat.column - 1) * s.pitchX
                let own = PixelRect(x: cx, y: ry, w: s.seatWidth, h: s.seatHeight)
                var rect = own
                if seat.type == .coupleLeft {
                    rect.w = s.seatWidth + halfGap
                } else if seat.type == .coupleRight {
                    rect.x = cx - (s.gapX - halfGap)
                    rect.w = s.seatWidth + s.gapX - halfGap
                }
                let price = seat.isSeat ? (seat.price ?? row.price) : nil
                let kind = !seat.isSeat ? GridIndex.aisle : seat.type == .coupleLeft ? GridIndex.coupleLeft : GridIndex.single
                table[slots[row.number] * columns + (seat.column - 1)] = kind << GridIndex.kindShift | Int32(cells.count)
                cells.append(LaidOutCell(
                    row: row.number, column: seat.column, section: row.section,
                    rowLabel: row.label, seatLabel: seat.label, kind: seat.kind, type: seat.type,
                    price: price, tier: !seat.isSeat ? nil : seat.category == nil && seat.price == nil ? rowTier : tiers.tier(of: price, category: seat.category),
                    rect: rect, seatRect: own, externalID: seat.externalID))
            }
        }
        let (w, h) = size
        let index = GridIndex(originX: gridX, originY: gridY, width: w, height: h, columns: columns, rows: rows, sizes: s, table: table,
                              slots: slots)
        return PlacedItems(cells: cells, index: .grid(index), zones: sectionMarks(cells, originY: gridY))
    }

    /// Each named section's name, in its slot above the block (at the
    /// block's start: the left, or the right in a right-to-left locale),
    /// and the block's outline, half a gap outside its seats.
    func sectionMarks(_ cells: [LaidOutCell], originY: Int) -> [ZoneMark] {
        guard !namedSections.isEmpty else { return [] }
        var boxes: [Int: (x0: Int, y0: Int, x1: Int, y1: Int)] = [:]
        for c in cells where c.isSeat {
            let b = boxes[c.section] ?? (Int.max, Int.max, Int.min, Int.min)
            boxes[c.section] = (min(b.x0, c.rect.x), min(b.y0, c.rect.y), max(b.x1, c.rect.maxX), max(b.y1, c.rect.maxY))
        }
        let s = pixelsPerPoint
        let line = max(1, (style.screenOutlineWidth * 2 * s).rounded())
        let rtl = style.locale?.rightToLeft == true
        return namedSections.compactMap { named, slot in
            guard let b = boxes[named.id] else { return nil }
            let hx = Double(sizes.gapX) / 2, hy = Double(sizes.gapY) / 2
            // Corners of straight segments: a region redraw then rasterises
            // the outline exactly as the full render does (curves crossing
            // a region's edge are flattened differently).
            let outline = Path.polygonRoundedRect(Double(b.x0) - hx, Double(b.y0) - hy, Double(b.x1 - b.x0) + 2 * hx,
                                                  Double(b.y1 - b.y0) + 2 * hy, radius: style.cornerRadius * s)
            let top = originY + slot * sizes.pitchY
            let box = PixelRect(x: b.x0, y: top, w: max(1, b.x1 - b.x0), h: max(1, sizes.seatHeight))
            let size = min(style.legendTextSize * s, Double(sizes.seatHeight) * 0.6)
            let text = TextPlacement(x: rtl ? Double(box.maxX) : Double(box.x), y: box.centerY, align: rtl ? .right : .left,
                                     size: size, box: box)
            return ZoneMark(section: named.id, outline: Stroke(path: outline, width: line), name: PlacedText(text: named.name, placement: text))
        }
    }
}

/// What lies at a pixel, a placement's own index; one case per placement.
public enum SpatialIndex: Sendable {
    case grid(GridIndex)
    case free(FreeIndex)

    /// The cell containing pixel `(i, j)`: a seat or an aisle by its index
    /// in `Layout.cells`, a gap inside the placement's box, or outside it.
    @inline(__always)
    public func cell(at i: Int, _ j: Int) -> CellHit {
        switch self {
        case .grid(let g): return g.cell(at: i, j)
        case .free(let f): return f.cell(at: i, j)
        }
    }

    /// Indexes of the cells whose rects meet `area`, in cell order; the
    /// cost follows the area, not the hall.
    func cellIndexes(intersecting area: PixelRect, cells: [LaidOutCell]) -> [Int] {
        switch self {
        case .grid(let g): return g.cellIndexes(intersecting: area, cells: cells)
        case .free(let f): return f.cellIndexes(intersecting: area, cells: cells)
        }
    }

    /// The cell index at a grid position, or nil.
    func cellIndex(row: Int, column: Int) -> Int? {
        switch self {
        case .grid(let g): return g.cellIndex(row: row, column: column)
        case .free(let f): return f.cellIndex(row: row, column: column)
        }
    }

    /// The seat nearest a pixel position within `slop` pixels (ties: nearer
    /// centre, then lower column, then lower row), or nil.
    func nearestSeat(_ x: Double, _ y: Double, within slop: Double, cells: [LaidOutCell]) -> Int? {
        switch self {
        case .grid(let g): return g.nearestSeat(x, y, within: slop, cells: cells)
        case .free(let f): return f.nearestSeat(x, y, within: slop, cells: cells)
        }
    }
}

/// The grid placement's index: one packed `Int32` per grid position (the
/// cell's index in the low 28 bits, its kind in the top bits; -1 for empty
/// floor), found by integer division by the pitch: O(1) per query.
public struct GridIndex: Sendable {
    let originX: Int, originY: Int, width: Int, height: Int
    let pitchX: Int, pitchY: Int, seatWidth: Int, seatHeight: Int, leftHalfWidth: Int
    let columns: Int, rows: Int
    let table: [Int32]

    static let kindShift: Int32 = 28
    static let indexMask: Int32 = (1 << 28) - 1
    static let single: Int32 = 0, coupleLeft: Int32 = 1, aisle: Int32 = 2
    /// Entries for a pixel on no cell inside the grid, and outside it.
    static let gapEntry: Int32 = -1, outsideEntry: Int32 = -2

    /// Row number → slot (see `GridPlacement.slots`).
    let slots: [Int]

    init(originX: Int, originY: Int, width: Int, height: Int, columns: Int, rows: Int, sizes: PixelSizes, table: [Int32], slots: [Int]) {
        self.slots = slots
        self.originX = originX
        self.originY = originY
        self.columns = columns
        self.rows = rows
        self.width = width
        self.height = height
        pitchX = sizes.pitchX
        pitchY = sizes.pitchY
        seatWidth = sizes.seatWidth
        seatHeight = sizes.seatHeight
        leftHalfWidth = sizes.seatWidth + sizes.gapX / 2
        self.table = table
    }

    @inline(__always)
    func cell(at i: Int, _ j: Int) -> CellHit {
        let e = entry(i, j)
        if e < 0 { return e == GridIndex.gapEntry ? .gap : .outside }
        let k = Int(e & GridIndex.indexMask)
        return e >> GridIndex.kindShift == GridIndex.aisle ? .aisle(k) : .seat(k)
    }

    /// The packed entry of the cell at pixel `(i, j)`, or `gapEntry` /
    /// `outsideEntry`. A couple's left half reaches `⌊G/2⌋` into the gap
    /// after it, and the right half covers the rest of that gap.
    @inline(__always)
    func entry(_ i: Int, _ j: Int) -> Int32 {
        let dx = i - originX, dy = j - originY
        guard dx >= 0, dy >= 0, dx < width, dy < height else { return GridIndex.outsideEntry }
        guard dy % pitchY < seatHeight else { return GridIndex.gapEntry }
        let base = (dy / pitchY) * columns
        let col = dx / pitchX, offset = dx % pitchX
        let e = table[base + col]
        guard e >= 0 else { return GridIndex.gapEntry }
        if offset < seatWidth { return e }
        guard e >> GridIndex.kindShift == GridIndex.coupleLeft else { return GridIndex.gapEntry }
        if offset < leftHalfWidth { return e }
        // The right half, in the next column (validation guarantees it).
        let right = col + 1 < columns ? table[base + col + 1] : -1
        return right >= 0 ? right : GridIndex.gapEntry
    }

    func cellIndex(row: Int, column: Int) -> Int? {
        guard row >= 1, row < slots.count, column >= 1, column <= columns else { return nil }
        let e = table[slots[row] * columns + (column - 1)]
        return e < 0 ? nil : Int(e & GridIndex.indexMask)
    }

    func cellIndexes(intersecting area: PixelRect, cells: [LaidOutCell]) -> [Int] {
        guard !area.isEmpty else { return [] }
        // Couple halves reach into the neighbouring gap: widen by a column.
        let c0 = max(0, (area.x - originX) / pitchX - 1)
        let c1 = min(columns - 1, (area.maxX - originX) / pitchX + 1)
        let r0 = max(0, (area.y - originY) / pitchY)
        let r1 = min(rows - 1, (area.maxY - originY) / pitchY)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var out: [Int] = []
        for r in r0...r1 {
            for c in c0...c1 {
                let e = table[r * columns + c]
                guard e >= 0 else { continue }
                let k = Int(e & GridIndex.indexMask)
                if cells[k].rect.intersects(area) { out.append(k) }
            }
        }
        return out
    }

    func nearestSeat(_ x: Double, _ y: Double, within slop: Double, cells: [LaidOutCell]) -> Int? {
        let reachX = Int((slop / Double(pitchX)).rounded(.up)) + 1
        let reachY = Int((slop / Double(pitchY)).rounded(.up)) + 1
        let col = Int(((x - Double(originX)) / Double(pitchX)).rounded(.down))
        let row = Int(((y - Double(originY)) / Double(pitchY)).rounded(.down))
        let c0 = max(0, col - reachX), c1 = min(columns - 1, col + reachX)
        let r0 = max(0, row - reachY), r1 = min(rows - 1, row + reachY)
        guard c0 <= c1, r0 <= r1 else { return nil }
        var best: (d: Double, centre: Double, index: Int)? = nil
        for r in r0...r1 {
            for c in c0...c1 {
                let e = table[r * columns + c]
                guard e >= 0 else { continue }
                let k = Int(e & GridIndex.indexMask)
                let cell = cells[k]
                guard cell.isSeat else { continue }
                let d = cell.rect.distance(toX: x, y: y)
                guard d <= slop else { continue }
                let cx = cell.rect.centerX - x, cy = cell.rect.centerY - y
                let centre = cx * cx + cy * cy
                if let b = best {
                    let other = cells[b.index]
                    if d > b.d { continue }
                    if d == b.d {
                        if centre > b.centre { continue }
                        if centre == b.centre && (cell.column, cell.row) >= (other.column, other.row) { continue }
                    }
                }
                best = (d, centre, k)
            }
        }
        return best?.index
    }
}

/// What lies at a pixel, without building the cell's details: the index
/// into `Layout.cells` for seats and aisles.
public enum CellHit: Sendable, Equatable {
    case seat(Int)
    case aisle(Int)
    /// An area (stage, standing floor, table), by its index in `Layout.areas`.
    case area(Int)
    /// Inside the placed cells' box, on no cell.
    case gap
    /// Outside it.
    case outside
}
