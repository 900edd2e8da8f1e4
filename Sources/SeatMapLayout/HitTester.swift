import SeatMapCore

/// What a tap landed on.
public enum HitResult: Sendable, Equatable {
    /// A seat (status 0–2).
    case seat(LaidOutCell)
    /// An explicit aisle cell (status 3), by grid row and column.
    case aisle(row: Int, column: Int)
    /// Inside the seat grid's bounding box but on no cell: the gaps between
    /// seats, and empty floor (missing rows and columns).
    case gap
    /// Outside the seat grid: header, screen, labels, legend, margins, or
    /// beyond the content.
    case outside

    public var kind: String {
        switch self {
        case .seat: return "seat"
        case .aisle: return "aisle"
        case .gap: return "gap"
        case .outside: return "outside"
        }
    }
}

/// Maps taps back to seats through the inverse view transform and the very
/// `Layout` the renderer drew, in O(1) per query: the pixel's grid column and
/// row come from integer division by the pitch, and a dense table gives the
/// cell there. No scan over seats.
public struct HitTester: Sendable {
    public let layout: Layout
    // The hot path's data, copied out of the layout once so a query touches
    // only integers: grid origin and size, seat and gap sizes, and one packed
    // table entry per grid position (cell index and kind, see `kindShift`).
    private let gridX: Int, gridY: Int, gridW: Int, gridH: Int
    private let pitchX: Int, pitchY: Int, seatWidth: Int, seatHeight: Int, leftHalfWidth: Int, columns: Int
    private let table: [Int32]

    // Kinds kept in the top bits of a table entry.
    private static let kindShift: Int32 = 28
    private static let indexMask: Int32 = (1 << 28) - 1
    private static let single: Int32 = 0, coupleLeft: Int32 = 1, aisle: Int32 = 2

    public init(layout: Layout) {
        self.layout = layout
        gridX = layout.gridX
        gridY = layout.gridY
        gridW = layout.gridRect.w
        gridH = layout.gridRect.h
        pitchX = layout.pitchX
        pitchY = layout.pitchY
        seatWidth = layout.seatWidth
        seatHeight = layout.seatHeight
        leftHalfWidth = layout.seatWidth + layout.gapX / 2
        columns = layout.gridColumns
        table = layout.cellTable.map { k in
            guard k >= 0 else { return -1 }
            let cell = layout.cells[Int(k)]
            let kind = !cell.isSeat ? HitTester.aisle : cell.type == .coupleLeft ? HitTester.coupleLeft : HitTester.single
            return kind << HitTester.kindShift | k
        }
    }

    /// What a tap landed on, without building the cell's details: the index
    /// into `layout.cells` for seats and aisles. The allocation-free form of
    /// `hit`, for replaying many taps.
    public enum CellHit: Sendable, Equatable {
        case seat(Int)
        case aisle(Int)
        case gap
        case outside
    }

    /// The cell under a view point, as an index (see `CellHit`).
    @inline(__always)
    public func find(_ p: ViewPoint, _ t: ViewTransform) throws(SeatMapError) -> CellHit {
        try t.check(layout)
        let c = t.contentPixel(of: p)
        guard c.x.isFinite, c.y.isFinite, abs(c.x) < 1e12, abs(c.y) < 1e12 else { return .outside }
        let e = entry(Int(c.x.rounded(.down)), Int(c.y.rounded(.down)))
        if e < 0 { return Int(e) == HitTester.gap ? .gap : .outside }
        let k = Int(e & HitTester.indexMask)
        return e >> HitTester.kindShift == HitTester.aisle ? .aisle(k) : .seat(k)
    }

    /// The cell under a view point. `slop` (points): a tap on a gap or just
    /// outside the grid within `slop` of a seat hits the nearest seat (ties:
    /// nearer centre, then lower column, then lower row). Throws when the
    /// transform's zoom or scale is not the layout's.
    public func hit(_ p: ViewPoint, _ t: ViewTransform, slop: Double = 0) throws(SeatMapError) -> HitResult {
        try t.check(layout)
        let c = t.contentPixel(of: p)
        return hit(pixelX: c.x, pixelY: c.y, slopPixels: slop * layout.scale)
    }

