import Foundation
import Testing
import SeatMapCore
import SeatMapRender
import SeatMapTestClients
import SeatMapTestSupport

/// A copied binary works on its own: the shipped themes are built in.
@Suite("Portable binary")
struct PortableTests {
    /// Runs a copy of `seatmap` in an empty folder, without $SEATMAP_THEMES.
    static func runCopy(_ args: [String], in dir: URL, copy: URL) throws -> (code: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = copy
        p.arguments = args
        p.currentDirectoryURL = dir
        p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SEATMAP_THEMES" }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test("a copy of seatmap in an empty folder renders with every shipped theme, and shows them as they are in Themes/")
    func copiedBinary() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        let copy = dir.appendingPathComponent("seatmap")
        try FileManager.default.copyItem(at: exe, to: copy)
        let hall = dir.appendingPathComponent("hall.json")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Fixtures.examplePath("cinema-12x18.json")), to: hall)
        #expect(Theme.shippedNames == ["dark", "high-contrast", "light", "print"])
        for theme in Theme.shippedNames {
            let r = try PortableTests.runCopy(["render", "hall.json", "-o", "\(theme).png", "--theme", theme], in: dir, copy: copy)
            #expect(r.code == 0, "\(theme): \(r.err)")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(theme).png").path))
            let shown = try PortableTests.runCopy(["theme", "show", theme], in: dir, copy: copy)
            let file = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/\(theme).json").path, encoding: .utf8)
            #expect(shown.out.trimmingCharacters(in: .newlines) == file.trimmingCharacters(in: .newlines), "\(theme): built in as in Themes/")
        }
        let list = try PortableTests.runCopy(["theme", "list"], in: dir, copy: copy)
        #expect(list.out == Theme.shippedNames.map { "\($0)\tshipped (built in)\n" }.joined())
        // A ./Themes/NAME.json beside it wins over the shipped theme of that name.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Themes"), withIntermediateDirectories: true)
        let mine = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/dark.json").path, encoding: .utf8)
        try mine.write(to: dir.appendingPathComponent("Themes/light.json"), atomically: true, encoding: .utf8)
        let overridden = try PortableTests.runCopy(["theme", "list"], in: dir, copy: copy)
        #expect(overridden.out.contains("light\t\(dir.path)/Themes/light.json") || overridden.out.contains("light\t") && overridden.out.contains("/Themes/light.json"))
    }

    @Test("--version names SeatMap's version and the C libraries linked at run time")
    func version() {
        let r = seatmap("--version")
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("seatmap \(SeatMap.version)"))
        #expect(r.out.contains("cairo \(CairoLibrary.version)") && r.out.contains("libpng 1.") && r.out.contains("sqlite 3."))
    }

    @Test("render -o - writes the image alone to stdout, the same bytes as a file; --fit works as for layout")
    func renderToStdout() throws {
        let dir = try Fixtures.tempFolder()
        let file = dir.appendingPathComponent("a.png").path
        let hall = Fixtures.examplePath("seed.json")
        #expect(seatmap("render", hall, "-o", file, "--fit", "375,667").code == 0)
        let piped = try SeatmapProcess.run(["render", hall, "-o", "-", "--format", "png", "--fit", "375,667"])
        #expect(piped.code == 0)
        #expect(piped.stdout == [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(seatmap("render", hall, "-o", "-").code == 2, "-o - needs --format")
    }

    @Test("theme show prints a theme; an unknown name lists the shipped ones")
    func show() {
        let r = seatmap("theme", "show", "nosuch")
        #expect(r.code == 1 && r.err.contains("shipped: dark, high-contrast, light, print"))
        #expect(seatmap("theme", "frobnicate").code == 2)
    }

    /// The shared libraries the dynamic loader opened for `seatmap ARGS`
    /// (glibc's LD_DEBUG=files report, one "file=NAME" line per library).
    static func librariesLoaded(_ args: [String]) throws -> (code: Int32, libraries: Set<String>) {
        let r = try SeatmapProcess.run(args, environment: ["LD_DEBUG": "files"])
        var names = Set<String>()
        for line in r.stderr.split(separator: "\n") {
            guard let at = line.range(of: "file=") else { continue }
            let name = line[at.upperBound...].prefix { $0 != " " && $0 != "[" && $0 != ";" }
            if let so = name.range(of: ".so") { names.insert(String(name[..<so.lowerBound])) }
        }
        return (r.code, names)
    }

    @Test("a render's process loads neither libpq nor libmicrohttpd; --version and a PostgreSQL store open them when used")
    func lazyLibraries() throws {
        let dir = try Fixtures.tempFolder()
        let render = try PortableTests.librariesLoaded(["render", Fixtures.examplePath("cinema-12x18.json"), "-o", dir.appendingPathComponent("c.png").path])
        #expect(render.code == 0)
        #expect(render.libraries.contains("libcairo"), "the loader's report was read: \(render.libraries.sorted())")
        for late in ["libpq", "libmicrohttpd", "libssl", "libgnutls", "libldap-2.5", "libgssapi_krb5"] {
            #expect(!render.libraries.contains(late), "a render loaded \(late)")
        }
        let version = try SeatmapProcess.run(["--version"])
        #expect(String(decoding: version.stdout, as: UTF8.self).contains("libmicrohttpd 0."), "--version opens libmicrohttpd to name its version")
        // A PostgreSQL store opens libpq (the server need not be there: the connection fails after libpq is loaded).
        let store = try PortableTests.librariesLoaded(["show", "status", "--show", "a", "--store", "postgresql://seatmap@127.0.0.1:1/none?connect_timeout=1"])
        #expect(store.code != 0)
        #expect(store.libraries.contains("libpq"))
    }
}
