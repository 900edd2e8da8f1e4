import CCairo
import CPNG
import SeatMapCore

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
    /// Each family's answer, asked once a process (fontconfig's fonts do
    /// not change under a running process: nothing rescans them). Guarded
    /// by `lock`.
    nonisolated(unsafe) private static var known: [String: String?] = [:]

    /// Loads fontconfig's configuration (its files parsed, its font caches
    /// read: 5-7 ms) and Pango's font map for the process now: what the
    /// first text otherwise waits for. Nothing is drawn and nothing a render
    /// reads changes; a program may call it on a thread of its own while it
    /// reads its input (the seatmap command does for a render). Resolving a
    /// font meanwhile waits for it, so fontconfig is never loaded twice.
    public static func prepare() {
        lock.withLock { _ = FcInit() }
        TextShaper.prepare()
    }

    /// The family if fontconfig has it installed; otherwise an error naming
    /// the font and the Debian package that provides it.
    public static func resolve(family: String, package: String) throws(SeatMapError) -> ResolvedFont {
        let found: String? = lock.withLock {
            if let answer = known[family] { return answer }
            let (answer, final) = match(family)
            if final { known[family] = answer }
            return answer
        }
        guard let found else {
            throw SeatMapError("font \"\(family)\" is not installed; install the Debian package \(package) (apt-get install \(package))")
        }
        return ResolvedFont(family: family, file: found)
    }

    /// The file fontconfig matches for a family when the match is that
    /// family ("" when it names no file); nil when it is not installed.
    /// `final`: fontconfig answered (a failure to start it or to parse
    /// the name is asked again next time).
    private static func match(_ family: String) -> (file: String?, final: Bool) {
        guard FcInit() != 0, let pattern = FcNameParse(family) else { return (nil, false) }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else { return (nil, false) }
        defer { FcPatternDestroy(match) }
        var n: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>? = nil
        while FcPatternGetString(match, "family", n, &value) == FcResultMatch {
            if let value, String(cString: value).caseInsensitiveCompare(family) == .orderedSame {
                var file: UnsafeMutablePointer<FcChar8>? = nil
                guard FcPatternGetString(match, "file", 0, &file) == FcResultMatch, let file else { return ("", true) }
                return (String(cString: file), true)
            }
            n += 1
        }
        return (nil, true)
    }
}
