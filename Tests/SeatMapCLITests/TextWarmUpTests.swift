import Foundation
import Testing
import SeatMapCore
import SeatMapRender
@testable import SeatMapCLI
import SeatMapTestClients
import SeatMapTestSupport

/// `seatmap render ...` starts loading fontconfig and Pango's font map
/// first thing (an explicit call of the command, no constructor), whatever
/// options come before the command. It changes no byte.
@Suite("Text warm-up")
struct TextWarmUpTests {
    @Test("a render with the warm-up, one with an option before the command and the library's render write the same bytes",
          arguments: ["cinema-12x18.json", "labels-rtl.json", "arena-blocks.json"])
    func sameBytes(example: String) throws {
        guard SeatmapProcess.executable != nil else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hall = Fixtures.examplePath(example)
        let early = dir.appendingPathComponent("early.png").path, late = dir.appendingPathComponent("late.png").path
        let first = try SeatmapProcess.run(["render", hall, "-o", early, "--scale", "2"])
        #expect(first.code == 0, "\(first.stderr)")
        let second = try SeatmapProcess.run(["--max-input-bytes", "1000000", "render", hall, "-o", late, "--scale", "2"])
        #expect(second.code == 0, "\(second.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: early)), b = try Data(contentsOf: URL(fileURLWithPath: late))
        #expect(a.count > 1000)
        #expect(a == b)
        let scene = try Scene(hall: try Fixtures.example(example), theme: try Theme.search("light"), scale: 2)
        #expect([UInt8](a) == (try Renderer.png(scene)))
    }

    @Test("the warm-up begins once however often it is asked to, and every kind of wait returns, the unlimited ones once it is done",
          .timeLimit(.minutes(1)))
    func waits() throws {
        TextWarmUp.wait(upTo: 0)
        TextWarmUp.wait(upTo: -1)
        TextWarmUp.wait(upTo: .nan)
        TextWarmUp.begin()
        TextWarmUp.begin()
        #expect(TextWarmUp.began)
        TextWarmUp.wait(upTo: 0.001)
        TextWarmUp.wait(upTo: .infinity)
        TextWarmUp.wait(upTo: 1e300)
        TextWarmUp.wait()
        // Fontconfig is loaded: the theme's font resolves.
        let theme = try Theme.search("light")
        #expect(try FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage).family == theme.fontFamily)
    }

    @Test("render --help and a refused render give their usual answers")
    func helpAndRefusal() throws {
        guard SeatmapProcess.executable != nil else { Issue.record("no seatmap binary"); return }
        let help = try SeatmapProcess.run(["render", "--help"])
        #expect(help.code == 0)
        #expect(String(decoding: help.stdout, as: UTF8.self).hasPrefix("Usage: seatmap render"))
        let refused = try SeatmapProcess.run(["render", "/nonexistent/hall.json", "-o", "/tmp/never-written.png"])
        #expect(refused.code != 0)
        #expect(refused.stderr.contains("/nonexistent/hall.json"))
    }
}

/// `seatmap` links none of SQLite, libpq and libmicrohttpd (libpq and
/// libmicrohttpd bring TLS, Kerberos and LDAP: 10-15 ms of a process's
/// start); a command line that needs a store or the service runs
/// seatmap-serve, built beside it, which links them as they are.
@Suite("seatmap and seatmap-serve")
struct ServeSideTests {
    static func needed(_ binary: URL) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        p.arguments = [binary.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    @Test("seatmap loads no store or HTTP library, seatmap-serve loads all three; --version and a --store render go through seatmap-serve")
    func split() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let serve = exe.deletingLastPathComponent().appendingPathComponent("seatmap-serve")
        let mine = try Self.needed(exe), theirs = try Self.needed(serve)
        for lib in ["libsqlite3", "libpq", "libmicrohttpd"] {
            #expect(!mine.contains(lib), "seatmap needs \(lib)")
            #expect(theirs.contains(lib), "seatmap-serve does not link \(lib)")
        }
        let version = try SeatmapProcess.run(["--version"])
        #expect(version.code == 0)
        #expect(String(decoding: version.stdout, as: UTF8.self).contains("sqlite "))
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("s.db").path, png = dir.appendingPathComponent("s.png").path
        let hall = Fixtures.examplePath("cinema-12x18.json")
        let created = try SeatmapProcess.run(["show", "create", "--store", db, "--show", "s1", "--hall", hall])
        #expect(created.code == 0, "\(created.stderr)")
        let drawn = try SeatmapProcess.run(["render", hall, "--store", db, "--show", "s1", "-o", png])
        #expect(drawn.code == 0, "\(drawn.stderr)")
        #expect(FileManager.default.fileExists(atPath: png))
    }

    @Test("without seatmap-serve beside it, seatmap says what is missing (exit 1); the commands that need no store still run")
    func alone() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lonely = dir.appendingPathComponent("seatmap")
        try FileManager.default.copyItem(at: exe, to: lonely)
        let p = Process()
        p.executableURL = lonely
        p.arguments = ["--store", "x.db", "show", "status", "--show", "s"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1)
        #expect(text.contains("needs seatmap-serve") && text.contains(dir.path))
        let q = Process()
        q.executableURL = lonely
        q.arguments = ["validate", Fixtures.examplePath("cinema-12x18.json")]
        q.standardOutput = Pipe()
        q.standardError = Pipe()
        try q.run()
        q.waitUntilExit()
        #expect(q.terminationStatus == 0)
    }
}
