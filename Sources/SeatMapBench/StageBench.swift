import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender

/// Every stage of one full PNG render, so a figure outside drawing and
/// encoding has a name: reading and validating the hall file, loading the
/// theme, the layout, the scene, Pango's first text set-up, the drawing,
/// the encoding and the atomic write, each timed on its own in the same
/// process; then the whole `seatmap render` process on the same file (when
/// the `seatmap` binary is beside this one), whose excess over the stages'
/// sum is the process's start-up (the dynamic loader, Swift's runtime,
/// fontconfig reading its configuration) and exit.
extension Bench {
    /// The scenes profiled stage by stage: the small halls a back end
    /// renders per request, and the 10,000-seat arena.
    static let stageScenes: Set<String> = ["cinema-200", "imax-600", "arena-10k"]

    mutating func stages(_ name: String, _ hall: Hall) throws {
        let dir = try Bench.scratchFolder("seatmap-stages")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("\(name).json").path
        try Files.writeAtomically(HallFormat.encodeText(hall), to: file)
        let out = dir.appendingPathComponent("\(name).png").path
        let runs = quick ? 1 : (name == "arena-10k" ? 5 : 15)
        let zoom = renderZoom ?? 1, scale = renderScale ?? Layout.defaultScale
        var sum = 0.0
        func stage(_ what: String, _ stat: Stat, _ note: String = "") {
            add(name, "stage: \(what)", stat, note)
            sum += stat.median
        }
        var read: Hall? = nil
        stage("read and validate the hall file", try measure(runs) { read = try Files.readHall(file) }, "\(try Data(contentsOf: URL(fileURLWithPath: file)).count / 1024) KiB of JSON")
        guard let read else { return }
        var theme = self.theme
        stage("load the theme (built in)", try measure(runs) { theme = try Theme.builtIn("light") })
        theme = self.theme
        var layout: Layout? = nil
        let geometry = try self.geometry.with(zoom: zoom, scale: scale)
        stage("layout", try measure(runs) { layout = try geometry.layout(for: read).layout })
        guard let layout else { return }
        var scene: Scene? = nil
        stage("scene (selection and highlight checked)", try measure(runs) { scene = try Scene(layout: layout, theme: theme) })
        guard let scene else { return }
        stage("text set-up (Pango context, fonts)", try measure(runs) { _ = try PangoText(theme, locale: layout.locale) })
        var image: RasterImage? = nil
        stage("drawing", try measure(runs) {
            image = nil
            image = try Renderer.raster(scene)
        })
        guard let image else { return }
        // Part of the drawing, not another stage: a render drawn on one core
        // of a hall of at most 1,000 seats first runs the drawing routine on
        // a canvas that notes its text sizes, to ask for their fonts ahead.
        if Renderer.asksFontsAhead(scene, pixels: image.width * image.height) {
            let pass = measure(runs) { _ = Renderer.textSizes(scene) }
            add(name, "within the drawing: the text-size pass (fonts asked for ahead)", pass)
            if let drawing = figures.last(where: { $0.scene == name && $0.name == "stage: drawing" })?.stat.median, drawing > 0 {
                ratios.append(("text-size pass / drawing, \(name)", pass.median / drawing))
            }
        }
        var png: [UInt8] = []
        stage("PNG encode (default)", try measure(runs) { png = try image.pngData(compression: .default) }, "\(png.count / 1024) KiB")
        let drawing = figures.last(where: { $0.scene == name && $0.name == "stage: drawing" })?.stat.median ?? 0
        let encode = figures.last(where: { $0.scene == name && $0.name == "stage: PNG encode (default)" })?.stat.median ?? 0
        if drawing > 0 {
            ratios.append(("PNG encode default / drawing, \(name)", encode / drawing))
            if name == "cinema-200" { target("PNG encode default / drawing at cinema-200", encode / drawing, "≤ 1.5×", encode / drawing <= 1.5) }
        }
        if !Bench.judgesReference(name, quick: quick) {  // otherwise judged with the C reference
            let libpng = try image.libpngData().count
            target("PNG size vs libpng's defaults at \(name)", Double(png.count) / Double(libpng), "≤ 1", png.count <= libpng)
        }
        stage("write the file (temporary, then renamed)", try measure(runs) { try Files.writeAtomically(png, to: out) })
        add(name, "stages, summed", Stat(median: sum, min: sum, max: sum, unit: "ms"))
        // The whole process on the same file.
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let seatmap = here.appendingPathComponent("seatmap").path
        guard FileManager.default.isExecutableFile(atPath: seatmap) else {
            log("(whole-process figure skipped: no seatmap binary beside seatmap-bench)")
            return
        }
        func process(_ args: [String], binary: String = seatmap, runs: Int = runs) throws -> Stat {
            var times: [Double] = []
            for _ in 0..<runs {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: binary)
                p.arguments = args
                p.standardOutput = FileHandle.nullDevice
                let t0 = Bench.now()
                let child = try Bench.Child(p)
                guard try child.wait() == 0 else { throw SeatMapError("\(binary) \(args.joined(separator: " ")) failed in the stage benchmark") }
                times.append(Double(Bench.now() - t0) / 1e6)
            }
            return Bench.stat(times)
        }
        // Start and exit alone: `help` loads the libraries a render loads (the stores and the service are seatmap-serve's) and draws nothing.
        let bare = try process(["help"])
        let whole = try process(["render", file, "-o", out, "--zoom", Bench.short(zoom), "--scale", Bench.short(scale)])
        add(name, "whole `seatmap render` process", whole)
        let outside = whole.median - sum
        add(name, "  of which outside the stages", Stat(median: outside, min: outside, max: outside, unit: "ms"),
            String(format: "%.0f %% of the process", outside / whole.median * 100))
        add(name, "  `seatmap help` (start-up and exit, no drawing)", bare)
        let fonts = outside - bare.median
        add(name, "  the rest: first font configuration and first text", Stat(median: fonts, min: fonts, max: fonts, unit: "ms"),
            "outside the stages less help's process")
        // The C reference as a whole process on the same seats: a plain C
        // program reading them, drawing them with Cairo and writing them
        // with cairo_surface_write_to_png.
        let cReference = here.appendingPathComponent("seatmap-cairo-reference").path
        guard FileManager.default.isExecutableFile(atPath: cReference) else {
            log("(whole-process C reference skipped: build it with swift build -c release --product seatmap-cairo-reference)")
            return
        }
        let seats = dir.appendingPathComponent("\(name)-seats.txt").path
        try Files.writeAtomically(Array(ReferenceSeats(scene).text(width: layout.width, height: layout.height).utf8), to: seats)
        let cOut = dir.appendingPathComponent("\(name)-reference.png").path
        // Rounds of one process each, so the shared machine's load weighs on
        // both alike; which goes first alternates. A small hall's processes
        // take tens of milliseconds and vary by a third from one to the
        // next: 31 rounds (5 seconds at cinema-200).
        var theirs: [Double] = [], rounds: [Double] = []
        for round in 0..<(quick ? 1 : (name == "arena-10k" ? runs : 31)) {
            func reference() throws -> Double { try process([seats, cOut], binary: cReference, runs: 1).median }
            func ours() throws -> Double {
                try process(["render", file, "-o", out, "--zoom", Bench.short(zoom), "--scale", Bench.short(scale)], runs: 1).median
            }
            let c: Double, o: Double
            if round % 2 == 0 {
                c = try reference()
                o = try ours()
            } else {
                o = try ours()
                c = try reference()
            }
            theirs.append(c); rounds.append(o / c)
        }
        add(name, "C reference as a whole process (read the seats, Cairo, cairo_surface_write_to_png)", Bench.stat(theirs))
        let ratio = rounds.sorted()[rounds.count / 2]
        ratios.append(("whole `seatmap render` process / whole C reference process, \(name)", ratio))
        if name == "cinema-200" {
            target("whole render process vs whole C Cairo process at cinema-200", ratio, "≤ 0.5×", ratio <= 0.5)
        }
    }
}
