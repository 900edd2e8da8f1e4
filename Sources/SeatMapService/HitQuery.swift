import SeatMapCore
import SeatMapLayout
import SeatMapRender

/// The hit option group and the hit use case: which seat taps land on, for
/// view points at a zoom and pan offset, answered from the layout the
/// geometry options give (the picture render draws with them).
package enum HitQuery {
    package static let options: [CommandSpec.Option] = viewOptions + [
        .value("slop", "P", "A tap on a gap within P points of a seat hits the nearest seat (default 0)."),
        .flag("pin-row-labels", "The view keeps its row labels at its edge (render --pin-row-labels): a tap on one answers rowLabel."),
    ]

    /// Where the view is: its pan offset and size.
    package static let viewOptions: [CommandSpec.Option] = [
        CommandSpec.Option.value("offset", "X,Y", "Content offset in points, as UIScrollView.contentOffset (default 0,0).").json(.pair),
        CommandSpec.Option.value("viewport", "W,H", "Viewport size in points; taps outside it are reported as outside.").json(.pair),
    ]

    /// Each point's result, in the order given, and the layout answered from.
    package static func hit(_ hall: Hall, _ args: Arguments, points: [ViewPoint]) throws -> (layout: Layout, results: [HitResult]) {
        let view = try TapView(hall, args)
        return (view.layout, try points.map { try view.answer($0) })
    }
}

/// A hall seen through the geometry and view options: what a tap at a view
/// point lands on. `hit`, `probes` and `verify-taps` answer from it.
package struct TapView {
    package let geometry: GeometryOptions
    package let layout: Layout
    package let transform: ViewTransform
    /// The viewport's size in points, when one was given.
    package let viewport: (Double, Double)?
    package let slop: Double
    package let pinned: Bool
    let tester: HitTester

    package init(_ hall: Hall, _ args: Arguments) throws {
        geometry = try GeometryOptions(args)
        let offset = try args.pair("offset") ?? (0, 0)
        let viewport = try args.pair("viewport")
        if let viewport, viewport.0 <= 0 || viewport.1 <= 0 {
            throw UsageError(message: "\(args.say("viewport")) expects a positive width and height")
        }
        slop = try args.double("slop", default: 0, in: 0...1000)
        pinned = args.flag("pin-row-labels")
        if pinned && viewport == nil { throw UsageError(message: "\(args.say("pin-row-labels")) goes with \(args.say("viewport"))") }
        layout = try geometry.layout(for: hall).layout
        transform = ViewTransform(layout: layout, viewportWidth: viewport?.0, viewportHeight: viewport?.1,
                                  offsetX: offset.0, offsetY: offset.1)
        self.viewport = viewport
        tester = HitTester(layout: layout)
    }

    /// Whether a view point is inside the viewport (always, without one).
    package func inView(_ p: ViewPoint) -> Bool {
        viewport.map { p.x >= 0 && p.y >= 0 && p.x < $0.0 && p.y < $0.1 } ?? true
    }

    /// What a tap at `p` lands on.
    package func answer(_ p: ViewPoint) throws -> HitResult {
        guard inView(p) else { return .outside }
        return pinned ? try tester.hit(at: p, in: transform, slop: slop, pinnedIn: transform.visiblePixels)
                      : try tester.hit(at: p, in: transform, slop: slop)
    }

    /// The seat a tap at `p` selects: nil for a gap, an aisle, an area, a row label or outside.
    package func seat(at p: ViewPoint) throws -> SeatID? { try answer(p).seatID }
}

extension HitResult {
    /// The seat a tap with this result selects: nil for anything but a seat.
    package var seatID: SeatID? {
        if case .seat(let cell) = self { return cell.id }
        return nil
    }
}
