import Foundation

/// An sRGB colour with alpha, components 0…1.
public struct Color: Sendable, Equatable, CustomStringConvertible {
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

    /// `#RRGGBB` or `#RRGGBBAA`.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.hasPrefix("#") else { return nil }
        s = s.dropFirst()
        guard s.count == 6 || s.count == 8, s.allSatisfy(\.isHexDigit), s.allSatisfy(\.isASCII),
              let v = UInt32(s, radix: 16) else { return nil }
        let full = s.count == 6 ? (v << 8) | 0xFF : v
        r = Double((full >> 24) & 0xFF) / 255
        g = Double((full >> 16) & 0xFF) / 255
        b = Double((full >> 8) & 0xFF) / 255
        a = Double(full & 0xFF) / 255
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

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 1, g: 1, b: 1)
}
