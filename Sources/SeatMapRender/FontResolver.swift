import Foundation
import CCairo
import CPNG
import SeatMapCore
import SeatMapLayout

/// A font family checked to be installed.
public struct ResolvedFont: Sendable, Equatable {
    public let family: String
    /// The font file fontconfig matched ("" when it names none).
    public let file: String
}

/// Resolves theme fonts through fontconfig and refuses missing ones: a
/// silent fallback would change every golden image.
public enum FontResolver {
    private static let lock = NSLockBox()

    /// The family if fontconfig has it installed; otherwise an error naming
    /// the font and the Debian package that provides it.
    public static func resolve(family: String, package: String) throws(SeatMapError) -> ResolvedFont {
        let found: String? = lock.withLock {
            guard FcInit() != 0, let pattern = FcNameParse(family) else { return nil }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(match) }
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>? = nil
            while FcPatternGetString(match, "family", n, &value) == FcResultMatch {
                if let value, String(cString: value).caseInsensitiveCompare(family) == .orderedSame {
                    var file: UnsafeMutablePointer<FcChar8>? = nil
                    guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return "" }
                    return String(cString: file)
                }
                n += 1
            }
            return nil
        }
        guard let found else {
            throw SeatMapError("font \"\(family)\" is not installed; install the Debian package \(package) (apt-get install \(package))")
        }
        return ResolvedFont(family: family, file: found)
    }
}
