import SeatMapCore

/// The locale option group: `--locale TAG` on the command line, `locale`
/// as a query parameter or JSON member over HTTP. One parse, one fallback
/// (the given locale, else the hall's, else zh-Hans) for every face.
package enum LocaleOptions {
    package static let option = CommandSpec.Option.value(
        "locale", "TAG", "Language of words and prices (BCP 47: \(SeatMapLocale.codes.joined(separator: ", ")); default: the hall's, else \(SeatMapLocale.standard.code)).")

    /// The locale a tag names; an unknown tag is a usage error naming `input`.
    package static func named(_ tag: String, input: String = "--locale") throws(UsageError) -> SeatMapLocale {
        do { return try SeatMapLocale.named(tag) } catch { throw UsageError(message: "\(input): \(error.message)") }
    }

    /// `--locale`, read (nil when not given: the hall's locale applies).
    package static func given(_ a: Arguments) throws(UsageError) -> SeatMapLocale? {
        try a.value("locale").map { tag throws(UsageError) in try named(tag, input: a.say("locale")) }
    }

    /// The words for `hall`: `given`, else the hall's locale, else zh-Hans.
    package static func words(_ given: SeatMapLocale?, for hall: Hall) -> SeatMapLocale {
        given ?? hall.locale.flatMap { try? SeatMapLocale.named($0) } ?? .standard
    }
}
