import Foundation
import Testing
import SeatMapCLI
@testable import SeatMapCLI
import SeatMapCore
import SeatMapGolden
import SeatMapTestClients
import SeatMapTestSupport

/// Outputs: only regular files are replaced, permissions and links are
/// kept, several outputs are written all or nothing, no temporary file
/// is left behind, `-o -` writes the document alone.
@Suite("CLI: output files")
struct OutputFileTests {
    static let seed = Fixtures.examplePath("seed.json")

    static func leftovers(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".seatmap-tmp-") }
    }

    @Test("a character no installed font has fails a PDF, a PNG and an SVG alike (exit 1, named; no crash, no file)",
          arguments: ["pdf", "png", "svg"])
    func missingCharacterEveryFormat(_ format: String) throws {
        let dir = try Fixtures.tempFolder()
        let hall = dir.appendingPathComponent("missing.json")
        try Data(#"{ "cinemaName": "X \#u{E123}", "hallName": "H", "rows": [ { "row": 1, "price": 4, "seats": [ { "column": 1, "status": 0 } ] } ] }"#.utf8)
            .write(to: hall)
        let out = dir.appendingPathComponent("out.\(format)").path
        // SVG text as paths: shaped (and its glyphs looked up) as PNG and PDF text is.
        let r = try SeatmapProcess.run(["render", hall.path, "-o", out] + (format == "svg" ? ["--svg-text", "paths"] : []))
        #expect(r.code == 1, "\(format): exit \(r.code) \(r.stderr)")
        #expect(r.stderr.contains("U+E123"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a device node given as -o is refused and left as it is")
    func deviceNode() throws {
        let dir = try Fixtures.tempFolder()
        let node = dir.appendingPathComponent("null").path
        guard mknod(node, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 else {  // 1:3, like /dev/null
            // mknod needs root (CI runs as root); say so rather than pass silently.
            withKnownIssue("mknod needs root: \(String(cString: strerror(errno)))") { Issue.record("not run") }
            return
        }
        for args in [["render", OutputFileTests.seed, "-o", node + ".png"], ["import", "maoyan",
                     Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/camel.json").path, "-o", node, "--price", "1"]] {
            // The .png name must be the node too: link it.
            if args[0] == "render" { _ = symlink(node, node + ".png") }
            let r = seatmap(args)
            #expect(r.code == 1, "\(args)")
            #expect(r.err.contains("is not a regular file"), "\(r.err)")
        }
        var st = stat()
        #expect(stat(node, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "still a character device")
        #expect(try OutputFileTests.leftovers(dir).isEmpty)
    }

    @Test("a replaced file keeps its permission bits; a symbolic link keeps pointing at its replaced target")
    func permissionsAndLinks() throws {
        let dir = try Fixtures.tempFolder()
        let file = dir.appendingPathComponent("map.svg").path
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        #expect(seatmap("render", OutputFileTests.seed, "-o", file).code == 0)
        var st = stat()
        #expect(stat(file, &st) == 0 && st.st_mode & 0o777 == 0o600)
        let link = dir.appendingPathComponent("latest.svg").path
        #expect(symlink("map.svg", link) == 0)
        #expect(seatmap("render", OutputFileTests.seed, "-o", link, "--zoom", "2").code == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "map.svg", "the link is still a link")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("<svg"))
        #expect(stat(file, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    @Test("apply writes the hall and the image both or neither")
    func applyAllOrNothing() throws {
        let dir = try Fixtures.tempFolder()
        let old = dir.appendingPathComponent("old.png").path, hall = dir.appendingPathComponent("new.json").path
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]}"#, to: "u.json", in: dir)
        #expect(seatmap("render", OutputFileTests.seed, "-o", old).code == 0)
        try "previous".write(toFile: hall, atomically: true, encoding: .utf8)
        let r = seatmap("apply", OutputFileTests.seed, updates, "-o", hall, "--image", old,
                        "--image-out", dir.appendingPathComponent("missing/new.png").path)
        #expect(r.code == 1 && r.err.contains("does not exist"), "\(r.err)")
        #expect(try String(contentsOfFile: hall, encoding: .utf8) == "previous", "-o untouched when the image cannot be written")
        #expect(try OutputFileTests.leftovers(dir).isEmpty)
    }

    @Test("-o and --output together are a usage error")
    func twoOutputs() {
        let r = seatmap("render", OutputFileTests.seed, "-o", "a.png", "--output", "b.png")
        #expect(r.code == 2 && r.err.contains("-o and --output"))
    }

    @Test("-o - writes only the document to stdout; the report goes to stderr")
    func stdoutDocument() throws {
        let camel = Fixtures.root.appendingPathComponent("Tests/SeatMapCoreTests/Maoyan/camel.json").path
        let r = try SeatmapProcess.run(["import", "maoyan", camel, "-o", "-", "--price", "30"])
        #expect(r.code == 0)
        #expect((try? HallFormat.decode(SourceText(name: "-", bytes: r.stdout))) != nil, "stdout is the hall alone")
        #expect(r.stderr.contains("wrote <stdout>"))
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]}"#, to: "u.json", in: dir)
        let a = try SeatmapProcess.run(["apply", OutputFileTests.seed, updates, "-o", "-", "--json"])
        #expect(a.code == 0)
        let hall = try HallFormat.decode(SourceText(name: "-", bytes: a.stdout)).hall
        #expect(hall.cell(id: "1-1-1")?.seat.status == .sold)
        #expect(a.stderr.contains("\"batchId\":\"a\""))
    }

    @Test("inputs are bounded while reading: /dev/zero on stdin is refused at the limit")
    func boundedInput() throws {
        let r = try SeatmapProcess.run(["validate", "-", "--max-input-bytes", "100000"], stdin: "/dev/zero")
        #expect(r.code == 1)
        #expect(r.stderr.contains("<stdin>: the input is larger than the limit of 100000 bytes"), "\(r.stderr)")
        let d = try SeatmapProcess.run(["validate", "-"], stdin: "/dev/zero")
        #expect(d.code == 1 && d.stderr.contains("limit of 67108864 bytes"), "the default limit, 64 MiB")
        let points = try SeatmapProcess.run(["hit", OutputFileTests.seed, "--points-file", "-"], stdin: "/dev/zero")
        #expect(points.code == 1 && points.stderr.contains("larger than the limit"))
        // In a child whose address space is capped at 1 GB (the runtime
        // alone reserves about 240 MB, more with more cores): the read stops
        // at the limit, no crash. An unbounded read of /dev/zero would pass any cap.
        if let exe = SeatmapProcess.executable {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "ulimit -v 1000000; MALLOC_ARENA_MAX=2 exec \"$0\" validate - < /dev/zero", exe.path]
            let err = Pipe()
            p.standardError = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 1 && text.contains("larger than the limit"), "\(p.terminationStatus): \(text)")
        }
        #expect(seatmap("validate", OutputFileTests.seed, "--max-input-bytes", "12").code == 1)
        #expect(seatmap("validate", OutputFileTests.seed, "--max-input-bytes", "1e3").code == 2)
    }

    @Test("a killed render leaves no temporary file")
    func killed() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        for delay in [20_000, 60_000, 150_000] as [useconds_t] {
            let p = Process()
            p.executableURL = exe
            p.arguments = ["render", Fixtures.examplePath("imax-3-sections.json"), "-o", dir.appendingPathComponent("big.png").path,
                           "--zoom", "3", "--scale", "3", "--png-compression", "best"]
            try p.run()
            usleep(delay)
            p.terminate()
            p.waitUntilExit()
            #expect(try OutputFileTests.leftovers(dir).isEmpty, "after SIGTERM at \(delay) µs")
        }
    }

    @Test("a batch stopped by SIGTERM, SIGINT or SIGHUP between its files leaves no temporary file, and every output it wrote is whole")
    func killedBatch() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let root = try Fixtures.tempFolder()
        let inputs = Fixtures.exampleNames.map { Fixtures.examplePath($0) }
        // The outputs of a batch left to finish.
        let reference = root.appendingPathComponent("reference")
        let whole = try SeatmapProcess.run(["render"] + inputs + ["--out-dir", reference.path, "-q"])
        #expect(whole.code == 0, "\(whole.stderr)")
        let expected = try FileManager.default.contentsOfDirectory(atPath: reference.path).sorted()
        #expect(expected.count == inputs.count && inputs.count >= 4)
        // Each signal is sent once the batch has said it wrote j files
        // (j from 1 to all but two), while its workers render and write the
        // rest: the clean-up races those writes. TempFilesTests hold the
        // clean-up's own race; this is the whole command.
        let signals = [SIGTERM, SIGINT, SIGHUP]
        var stopped = 0, leftovers: [String] = [], broken: [String] = []
        for k in 0..<48 {
            let dir = root.appendingPathComponent("run-\(k)")
            let sig = signals[k % signals.count], after = k % (inputs.count - 2) + 1
            let p = Process()
            p.executableURL = exe
            p.arguments = ["render"] + inputs + ["--out-dir", dir.path]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            var said = "", seen = 0
            while seen < after {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
                seen = said.components(separatedBy: "wrote ").count - 1
            }
            if p.isRunning { kill(p.processIdentifier, sig) }
            _ = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            // Stopped by the signal's handler (not before it was set up, not by a crash).
            if p.terminationReason == .exit && p.terminationStatus == 128 + sig { stopped += 1 }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            leftovers += names.filter { $0.hasPrefix(".seatmap-tmp-") }.map { "run \(k): \($0)" }
            for name in names where !name.hasPrefix(".") {
                let got = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path)
                if !expected.contains(name) || got != FileManager.default.contents(atPath: reference.appendingPathComponent(name).path) {
                    broken.append("run \(k): \(name)")
                }
            }
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(broken.isEmpty, "\(broken)")
        // Most runs were stopped mid-batch (a run the signal missed proves nothing).
        #expect(stopped >= 36, "only \(stopped) of 48 runs were stopped by their signal's handler")
    }
}

