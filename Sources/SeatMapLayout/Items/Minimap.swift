import Foundation

/// The minimap's geometry for one visible region: a thumbnail of the whole
/// layout scaled by `factor` into `box`, with the visible part outlined.
public struct Minimap: Sendable, Equatable {
    public let box: PixelRect
    public let cornerRadius: Double
    public let factor: Double
    public let outline: Stroke

    /// Where a layout path (an area's outline) appears in the thumbnail.
    public func shape(of path: Path) -> Path {
        let ox = Double(box.x), oy = Double(box.y), f = factor
        var out = Path()
        for e in path.elements {
            switch e {
            case .move(let x, let y): out.move(ox + x * f, oy + y * f)
            case .line(let x, let y): out.line(ox + x * f, oy + y * f)
            case .curve(let a, let b, let c, let d, let x, let y):
                out.curve(ox + a * f, oy + b * f, ox + c * f, oy + d * f, ox + x * f, oy + y * f)
            case .close: out.close()
            }
        }
        return out
    }

    /// Where a layout rect appears in the thumbnail.
    public func shape(of r: PixelRect) -> Path {
        .rect(Double(box.x) + Double(r.x) * factor, Double(box.y) + Double(r.y) * factor,
              max(0.5, Double(r.w) * factor), max(0.5, Double(r.h) * factor))
    }
}
