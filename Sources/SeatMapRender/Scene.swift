import Foundation
import SeatMapCore
import SeatMapLayout

/// Everything one drawing needs: the layout (the only geometry, with the
/// header and screen texts), the theme's colours, and which seats are
/// selected or highlighted.
public struct Scene: Sendable {
    public var layout: Layout
    public var theme: Theme
    public var selected: Set<SeatID>
    /// Seats drawn with an outline.
    public var highlighted: Set<SeatID>
    /// An e-ticket: the image is `ticket.frame`, the buyer's seats are drawn
    /// in the selected colour with the highlight outline and their numbers,
    /// and (unless `showOccupancy`) every other seat in the theme's neutral
    /// colour without status marks.
    public private(set) var ticket: TicketLayout?
    public var showOccupancy = false
    /// In a viewport render, keep the row labels at the view's edge
    /// (`Layout.pinnedRowLabels`), as phone pickers do.
    public var pinRowLabels = false

    /// Makes this scene an e-ticket for `seats` (see `Layout.ticket`); a
    /// couple seat brings its partner (a pair is sold whole).
    public mutating func makeTicket(for seats: [SeatID], showOccupancy: Bool = false) throws(SeatMapError) {
        var ids = seats
        for id in seats {
            if let partner = layout.cell(id: id)?.partnerID, !ids.contains(partner) { ids.append(partner) }
        }
        let t = try layout.ticket(Array(Set(ids)).sorted())
        ticket = t
        self.showOccupancy = showOccupancy
        highlighted.formUnion(t.seats)
    }

    /// Whether seats other than the buyer's are drawn neutral.
    var hidesOccupancy: Bool { ticket != nil && !showOccupancy }
    /// Whether a seat is one of the ticket's.
    func isTicketed(_ id: SeatID) -> Bool { ticket?.seats.contains(id) == true }

    /// "cinema · hall · start time".
    public var title: String { layout.title }
    public var screenLabel: String { layout.screenLabel }

    /// A scene over a layout built elsewhere (the CLI builds one layout from
    /// its geometry flags and draws, hit-tests and reports rects from it).
    /// Unknown ids in `selected` / `highlighted` are errors naming them.
    public init(layout: Layout, theme: Theme, selected: Set<SeatID> = [], highlighted: Set<SeatID> = []) throws(SeatMapError) {
        for (what, ids) in [("selected", selected), ("highlighted", highlighted)] {
            let unknown = ids.filter { layout.cell(id: $0)?.isSeat != true }.sorted()
            if !unknown.isEmpty { throw SeatMapError("{{\(what)}}: no such seat \(unknown.map(\.description).joined(separator: ", "))") }
        }

        self.layout = layout
        self.theme = theme
        self.selected = selected
        self.highlighted = highlighted
    }

    /// Lays a hall out with the theme's style (header and legend switched as
    /// given) and makes its scene.
    public init(hall: Hall, theme: Theme, zoom: Double = GeometryOptions.defaultZoom, scale: Double = Layout.defaultScale,
                header: Bool = true, legend: Bool = true, locale: SeatMapLocale? = nil,
                selected: Set<SeatID> = [], highlighted: Set<SeatID> = []) throws(SeatMapError) {
        self = try GeometryOptions(theme: theme, zoom: zoom, scale: scale, header: header, legend: legend, locale: locale)
            .scene(for: hall, selected: selected, highlighted: highlighted)
    }
}
