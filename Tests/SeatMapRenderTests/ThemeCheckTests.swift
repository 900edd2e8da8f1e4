import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport
@testable import SeatMapRender

@Suite("Theme check")
struct ThemeCheckTests {
    /// Published CIEDE2000 test pairs (Sharma, Wu & Dalal 2005, table 1:
    /// pairs 1, 7, 17 and 18).
    @Test("CIEDE2000 matches the published test data")
    func ciede2000() {
        let pairs: [(Lab, Lab, Double)] = [
            (Lab(l: 50, a: 2.6772, b: -79.7751), Lab(l: 50, a: 0, b: -82.7485), 2.0425),
            (Lab(l: 50, a: 0, b: 0), Lab(l: 50, a: -1, b: 2), 2.3669),
            (Lab(l: 50, a: 2.5, b: 0), Lab(l: 73, a: 25, b: -18), 27.1492),
            (Lab(l: 50, a: 2.5, b: 0), Lab(l: 61, a: -5, b: 29), 22.8977),
        ]
        for (x, y, expected) in pairs {
            #expect(abs(Lab.deltaE2000(x, y) - expected) < 0.0001, "\(x) \(y)")
            #expect(abs(Lab.deltaE2000(y, x) - expected) < 0.0001)
        }
    }

    @Test("the colour-blind simulations collapse the confusions they are known for")
    func simulations() throws {
        let red = try #require(Color(hex: "#D62728")), green = try #require(Color(hex: "#6B8E23"))
        let blue = try #require(Color(hex: "#1F77B4"))
        // Red and olive green are far apart for normal vision, close for protanopes and deuteranopes.
        #expect(red.deltaE(green) > 30)
        #expect(red.deltaE(green, as: .protanopia) < red.deltaE(green) / 2)
        #expect(red.deltaE(green, as: .deuteranopia) < red.deltaE(green) / 2)
        // Blue stays apart from both for them; white stays white.
        #expect(red.deltaE(blue, as: .deuteranopia) > 20)
        for vision in Vision.allCases { #expect(Color.white.deltaE(.white, as: vision) < 0.01) }
        #expect(abs(Color.white.lab(as: .tritanopia).l - 100) < 0.5)
    }

    @Test("translucent colours are judged as drawn over the background")
    func over() throws {
        let pill = try #require(Color(hex: "#00000055"))
        #expect(pill.over(.white).hex == "#AAAAAA")
    }

    /// One crafted theme per failure class: the change, and the pair the
    /// check must name (every failure must involve it).
    static let bad: [(file: String, rule: ThemeReport.Rule, first: String, second: String, vision: Vision?)] = [
        ("seat-numbers", .text, "text (seat numbers and marks) #333333", "sold #8C8C8C", nil),
        ("row-labels", .text, "rowLabel #FFFFFF", "rowLabelBackground #00000055", nil),
        ("header-text", .text, "text (header, legend, zone names) #999999", "background #FFFFFF", nil),
        ("screen-label", .text, "screenText #AAAAAA", "screen #DADADA", nil),
        ("pale-tier", .nonText, "tierPalette[0] #A8E6CF", "background #FFFFFF", nil),
        ("highlight", .nonText, "highlight #EEEEEE", "background #FFFFFF", nil),
        ("similar-tiers", .difference, "tierPalette[0] #008656", "tierPalette[1] #00814F", .normal),
        ("protanopia", .difference, "tierPalette[3] #90035E", "tierPalette[8] #0A3261", .protanopia),
        ("deuteranopia", .difference, "tierPalette[3] #90035E", "tierPalette[8] #525254", .deuteranopia),
        ("tritanopia", .difference, "tierPalette[7] #5D2F00", "tierPalette[8] #5E2C31", .tritanopia),
        ("selected-like-tier", .difference, "tierPalette[3] #90035E", "selected #98064F", .normal),
        ("unmarked-sold", .difference, "tierPalette[6] #6B737E", "sold #6E7680", .normal),
        ("same-marks", .difference, "sold #737373", "locked #6F6F6F", .normal),
    ]

    @Test("each crafted bad theme fails with its pair named", arguments: bad.indices)
    func crafted(index: Int) throws {
        let c = Self.bad[index]
        let path = Fixtures.root.appendingPathComponent("Tests/Fixtures/themes/bad-\(c.file).json").path
        let report = try Theme.search(path).check()
        let named = report.failures.filter { $0.rule == c.rule && $0.first == c.first && $0.second == c.second && $0.vision == c.vision }
        #expect(named.count == 1, "\(c.file): \(report.failures)")
        // One failure class: every failure is of the crafted rule (a text colour may fail on several fills).
        // (Section outlines are `text` at 60 %: a faint text colour fails them too.)
        #expect(report.failures.allSatisfy { $0.rule == c.rule || $0.first.hasPrefix("section outlines") }, "\(c.file): \(report.failures)")
        // Nothing else the crafted change did not touch fails.
        let changed = c.rule == .difference ? c.second : c.first + c.second
        for f in report.failures {
            #expect(changed.contains(f.first.split(separator: " ").last.map(String.init) ?? "-")
                    || changed.contains(f.second.split(separator: " ").last.map(String.init) ?? "-"), "\(c.file): \(f)")
        }
        // The message carries the numbers and the source.
        let message = try #require(named.first).description
        #expect(message.contains(c.first) && message.contains(c.second) && message.contains(c.rule.source))
    }

    @Test("the light theme of the last release fails where the issue measured it")
    func oldLight() throws {
        var theme = try Theme.search("light")
        theme.tierPalette = ["#1F8A70", "#2E6FD1", "#8A4FBF", "#C2185B"].compactMap(Color.init(hex:))
        theme.selected = try #require(Color(hex: "#E8402F"))
        theme.sold = try #require(Color(hex: "#7A7A7A"))
        theme.rowLabelBackground = try #require(Color(hex: "#00000055"))
        let failures = theme.check().failures
        // Row labels 2.3:1 on their pill; seat numbers on sold below 4.5:1.
        #expect(failures.contains { $0.first.hasPrefix("rowLabel") && abs($0.value - 2.3) < 0.05 })
        #expect(failures.contains { $0.rule == .text && $0.second == "sold #7A7A7A" })
        // Sold with its cross needs no colour difference from the tiers.
        #expect(!failures.contains { $0.rule == .difference && $0.second.hasPrefix("sold") })
    }

    @Test("a translucent background and faint section outlines fail")
    func backgroundAndOutlines() throws {
        var theme = try Theme.search("light")
        theme.background = try #require(Color(hex: "#FFFFFF00"))
        #expect(theme.check().failures.contains { $0.first == "background #FFFFFF00" })
        var faint = try Theme.search("light")
        faint.text = try #require(Color(hex: "#C8C8C8"))
        #expect(faint.check().failures.contains { $0.first.hasPrefix("section outlines") })
    }

    @Test("marks and numbers take the theme's text colour where it reads better")
    func markColor() throws {
        let print = try Theme.search("print")
        #expect(print.markColor(on: print.tierPalette[1]) == print.text)
        #expect(print.markColor(on: print.tierPalette[2]) == print.seatText)
    }
}
