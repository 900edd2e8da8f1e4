import Foundation
import SeatMapCore
import SeatMapService

/// Shell completions and the man page, written from the same command
/// tables the parser and `--help` read, so they never drift from them.
extension SeatMapCLI {
    static let completionsCommand = Command(
        spec: CommandSpec(
            name: "completions", usage: "completions bash|zsh|fish",
            summary: "Print a shell completion script for seatmap's commands and options.",
            options: [],
            details: """
            bash: source it, or install it as share/bash-completion/completions/seatmap.
            zsh: install it as _seatmap in a folder of $fpath (share/zsh/site-functions).
            fish: install it as share/fish/vendor_completions.d/seatmap.fish.
            `make install` installs all three and the man page.
            Exit status 0, 2 usage.
            """),
        run: { args, console in
            let shell = try positionals(args, ["SHELL"])[0]
            guard let script = Completions.script(for: shell, commands: commands.map(\.spec)) else {
                throw Suggestion.unknown("shell", shell, in: ["bash", "zsh", "fish"])
            }
            console.out(script)
            return 0
        })

    static let manCommand = Command(
        spec: CommandSpec(
            name: "man", usage: "man",
            summary: "Print seatmap's man page (troff): every command with its options, exit status and examples.",
            options: [],
            details: """
            `seatmap man | man -l -` reads it; `make install` installs it as share/man/man1/seatmap.1.
            Exit status 0, 2 usage.
            """),
        run: { args, console in
            _ = try positionals(args, [])
            console.out(Completions.manPage(commands: commands.map(\.spec), overview: "Seat maps that are exact: layout, hit-testing, rendering and selling of seats in cinemas, theatres, arenas and dinners."))
            return 0
        })
}

/// The completion scripts and the man page.
enum Completions {
    /// Every option of a command as typed (`--zoom`, `-o`).
    static func words(_ spec: CommandSpec) -> [String] {
        spec.options.map { $0.name.count == 1 ? "-\($0.name)" : "--\($0.name)" } + ["--help"]
    }

    static func script(for shell: String, commands: [CommandSpec]) -> String? {
        switch shell {
        case "bash": return bash(commands)
        case "zsh": return zsh(commands)
        case "fish": return fish(commands)
        default: return nil
        }
    }

    /// Single quotes for a shell word.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static func bash(_ commands: [CommandSpec]) -> String {
        var lines = ["# bash completion for seatmap (seatmap completions bash)", "_seatmap() {",
                     "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" opts=\"\"",
                     "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
                     "        COMPREPLY=($(compgen -W \(quoted((commands.map(\.name) + ["help", "--help", "--version"]).joined(separator: " "))) -- \"$cur\"))",
                     "        return",
                     "    fi",
                     "    case \"${COMP_WORDS[1]}\" in"]
        for c in commands {
            lines.append("        \(c.name)) opts=\(quoted(words(c).joined(separator: " "))) ;;")
        }
        lines.append("        help) COMPREPLY=($(compgen -W \(quoted(commands.map(\.name).joined(separator: " "))) -- \"$cur\")); return ;;")
        lines += ["    esac",
                  "    if [[ \"$cur\" == -* ]]; then",
                  "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))",
                  "    else",
                  "        COMPREPLY=($(compgen -f -- \"$cur\"))",
                  "    fi",
                  "}",
                  "complete -o filenames -F _seatmap seatmap"]
        return lines.joined(separator: "\n")
    }

    /// Text for inside zsh's `[...]` and `'...'`: no brackets, colons or quotes.
    static func zshText(_ s: String) -> String {
        String(s.map { "[]:'\\`$".contains($0) ? " " : $0 })
    }

    static func zsh(_ commands: [CommandSpec]) -> String {
        var lines = ["#compdef seatmap", "# zsh completion for seatmap (seatmap completions zsh)", "_seatmap() {",
                     "    local -a commands", "    commands=("]
        for c in commands { lines.append("        '\(c.name):\(zshText(c.summary))'") }
        lines += ["    )",
                  "    if (( CURRENT == 2 )); then",
                  "        _describe 'command' commands",
                  "        return",
                  "    fi",
                  "    case $words[2] in"]
        for c in commands {
            var specs: [String] = []
            for o in c.options {
                let flag = o.name.count == 1 ? "-\(o.name)" : "--\(o.name)"
                let help = zshText(o.help)
                specs.append(o.arity == .flag ? "'\(flag)[\(help)]'" : "'\(o.arity == .values ? "*" : "")\(flag)[\(help)]:\(zshText(o.valueName)):_files'")
            }
            specs.append("'*:file:_files'")
            lines.append("        \(c.name)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        lines += ["    esac", "}", "_seatmap \"$@\""]
        return lines.joined(separator: "\n")
    }

    static func fish(_ commands: [CommandSpec]) -> String {
        var lines = ["# fish completion for seatmap (seatmap completions fish)", "complete -c seatmap -f"]
        for c in commands {
            lines.append("complete -c seatmap -n __fish_use_subcommand -a \(c.name) -d \(quoted(c.summary))")
        }
        for c in commands {
            for o in c.options {
                let flag = o.name.count == 1 ? "-s \(o.name)" : "-l \(o.name)"
                lines.append("complete -c seatmap -n \(quoted("__fish_seen_subcommand_from \(c.name)")) \(flag)\(o.arity == .flag ? "" : " -r -F") -d \(quoted(o.help))")
            }
            lines.append("complete -c seatmap -n \(quoted("__fish_seen_subcommand_from \(c.name)")) -F")
        }
        return lines.joined(separator: "\n")
    }

    /// Text for troff: backslashes doubled, a leading `.` or `'` escaped, `-` as a minus.
    static func roff(_ s: String) -> String {
        var t = s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if t.hasPrefix(".") || t.hasPrefix("'") { t = "\\&" + t }
        return t
    }

    static func manPage(commands: [CommandSpec], overview: String) -> String {
        var out = [".TH SEATMAP 1 \"\" \"seatmap \(SeatMap.version)\" \"User Commands\"",
                   ".SH NAME", "seatmap \\- \(roff(overview))",
                   ".SH SYNOPSIS", ".B seatmap", ".I COMMAND", "[\\fIARGS\\fR...]", ".br", ".B seatmap", "\\-\\-version",
                   ".SH DESCRIPTION",
                   roff("Every command takes -h or --help (and `seatmap help COMMAND` prints the same). FILE may be - for standard input. Every input is read to at most 64 MiB; any command takes --max-input-bytes N to change that."),
                   ".SH COMMANDS"]
        for c in commands {
            out += [".SS \(roff(c.name))", ".B seatmap \(roff(c.usage))", ".PP", roff(c.summary)]
            for o in c.options {
                let flag = (o.name.count == 1 ? "-" : "--") + o.name
                out += [".TP", "\\fB\(roff(flag))\\fR" + (o.arity == .flag ? "" : " \\fI\(roff(o.valueName))\\fR"), roff(o.help)]
            }
            if !c.details.isEmpty {
                out.append(".PP")
                for line in c.details.split(separator: "\n", omittingEmptySubsequences: false) {
                    out += [roff(String(line)), ".br"]
                }
            }
        }
        out += [".SH EXIT STATUS", "0 success; 1 bad input, a failed check, or a refused sale; 2 bad usage.",
                ".SH SEE ALSO", "The README and docs/ of SeatMap's source: the hall format, rules, the service, themes, locales."]
        return out.joined(separator: "\n")
    }
}
