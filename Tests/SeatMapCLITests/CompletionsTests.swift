import Foundation
import Testing
import SeatMapTestClients
import SeatMapTestSupport

/// `seatmap completions` and `seatmap man`: written from the command
/// tables, checked by the shells and `man` themselves.
@Suite("Shell completions and the man page")
struct CompletionsTests {
    static func shell(_ exe: String, _ args: [String]) throws -> (Int32, String) {
        try DocsTests.run(exe, args)
    }

    @Test("bash completes commands, each command's options and files")
    func bash() throws {
        let r = seatmap("completions", "bash")
        #expect(r.code == 0)
        let dir = try Fixtures.tempFolder()
        let script = dir.appendingPathComponent("seatmap.bash")
        try r.out.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let line = words.map { "'\($0)'" }.joined(separator: " ")
            let probe = "source \(script.path); COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); _seatmap; printf '%s\\n' \"${COMPREPLY[@]}\""
            let (code, out) = try Self.shell("/bin/bash", ["-c", probe])
            #expect(code == 0, "\(out)")
            return out.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["seatmap", "ren"]) == ["render"])
        #expect(try complete(["seatmap", "re"]).sorted() == ["recommend", "render"])
        #expect(try complete(["seatmap", "render", "x.json", "--zo"]) == ["--zoom"])
        #expect(try complete(["seatmap", "show", "--ch"]) == ["--channel"])
        #expect(try complete(["seatmap", "help", "ord"]) == ["order"])
        #expect(seatmap("completions", "tcsh").code == 2)
    }

    @Test("zsh and fish read their scripts without an error (when installed)")
    func zshAndFish() throws {
        let dir = try Fixtures.tempFolder()
        for (shell, args) in [("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let exe = DocsTests.which(shell, fallback: "")
            guard !exe.isEmpty else { continue }
            let r = seatmap("completions", shell)
            #expect(r.code == 0 && r.out.contains("render") && r.out.contains("zoom"))
            let file = dir.appendingPathComponent("seatmap.\(shell)")
            try r.out.write(to: file, atomically: true, encoding: .utf8)
            let (code, out) = try Self.shell(exe, args + [file.path])
            #expect(code == 0, "\(shell): \(out)")
        }
    }

    @Test("the man page names every command and option, and man formats it without a warning")
    func manPage() throws {
        let r = seatmap("man")
        #expect(r.code == 0 && r.out.hasPrefix(".TH SEATMAP 1"))
        for word in ["render", "recommend", "completions", "\\-\\-zoom", "\\-\\-channel", "EXIT STATUS"] { #expect(r.out.contains(word), "\(word)") }
        let dir = try Fixtures.tempFolder()
        let page = dir.appendingPathComponent("seatmap.1")
        try r.out.write(to: page, atomically: true, encoding: .utf8)
        let groff = DocsTests.which("groff", fallback: "")
        guard !groff.isEmpty else { return }
        let (code, out) = try Self.shell(groff, ["-k", "-man", "-Tutf8", "-ww", "-z", page.path])
        #expect(code == 0 && out.isEmpty, "groff warns: \(out.prefix(2000))")
        let (_, text) = try Self.shell(groff, ["-k", "-man", "-Tutf8", page.path])
        #expect(text.contains("seatmap render") || text.contains("render"), "\(text.prefix(500))")
    }
}
