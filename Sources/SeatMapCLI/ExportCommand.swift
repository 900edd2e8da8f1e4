import Foundation
import SeatMapCore
import SeatMapService
import SeatMapLayout

extension SeatMapCLI {
    /// The formats `export` writes.
    static let exportFormats = ["pretix"]

    static let exportCommand = Command(
        spec: CommandSpec(
            name: "export",
            usage: "export FORMAT HALL.json -o OUT.json   (FORMAT: \(exportFormats.joined(separator: ", ")))",
            summary: "Write a hall in another system's format: \(exportFormats.joined(separator: ", ")).",
            options: outputOptions("OUT.json", "Where to write the plan"),
            details: """
            pretix: a seating plan that validates against pretix's seating-plan schema and imports back
            (`seatmap import pretix`) to the same seats, positions and categories. Statuses, standing capacities,
            prices, levels and seat shapes are not part of a pretix plan (see docs/import-export.md).
            Grid halls are written at the default seat pitch.
            """),
        run: { args, console in
            let p = try positionals(args, ["FORMAT", "HALL.json"])
            guard exportFormats.contains(p[0]) else {
                throw Suggestion.unknown("export format", p[0], in: exportFormats)
            }
            guard let out = try output(args) else { throw UsageError(message: "missing -o OUT.json") }
            let hall = try Files.readHall(p[1])
            let style = LayoutStyle()
            let plan = PretixExporter.plan(hall, pitch: style.seatWidth + style.gapX, rowPitch: style.seatHeight + style.rowGap,
                                           seatSize: (style.seatWidth, style.seatHeight))
            try Files.writeAtomically(JSONWriter.write(plan), to: out)
            if out != "-" { console.out("wrote \(out): \(HallSummary(hall).seats) seats") }
            return 0
        })
}
