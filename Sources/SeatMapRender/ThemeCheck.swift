import Foundation

/// What `seatmap theme check` judges: every colour pair the renderer can
/// put next to each other, against published thresholds.
///
/// - **Text contrast ≥ 4.5:1** (WCAG 2.1 SC 1.4.3): seat numbers and marks
///   on every seat fill (tier, locked, sold, selected, neutral), row labels on their
///   pill, the header, legend and zone names on the background, the screen
///   label on the screen.
/// - **Non-text contrast ≥ 3:1** (WCAG 2.1 SC 1.4.11): every seat fill and
///   the highlight ring against the background; selected (the buyer's
///   seats on an e-ticket) against `neutral` (everyone else's).
/// - **Colour difference ≥ 10 CIEDE2000** for normal vision and under
///   protanopia, deuteranopia and tritanopia (Machado et al. 2009,
///   severity 1.0): every pair of tiers, and selected against every tier
///   (the minimap shows colours only, so this holds even though selected
///   seats carry a check mark). Sold and locked seats need a colour
///   difference only where marks do not tell them apart: from the tiers
///   when their mark is `none`, from each other when both marks are equal.
///
/// Translucent colours are judged as drawn, over what they are drawn on.
public struct ThemeReport: Sendable {
    public enum Rule: String, Sendable {
        case text = "text contrast"
        case nonText = "non-text contrast"
        case difference = "colour difference"

        /// The threshold and its source.
        public var limit: Double {
            switch self {
            case .text: return ThemeReport.textContrast
            case .nonText: return ThemeReport.nonTextContrast
            case .difference: return ThemeReport.minimumDeltaE
            }
        }

        public var source: String {
            switch self {
            case .text: return "WCAG 2.1 SC 1.4.3"
            case .nonText: return "WCAG 2.1 SC 1.4.11"
            case .difference: return "CIEDE2000; CVD simulated with Machado et al. 2009"
            }
        }
    }

    public static let textContrast = 4.5
    public static let nonTextContrast = 3.0
    public static let minimumDeltaE = 10.0

    public struct Finding: Sendable, CustomStringConvertible {
        public var rule: Rule
        /// The two things compared, as a reader of the theme file names them
        /// ("tierPalette[3] #C2185B", "selected #E8402F").
        public var first: String
        public var second: String
        /// Only for colour differences: the vision it was judged under.
        public var vision: Vision?
        public var value: Double
        public var passed: Bool { value >= rule.limit }

        public var description: String {
            switch rule {
            case .text, .nonText:
                return "\(rule.rawValue): \(first) on \(second): \(String(format: "%.2f", value)):1, needs \(String(format: "%.1f", rule.limit)):1 (\(rule.source))"
            case .difference:
                return "\(rule.rawValue): \(first) and \(second) under \(vision?.rawValue ?? "normal") vision: ΔE00 \(String(format: "%.1f", value)), needs \(Int(rule.limit)) (\(rule.source))"
            }
        }
    }

    public var theme: String
    /// Every check made, passed or not, in a fixed order.
    public var findings: [Finding]
    public var failures: [Finding] { findings.filter { !$0.passed } }

    /// The weakest pair under each rule (nil when the rule made no check).
    public func weakest(_ rule: Rule) -> Finding? {
        findings.filter { $0.rule == rule }.min { $0.value < $1.value }
    }
}

extension Theme {
    /// The colour of marks, icons and seat numbers drawn on `fill`:
    /// `seatText`, or `text` where that has more contrast (so a palette may
    /// mix light and dark fills, as a grey print palette must).
    public func markColor(on fill: Color) -> Color {
        let f = fill.over(background)
        return seatText.over(f).contrast(with: f) >= text.over(f).contrast(with: f) ? seatText : text
    }

    /// Judges every colour pair this theme can draw (see `ThemeReport`).
    public func check() -> ThemeReport {
        var out: [ThemeReport.Finding] = []
        func named(_ name: String, _ c: Color) -> String { "\(name) \(c.hex)" }
        func contrast(_ rule: ThemeReport.Rule, _ fgName: String, _ fg: Color, on bgName: String, _ bg: Color) {
            let under = bg.over(background)
            out.append(.init(rule: rule, first: named(fgName, fg), second: named(bgName, bg), vision: nil,
                             value: fg.over(under).contrast(with: under)))
        }
        func differ(_ a: (String, Color), _ b: (String, Color)) {
            for vision in Vision.allCases {
                let x = a.1.over(background), y = b.1.over(background)
                out.append(.init(rule: .difference, first: named(a.0, a.1), second: named(b.0, b.1), vision: vision,
                                 value: x.deltaE(y, as: vision)))
            }
        }
        let tiers = tierPalette.enumerated().map { ("tierPalette[\($0.offset)]", $0.element) }
        let fills = seatFills
        // Text: seat numbers and marks on every fill, then the chrome.
        for (name, fill) in fills {
            let mark = markColor(on: fill)
            contrast(.text, mark == seatText ? "seatText" : "text (seat numbers and marks)", mark, on: name, fill)
        }
        contrast(.text, "rowLabel", rowLabel, on: "rowLabelBackground", rowLabelBackground)
        contrast(.text, "text (header, legend, zone names)", text, on: "background", background)
        contrast(.text, "screenText", screenText, on: "screen", screen)
        // Non-text: seat fills and the highlight ring on the background.
        for (name, fill) in fills { contrast(.nonText, name, fill, on: "background", background) }
        contrast(.nonText, "highlight", highlight, on: "background", background)
        contrast(.nonText, "section outlines (text at 60 %)", outline, on: "background", background)
        // The page under a translucent background is unknown: judged on the
        // colour itself, it fails outright.
        if background.a < 1 {
            out.append(.init(rule: .nonText, first: named("background", background), second: "any page (it is translucent)", vision: nil, value: 1))
        }
        // E-tickets: the buyer's seats (selected) among neutral ones.
        contrast(.nonText, "selected", selected, on: "neutral", neutralFill)
        contrast(.text, markColor(on: neutralFill) == seatText ? "seatText" : "text (seat numbers and marks)",
                 markColor(on: neutralFill), on: "neutral", neutralFill)
        // Colour differences where colour is the only cue.
        for i in tiers.indices {
            for j in tiers.indices where j > i { differ(tiers[i], tiers[j]) }
        }
        for tier in tiers { differ(tier, ("selected", selected)) }
        let statuses = [("sold", sold, soldMark), ("locked", locked, lockedMark)]
        for (name, fill, mark) in statuses where mark == .none {
            for tier in tiers { differ(tier, (name, fill)) }
        }
        if soldMark == lockedMark { differ(("sold", sold), ("locked", locked)) }
        return ThemeReport(theme: name, findings: out)
    }
}
