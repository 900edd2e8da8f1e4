
/// A section of the hall placed in pixels: the box around its cells.
public struct SectionBox: Sendable, Equatable {
    public let id: Int
    /// The declared name, or "".
    public let name: String
    public let rect: PixelRect
}