    /// The cell under a content pixel position (continuous coordinates; the
    /// pixel is `(floor(x), floor(y))`).
    public func hit(pixelX x: Double, pixelY y: Double, slopPixels: Double = 0) -> HitResult {
        guard x.isFinite, y.isFinite, abs(x) < 1e12, abs(y) < 1e12 else { return .outside }
        var k = locate(Int(x.rounded(.down)), Int(y.rounded(.down)))
        if k < 0, slopPixels > 0, let near = nearestSeat(x, y, within: slopPixels) { k = near }
        switch k {
        case HitTester.outside: return .outside
        case HitTester.gap: return .gap
        default:
            let cell = layout.cells[k]
            return cell.isSeat ? .seat(cell) : .aisle(row: cell.row, column: cell.column)
        }
    }

    /// `locate` result for a pixel outside the seat grid.
    public static let outside = -2
    /// `locate` result for a pixel in the grid but on no cell.
    public static let gap = -1

    /// The index in `layout.cells` of the cell containing pixel `(i, j)`, or
    /// `HitTester.gap` / `HitTester.outside`.
    @inline(__always)
    public func locate(_ i: Int, _ j: Int) -> Int {
        let e = entry(i, j)
        return e < 0 ? Int(e) : Int(e & HitTester.indexMask)
    }

    /// The packed table entry (index and kind) of the cell containing pixel
    /// `(i, j)`, or `gap` / `outside` (negative): integer division by the
    /// pitch gives the column and row, one table entry gives the cell there
    /// and its kind. A couple's left half reaches `⌊G/2⌋` into the gap after
    /// it, and the right half covers the rest of that gap.
    @inline(__always)
    private func entry(_ i: Int, _ j: Int) -> Int32 {
        let dx = i - gridX, dy = j - gridY
        guard dx >= 0, dy >= 0, dx < gridW, dy < gridH else { return Int32(HitTester.outside) }
        guard dy % pitchY < seatHeight else { return Int32(HitTester.gap) }
        let base = (dy / pitchY) * columns
        let col = dx / pitchX, offset = dx % pitchX
        let e = table[base + col]
        guard e >= 0 else { return Int32(HitTester.gap) }
        if offset < seatWidth { return e }
        guard e >> HitTester.kindShift == HitTester.coupleLeft else { return Int32(HitTester.gap) }
        if offset < leftHalfWidth { return e }
        // The right half, in the next column (validation guarantees it).
        let right = col + 1 < columns ? table[base + col + 1] : -1
        return right >= 0 ? right : Int32(HitTester.gap)
    }

    private func nearestSeat(_ x: Double, _ y: Double, within slop: Double) -> Int? {
        let l = layout
        let reachX = Int((slop / Double(l.pitchX)).rounded(.up)) + 1
        let reachY = Int((slop / Double(l.pitchY)).rounded(.up)) + 1
        let col = Int(((x - Double(l.gridX)) / Double(l.pitchX)).rounded(.down))
        let row = Int(((y - Double(l.gridY)) / Double(l.pitchY)).rounded(.down))
        let c0 = max(0, col - reachX), c1 = min(l.gridColumns - 1, col + reachX)
        let r0 = max(0, row - reachY), r1 = min(l.gridRows - 1, row + reachY)
        guard c0 <= c1, r0 <= r1 else { return nil }
        var best: (d: Double, centre: Double, index: Int)? = nil
        for r in r0...r1 {
            for c in c0...c1 {
                let k = Int(l.cellTable[r * l.gridColumns + c])
                guard k >= 0 else { continue }
                let cell = l.cells[k]
                guard cell.isSeat else { continue }
                let d = cell.rect.distance(toX: x, y: y)
                guard d <= slop else { continue }
                let cx = cell.rect.centerX - x, cy = cell.rect.centerY - y
                let centre = cx * cx + cy * cy
                if let b = best {
                    let other = l.cells[b.index]
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

/// Tells a tap from a pan (the seed's 8 pt rule): a touch that strays
/// farther than `threshold` points from where it went down is a pan and
/// selects nothing.
public struct TapClassifier: Sendable {
    public enum Gesture: Sendable, Equatable {
        /// A tap, located where the finger went down (the point the user aimed at).
        case tap(ViewPoint)
        case pan
    }

    public let threshold: Double

    public init(threshold: Double = 8) {
        self.threshold = threshold
    }

    public func classify(down: ViewPoint, path: [ViewPoint] = [], up: ViewPoint) -> Gesture {
        for p in path + [up] {
            let dx = p.x - down.x, dy = p.y - down.y
            if (dx * dx + dy * dy).squareRoot() > threshold { return .pan }
        }
        return .tap(down)
    }
}
