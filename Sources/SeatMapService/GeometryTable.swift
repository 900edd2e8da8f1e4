import Foundation
import SeatMapLayout
import SeatMapRender

/// The geometry option group as flags and query parameters: every face
/// that draws, reports rects or hit-tests takes these, and they fill one
/// typed `GeometryOptions` (its defaults, ranges and checks are the ones
/// said here), so the same values give the same layout in `render`,
/// `layout`, `hit`, `apply`, every HTTP endpoint, the snapshot strategies
/// and the benchmark.
extension GeometryOptions {
    package static let zoomOption = CommandSpec.Option.value(
        "zoom", "Z", "Zoom, \(HelpPhrases.range(GeometryOptions.zoomRange)) (default \(Arguments.format(GeometryOptions.defaultZoom))).")
    package static let scaleOption = CommandSpec.Option.value(
        "scale", "S", "Device pixels per point, \(HelpPhrases.range(GeometryOptions.scaleRange)) (default \(Arguments.format(Layout.defaultScale))).")

    /// The options, read by `GeometryOptions(_:)`.
    package static let table: [CommandSpec.Option] = [
        .value("theme", "NAME|PATH", "\(HelpPhrases.list(Theme.shippedNames, default: "light")), or a theme file (its metrics are part of the geometry)."),
        zoomOption,
        CommandSpec.Option.value("fit", "W,H", "Instead of --zoom: choose the seat width (\(HelpPhrases.range(LayoutStyle.seatWidthRange)) pt) and the largest zoom that show the whole hall in a W×H pt viewport.").json(.pair),
        scaleOption,
        .flag("no-header", "Leave out the header."),
        .flag("no-legend", "Leave out the legend."),
        .flag("legend-all", "List every seat type in the legend (default: only the types the hall has; statuses are always listed)."),
        .value("level", "N", "A free venue's level N only (default: every level, stacked, each titled)."),
        LocaleOptions.option,
    ]

    /// Zoom and scale from the options, checked against the layout's ranges.
    package static func zoomAndScale(_ a: Arguments) throws(UsageError) -> (Double, Double) {
        (try a.double("zoom", default: GeometryOptions.defaultZoom, in: GeometryOptions.zoomRange),
         try a.double("scale", default: Layout.defaultScale, in: GeometryOptions.scaleRange))
    }
}

extension GeometryOptions {
    /// Reads the geometry options (see `GeometryOptions.table`); a value the
    /// typed group refuses is a usage error naming the flag.
    package init(_ a: Arguments) throws {
        let (zoom, scale) = try GeometryOptions.zoomAndScale(a)
        let fit = try a.pair("fit")
        if fit != nil, a.given("zoom") { throw UsageError(message: "use either \(a.say("zoom")) or \(a.say("fit"))") }
        let theme = try Theme.search(a.value("theme") ?? "light")
        let level = try a.int("level", in: GeometryOptions.levelRange)
        let locale = try LocaleOptions.given(a)
        do {
            try self.init(theme: theme, zoom: zoom, scale: scale, fit: fit.map { FitBox(width: $0.0, height: $0.1) },
                          header: !a.flag("no-header"), legend: !a.flag("no-legend"), legendAll: a.flag("legend-all"),
                          level: level, locale: locale)
        } catch {
            throw UsageError(message: error.naming(a.say).message)
        }
    }
}

/// Lists and ranges as help and errors say them.
package enum HelpPhrases {
    /// "a, b or c".
    package static func or(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + (items.last ?? "")
    }

    /// "a (default), b, c": the choices with the default marked.
    package static func list(_ items: [String], default def: String) -> String {
        items.map { $0 == def ? "\($0) (default)" : $0 }.joined(separator: ", ")
    }

    package static func range(_ r: ClosedRange<Double>) -> String {
        "\(Arguments.format(r.lowerBound))…\(Arguments.format(r.upperBound))"
    }
}
