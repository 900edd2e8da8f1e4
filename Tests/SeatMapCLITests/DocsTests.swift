import Foundation
import Testing
import SeatMapCore
import SeatMapServer
import SeatMapTestClients
import SeatMapTestSupport

/// The README and `docs/` as a user meets them: every Swift snippet
/// type-checks against the SeatMap just built, and every shell snippet
/// marked `<!-- run -->` runs, on a fresh copy of `Examples/` (those marked
/// `<!-- run: service -->` against an HTTP service the test starts).
@Suite("Documentation: the snippets run", .serialized)
struct DocsTests {
    struct Snippet: CustomTestStringConvertible, Sendable {
        var file: String
        var line: Int
        var language: String
        var marker: String?
        var text: String
        var testDescription: String { "\(file):\(line)" }
    }

    static let files: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    /// Every fenced block of a Markdown text, with the `<!-- … -->` line just before it.
    static func snippets(in file: String) -> [Snippet] {
        guard let text = try? String(contentsOf: Fixtures.root.appendingPathComponent(file), encoding: .utf8) else { return [] }
        var out: [Snippet] = []
        var current: Snippet? = nil
        var previous = ""
        for (i, line) in text.components(separatedBy: "\n").enumerated() {
            if var s = current {
                if line.hasPrefix("```") {
                    out.append(s)
                    current = nil
                } else {
                    s.text += line + "\n"
                    current = s
                }
            } else if line.hasPrefix("```") {
                let marker = previous.hasPrefix("<!-- run") ? previous.trimmingCharacters(in: .whitespaces) : nil
                current = Snippet(file: file, line: i + 1, language: String(line.dropFirst(3)), marker: marker, text: "")
            }
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { previous = line }
        }
        return out
    }

    static let all: [Snippet] = files.flatMap(snippets(in:))
    static let swift: [Snippet] = all.filter { $0.language == "swift" }
    static let runnable: [Snippet] = all.filter { $0.language == "sh" && $0.marker != nil }

    /// Runs a program; its exit code and what it printed (both streams).
    static func run(_ exe: String, _ args: [String], cwd: URL? = nil, environment: [String: String]? = nil) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        if let cwd { p.currentDirectoryURL = cwd }
        if let environment { p.environment = environment }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func which(_ name: String, fallback: String) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        return fallback
    }

    /// The flags that let `swiftc` see the modules `swift build` made.
    static func typecheckFlags(buildDir: URL) throws -> [String] {
        var flags = ["-I", buildDir.appendingPathComponent("Modules").path]
        let root = Fixtures.root
        var maps = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { $0.hasPrefix("C") }.map { root.appendingPathComponent("Sources/\($0)/module.modulemap").path }
        for entry in try FileManager.default.contentsOfDirectory(atPath: buildDir.path) where entry.hasSuffix(".build") {
            for candidate in ["\(entry)/module.modulemap", "\(entry)/include/module.modulemap"] {
                let path = buildDir.appendingPathComponent(candidate).path
                if FileManager.default.fileExists(atPath: path) { maps.append(path) }
            }
        }
        for m in maps where FileManager.default.fileExists(atPath: m) { flags += ["-Xcc", "-fmodule-map-file=\(m)"] }
        let (code, cflags) = try run(which("pkg-config", fallback: "/usr/bin/pkg-config"),
                                     ["--cflags-only-I", "pangocairo", "libpng", "libpq", "libmicrohttpd", "sqlite3"])
        if code == 0 { for f in cflags.split(whereSeparator: \.isWhitespace) { flags += ["-Xcc", String(f)] } }
        return flags
    }

    @Test("the README is short and leads to docs/: every docs file linked, no paths outside the repository, no internal issue numbers")
    func readme() throws {
        let readme = try String(contentsOf: Fixtures.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.components(separatedBy: "\n").count <= 250)
        for file in Self.files where file != "README.md" { #expect(readme.contains("(\(file))"), "the README does not link \(file)") }
        for file in Self.files {
            let text = try String(contentsOf: Fixtures.root.appendingPathComponent(file), encoding: .utf8)
            for bad in ["../shared", "browser-referee", "venv/bin", "…/SeatMap.git"] { #expect(!text.contains(bad), "\(file) has \(bad)") }
            #expect(text.range(of: #"\bissues? #?[0-9]+"#, options: .regularExpression) == nil, "\(file) cites an issue number")
        }
        #expect(Self.swift.count >= 3 && Self.runnable.count >= 4, "\(Self.swift.count) Swift and \(Self.runnable.count) runnable snippets")
    }

    @Test("every Swift snippet type-checks against SeatMap", .sweep, arguments: DocsTests.swift)
    func swiftSnippet(_ s: Snippet) throws {
        let exe = try #require(SeatmapProcess.executable, "no seatmap binary: build first")
        let dir = try Fixtures.tempFolder()
        let file = dir.appendingPathComponent("snippet.swift")
        try s.text.write(to: file, atomically: true, encoding: .utf8)
        let swiftc = Self.which("swiftc", fallback: "/opt/swift/usr/bin/swiftc")
        var args = ["-typecheck"]
        if s.text.hasPrefix("// swift-tools-version") {
            // A manifest: checked against the toolchain's PackageDescription.
            let manifestAPI = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("../lib/swift/pm/ManifestAPI").standardizedFileURL.path
            args += ["-I", manifestAPI, "-package-description-version", "6.0"]
        } else {
            // A file of a package's Sources or Tests is a library file; the rest are scripts.
            if s.text.hasPrefix("// Tests/") || s.text.hasPrefix("// Sources/") { args.append("-parse-as-library") }
            args += try Self.typecheckFlags(buildDir: exe.deletingLastPathComponent())
        }
        let (code, out) = try Self.run(swiftc, args + [file.path])
        #expect(code == 0, "\(s.file):\(s.line) does not compile:\n\(out.prefix(3000))")
    }

    @Test("every runnable shell snippet succeeds on a fresh copy of Examples/", .sweep, arguments: DocsTests.runnable)
    func shellSnippet(_ s: Snippet) throws {
        let exe = try #require(SeatmapProcess.executable, "no seatmap binary: build first")
        let dir = try Fixtures.tempFolder()
        try FileManager.default.copyItem(at: Fixtures.examplesFolder, to: dir.appendingPathComponent("Examples"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
        var script = s.text
        var service: SeatMapHTTPService? = nil
        defer { service?.stop() }
        if s.marker == "<!-- run: service -->" {
            let started = try SeatMapHTTPService(halls: dir.appendingPathComponent("Examples").path,
                                                 store: dir.appendingPathComponent("out/shows.db").path, port: 0, workers: 2)
            service = started
            script = script.replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(started.port)")
        }
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = exe.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        let (code, out) = try Self.run("/bin/bash", ["-e", "-o", "pipefail", "-c", script], cwd: dir, environment: env)
        #expect(code == 0, "\(s.file):\(s.line) failed (exit \(code)):\n\(out.suffix(3000))")
    }
}
