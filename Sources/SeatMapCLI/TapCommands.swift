import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

extension SeatMapCLI {
    static let probesCommand = Command(
        spec: CommandSpec(
            name: "probes",
            usage: "probes FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--offset X,Y] [--viewport W,H] [--count N] [--seed S] [--json]",
            summary: "Taps for testing an app's hit-testing, each with the seat it must select.",
            options: GeometryOptions.table + HitQuery.viewOptions + ShowInput.options + [
                .value("count", "N", "How many taps (default 200, at most 1,000,000)."),
                .value("seed", "S", "Where the random choices start (a whole number, default 1): the same seed gives the same taps."),
                .flag("json", "Print a JSON array of {x, y, seat, kind}."),
            ],
            details: """
            Taps in view points for the picture render draws with the same geometry flags, at seat centres,
            half a pixel inside and outside seat edges, seat corners, the gaps between seats, aisles, beyond
            the map (or the viewport) and at random; every ten: 2 centre, 2 edge, 1 corner, 1 gap, 1 aisle,
            1 outside, 2 random (a kind the view has no place for becomes random). Each names the seat a tap
            there selects (what `hit` answers with the same flags), or none. A seat's whole rect is its tap
            target, so a `corner` tap selects the seat although it is drawn with rounded corners there.
            Text output: one line a tap, `X,Y SEAT KIND` (`-` for no seat). Exit status: 0, or 2 on bad usage.
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            let count = try args.int("count", in: 1...1_000_000) ?? 200
            let seed = try args.int("seed", in: 0...Int(Int64.max)) ?? 1
            let view = try TapView(ShowInput.hall(file, args).hall, args)
            let probes = try TapProbes.make(view, count: count, seed: UInt64(seed))
            console.out(args.flag("json") ? JSONWriter.write(TapProbes.json(probes), pretty: false) : TapProbes.text(probes))
            return 0
        })

    static let verifyTapsCommand = Command(
        spec: CommandSpec(
            name: "verify-taps",
            usage: "verify-taps FILE [--theme T] [--zoom Z | --fit W,H] [--scale S] [--no-header] [--no-legend] [--offset X,Y] [--viewport W,H] [--slop P] --answers FILE [--report OUT.html] [--json]",
            summary: "Check an app's answers for taps against the seats the taps land on.",
            options: GeometryOptions.table + HitQuery.options + ShowInput.options + [
                .value("answers", "FILE", "The app's answers: JSON lines {\"x\": X, \"y\": Y, \"seat\": \"ID\" or null} (- for stdin)."),
                .value("report", "OUT.html", "Write one self-contained page: the map at these flags, every wrong tap marked and listed."),
                .flag("json", "Print {\"checked\": N, \"disagree\": [{x, y, expected, got}]}."),
            ],
            details: """
            Each answer is compared with the seat a tap at (x, y) view points selects with the same flags as
            `hit` (its answer, or no seat for a gap, aisle, area, row label or outside). An answer may name a
            seat by its SeatMap id or by the external id it came with. Prints each wrong answer,
            `X,Y (line L): expected ID, got ID`, then a summary. Exit status: 0 when every answer is right,
            1 when any is wrong, 2 on an error (an unreadable answers file, a bad line, named with its number,
            a report that cannot be written) or bad usage.
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            guard let answersFile = args.value("answers") else { throw UsageError(message: "give the app's answers with --answers FILE") }
            let hall = try ShowInput.hall(file, args).hall
            let view = try TapView(hall, args)
            let answers: [TapAnswer]
            do {
                answers = try TapVerification.parse(Files.read(answersFile))
            } catch {
                console.err("seatmap verify-taps: \(CLIMessages.say(error))")
                return 2
            }
            let wrong = try TapVerification.check(answers, in: view, hall: hall)
            if let out = args.value("report") {
                do {
                    let page = try TapVerification.report(hall: hall, view: view, answersName: answersFile == "-" ? "standard input" : answersFile,
                                                          checked: answers.count, wrong)
                    try Files.writeAtomically(page, to: out)
                } catch {
                    console.err("seatmap verify-taps: \(CLIMessages.say(error))")
                    return 2
                }
            }
            if args.flag("json") {
                console.out(JSONWriter.write(TapVerification.json(checked: answers.count, wrong), pretty: false))
            } else {
                var lines = wrong.map(TapVerification.line)
                lines.append(wrong.isEmpty ? "all \(answers.count) answers right" : "\(wrong.count) of \(answers.count) answers wrong")
                console.out(lines.joined(separator: "\n"))
            }
            return wrong.isEmpty ? 0 : 1
        })
}