@Suite("CLI: errors name what they are about")
struct ErrorBlameTests {
    @Test("a seat option's error names the option, not the output being written; a hall's error names the hall")
    func blame() throws {
        let dir = try Fixtures.tempFolder()
        let out = dir.appendingPathComponent("x.png").path
        let select = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out, "--select", "9-9-9")
        #expect(select.code == 1 && select.err.hasPrefix("--select: no such seat 9-9-9"), "\(select.err)")
        let ticket = seatmap("render", Fixtures.examplePath("seed.json"), "-o", "-", "--format", "png", "--ticket", "9-9-9")
        #expect(ticket.code == 1 && ticket.err.hasPrefix("--ticket: no such seat 9-9-9"), "\(ticket.err)")
        let batch = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", dir.path, "--select", "9-9-9")
        #expect(batch.code == 1 && batch.err.contains("seed.json: --select: no such seat 9-9-9"), "\(batch.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

@Suite("CLI: image inputs")
struct ImageInputTests {
    @Test("diff finds a size mismatch from the headers and refuses an image over the limits, without decoding it")
    func bombs() throws {
        let bomb = Fixtures.imagePath("bomb.png"), small = Fixtures.imagePath("gray8.png")
        let mismatch = seatmap("diff", bomb, small)
        #expect(mismatch.code == 1 && mismatch.err.contains("size mismatch: \(bomb) is 40000×40000"), "\(mismatch.err)")
        let over = seatmap("diff", bomb, bomb)
        #expect(over.code == 2 && over.err.contains("over the limit of 32767 px a side"), "\(over.err)")
        #expect(seatmap("diff", Fixtures.imagePath("gray16.png"), small).code == 0, "16-bit equals its 8-bit copy")
    }

