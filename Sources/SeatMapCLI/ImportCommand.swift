import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapService

extension SeatMapCLI {
    /// Reads `HallImporters.all`: its names, summaries and options make the
    /// command's usage, help and option list.
    static let importCommand = Command(
        spec: CommandSpec(
            name: "import",
            usage: "import FORMAT IN.json -o HALL.json [options]   (FORMAT: \(HallImporters.all.map(\.name).joined(separator: ", ")))",
            summary: "Turn another system's seat data into a hall file: \(HallImporters.all.map(\.name).joined(separator: ", ")).",
            options: outputOptions("HALL.json", "Where to write the hall") + importerOptions,
            details: "Formats:\n" + HallImporters.all.map { importer in
                "  \(importer.name): \(importer.summary); options "
                    + importer.options.map { "--" + $0.name }.joined(separator: ", ")
            }.joined(separator: "\n") + "\nIN.json may be - for standard input. The hall written passes `seatmap validate`."),
        run: { args, console in
            let p = try positionals(args, ["FORMAT", "IN.json"])
            guard let importer = HallImporters.named(p[0]) else {
                throw Suggestion.unknown("import format", p[0], in: HallImporters.all.map(\.name))
            }
            guard let out = try output(args) else { throw UsageError(message: "missing -o HALL.json") }
            let own = Set(importer.options.map(\.name))
            if let other = (Array(args.values.keys) + Array(args.flags)).filter({ !own.contains($0) && $0 != "o" && $0 != "output" }).sorted().first {
                throw UsageError(message: "--\(other) is not an option of the \(importer.name) importer")
            }
            var request = ImportRequest(flags: args.flags)
            for o in importer.options where o.valueName != nil { request.values[o.name] = args.value(o.name) }
            if let problem = importer.usageProblem(request) { throw UsageError(message: CLIMessages.say(problem)) }
            let imported = try importer.importHall(Files.read(p[1]), request)
            let name = p[1] == "-" ? "<stdin>" : p[1]
            for w in imported.warnings { console.err("\(name): warning: \(w.description)") }
            // Seats placed under another seat (a plan's copied blocks) can never be tapped: said once.
            let covered = HitTester(layout: try Layout(hall: imported.hall, zoom: 1, scale: 1)).seatsCoveredAtTheirCentre()
            if !covered.isEmpty {
                let some = covered.prefix(5).map(\.description).joined(separator: ", ") + (covered.count > 5 ? ", …" : "")
                console.err("\(name): warning: \(covered.count == 1 ? "1 seat lies" : "\(covered.count) seats lie") under another seat and cannot be tapped: \(some) (`validate` lists the overlapping pairs)")
            }
            try Files.writeAtomically(HallFormat.encodeText(imported.hall), to: out)
            let s = HallSummary(imported.hall)
            // With -o -, standard output holds the hall alone; the report goes to stderr.
            let report = "wrote \(out == "-" ? "<stdout>" : out): \(s.seats) seats in \(s.rows) rows, \(s.sections.count) section(s)"
            if out == "-" { console.err(report) } else { console.out(report) }
            return 0
        })

    /// Every importer's options, once each by name.
    static var importerOptions: [CommandSpec.Option] {
        var seen = Set<String>()
        return HallImporters.all.flatMap(\.options).compactMap { o in
            guard seen.insert(o.name).inserted else { return nil }
            return o.valueName.map { .value(o.name, $0, o.help) } ?? .flag(o.name, o.help)
        }
    }
}
