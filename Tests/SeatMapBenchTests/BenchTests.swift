import Foundation
import Testing
@testable import SeatMapBench
import SeatMapCore
import SeatMapTestSupport

@Suite("Benchmark")
struct BenchTests {
    /// Only checks that the benchmark runs and reports; no timing asserts.
    @Test("--quick runs every figure and writes the JSON report")
    func quick() throws {
        let json = try Fixtures.tempFolder().appendingPathComponent("bench.json").path
        var output = ""
        let code = Bench.main(["--quick", "--json", json], log: { output += $0 + "\n" })
        #expect(code == 0, "\(output)")
        for figure in ["layout z2 s2", "hit-test, per query", "naive linear scan", "PNG encode, fast", "SVG render",
                       "PDF render", "incremental redraw, 1 seat", "diff 640×360, identical", "answers agree: true",
                       // Every stage of a full render, named (the whole process only when the seatmap binary is beside).
                       "stage: read and validate the hall file", "stage: layout", "stage: text set-up", "stage: drawing",
                       "stage: PNG encode (default)", "stage: write the file", "stages, summed", "PNG encode default / drawing, cinema-200",
                       "one dependent read at a random line of the index's size", "hit-test per query / one trip to memory",
                       "the same queries over 4,096 points asked again", "hit-test's wait for memory (per query less the cached queries) / one trip"] {
            #expect(output.contains(figure), "\(figure) is reported")
        }
        let report = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: json))))
        guard case .array(let figures) = report["figures"]?.value else { Issue.record("no figures"); return }
        #expect(figures.count > 10)
    }

    /// Only checks that the sale runs and reports against the store's rate; no timing asserts.
    @Test("--quick --only sale holds and releases over HTTP and measures the store's own rate beside it")
    func sale() throws {
        var output = ""
        let code = Bench.main(["--quick", "--only", "sale"], log: { output += $0 + "\n" })
        #expect(code == 0, "\(output)")
        for figure in ["hold/release over HTTP, SQLite, 4 clients", "SQLite's own conditional one-row update, 1 connection",
                       "SQLite's own conditional one-row update, 16 connections"] {
            #expect(output.contains(figure), "\(figure) is reported")
        }
    }

    @Test("one trip to memory walks every line of its buffer once, in one cycle, in a random order")
    func memoryTrip() {
        for bytes in [0, 64, 1_000, 1 << 20] {
            let trip = MemoryTrip(bytes: bytes)
            let lines = trip.bytes / 64
            #expect(lines >= 2 && trip.bytes >= bytes - 63, "\(bytes) bytes")
            var seen = Set<Int>(), at = 0
            for _ in 0..<lines {
                #expect(at % MemoryTrip.lineWords == 0)
                seen.insert(at)
                at = trip.next[at]
            }
            #expect(at == 0 && seen.count == lines, "\(seen.count) of \(lines) lines, back at \(at)")
            // In a random order: few steps go to the next or the previous line.
            let near = (0..<lines).filter { abs(trip.next[$0 * MemoryTrip.lineWords] / MemoryTrip.lineWords - $0) == 1 }.count
            if lines >= 1_000 { #expect(near < lines / 100, "\(near) of \(lines) steps to a neighbouring line") }
            #expect(trip.nanosecondsPerRead(10) > 0)
        }
    }

    @Test("scenes are generated deterministically with the documented sizes")
    func scenes() throws {
        let sizes = ["cinema-200": 216, "imax-600": 599, "arena-10k": 10_000, "stadium-100k": 100_000]
        for (name, seats) in sizes {
            let a = try #require(try BenchScenes.make(name))
            #expect(HallSummary(a).seats == seats, "\(name)")
            #expect(try a == BenchScenes.make(name))
        }
    }

    @Test("the geometry flags of render set the run's layouts and render zoom and scale")
    func geometryFlags() {
        var output = ""
        let code = Bench.main(["--quick", "--scene", "cinema-200", "--theme", "print", "--no-header", "--no-legend",
                               "--zoom", "1.37", "--scale", "1"], log: { output += $0 + "\n" })
        #expect(code == 0, "\(output)")
        #expect(output.contains("PNG render: drawing (z1.37 s1)"))
    }

    /// Each run keeps its scratch files in a folder of its own: two runs in
    /// one process (as tests run them) once shared one named by the pid,
    /// and the first to finish removed the other's outputs.
    @Test("two benchmark runs side by side in one process both finish")
    func sideBySide() async {
        async let a = Task.detached { () -> (Int32, String) in
            var out = ""
            return (Bench.main(["--quick", "--only", "batch"], log: { out += $0 + "\n" }), out)
        }.value
        async let b = Task.detached { () -> (Int32, String) in
            var out = ""
            return (Bench.main(["--quick", "--only", "batch"], log: { out += $0 + "\n" }), out)
        }.value
        let ran = Bench.allowedCPUs().count >= 2 && ProcessInfo.processInfo.activeProcessorCount >= 2 && Bench.which("taskset") != nil
        for (code, out) in await [a, b] {
            #expect(code == 0, "\(out)")
            if ran { #expect(out.contains("render --out-dir of"), "the batch ran: \(out)") }
        }
    }

    @Test("each scratch folder is new, empty and another's")
    func scratchFolders() throws {
        let a = try Bench.scratchFolder("seatmap-test"), b = try Bench.scratchFolder("seatmap-test")
        defer { [a, b].forEach { try? FileManager.default.removeItem(at: $0) } }
        #expect(a != b)
        for f in [a, b] { #expect(try FileManager.default.contentsOfDirectory(atPath: f.path).isEmpty) }
    }

    @Test("bad arguments exit 2")
    func usage() {
        #expect(Bench.main(["--bogus"], log: { _ in }) == 2)
        #expect(Bench.main(["--scene", "nowhere"], log: { _ in }) == 2)
        #expect(Bench.main(["--zoom", "9"], log: { _ in }) == 2)
        // The geometry flags come from render's own table: the same checks, help and suggestions.
        var said = ""
        #expect(Bench.main(["--zom", "2"], log: { said += $0 }) == 2 && said.contains("unknown option --zom (did you mean --zoom?)"), "\(said)")
        said = ""
        #expect(Bench.main(["--zoom", "9"], log: { said += $0 }) == 2 && said.contains("--zoom"), "\(said)")
        said = ""
        #expect(Bench.main(["-h"], log: { said += $0 }) == 0 && said.hasPrefix("Usage: seatmap-bench") && said.contains("--no-legend"))
    }
}
