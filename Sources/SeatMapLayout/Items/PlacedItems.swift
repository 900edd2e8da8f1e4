
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
