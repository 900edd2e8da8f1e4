import SeatMapCore

/// What a tap landed on.
public enum HitResult: Sendable, Equatable {
    /// A seat (status 0–2).
    case seat(LaidOutCell)
    /// An explicit aisle cell (status 3), by grid row and column.
    case aisle(row: Int, column: Int)
    /// An area: a stage, table or standing floor (free venues).
    case area(LaidOutArea)
    /// Inside the seat grid's bounding box but on no cell: the gaps between
    /// seats, and empty floor (missing rows and columns).
    case gap
    /// Outside the seat grid: header, screen, labels, legend, margins, or
    /// beyond the content.
    case outside
    /// A row label kept at the view's edge (`hit --pin-row-labels`).
    case rowLabel(RowLabelBox)

    public var kind: String {
        switch self {
        case .seat: return "seat"
        case .aisle: return "aisle"
        case .area: return "area"
        case .gap: return "gap"
        case .outside: return "outside"
        case .rowLabel: return "rowLabel"
        }
    }
}

/// Maps taps back to seats through the inverse view transform and the very
/// `Layout` the renderer drew, in O(1) per query: it asks the layout's own
/// index (for the grid: integer division by the pitch and one packed table
/// entry). No scan over seats, and no geometry of its own.
public struct HitTester: Sendable {
    /// The layout, held by reference: a tester is a few words, so passing
    /// or capturing one copies none of the layout's strings, arrays and
    /// paths (a query that did cost twice as much).
    private final class Held: Sendable {
        let layout: Layout
        init(_ layout: Layout) { self.layout = layout }
    }
    private let held: Held
    private let index: SpatialIndex
    /// The layout's zoom and scale, which a query's transform must match.
    private let zoom: Double, scale: Double

    /// The layout the tester answers for.
    public var layout: Layout { held.layout }

    public init(layout: Layout) {
        held = Held(layout)
        index = layout.index
        zoom = layout.zoom
        scale = layout.scale
    }

    /// Throws, as `ViewTransform.check` says, when `t` is not for this
    /// tester's layout.
    @inline(__always)
    private func check(_ t: ViewTransform) throws(SeatMapError) {
        if t.zoom != zoom || t.scale != scale { try t.check(held.layout) }
    }

    /// The cell under a view point, as an index (see `CellHit`): the
    /// allocation-free form of `hit`, for replaying many taps.
    @inline(__always)
    public func find(_ p: ViewPoint, _ t: ViewTransform) throws(SeatMapError) -> CellHit {
        try check(t)
        let c = t.contentPixel(of: p)
        guard c.x.isFinite, c.y.isFinite, abs(c.x) < 1e12, abs(c.y) < 1e12 else { return .outside }
        return index.cell(at: HitTester.floor(c.x), HitTester.floor(c.y))
    }

    /// `Int(x.rounded(.down))` for |x| < 1e12, without a call into libm.
    @inline(__always)
    static func floor(_ x: Double) -> Int {
        let t = Int(x)
        return Double(t) > x ? t - 1 : t
    }

    /// The cell under a view point. `slop` (points): a tap on a gap or just
    /// outside the grid within `slop` of a seat hits the nearest seat (ties:
    /// nearer centre, then lower column, then lower row). Throws when the
    /// transform's zoom or scale is not the layout's.
    public func hit(at p: ViewPoint, in t: ViewTransform, slop: Double = 0) throws(SeatMapError) -> HitResult {
        try check(t)
        let c = t.contentPixel(of: p)
        return hit(pixelX: c.x, pixelY: c.y, slopPixels: slop * scale)
    }

    @available(*, deprecated, renamed: "hit(at:in:slop:)")
    public func hit(_ p: ViewPoint, _ t: ViewTransform, slop: Double = 0, pinnedIn visible: PixelRect) throws(SeatMapError) -> HitResult {
        try hit(at: p, in: t, slop: slop, pinnedIn: visible)
    }

    @available(*, deprecated, renamed: "hit(at:in:slop:)")
    public func hit(_ p: ViewPoint, _ t: ViewTransform, slop: Double = 0) throws(SeatMapError) -> HitResult {
        try hit(at: p, in: t, slop: slop)
    }

    /// As `hit(at:in:)`, for a view whose row labels are pinned to its edge
    /// (`Layout.pinnedRowLabels`): a tap on a label's pill answers that row.
    public func hit(at p: ViewPoint, in t: ViewTransform, slop: Double = 0, pinnedIn visible: PixelRect) throws(SeatMapError) -> HitResult {
        try check(t)
        let c = t.contentPixel(of: p)
        if c.x.isFinite, c.y.isFinite, abs(c.x) < 1e12, abs(c.y) < 1e12 {
            let i = HitTester.floor(c.x), j = HitTester.floor(c.y)
            if let pinned = held.layout.pinnedRowLabels(visible: visible).first(where: { $0.label.pill.contains(i, j) }) { return .rowLabel(pinned.label) }
        }
        return hit(pixelX: c.x, pixelY: c.y, slopPixels: slop * scale)
    }

    /// The cell under a content pixel position (continuous coordinates; the
    /// pixel is `(floor(x), floor(y))`).
    public func hit(pixelX x: Double, pixelY y: Double, slopPixels: Double = 0) -> HitResult {
        guard x.isFinite, y.isFinite, abs(x) < 1e12, abs(y) < 1e12 else { return .outside }
        var k = locate(Int(x.rounded(.down)), Int(y.rounded(.down)))
        if k == HitTester.gap || k == HitTester.outside, slopPixels > 0, let near = index.nearestSeat(x, y, within: slopPixels, cells: held.layout.cells) { k = near }
        switch k {
        case HitTester.outside: return .outside
        case HitTester.gap: return .gap
        case ...HitTester.firstArea: return .area(held.layout.areas[HitTester.firstArea - k])
        default:
            let cell = held.layout.cells[k]
            return cell.isSeat ? .seat(cell) : .aisle(row: cell.row, column: cell.column)
        }
    }

    /// `locate` result for a pixel outside the placed cells' box.
    public static let outside = -2
    /// `locate` result for a pixel in that box but on no cell.
    public static let gap = -1
    /// `locate` result for area `a` is `firstArea - a`.
    public static let firstArea = -3

    /// The index in `layout.cells` of the cell containing pixel `(i, j)`, or
    /// `HitTester.gap` / `HitTester.outside`.
    @inline(__always)
    public func locate(_ i: Int, _ j: Int) -> Int {
        switch index.cell(at: i, j) {
        case .seat(let k), .aisle(let k): return k
        case .area(let a): return HitTester.firstArea - a
        case .gap: return HitTester.gap
        case .outside: return HitTester.outside
        }
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

extension HitTester {
    /// Seats a tap can never reach at their centre: another seat drawn over
    /// it there (plans that place two seats at one spot), in seat order.
    public func seatsCoveredAtTheirCentre() -> [SeatID] {
        held.layout.cells.compactMap { cell -> SeatID? in
            guard cell.isSeat else { return nil }
            let r = cell.seatRect
            guard case .seat(let top) = hit(pixelX: Double(r.x) + Double(r.w) / 2, pixelY: Double(r.y) + Double(r.h) / 2), top.id != cell.id else { return nil }
            return cell.id
        }
    }
}
