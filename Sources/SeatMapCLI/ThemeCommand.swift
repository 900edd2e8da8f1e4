import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

extension SeatMapCLI {
    static let themeCommand = Command(
        spec: CommandSpec(
            name: "theme", usage: "theme check NAME|PATH  |  theme list  |  theme show NAME|PATH",
            summary: "Themes: check one (text and non-text contrast, colour differences for normal and colour-blind vision), list them, print one.",
            options: [],
            details: """
            Names are looked up in $SEATMAP_THEMES, ./Themes, then the shipped themes built into seatmap
            (light, dark, print, high-contrast), so a copied binary has them. `theme show light > mine.json`
            is a starting point for a theme of your own.
            check: text contrast ≥ 4.5:1 (WCAG 2.1 SC 1.4.3) for seat numbers and marks on every seat fill, row
            labels on their pill, header/legend on the background and the screen label; non-text contrast ≥ 3:1
            (SC 1.4.11) for every seat fill and the highlight on the background; CIEDE2000 ΔE ≥ 10 between every
            pair of tiers and between selected and every tier, for normal vision and under protanopia,
            deuteranopia and tritanopia (Machado et al. 2009); sold/locked need it only where marks do not
            tell them apart. Exit 0 when all pass, 1 when any fails (each failing pair named with its
            numbers), 2 usage error.
            """),
        run: { args, console in
            guard let sub = args.positionals.first else { throw UsageError(message: "missing a subcommand: check, list or show") }
            switch sub {
            case "list":
                _ = try positionals(args, ["list"])
                for (name, origin) in Theme.available() { console.out("\(name)\t\(origin)") }
                return 0
            case "show":
                let p = try positionals(args, ["show", "NAME|PATH"])
                let (source, _) = try Theme.source(p[1])
                _ = try Theme.decode(source)
                console.out(String(decoding: source.bytes, as: UTF8.self).trimmingCharacters(in: .newlines))
                return 0
            case "check":
                let p = try positionals(args, ["check", "NAME|PATH"])
                let (theme, warnings) = try Theme.decodeReporting(try Theme.source(p[1]).0)
                let report = theme.check()
                // A key the theme format does not have (a misspelling) and a font
                // that is not installed fail the check, as a bad contrast does.
                var problems = warnings.map(\.description)
                do throws(SeatMapError) {
                    _ = try FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage)
                } catch {
                    problems.append("fontFamily: \(error.message)")
                }
                // A fallback is not needed to render (text it would cover falls
                // back further): one that is missing is named, not failed.
                for (k, family) in theme.fontFallbacks.enumerated() where (try? FontResolver.resolve(family: family, package: "")) == nil {
                    console.err("\(p[1]): warning: fontFamily (fallback \(k + 1)): font \"\(family)\" is not installed; text it covers falls back to fontconfig's choice")
                }
                for problem in problems { console.err("\(p[1]): \(problem)") }
                for failure in report.failures { console.err("\(p[1]): \(failure)") }
                if !problems.isEmpty {
                    console.err("\(p[1]): \(problems.count) problem\(problems.count == 1 ? "" : "s") with the theme file\(report.failures.isEmpty ? "" : "; \(report.failures.count) of \(report.findings.count) checks failed")")
                    return 1
                }
                if report.failures.isEmpty {
                    console.out("\(theme.name): ok, \(report.findings.count) checks passed")
                    for rule in [ThemeReport.Rule.text, .nonText, .difference] {
                        if let w = report.weakest(rule) { console.out("  weakest \(w)") }
                    }
                } else {
                    console.err("\(p[1]): \(report.failures.count) of \(report.findings.count) checks failed")
                }
                return report.failures.isEmpty ? 0 : 1
            default:
                throw Suggestion.unknown("theme subcommand", sub, in: ["check", "list", "show"])
            }
        })
}
