import CCairo
import CPNG
import CPNGStrips

/// PDF page sizes in points; `fit` makes the page the image's size.
public enum PageSize: String, Sendable, CaseIterable {
    case a4, a3, letter, fit

    /// The blank border around the map: half an inch, none for `fit`.
    var margin: Double { self == .fit ? 0 : 36 }

    var points: (Double, Double)? {
        switch self {
        case .a4: return (595.276, 841.89)
        case .a3: return (841.89, 1190.551)
        case .letter: return (612, 792)
        case .fit: return nil
        }
    }
}
