import Foundation
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
import SeatMapRender
import SeatMapStore

extension SeatMapCLI {
    static let selectCommand = Command(
        spec: CommandSpec(
            name: "select", usage: "select FILE [--toggle ID,ID,...] [--area AREA=N ...] [--store DB --show SHOW [--hold-ttl SECONDS]] [--no-single-seat-rule] [--json]  |  select FILE --store DB --show SHOW --order-succeeded",
            summary: "Toggle seats in order; print each result, the total, the seats and any single-seat violations.",
            options: [
                .value("toggle", "ID,...", "Seat ids to toggle, in order."),
                .values("area", "AREA=N", "Take N places in a standing area (0 gives them back); repeat for several."),
                .value("store", "DB", "The selection store (SQLite): start from the show's held selection and hold the new one."),
                .value("show", "SHOW", "The show id in the store."),
                .value("hold-ttl", "SECONDS", "How long the held selection lasts without another select (default 600)."),
                .flag("order-succeeded", "The order went through: forget the show's pending selection in the store."),
                .flag("no-single-seat-rule", "Do not check the no-single-empty-seat rule."),
                localeOption,
                .flag("json", "Print {results, selected, total, currency, totalText, descriptions, violations}."),
            ],
            details: """
            Results: selected, deselected, notAvailable, noSuchSeat, noSuchArea, reachLimit. Couple halves and
            groups (boxes, tables) go together. Standing places count towards maxSelectCount and the total.
            Violations list available seats the selection leaves alone in their row (不能留空座).
            With --store, the show's pending selection is a hold that expires --hold-ttl seconds after the
            last select; each command reads and writes it in one transaction, so concurrent commands on
            one store never lose each other's seats. Held seats the hall no longer offers are named on stderr.
            Exit status 0 (violations are reported, not fatal), 1 bad input, 2 usage.
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
            if args.flag("order-succeeded") {
                guard let path = args.value("store"), let show = args.value("show") else {
                    throw UsageError(message: "--order-succeeded needs --store PATH --show SHOW")
                }
                if args.value("toggle") != nil || args.values["area"] != nil { throw UsageError(message: "--order-succeeded takes no --toggle or --area") }
                _ = try Files.readHall(file)
                let store = try SeatStore(path: path)
                for note in store.notes { console.err(note) }
                try store.transaction { try store.release(show: show) }
                console.out("\(show): pending selection cleared")
                return 0
            }
            var areaRequests: [(String, Int)] = []
            for text in args.values["area"] ?? [] {
                for part in text.split(separator: ",") {
                    guard let eq = part.lastIndex(of: "="), let n = Int(part[part.index(after: eq)...]), n >= 0, eq != part.startIndex else {
                        throw UsageError(message: "--area expects AREA=N with a whole number N ≥ 0, got \"\(part)\"")
                    }
                    areaRequests.append((String(part[..<eq]), n))
                }
            }
            let toggles = args.value("toggle") ?? ""
            if args.value("toggle") == nil && areaRequests.isEmpty { throw UsageError(message: "missing --toggle ID,... or --area AREA=N") }
            if args.value("hold-ttl") != nil && args.value("store") == nil { throw UsageError(message: "--hold-ttl goes with --store") }
            let ttl = try args.double("hold-ttl", default: SeatStore.defaultHoldSeconds, in: 1...31_536_000)
            let hall = try Files.readHall(file)
            var selection = Selection()
            var results: [(String, Selection.ToggleResult)] = []
            /// Toggles in order, starting from `selection`.
            func toggleAll() {
                for id in toggles.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !id.isEmpty {
                    results.append((id, SeatID(id).map { selection.toggle($0, in: hall) } ?? .noSuchSeat))
                }
                for (area, n) in areaRequests {
                    results.append(("area:\(area)=\(n)", selection.setQuantity(n, ofArea: area, in: hall)))
                }
            }
            if let path = args.value("store"), let show = args.value("show") {
                let store = try SeatStore(path: path)
                for note in store.notes { console.err(note) }
                // Read, toggle and write back in one transaction.
                let dropped: [String] = try store.transaction {
                    let now = Date()
                    let held = try store.heldSeats(show: show, now: now)
                    selection = Selection(ids: held.compactMap(SeatID.init), in: hall)
                    // Standing places are held as "area:ID=N" beside the seat ids.
                    for h in held where h.hasPrefix("area:") {
                        if let eq = h.lastIndex(of: "="), let n = Int(h[h.index(after: eq)...]) {
                            _ = selection.setQuantity(n, ofArea: String(h[h.index(h.startIndex, offsetBy: 5)..<eq]), in: hall)
                        }
                    }
                    let kept = Set(selection.ids.map(\.description) + selection.standing.map { "area:\($0.key)=\($0.value)" })
                    toggleAll()
                    try store.hold(show: show, seats: selection.ids.map(\.description) + selection.standing.keys.sorted().map {
                        "area:\($0)=\(selection.standing[$0] ?? 0)"
                    }, until: now.addingTimeInterval(ttl))
                    return held.filter { !kept.contains($0) }
                }
                for id in dropped {
                    console.err("\(path): \(show): held seat \(id) is no longer available in \(file); dropped from the selection")
                }
            } else {
                toggleAll()
            }
            let violations = args.flag("no-single-seat-rule") ? [] : SingleSeatRule.violations(selection, in: hall)
            let locale = try locale(args, for: hall)
            let total = selection.total(in: hall)
            let descriptions = selection.descriptions(in: hall, locale: locale) + selection.standingDescriptions(in: hall)
            if args.flag("json") {
                console.out(JSONWriter.write(.object([
                    ("results", .array(results.map { .object([("id", .string($0.0)), ("result", .string($0.1.rawValue))]) })),
                    ("selected", .array(selection.ids.map { .string($0.description) })),
                    ("total", .string(total.plainText)),
                    ("currency", .string(hall.currency)),
                    ("totalText", .string(locale.money(total, currency: hall.currency))),
                    ("descriptions", .array(descriptions.map { .string($0) })),
                    ("violations", .array(violations.map { .string($0.description) })),
                ] + (selection.standing.isEmpty ? [] : [("standing", .object(selection.standing.keys.sorted().map {
                    ($0, .int(selection.standing[$0] ?? 0))
                }))])), pretty: false))
            } else {
                var lines = results.map { "\($0.0): \($0.1.rawValue)" }
                lines.append("selected: \(descriptions.joined(separator: " "))")
                lines.append("total: \(locale.money(total, currency: hall.currency))")
                for v in violations {
                    lines.append("violation: \(hall.cell(id: v).map { hall.describe($0, in: locale) } ?? v.description) (\(v)) would be left as a single empty seat")
                }
                console.out(lines.joined(separator: "\n"))
            }
            return 0
        })

    static let recommendCommand = Command(
        spec: CommandSpec(
            name: "recommend", usage: "recommend FILE --count N [--json]",
            summary: "The best block of N adjacent available seats (nearest the centre, two thirds back).",
            options: [.value("count", "N", "How many seats, 1…maxSelectCount."), localeOption,
                      .flag("json", "Print {seats, descriptions, total, currency, totalText}.")],
            details: "Exit status 0 found, 1 when no block fits (or bad input), 2 usage."),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            guard let text = args.value("count") else { throw UsageError(message: "--count expects a whole number") }
            guard let count = Int(text), DecodeContext.isDecimalNumber(text) else {
                throw UsageError(message: "--count expects a whole number, got \"\(text)\"")
            }
            let hall = try Files.readHall(file)
            guard count >= 1, count <= hall.maxSelectCount else {
                throw UsageError(message: "--count \(count) is outside 1…\(hall.maxSelectCount) (the hall's maxSelectCount)")
            }
            guard let ids = Recommender.recommend(count: count, in: hall) else {
                console.err("\(file): no block of \(count) adjacent available seats fits without leaving a single empty seat")
                return 1
            }
            let selection = Selection(ids: ids, in: hall)
            let locale = try locale(args, for: hall)
            let total = selection.total(in: hall)
            let descriptions = selection.descriptions(in: hall, locale: locale)
            if args.flag("json") {
                console.out(JSONWriter.write(.object([
                    ("seats", .array(ids.map { .string($0.description) })),
                    ("descriptions", .array(descriptions.map { .string($0) })),
                    ("total", .string(total.plainText)),
                    ("currency", .string(hall.currency)),
                    ("totalText", .string(locale.money(total, currency: hall.currency))),
                ]), pretty: false))
            } else {
                console.out("\(descriptions.joined(separator: " ")) (\(ids.map(\.description).joined(separator: ","))) total \(locale.money(total, currency: hall.currency))")
            }
            return 0
        })

    static let applyCommand = Command(
        spec: CommandSpec(
            name: "apply",
            usage: "apply FILE UPDATES.json -o NEW.json [--image OLD.png --image-out NEW.png] [--store DB --show SHOW] [geometry flags: --theme T --zoom Z --scale S ...] [--json]",
            summary: "Apply live status batches all-or-nothing; optionally redraw only the changed seats of an image.",
            options: outputOptions("NEW.json", "Where to write the updated hall") + [
                .value("image", "OLD.png", "A render of FILE with the same geometry flags, to update incrementally."),
                .value("image-out", "NEW.png", "Where to write the redrawn image."),
                .value("store", "DB", "Remember applied batch ids and the last sequence per show in this store (SQLite), across runs."),
                .value("show", "SHOW", "The show the batches belong to (with --store)."),
            ] + geometryOptions + [
                .flag("json", "Print per batch {batchId, outcome, changed, dirty: [{id, x, y, w, h}], dropped}."),
            ],
            details: """
            UPDATES.json holds one batch {"batchId","sequence","changes":[{"id","status"}]} or an array of them,
            applied in order: a repeated batch id is a no-op, a sequence not after the last applied is ignored,
            an unknown seat id or invalid status rejects the run with FILE and every output untouched (exit 1).
            Without --store this holds within one run; with --store DB --show SHOW across runs too (the outputs
            are written, then the batches recorded, in one transaction).
            """),
        run: { args, console in
            let p = try positionals(args, ["FILE", "UPDATES.json"])
            guard let out = try output(args) else { throw UsageError(message: "missing -o NEW.json") }
            if (args.value("image") == nil) != (args.value("image-out") == nil) {
                throw UsageError(message: "--image and --image-out go together")
            }
            let geometry = try geometry(args)
            let hall = try Files.readHall(p[0])
            let batches = try StatusBatch.decode(Files.read(p[1]))
            if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
            var store: SeatStore? = nil
            if let path = args.value("store") {
                store = try SeatStore(path: path)
                for note in store?.notes ?? [] { console.err(note) }
            }
            let show = args.value("show") ?? ""
            let result: ApplyResult
            if let store {
                result = try store.transaction {
                    let r = try applyBatches(batches, to: hall, known: try store.appliedBatches(show: show), geometry: geometry,
                                             updatesFile: p[1], out: out, args: args)
                    for b in r.applied { try store.recordBatch(show: show, batchId: b.batchId, sequence: b.sequence) }
                    return r
                }
            } else {
                result = try applyBatches(batches, to: hall, known: ([], nil), geometry: geometry, updatesFile: p[1], out: out, args: args)
            }
            // With an output on standard output, the report goes to stderr.
            if result.outputs.contains("-") { console.err(result.report) } else { console.out(result.report) }
            return 0
        })

    /// What one `apply` run produced: its report, the batches it applied and
    /// the output paths it wrote.
    struct ApplyResult {
        var report: String
        var applied: [StatusBatch]
        var outputs: [String]
    }

    /// Applies the batches after those `known`, writes the outputs (all or
    /// nothing) and returns the report.
    static func applyBatches(_ batches: [StatusBatch], to hall: Hall, known: (ids: Set<String>, lastSequence: Int?),
                         geometry: Geometry, updatesFile: String, out: String, args: Arguments) throws -> ApplyResult {
        // Dirty rects are in the layout the geometry flags give (statuses
        // never move a seat, so it is the layout of every state).
        let layout = try geometry.layout(hall).layout
        var sync = StatusSync(hall: hall, appliedBatchIds: known.ids, lastSequence: known.lastSequence, locale: layout.locale)
        var appliedBatches: [StatusBatch] = []
        var selection = Selection()
        var changedAll: [SeatID] = []
        var changedAreas: [String] = []
        var lines: [String] = []
        var reports: [JSONNode] = []
        for (k, batch) in batches.enumerated() {
            let outcome: StatusSync.Outcome
            do {
                outcome = try sync.apply(batch, selection: &selection)
            } catch {
                // Paths name the batch in a file of several.
                let prefix = batches.count > 1 ? "[\(k)]." : ""
                throw SeatMapError(file: updatesFile, diagnostics: error.diagnostics.map {
                    Diagnostic(path: prefix + $0.path, message: $0.message, line: $0.line, column: $0.column)
                })
            }
            var report: [(String, JSONNode)] = [("batchId", .string(batch.batchId))]
            switch outcome {
            case .applied(let changed, let dropped):
                appliedBatches.append(batch)
                changedAll += changed
                changedAreas += sync.changedAreas
                let names = changed.map(\.description) + sync.changedAreas.map { "area:\($0)" }
                lines.append("\(batch.batchId): \(names.isEmpty ? "no change" : names.joined(separator: " "))")
                lines += dropped.map { "  \($0)" }
                var dirty: [JSONNode] = changed.compactMap { id in
                    layout.cell(id: id).map { .object([("id", .string(id.description))] + rectMembers($0.rect)) }
                }
                for id in sync.changedAreas {
                    if let a = layout.areas.first(where: { $0.id == id }) { dirty.append(.object([("id", .string("area:\(id)"))] + rectMembers(a.rect))) }
                }
                report += [("outcome", .string("applied")), ("changed", .array(changed.map { .string($0.description) })),
                           ("dirty", .array(dirty)), ("dropped", .array(dropped.map { .string($0) }))]
                if !sync.changedAreas.isEmpty { report.append(("areas", .array(sync.changedAreas.map { .string($0) }))) }
            case .duplicate:
                lines.append("\(batch.batchId): already applied (no-op)")
                report += [("outcome", .string("duplicate")), ("changed", .array([])), ("dirty", .array([])), ("dropped", .array([]))]
            case .stale(let last):
                lines.append("\(batch.batchId): stale sequence \(batch.sequence) (last applied \(last)), ignored")
                report += [("outcome", .string("stale")), ("changed", .array([])), ("dirty", .array([])), ("dropped", .array([]))]
            }
            reports.append(.object(report))
        }
        // Everything is computed before anything is written.
        var image: [UInt8]? = nil
        if let old = args.value("image") {
            // The same geometry (a --fit resolved once), the new statuses.
            let scene = try Scene(layout: Layout(hall: sync.hall, style: layout.style, zoom: layout.zoom, scale: layout.scale),
                                  theme: geometry.theme)
            let bytes = try Files.read(old).bytes
            // Checked from the header before Cairo decodes anything.
            guard let size = RGBAImage.pngSize(bytes) else { throw SeatMapError(file: old, "not a readable PNG: no PNG signature and header") }
            guard size.width == scene.layout.width, size.height == scene.layout.height else {
                throw SeatMapError(file: old, "the image is \(size.width)×\(size.height) px but the layout is \(scene.layout.width)×\(scene.layout.height) px; render it with the same geometry flags")
            }
            let raster: RasterImage
            do {
                raster = try RasterImage(png: bytes)
            } catch {
                throw SeatMapError(file: old, diagnostics: error.diagnostics)
            }
            let dirty = changedAll.compactMap { scene.layout.cell(id: $0)?.rect }
                + changedAreas.compactMap { id in scene.layout.areas.first(where: { $0.id == id })?.rect }
            do {
                try Renderer.redraw(raster, scene: scene, dirty: dirty)
            } catch {
                throw SeatMapError(file: old, diagnostics: error.diagnostics)
            }
            image = try raster.pngData()
        }
        // Both outputs or neither.
        var outputs: [(bytes: [UInt8], path: String)] = [(Array(HallFormat.encodeText(sync.hall).utf8), out)]
        if let image, let imageOut = args.value("image-out") { outputs.append((image, imageOut)) }
        try Files.writeAll(outputs)
        let report = args.flag("json") ? JSONWriter.write(.array(reports), pretty: false) : lines.joined(separator: "\n")
        return ApplyResult(report: report, applied: appliedBatches, outputs: outputs.map(\.path))
    }
}