    @Test("apply --image refuses a PNG of the wrong size or a file that is not a PNG before decoding it")
    func applyImage() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]}"#, to: "u.json", in: dir)
        let out = dir.appendingPathComponent("new.json").path, image = dir.appendingPathComponent("new.png").path
        let seed = Fixtures.examplePath("seed.json")
        let wrong = seatmap("apply", seed, updates, "-o", out, "--image", Fixtures.imagePath("bomb.png"), "--image-out", image)
        #expect(wrong.code == 1 && wrong.err.contains("the image is 40000×40000 px but the layout is"), "\(wrong.err)")
        let notPNG = seatmap("apply", seed, updates, "-o", out, "--image", seed, "--image-out", image)
        #expect(notPNG.code == 1 && notPNG.err.contains("not a readable PNG"), "\(notPNG.err)")
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: image))
    }

    @Test("a diff image that cannot be written is an error (exit 2), not a difference")
    func diffOutFails() throws {
        let small = Fixtures.imagePath("gray8.png")
        let r = seatmap("diff", small, Fixtures.imagePath("gray16.png"), "--out", "/nonexistent-folder/d.png")
        #expect(r.code == 2 && r.err.contains("does not exist"), "\(r.err)")
    }
}

@Suite("CLI: found by a hostile run")
struct HostileRunTests {
    @Test("--ignore with huge values is a usage error, never an overflow trap")
    func ignoreOverflow() {
        let a = Fixtures.imagePath("seed-a.png"), b = Fixtures.imagePath("seed-b.png")
        #expect(seatmap("diff", a, b, "--ignore", "1,0,9223372036854775807,10").code == 2)
        #expect(seatmap("diff", a, b, "--ignore", "-1000000000,-1000000000,1000000000,1000000000").code == 1, "allowed bounds, no trap")
    }

