import SeatMapCore

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
