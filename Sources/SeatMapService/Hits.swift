import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender

/// The hit option group and the hit use case: which seat taps land on, for
/// view points at a zoom and pan offset, answered from the layout the
/// geometry options give (the picture render draws with them).
package enum Hits {
    package static let options: [CommandSpec.Option] = [
        .value("offset", "X,Y", "Content offset in points, as UIScrollView.contentOffset (default 0,0)."),
        .value("viewport", "W,H", "Viewport size in points; taps outside it are reported as outside."),
        .value("slop", "P", "A tap on a gap within P points of a seat hits the nearest seat (default 0)."),
        .flag("pin-row-labels", "The view keeps its row labels at its edge (render --pin-row-labels): a tap on one answers rowLabel."),
    ]

    /// Each point's result, in the order given, and the layout answered from.
    package static func hit(_ hall: Hall, _ args: Arguments, points: [ViewPoint]) throws -> (layout: Layout, results: [HitResult]) {
        let geometry = try GeometryOptions(args)
        let offset = try args.pair("offset") ?? (0, 0)
        let viewport = try args.pair("viewport")
        if let viewport, viewport.0 <= 0 || viewport.1 <= 0 {
            throw UsageError(message: "--viewport expects a positive width and height")
        }
        let slop = try args.double("slop", default: 0, in: 0...1000)
        if args.flag("pin-row-labels") && viewport == nil { throw UsageError(message: "--pin-row-labels goes with --viewport") }
        let layout = try geometry.layout(for: hall).layout
        let transform = ViewTransform(layout: layout, viewportWidth: viewport?.0, viewportHeight: viewport?.1,
                                      offsetX: offset.0, offsetY: offset.1)
        let tester = HitTester(layout: layout)
        var results: [HitResult] = []
        for p in points {
            var result = HitResult.outside
            let inViewport = viewport.map { p.x >= 0 && p.y >= 0 && p.x < $0.0 && p.y < $0.1 } ?? true
            if inViewport {
                result = args.flag("pin-row-labels")
                    ? try tester.hit(at: p, in: transform, slop: slop, pinnedIn: transform.visiblePixels)
                    : try tester.hit(at: p, in: transform, slop: slop)
            }
            results.append(result)
        }
        return (layout, results)
    }
}