    @Test("two outputs naming one file are refused, nothing written")
    func sameOutputTwice() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-1-1","status":2}]}"#, to: "u.json", in: dir)
        let old = dir.appendingPathComponent("old.png").path, out = dir.appendingPathComponent("new.json").path
        let seed = Fixtures.examplePath("seed.json")
        #expect(seatmap("render", seed, "-o", old).code == 0)
        let r = seatmap("apply", seed, updates, "-o", out, "--image", old, "--image-out", dir.path + "/./new.json")
        #expect(r.code == 1 && r.err.contains("two outputs name this same file"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let d = dir.appendingPathComponent("d.png").path
        #expect(seatmap("diff", Fixtures.imagePath("seed-a.png"), Fixtures.imagePath("seed-b.png"), "--out", d, "--composite", d).code == 2)
    }

    @Test("diff --out - keeps standard output for the image; the report goes to stderr")
    func diffToStdout() throws {
        let r = try SeatmapProcess.run(["diff", Fixtures.imagePath("seed-a.png"), Fixtures.imagePath("seed-b.png"), "--out", "-"])
        #expect(r.code == 1)
        #expect(r.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]) && RGBAImage.pngSize(r.stdout) != nil)
        #expect(r.stderr.contains("FAIL: max-diff-pixels"))
    }

    @Test("standard output that cannot be written is an error (exit 1), not a trap")
    func fullDisk() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full"), let exe = SeatmapProcess.executable else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "exec \"$0\" info \"$1\" > /dev/full", exe.path, Fixtures.examplePath("seed.json")]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 1 && text.contains("cannot write standard output"), "\(p.terminationStatus): \(text)")
    }

    @Test("a folder given as --store is named as such; --hold-ttl needs --store")
    func storeMistakes() throws {
        let dir = try Fixtures.tempFolder()
        let seed = Fixtures.examplePath("seed.json")
        let r = seatmap("select", seed, "--toggle", "1-1-1", "--store", dir.path, "--show", "S")
        #expect(r.code == 1 && r.err.contains("is a folder"), "\(r.err)")
        #expect(seatmap("select", seed, "--toggle", "1-1-1", "--hold-ttl", "5").code == 2)
        // One hold time for every command: a day at most, the same words everywhere.
        let store = dir.appendingPathComponent("shows.db").path
        for args in [["select", seed, "--toggle", "1-1-1"], ["recommend", seed, "--count", "1"]] {
            let long = seatmap(args + ["--store", store, "--show", "S", "--hold-ttl", "86401"])
            #expect(long.code == 2 && long.err.contains("--hold-ttl: expected 1 to 86400 seconds, got 86401"), "\(long.err)")
        }
        #expect(seatmap("select", seed, "--toggle", "1-1-1", "--store", store, "--show", "S", "--hold-ttl", "86400").code == 0)
    }

    @Test("the batch progress line names the file and, while files are left, the time they should take at the pace so far")
    func progressLine() {
        let start = DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds - 2_000_000_000)
        let line = SeatMapCLI.progressBar(done: 2, of: 6, last: "b.json", since: start)
        #expect(line.hasPrefix("[##########                    ] 2/6 b.json ETA "), "\(line)")
        #expect(line.hasSuffix("ETA 4 s") || line.hasSuffix("ETA 5 s"), "\(line)")
        #expect(!SeatMapCLI.progressBar(done: 6, of: 6, last: "f.json", since: start).contains("ETA"))
    }

    @Test("info --json says a free venue's shape without a grid's size")
    func freeVenueInfo() throws {
        let free = try parseJSON(seatmap("info", Fixtures.examplePath("arena-blocks.json"), "--json").out)
        let grid = try parseJSON(seatmap("info", Fixtures.examplePath("seed.json"), "--json").out)
        #expect(free["gridRows"] == nil && free["gridColumns"] == nil && free["free"]?.value == .bool(true) && free["areas"] != nil)
        #expect(grid["gridRows"] != nil && grid["free"]?.value == .bool(false))
    }
}

