import Foundation
import SeatMapCore

/// An sRGB colour with alpha, components 0…1.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// A colour as halls and themes write it (`CSSColor`: `#RGB`, `#RGBA`,
    /// `#RRGGBB`, `#RRGGBBAA`, `transparent`, CSS colour names).
    public init?(hex: String) {
        guard let c = CSSColor(hex) else { return nil }
        self.init(c)
    }

    public init(_ c: CSSColor) {
        r = Double(c.r) / 255
        g = Double(c.g) / 255
        b = Double(c.b) / 255
        a = Double(c.a) / 255
    }

    /// `#RRGGBB` (and `AA` when not opaque), for SVG and messages.
    public var hex: String {
        func h(_ v: Double) -> String {
            let n = Int((v * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return n < 16 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + (a < 1 ? h(a) : "")
    }

    public var description: String { hex }

    /// WCAG 2 relative luminance.
    public var luminance: Double {
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    /// WCAG 2 contrast ratio between two opaque colours (1…21).
    public func contrast(with other: Color) -> Double {
        let a = luminance, b = other.luminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour drawn over an opaque `background` (source-over), as the
    /// eye sees a translucent fill.
    public func over(_ background: Color) -> Color {
        Color(r: r * a + background.r * (1 - a), g: g * a + background.g * (1 - a), b: b * a + background.b * (1 - a))
    }

    /// Linear-light sRGB components.
    var linear: (Double, Double, Double) {
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return (lin(r), lin(g), lin(b))
    }

    /// CIE L*a*b* (D65) of a linear-light sRGB triple, clamped to the gamut.
    static func lab(linear c: (Double, Double, Double)) -> Lab {
        let r = min(max(c.0, 0), 1), g = min(max(c.1, 0), 1), b = min(max(c.2, 0), 1)
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return Lab(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// How the colour appears under `vision`: Machado, Oliveira & Fernandes
    /// (2009) severity-1.0 matrices applied to linear sRGB, as CIE L*a*b*.
    public func lab(as vision: Vision = .normal) -> Lab {
        let c = linear
        guard let m = vision.matrix else { return Color.lab(linear: c) }
        return Color.lab(linear: (m[0] * c.0 + m[1] * c.1 + m[2] * c.2,
                                  m[3] * c.0 + m[4] * c.1 + m[5] * c.2,
                                  m[6] * c.0 + m[7] * c.1 + m[8] * c.2))
    }

    /// CIEDE2000 colour difference between two opaque colours as seen
    /// under `vision` (about 1: just noticeable side by side; 10: told
    /// apart at a glance).
    public func deltaE(_ other: Color, as vision: Vision = .normal) -> Double {
        Lab.deltaE2000(lab(as: vision), other.lab(as: vision))
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)
}

/// Colour vision for the distinguishability checks: normal, and the three
/// dichromacies simulated with the Machado et al. (2009) matrices at
/// severity 1.0 (IEEE TVCG 15(6), "A Physiologically-based Model for
/// Simulation of Color Vision Deficiency").
public enum Vision: String, Sendable, CaseIterable {
    case normal, protanopia, deuteranopia, tritanopia

    /// Row-major 3×3 matrix on linear sRGB (nil: identity).
    var matrix: [Double]? {
        switch self {
        case .normal: return nil
        case .protanopia: return [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998]
        case .deuteranopia: return [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881]
        case .tritanopia: return [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900]
        }
    }
}

/// A CIE L*a*b* colour (D65).
public struct Lab: Sendable, Equatable {
    public var l: Double
    public var a: Double
    public var b: Double

    /// CIEDE2000 (Sharma, Wu & Dalal 2005 formulation; kL = kC = kH = 1).
    public static func deltaE2000(_ x: Lab, _ y: Lab) -> Double {
        let deg = Double.pi / 180
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let cBar7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * x.a, a2 = (1 + g) * y.a
        let cp1 = (a1 * a1 + x.b * x.b).squareRoot(), cp2 = (a2 * a2 + y.b * y.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / deg
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(x.b, a1), h2 = hue(y.b, a2)
        let dL = y.l - x.l, dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(dh / 2 * deg)
        let lBar = (x.l + y.l) / 2, cpBar = (cp1 + cp2) / 2
        var hBar = h1 + h2
        if cp1 * cp2 != 0 {
            if abs(h1 - h2) <= 180 { hBar = (h1 + h2) / 2 } else if h1 + h2 < 360 { hBar = (h1 + h2 + 360) / 2 } else { hBar = (h1 + h2 - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hBar - 30) * deg) + 0.24 * cos(2 * hBar * deg) + 0.32 * cos((3 * hBar + 6) * deg)
            - 0.20 * cos((4 * hBar - 63) * deg)
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let cpBar7 = pow(cpBar, 7)
        let rC = 2 * (cpBar7 / (cpBar7 + pow(25, 7))).squareRoot()
        let l50 = (lBar - 50) * (lBar - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sC = 1 + 0.045 * cpBar, sH = 1 + 0.015 * cpBar * t
        let rT = -sin(2 * dTheta * deg) * rC
        let tl = dL / sL, tc = dC / sC, th = dH / sH
        return (tl * tl + tc * tc + th * th + rT * tc * th).squareRoot()
    }
}
