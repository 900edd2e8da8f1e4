import SeatMapCore

/// An area placed in pixels: its outline, how it is hit and where its text goes.
public struct LaidOutArea: Sendable, Equatable {
    /// Index in `Hall.areas`.
    public let index: Int
    public let id: String
    public let area: Area
    /// The drawn outline (empty for a text area).
    public let path: Path
    /// The box around the outline and its text.
    public let rect: PixelRect
    public let text: TextPlacement?
    /// Whether taps can land on it (text areas are decoration).
    public var isHittable: Bool {
        if case .text = area.shape { return false }
        return true
    }
    public var isStanding: Bool { area.isStanding }
}
