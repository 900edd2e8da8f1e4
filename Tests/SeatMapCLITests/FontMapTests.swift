import Foundation
import Testing
import SeatMapTestSupport

/// Text is shaped on a font map holding only the theme's faces (fontconfig
/// sorts a dozen faces per size, not every installed font); it must draw
/// the bytes Pango's default font map draws, also for text those faces do
/// not cover, which goes to the default map's own fallback fonts.
@Suite("Theme font map")
struct FontMapTests {
    /// `seatmap render HALL -o - --format png ARGS` with and without `SEATMAP_FONT_MAP=default`.
    static func bothMaps(_ hall: String, _ args: [String]) throws -> (own: SeatmapProcess.Result, plain: SeatmapProcess.Result) {
        let command = ["render", hall, "-o", "-", "--format", "png"] + args
        return (try SeatmapProcess.run(command), try SeatmapProcess.run(command, environment: ["SEATMAP_FONT_MAP": "default"]))
    }

    @Test("every example in every shipped theme: the same PNG bytes on the theme's faces as on Pango's default map",
          arguments: ["seed.json", "cinema-12x18.json", "labels-rtl.json", "theatre-curved.json", "dinner-tables.json", "gala.json"])
    func examples(_ name: String) throws {
        for theme in ["light", "dark", "high-contrast", "print"] {
            let (own, plain) = try FontMapTests.bothMaps(Fixtures.examplePath(name), ["--theme", theme, "--scale", "1.5"])
            #expect(own.code == 0 && plain.code == 0, "\(name) \(theme): \(own.stderr) \(plain.stderr)")
            #expect(own.stdout.count > 1000)
            #expect(own.stdout == plain.stdout, "\(name) in \(theme) differs between the font maps")
        }
    }

    @Test("characters none of the theme's faces has (a snowman, Lao, Georgian) fall back as on the default map; a character no font has is still an error")
    func fallback() throws {
        let dir = try Fixtures.tempFolder()
        let hall = dir.appendingPathComponent("fallback.json")
        let text = """
        { "cinemaName": "☃ Cinema ກ", "hallName": "Hall ა 3", "maxSelectCount": 4,
          "rows": [ { "row": 1, "price": 45, "seats": [ { "column": 1, "status": 0 }, { "column": 2, "status": 0 } ] } ] }
        """
        try Data(text.utf8).write(to: hall)
        let (own, plain) = try FontMapTests.bothMaps(hall.path, ["--scale", "2"])
        #expect(own.code == 0 && plain.code == 0, "\(own.stderr) \(plain.stderr)")
        #expect(own.stdout == plain.stdout, "text with fallback characters differs between the font maps")
        // Not drawn as the covered text alone: the fallback glyphs are there.
        let covered = dir.appendingPathComponent("covered.json")
        try Data(text.replacingOccurrences(of: "☃", with: "A").replacingOccurrences(of: "ກ", with: "B").replacingOccurrences(of: "ა", with: "C").utf8).write(to: covered)
        let other = try SeatmapProcess.run(["render", covered.path, "-o", "-", "--format", "png", "--scale", "2"])
        #expect(other.code == 0 && other.stdout != own.stdout)
        // A private-use character no installed font has fails on both maps, naming it.
        let missing = dir.appendingPathComponent("missing.json")
        try Data(text.replacingOccurrences(of: "☃", with: "\u{E123}").utf8).write(to: missing)
        let (a, b) = try FontMapTests.bothMaps(missing.path, [])
        #expect(a.code == 1 && b.code == 1)
        #expect(a.stderr.contains("U+E123") && a.stderr == b.stderr, "\(a.stderr)")
    }
}
