import Foundation
import SeatMapCore

extension SeatMapCLI {
    static let importCommand = Command(
        spec: CommandSpec(
            name: "import", usage: "import maoyan IN.json -o HALL.json [--price P | --prices 1=P1,2=P2] [--lenient]",
            summary: "Turn a Maoyan seat payload (camelCase or snake_case, detected) into a hall file.",
            options: outputOptions("HALL.json", "Where to write the hall") + [
                .value("price", "P", "One price for every seat."),
                .value("prices", "MAP", "Prices by section number, e.g. 1=45,2=60."),
                .flag("lenient", "Import unknown seat codes as locked, with a warning per seat."),
            ],
            details: "IN.json may be - for standard input. The hall written passes `seatmap validate`."),
        run: { args, console in
            let p = try positionals(args, ["maoyan", "IN.json"])
            guard p[0] == "maoyan" else { throw UsageError(message: "unknown import format \"\(p[0])\" (expected maoyan)") }
            guard let out = output(args) else { throw UsageError(message: "missing -o HALL.json") }
            var prices: MaoyanImporter.Prices? = nil
            switch (args.value("price"), args.value("prices")) {
            case (let one?, nil):
                guard let d = DecodeContext.exactDecimal(one), d >= 0 else { throw UsageError(message: "--price expects a price such as 45 or 39.9") }
                prices = .all(d)
            case (nil, let map?):
                guard let parsed = MaoyanImporter.parsePrices(map) else {
                    throw UsageError(message: "--prices expects SECTION=PRICE pairs such as 1=45,2=60")
                }
                prices = parsed
            case (nil, nil): prices = nil
            default: throw UsageError(message: "use either --price or --prices")
            }
            let imported = try MaoyanImporter.importHall(Files.read(p[1]), prices: prices, lenient: args.flag("lenient"))
            for w in imported.warnings { console.err("\(p[1] == "-" ? "<stdin>" : p[1]): warning: \(w.description)") }
            try Files.writeAtomically(HallFormat.encodeText(imported.hall), to: out)
            let s = HallSummary(imported.hall)
            console.out("wrote \(out): \(s.seats) seats in \(s.rows) rows, \(s.sections.count) section(s)")
            return 0
        })
}
