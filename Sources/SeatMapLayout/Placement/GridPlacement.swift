import Foundation
import SeatMapCore

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
