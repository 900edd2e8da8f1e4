import Foundation

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

    /// The bytes every hit-test reads from (a grid's table; a free index's
    /// run starts, entries and size classes): what a query's trip to memory
    /// is measured against.
    public var queryBytes: Int {
        switch self {
        case .grid(let g): return g.table.count * MemoryLayout<Int32>.stride
        case .free(let f): return f.queryBytes
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
