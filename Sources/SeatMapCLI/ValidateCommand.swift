import SeatMapCore
import SeatMapService
import SeatMapLayout

extension SeatMapCLI {
    static let validateCommand = Command(
        spec: CommandSpec(
            name: "validate", usage: "validate FILE... [--strict]",
            summary: "Check hall files; list every problem with its JSON path and line:column.",
            options: [.flag("strict", "Also report unknown keys, and fail on them.")],
            details: """
            Exit status: 0 all valid, 1 any invalid, 2 usage error. Problems go to stderr as FILE: PATH: message.
            A free venue whose seats overlap when drawn at zoom 1 (default seat size) gets a warning per pair (not an error).
            """),
        run: { args, console in
            guard !args.positionals.isEmpty else { throw UsageError(message: "missing FILE") }
            let strict = args.flag("strict")
            var failed = false
            for path in args.positionals {
                do {
                    let decoded = try HallFormat.decode(Files.read(path), strict: strict)
                    let s = HallSummary(decoded.hall)
                    if decoded.hall.isFree {
                        // The first 20 pairs found; the search stops there.
                        let overlaps = try Layout(hall: decoded.hall, zoom: 1, scale: 1).overlappingSeats(limit: 21)
                        for (a, b) in overlaps.prefix(20) {
                            console.err("\(path): warning: seats \(a) and \(b) overlap when drawn at zoom 1")
                        }
                        if overlaps.count > 20 { console.err("\(path): warning: … and more overlapping pairs") }
                    }
                    console.out("\(path): ok (\(s.seats) seats in \(s.rows) rows)")
                } catch {
                    console.err(CLIMessages.say(error))
                    failed = true
                }
            }
            return failed ? 1 : 0
        })

    static let infoCommand = Command(
        spec: CommandSpec(
            name: "info", usage: "info FILE [--json]",
            summary: "The hall at a glance: grid (or a free venue's rows, areas, standing places, levels, groups), counts by status, sections, price tiers.",
            options: [.flag("json", "Print JSON (keys as documented in docs/cli.md).")]),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            let s = HallSummary(try Files.readHall(file))
            if args.flag("json") {
                console.out(JSONWriter.write(s.json, pretty: true).trimmingSuffixNewline)
                return 0
            }
            var lines = [
                [s.cinemaName, s.hallName, s.movieStartTime].filter { !$0.isEmpty }.joined(separator: " · "),
                s.shape,
                "seats: \(s.seats) (available \(s.available), locked \(s.locked), sold \(s.sold)); aisles \(s.aisles)",
                "couple pairs: \(s.couplePairs); wheelchair: \(s.wheelchair); max per order: \(s.maxSelectCount)",
            ]
            for sec in s.sections {
                lines.append("section \(sec.id)\(sec.name.isEmpty ? "" : " \(sec.name)"): \(sec.seats) seats")
            }
            for t in s.priceTiers { lines.append("price \(t.price.plainText): \(t.seats) seats") }
            console.out(lines.joined(separator: "\n"))
            return 0
        })
}

extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