@Suite("Outputs and errors at the edges")
struct EdgeTests {
    @Test("a 255-byte output name is written (the temporary name is kept within the limit)")
    func longOutputName() throws {
        let dir = try Fixtures.tempFolder()
        let name = String(repeating: "n", count: 251) + ".png"
        let out = dir.appendingPathComponent(name).path
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "-o", out)
        #expect(r.code == 0, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [name], "no temporary left")
    }

    @Test("standard input named twice is a usage error")
    func stdinTwice() {
        let r = seatmap("apply", "-", "-", "-o", "o.json")
        #expect(r.code == 2 && r.err.contains("standard input (-) is named more than once"), "\(r.err)")
    }

    @Test("a repeated key inside an unknown member is an error; a polygon point is reported at its own path")
    func preciseErrors() throws {
        let dir = try Fixtures.tempFolder()
        let dup = try Fixtures.write(#"{"rows":[{"row":1,"price":5,"seats":[{"column":1,"status":0}]}],"extra":{"a":1,"a":2}}"#, to: "d.json", in: dir)
        let r = seatmap("validate", dup)
        #expect(r.code == 1 && r.err.contains("extra.a: duplicate key \"a\""), "\(r.err)")
        let poly = try Fixtures.write(#"{"areas":[{"id":"p","shape":"polygon","points":[[0,0],[10,0],[1e9,5]]}],"sections":[{"id":1,"name":"A"}],"rows":[{"row":1,"price":5,"seats":[{"column":1,"status":0,"x":0,"y":0}]}]}"#,
                                      to: "p.json", in: dir)
        let e = seatmap("validate", poly)
        #expect(e.code == 1 && e.err.contains("areas[0].points[2][0]"), "\(e.err)")
    }
}
