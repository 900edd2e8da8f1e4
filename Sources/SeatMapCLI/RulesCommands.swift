import Foundation
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
import SeatMapRender
import SeatMapService

extension SeatMapCLI {
    static let selectCommand = Command(
        spec: CommandSpec(
            name: "select", usage: "select FILE [--toggle ID,ID,...] [--area AREA=N ...] [--type ID=TYPE ...] [--store DB --show SHOW [--token T] [--hold-ttl SECONDS]] [--no-single-seat-rule] [--json]",
            summary: "Toggle seats in order; print each result, the total, the seats and every sales rule the selection breaks.",
            options: ShowRequests.select + [
                StoreOptions.store,
                .value("show", "SHOW", "The show (created from FILE on first use, as `show create` does)."),
                .flag("json", "Print {results, selected, total, currency, totalText, descriptions, violations, breaks} (and token, expiresAt with --show)."),
            ],
            details: """
            Results: selected, deselected, notAvailable, noSuchSeat, noSuchArea, reachLimit, held (another token holds it),
            noSuchType and notSelected (a --type for a seat not selected).
            Couple halves go together, and groups (boxes, tables) unless the hall's rules sell them by seat.
            Standing places count towards maxSelectCount and the total.
            Violations list available seats the selection leaves alone in their row (不能留空座); breaks list every
            sales rule the selection breaks, each with "enforced": true when `order` would refuse it.
            With --store DB --show SHOW the selection is the token's holds in the show: a seat one token holds is
            unavailable to every other until the holds expire (--hold-ttl seconds after the token's last select)
            or are ordered (`seatmap order`). Each select is one store transaction, so concurrent commands never
            lose or share a seat. Without --token a new token is made and printed (JSON "token"); keep it.
            Exit status 0 (violations are reported, not fatal), 1 bad input or store, 2 usage.
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
            if args.value("token") != nil && args.value("show") == nil { throw UsageError(message: "--token goes with --store and --show") }
            if args.value("hold-ttl") != nil && args.value("store") == nil { throw UsageError(message: "--hold-ttl goes with --store") }
            let request = try ShowRequests.select(args, show: args.value("show") ?? "", holdLimit: HoldTime.range.upperBound)
            let plan = try ShowInput.plan(file)
            let locale = LocaleOptions.words(try LocaleOptions.given(args), for: plan.hall)
            if let show = args.value("show") {
                let service = try ShowInput.service(args, console)
                _ = try service.create(show: show, plan: plan, hallFile: ShowInput.absolute(file))
                let a = try service.select(request, plan: plan)
                if args.flag("json") {
                    console.out(JSONWriter.write(ShowJSON.selection(results: a.results, selection: a.selection, breaks: a.breaks,
                                                                    hall: a.hall, locale: locale, token: a.kept ? a.token : nil, expiresAt: a.kept ? a.expiresAt : nil),
                                                 pretty: false))
                } else {
                    console.out((ShowJSON.selectionText(results: a.results, selection: a.selection, breaks: a.breaks, hall: a.hall, locale: locale)
                                 + (a.kept ? ["token: \(a.token) (held until \(ShowJSON.time(a.expiresAt)))"] : [])).joined(separator: "\n"))
                }
                return 0
            }
            var selection = Selection()
            var results: [(String, Selection.ToggleResult)] = []
            for id in request.toggles { results.append((id, selection.toggle(named: id, in: plan.hall))) }
            for (area, n) in request.areas { results.append(("area:\(area)=\(n)", selection.setQuantity(n, ofArea: area, in: plan.hall))) }
            for (id, name) in request.types {
                results.append(("type:\(id)=\(name)", plan.hall.seatID(named: id).map { selection.setTicketType(name, of: $0, in: plan.hall) } ?? .noSuchSeat))
            }
            let breaks = plan.hall.rules.breaks(selection, in: plan.hall, reportOrphans: request.singleSeatRule)
            if args.flag("json") {
                console.out(JSONWriter.write(ShowJSON.selection(results: results, selection: selection, breaks: breaks, hall: plan.hall,
                                                                locale: locale), pretty: false))
            } else {
                console.out(ShowJSON.selectionText(results: results, selection: selection, breaks: breaks, hall: plan.hall,
                                                   locale: locale).joined(separator: "\n"))
            }
            return 0
        })

    static let recommendCommand = Command(
        spec: CommandSpec(
            name: "recommend",
            usage: "recommend FILE --count N [--category C] [--section S] [--level L] [--accessible N] [--price-max P] [--together] [--store DB --show SHOW [--token T] [--hold-ttl SECONDS]] [--json]",
            summary: "Best available: the best N seats by the documented score, falling back step by step when no perfect block exists.",
            options: ShowRequests.best + [
                StoreOptions.store,
                .value("show", "SHOW", "The show (created from FILE on first use, as `show create` does)."),
                .flag("json", "Print {seats, fallback, total, currency, totalText, descriptions, cart} (and token, expiresAt with --show)."),
            ],
            details: """
            Fallbacks, in order (JSON "fallback"): none (one block in one row, no single empty seat left),
            orphan (one block that leaves a single empty seat, when every block does), split (two blocks side
            by side in rows one apart), anywhere (the best seats wherever they are). --together stops after orphan.
            With --store DB --show SHOW the seats come from the show (others' holds are not offered) and are held
            for the token, replacing its earlier seats.
            Exit status 0 found, 1 when no seats fit (the reason is printed) or bad input, 2 usage (and a category,
            section or level the hall does not have).
            """),
        run: { args, console in
            let file = try positionals(args, ["FILE"])[0]
            if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
            if args.value("token") != nil && args.value("show") == nil { throw UsageError(message: "--token goes with --store and --show") }
            if args.value("hold-ttl") != nil && args.value("store") == nil { throw UsageError(message: "--hold-ttl goes with --store") }
            let best = try ShowRequests.best(args, holdLimit: HoldTime.range.upperBound)
            let request = best.request
            let plan = try ShowInput.plan(file)
            let locale = LocaleOptions.words(try LocaleOptions.given(args), for: plan.hall)
            let found: Recommender.Recommendation, hall: Hall, selection: Selection
            var held: (token: String, expiresAt: Date)? = nil
            // A request the hall cannot answer is a usage error, before any show is made.
            do throws(Recommender.Failure) { try Recommender.check(request, in: plan.hall) } catch {
                throw UsageError(message: error.naming(CLIMessages.flag))
            }
            if let show = args.value("show") {
                let service = try ShowInput.service(args, console)
                _ = try service.create(show: show, plan: plan, hallFile: ShowInput.absolute(file))
                let a = try service.best(show: show, token: best.token, request: request, plan: plan, ttl: best.ttl)
                (found, hall, selection, held) = (a.recommendation, a.hall, a.selection, (a.token, a.expiresAt))
            } else {
                do throws(Recommender.Failure) {
                    found = try Recommender.best(request, in: plan.hall)
                } catch {
                    // The request was checked above: nothing fits.
                    console.err("\(file): \(error.message)")
                    return 1
                }
                (hall, selection) = (plan.hall, Selection(ids: found.seats, in: plan.hall))
            }
            let answer = ShowJSON.best(found, selection: selection, hall: hall, locale: locale, token: held?.token, expiresAt: held?.expiresAt)
            if args.flag("json") {
                console.out(JSONWriter.write(answer, pretty: false))
            } else {
                let picked = Selection(ids: found.seats, in: hall)
                let total = locale.money(picked.total(in: hall), currency: hall.currency)
                var lines = ["\(picked.descriptions(in: hall, locale: locale).joined(separator: " ")) (\(found.seats.map(\.description).joined(separator: ","))) total \(total)"
                             + (found.fallback == .none ? "" : " [fallback: \(found.fallback.rawValue)]")]
                if let held { lines.append("token: \(held.token) (held until \(ShowJSON.time(held.expiresAt)))") }
                console.out(lines.joined(separator: "\n"))
            }
            return 0
        })

    static let applyCommand = Command(
        spec: CommandSpec(
            name: "apply",
            usage: "apply FILE UPDATES.json (-o NEW.json | --store DB --show SHOW) [--image OLD.png --image-out NEW.png] [geometry flags: --theme T --zoom Z --scale S ...] [--json]",
            summary: "Apply live status batches all-or-nothing, to a hall file or a show; optionally redraw only the changed seats of an image.",
            options: outputOptions("NEW.json", "Where to write the updated hall (without --store)") + [
                .value("image", "OLD.png", "A render of FILE (or of the show) with the same geometry flags, to update incrementally."),
                .value("image-out", "NEW.png", "Where to write the redrawn image."),
                StoreOptions.store,
                .value("show", "SHOW", "The show the batches change (its hall is FILE); its applied batch ids and last sequence are kept there."),
            ] + GeometryOptions.table + [
                .flag("json", "Print per batch {batchId, outcome, changed, dirty: [{id, x, y, w, h}], dropped: [{id, token}]}."),
            ],
            details: """
            UPDATES.json holds one batch {"batchId","sequence","changes":[{"id","status"}]} or an array of them,
            applied in order: a repeated batch id is a no-op, a sequence not after the last applied is ignored,
            an unknown seat id or invalid status rejects the run with every output untouched (exit 1).
            With -o the hall file's statuses are changed (FILE is never modified; NEW.json may be another file).
            With --store DB --show SHOW the show's inventory is changed in one store transaction and no hall
            file is written: held seats a batch sells or locks are dropped from their tokens (reported with the
            token). Outputs are staged first and renamed into place only after the store commits.
            """),
        run: { args, console in
            let p = try positionals(args, ["FILE", "UPDATES.json"])
            let out = try output(args)
            if (args.value("image") == nil) != (args.value("image-out") == nil) {
                throw UsageError(message: "--image and --image-out go together")
            }
            if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
            if out == nil && args.value("show") == nil { throw UsageError(message: "missing -o NEW.json (or --store DB --show SHOW)") }
            if out != nil && args.value("show") != nil {
                throw UsageError(message: "-o writes a hall file; --show changes the show in the store: give one")
            }
            let geometry = try GeometryOptions(args)
            let plan = try ShowInput.plan(p[0])
            let batches = try StatusBatch.decode(Files.read(p[1]))
            // Dirty rects are in the layout the geometry flags give (statuses
            // never move a seat, so it is the layout of every state).
            let layout = try geometry.layout(for: plan.hall).layout
            /// The outputs of a run, staged (written beside their targets, not yet in place).
            func stage(_ run: BatchRun) throws -> Files.StagedOutputs {
                var outputs: [(bytes: [UInt8], path: String)] = []
                if let out { outputs.append((Array(HallFormat.encodeText(run.hall).utf8), out)) }
                if let old = args.value("image"), let imageOut = args.value("image-out") {
                    outputs.append((try redraw(old, run: run, layout: layout, theme: geometry.styledTheme), imageOut))
                }
                return try Files.stage(outputs)
            }
            let run: BatchRun
            var staged: Files.StagedOutputs? = nil
            if let show = args.value("show") {
                let service = try ShowInput.service(args, console)
                do {
                    run = try service.apply(show: show, plan: plan, batches: batches, layout: layout, updatesFile: p[1]) { run in
                        staged = try stage(run)
                    }
                } catch {
                    staged?.discard()
                    throw error
                }
            } else {
                run = try BatchRun.plan(batches, hall: plan.hall, layout: layout, updatesFile: p[1])
                staged = try stage(run)
            }
            do {
                try staged?.install()
            } catch let error as SeatMapError {
                // The store has committed: the batches stay applied, whatever happened to the files.
                guard let show = args.value("show") else { throw error }
                let applied = run.applied.map(\.batchId).joined(separator: ", ")
                throw SeatMapError(.init(verbatim: "\(error.message)\nthe batches were applied to show \(show) in the store (\(applied)); only the outputs were not written: render them again"))
            }
            let report = run.report(json: args.flag("json"))
            // With an output on standard output, the report goes to stderr.
            if out == "-" || args.value("image-out") == "-" { console.err(report) } else { console.out(report) }
            return 0
        })

    /// `old` (a render with the same geometry) with the run's changed seats
    /// and areas redrawn in their new statuses.
    static func redraw(_ old: String, run: BatchRun, layout: Layout, theme: Theme) throws -> [UInt8] {
        // The same geometry (a --fit resolved once), the new statuses.
        let scene = try Scene(layout: layout.relaid(run.hall), theme: theme)
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
        let dirty = run.changed.compactMap { scene.layout.cell(id: $0)?.rect }
            + run.changedAreas.compactMap { id in scene.layout.areas.first(where: { $0.id == id })?.rect }
        do {
            try Renderer.redraw(raster, scene: scene, dirty: dirty)
        } catch {
            throw SeatMapError(file: old, diagnostics: error.diagnostics)
        }
        return try raster.pngData()
    }
}
