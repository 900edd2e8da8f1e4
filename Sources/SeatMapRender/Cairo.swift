import Foundation
import CCairo
import CPNG
import SeatMapCore

/// Facts about the Cairo library SeatMap renders with.
public enum CairoLibrary {
    /// The version of the linked Cairo, e.g. "1.16.0".
    public static var version: String { String(cString: cairo_version_string()) }
    /// The versions of the C libraries rendering uses, as loaded at run
    /// time: Cairo, libpng, fontconfig, Pango, HarfBuzz, and Cairo's own pixman and FreeType
    /// (found in the process, as Cairo loaded them).
    public static var linkedVersions: [(String, String)] {
        let fc = Int(FcGetVersion())
        var out = [("cairo", version), ("libpng", png_get_libpng_ver(nil).map { String(cString: $0) } ?? "?"),
                   ("fontconfig", "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)"),
                   ("pango", String(cString: pango_version_string())),
                   ("harfbuzz", String(cString: hb_version_string()))]
        typealias VersionString = @convention(c) () -> UnsafePointer<CChar>?
        if let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pixman_version_string"),
           let text = unsafeBitCast(f, to: VersionString.self)() {
            out.append(("pixman", String(cString: text)))
        }
        typealias Init = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
        typealias Version = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> Void
        typealias Done = @convention(c) (OpaquePointer?) -> Int32
        if let i = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Init_FreeType"),
           let v = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Library_Version"),
           let d = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "FT_Done_FreeType") {
            var library: OpaquePointer? = nil
            if unsafeBitCast(i, to: Init.self)(&library) == 0 {
                var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
                unsafeBitCast(v, to: Version.self)(library, &major, &minor, &patch)
                _ = unsafeBitCast(d, to: Done.self)(library)
                out.append(("freetype", "\(major).\(minor).\(patch)"))
            }
        }
        return out
    }
    /// Cairo's image surfaces are limited to this many pixels a side.
    public static let maxSide = ImageLimits.maxSide
}
