import Foundation
import Testing
@testable import SeatMapCLI
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

@Suite("CLI: what a user would expect")
struct ExpectationTests {
    @Test("PDF honours --viewport, --offset and --minimap")
    func pdfViewport() throws {
        let dir = try Fixtures.tempFolder()
        let full = dir.appendingPathComponent("full.pdf").path, phone = dir.appendingPathComponent("phone.pdf").path
        let map = dir.appendingPathComponent("map.pdf").path
        let hall = Fixtures.examplePath("imax-3-sections.json")
        #expect(seatmap("render", hall, "-o", full, "--zoom", "2").code == 0)
        #expect(seatmap("render", hall, "-o", phone, "--zoom", "2", "--viewport", "375,667", "--offset", "300,120").code == 0)
        #expect(seatmap("render", hall, "-o", map, "--zoom", "2", "--viewport", "375,667", "--offset", "300,120", "--minimap").code == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: full)), b = try Data(contentsOf: URL(fileURLWithPath: phone))
        let c = try Data(contentsOf: URL(fileURLWithPath: map))
        #expect(a != b && b != c)
        // The page is the viewport's size in points (fit).
        #expect(String(decoding: b, as: UTF8.self).contains("/MediaBox [ 0 0 375 667 ]"))
    }

    @Test("a points file with CRLF or CR line endings is read line by line")
    func crlf() throws {
        let dir = try Fixtures.tempFolder()
        for (name, ending) in [("crlf", "\r\n"), ("cr", "\r"), ("lf", "\n")] {
            let path = dir.appendingPathComponent("\(name).txt").path
            try ["10,10", "100,200", "# a comment", "50,60"].joined(separator: ending).write(toFile: path, atomically: true, encoding: .utf8)
            let r = seatmap("hit", Fixtures.examplePath("seed.json"), "--points-file", path)
            #expect(r.code == 0, "\(name): \(r.err)")
            #expect(r.out.split(separator: "\n").count == 3, "\(name): three taps")
        }
    }

    @Test("theme colours are CSS colours read strictly: no signs, prefixes, spaces or wide digits", arguments: ["#+FFFFF", "#-00000", "#0x1234", "#12345G", "#FFFFFF ", "#ＦＦＦＦＦＦ", "white "])
    func colourSigns(colour: String) throws {
        let light = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Themes/light.json").path, encoding: .utf8)
        let path = try Fixtures.tempFolder().appendingPathComponent("t.json").path
        try light.replacingOccurrences(of: "\"background\": \"#FFFFFF\"", with: "\"background\": \"\(colour)\"")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = seatmap("theme", "check", path)
        #expect(r.code == 1 && r.err.contains("background: invalid colour"), "\(colour): \(r.err)")
    }

    @Test("a status change to one couple half applies to its partner too")
    func coupleHalves() throws {
        let dir = try Fixtures.tempFolder()
        let updates = try Fixtures.write(#"{"batchId":"a","sequence":1,"changes":[{"id":"1-12-5","status":2}]}"#, to: "u.json", in: dir)
        let out = dir.appendingPathComponent("new.json").path
        let r = seatmap("apply", Fixtures.examplePath("cinema-12x18.json"), updates, "-o", out)
        #expect(r.code == 0 && r.out.contains("a: 1-12-5 1-12-6"), "\(r.out)")
        let hall = try Files.readHall(out)
        #expect(hall.cell(id: "1-12-6")?.seat.status == .sold)
    }

    @Test("-h and help COMMAND give a command's help; a mistyped command or option is named with the nearest one, in one line")
    func helpAndSuggestions() throws {
        let dash = seatmap("render", "-h"), long = seatmap("render", "--help"), word = seatmap("help", "render")
        #expect(dash.code == 0 && word.code == 0 && dash.out == long.out && word.out == long.out && long.out.contains("--zoom"), "\(dash.err)")
        let top = seatmap("help")
        #expect(top.code == 0 && top.out != long.out)
        let typo = seatmap("rendr", "x.json")
        #expect(typo.code == 2 && typo.err.contains("unknown command \"rendr\" (did you mean \"render\"?)"), "\(typo.err)")
        #expect(typo.err.split(separator: "\n").count == 2, "one line and the commands: \(typo.err)")
        #expect(typo.err.contains("Commands: validate, info, layout, hit, render,") && !typo.err.contains("Usage:"), "\(typo.err)")
        let helpHelp = seatmap("help", "-h")
        #expect(helpHelp.code == 0 && helpHelp.out == top.out)
        // Subcommands, shells and formats suggest the nearest name too.
        let sub = seatmap("theme", "chek", "light")
        #expect(sub.code == 2 && sub.err.contains("unknown theme subcommand \"chek\" (did you mean \"check\"?; expected check, list or show)"), "\(sub.err)")
        #expect(seatmap("completions", "bsh").err.contains("(did you mean \"bash\"?; expected bash, zsh or fish)"))
        let format = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", "/tmp", "--format", "svgz")
        #expect(format.code == 2 && format.err.contains("unknown --format \"svgz\" (did you mean \"svg\"?; expected png, svg, pdf or html)"), "\(format.err)")
        #expect(!seatmap("qqqqqq").err.contains("did you mean"))
        let option = seatmap("render", "x.json", "-o", "x.png", "--zom", "2")
        #expect(option.code == 2 && option.err.contains("unknown option --zom (did you mean --zoom?)"), "\(option.err)")
        #expect(seatmap("help", "rendr").code == 2)
    }

    @Test("a single-dash word that is not -o is an unknown option, not a FILE")
    func singleDash() {
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "-z", "-o", "x.png")
        #expect(r.code == 2 && r.err.contains("unknown option -z"))
    }

    @Test("a batch folder that cannot be created says why")
    func outDir() {
        let r = seatmap("render", Fixtures.examplePath("seed.json"), "--out-dir", "/proc/seatmap-test/x")
        #expect(r.code == 1 && r.err.contains("cannot create the folder /proc/seatmap-test"), "\(r.err)")
        #expect(!r.err.contains("Error Domain"))
    }
}
