import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender

/// The render option group beyond the geometry: what an image shows and
/// how it is encoded. The CLI's `render`, the HTTP image and picker
/// endpoints and the snapshot API read these same options.
extension ImageOptions {
    package static let table: [CommandSpec.Option] = [
        .value("viewport", "W,H", "Render only what a phone viewport of W×H points shows..."),
        .value("offset", "X,Y", "...scrolled to this content offset in points (default 0,0)."),
        .flag("minimap", "Add a thumbnail of the whole hall with the viewport outlined (only when the hall does not fit the viewport)."),
        .flag("pin-row-labels", "With --viewport: keep the row labels at the viewport's edge as it scrolls (grid halls); hit takes the same flag."),
        .value("select", "ID,...", "Seats drawn as selected (with a check mark)."),
        .value("highlight", "ID,...", "Seats drawn with an outline."),
        .value("ticket", "ID,...", "E-ticket: the buyer's seats in the selected colour, outlined and named in a callout; the image cropped around them (the screen's direction shown when it is off the crop); other seats neutral; no legend."),
        .flag("show-occupancy", "With --ticket: draw the other seats' statuses and prices as usual."),
        .value("page", "SIZE", "PDF page: \(HelpPhrases.list(PageSize.allCases.map(\.rawValue), default: PageSize.fit.rawValue))."),
        .value("png-compression", "LEVEL", "PNG compression: \(HelpPhrases.list(PNGCompression.allCases.map(\.rawValue), default: PNGCompression.default.rawValue))."),
        .value("svg-text", "MODE", "SVG text: \(HelpPhrases.list(SVGText.allCases.map(\.rawValue), default: SVGText.text.rawValue)). text: <text> in the theme's fonts, then sans-serif; paths: glyph outlines, the same as the PNG without the fonts, each with its text as title."),
    ]

    /// Reads the geometry and image options.
    package static func settings(_ args: Arguments) throws -> ImageOptions {
        var geometry = try GeometryOptions(args)
        let viewport = try args.pair("viewport")
        if let viewport, viewport.0 <= 0 || viewport.1 <= 0 { throw UsageError(message: "\(args.say("viewport")) expects a positive width and height") }
        let offset = try args.pair("offset") ?? (0, 0)
        if args.given("offset") && viewport == nil { throw UsageError(message: "\(args.say("offset")) goes with \(args.say("viewport"))") }
        if args.flag("minimap") && viewport == nil { throw UsageError(message: "\(args.say("minimap")) goes with \(args.say("viewport"))") }
        if args.flag("pin-row-labels") && viewport == nil { throw UsageError(message: "\(args.say("pin-row-labels")) goes with \(args.say("viewport"))") }
        let page = try args.choice("page", default: PageSize.fit)
        let compression = try args.choice("png-compression", default: PNGCompression.default)
        let ticket = args.list("ticket") ?? []
        if args.given("ticket") {
            if ticket.isEmpty { throw UsageError(message: "\(args.say("ticket")) expects seat ids (ID,...)") }
            if viewport != nil { throw UsageError(message: "\(args.say("ticket")) is its own crop: it takes no \(args.say("viewport"))") }
            if args.given("select") || args.given("highlight") {
                throw UsageError(message: "\(args.say("ticket")) draws the buyer's seats itself: it takes no \(args.say("select")) or \(args.say("highlight"))")
            }
            // A ticket has no legend: with occupancy hidden it would describe colours the ticket does not use.
            geometry.legend = false
        }
        if args.flag("show-occupancy") && !args.given("ticket") { throw UsageError(message: "\(args.say("show-occupancy")) goes with \(args.say("ticket"))") }
        let svgText = try args.choice("svg-text", default: SVGText.text)
        return ImageOptions(geometry: geometry, viewport: viewport, offset: offset,
                              minimap: args.flag("minimap"), selected: Set(args.list("select") ?? []),
                              highlighted: Set(args.list("highlight") ?? []), page: page, compression: compression,
                              svgTextAsPaths: svgText == .paths, ticket: ticket, showOccupancy: args.flag("show-occupancy"),
                              pinRowLabels: args.flag("pin-row-labels"))
    }

    /// Seat ids from the options, each a SeatMap id or a seat's external id
    /// in `hall`; text that is neither is named in the same error as an id
    /// the hall does not have.
    package static func seatIDs(_ texts: Set<String>, input: String, in hall: Hall) throws -> Set<SeatID> {
        let bad = texts.filter { hall.seatID(named: $0) == nil }.sorted()
        if !bad.isEmpty { throw SeatMapError("\(Diagnostic.Text.input(input)): no such seat \(bad.joined(separator: ", "))") }
        return Set(texts.compactMap { hall.seatID(named: $0) })
    }
}

/// How SVG text is written: as `<text>` or as glyph outlines.
package enum SVGText: String, CaseIterable, Sendable {
    case text, paths
}

/// What the render options say.
package struct ImageOptions {
    package var geometry: GeometryOptions
    package var viewport: (Double, Double)?
    package var offset: (Double, Double)
    package var minimap: Bool
    package var selected: Set<String>
    package var highlighted: Set<String>
    package var page: PageSize
    package var compression: PNGCompression
    package var svgTextAsPaths = false
    package var ticket: [String] = []
    package var showOccupancy = false
    package var pinRowLabels = false
}

/// Drawing a hall (or a show's view of it) with render settings: the one
/// place every face gets image bytes from.
package enum HallImage {
    /// The bytes for `hall` with these settings; `selected` seats (a
    /// buyer's held seats) are drawn selected beside `--select`'s.
    /// Errors of the encoding itself name `output` (the image being
    /// written); errors about the hall or the options name what they are about.
    package static func bytes(_ hall: Hall, format: OutputFormat, _ s: ImageOptions, selected extra: [SeatID] = [],
                              picker: PickerEndpoint? = nil, output: String? = nil) throws -> [UInt8] {
        if s.svgTextAsPaths, format != .svg && format != .html { throw UsageError(template: "{{svg-text}} goes with SVG or HTML output") }
        let selected = try ImageOptions.seatIDs(s.selected, input: "selected", in: hall).union(extra)
        var scene = try s.geometry.scene(for: hall, selected: selected,
                                         highlighted: ImageOptions.seatIDs(s.highlighted, input: "highlighted", in: hall))
        scene.pinRowLabels = s.pinRowLabels
        if !s.ticket.isEmpty {
            let ids = try ImageOptions.seatIDs(Set(s.ticket), input: "ticket", in: hall)
            try scene.makeTicket(for: ids.sorted(), showOccupancy: s.showOccupancy)
        }
        // A buyer can only select available seats: say which are not.
        let taken = selected.sorted().compactMap { id in
            scene.layout.cell(id: id).flatMap { $0.status == .available ? nil : "\(id) is \($0.kind.name)" }
        }
        if !taken.isEmpty { throw SeatMapError("{{selected}}: \(taken.joined(separator: ", ")); only available seats can be selected") }
        let viewport = s.viewport.map {
            ViewTransform(layout: scene.layout, viewportWidth: $0.0, viewportHeight: $0.1, offsetX: s.offset.0, offsetY: s.offset.1)
        }
        do {
            return try format.bytes(scene, RenderOptions(viewport: viewport, minimap: s.minimap, compression: s.compression, page: s.page,
                                                         svgTextAsPaths: s.svgTextAsPaths, picker: picker))
        } catch {
            throw SeatMapError(file: error.file ?? output, diagnostics: error.diagnostics)
        }
    }
}
