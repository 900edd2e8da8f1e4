import Foundation
import SeatMapCore
import SeatMapLayout

/// Everything one drawing needs: the layout (the only geometry), the theme,
/// the header text and which seats are selected or highlighted.
public struct Scene: Sendable {
    public var layout: Layout
    public var theme: Theme
    /// "cinema · hall · start time".
    public var title: String
    public var screenLabel: String
    public var selected: Set<String>
    /// The buyer's seats on an e-ticket: drawn with an outline.
    public var highlighted: Set<String>

    public init(layout: Layout, theme: Theme, title: String, screenLabel: String,
                selected: Set<String> = [], highlighted: Set<String> = []) {
        self.layout = layout
        self.theme = theme
        self.title = title
        self.screenLabel = screenLabel
        self.selected = selected
        self.highlighted = highlighted
    }

    /// Lays a hall out with a theme's metrics and options and makes its scene.
    /// Unknown ids in `selected` / `highlighted` are errors naming them.
    public init(hall: Hall, theme: Theme, zoom: Double, scale: Double, header: Bool = true, legend: Bool = true,
                selected: Set<String> = [], highlighted: Set<String> = []) throws(SeatMapError) {
        var options = theme.layoutOptions
        options.header = header
        options.legend = legend
        let layout = try Layout(hall: hall, metrics: theme.metrics, options: options, zoom: zoom, scale: scale)
        for (what, ids) in [("--select", selected), ("--highlight", highlighted)] {
            let unknown = ids.filter { layout.cell(id: $0)?.isSeat != true }.sorted()
            if !unknown.isEmpty { throw SeatMapError("\(what): no such seat \(unknown.joined(separator: ", "))") }
        }
        let title = [hall.cinemaName, hall.hallName, hall.movieStartTime].filter { !$0.isEmpty }.joined(separator: " · ")
        self.init(layout: layout, theme: theme, title: title, screenLabel: hall.screenLabel,
                  selected: selected, highlighted: highlighted)
    }
}
