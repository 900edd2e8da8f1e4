
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
