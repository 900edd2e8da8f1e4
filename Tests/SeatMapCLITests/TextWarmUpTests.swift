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
