import SeatMapCore
import SeatMapRender

/// The `seatmap` command line: thin commands over the SeatMap modules.
///
/// Exit codes: 0 success, 1 bad input (or a check that failed), 2 bad usage.
public enum SeatMapCLI {
    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (Arguments, Console) throws -> Int32
    }

    static var commands: [Command] {
        [validateCommand, infoCommand, layoutCommand, hitCommand, renderCommand, themeCommand, diffCommand, selectCommand, recommendCommand, applyCommand, importCommand]
    }

    static let overview = """
    Usage: seatmap COMMAND [ARGS...]

    Seat maps that are exact: layout, hit-testing and rendering of cinema halls.

    Commands:
    """

    static var help: String {
        var lines = [overview]
        for c in commands {
            lines.append("  " + c.spec.name.padding(toLength: 12, withPad: " ", startingAt: 0) + c.spec.summary)
        }
        lines.append("")
        lines.append("Output formats (render): " + OutputFormat.all.map { "\($0.name) (\($0.summary))" }.joined(separator: ", ") + ".")
        lines.append("Import formats (import): " + HallImporters.all.map { "\($0.name) (\($0.summary))" }.joined(separator: ", ") + ".")
        lines.append("")
        lines.append("Run `seatmap COMMAND --help` for a command's options. FILE may be - for standard input.")
        return lines.joined(separator: "\n")
    }

    /// Runs the command line on the process's standard streams.
    public static func main(_ args: [String]) -> Int32 {
        run(args, console: Console.standard())
    }

    /// Runs the command line, writing to `console`; returns the exit code.
    public static func run(_ args: [String], console: Console) -> Int32 {
        guard let name = args.first else {
            console.err(help)
            return 2
        }
        if name == "--help" || name == "-h" || name == "help" {
            console.out(help)
            return 0
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            console.err("seatmap: unknown command \"\(name)\"\n\n" + help)
            return 2
        }
        return run(command, Array(args.dropFirst()), console: console)
    }

    static func run(_ command: Command, _ args: [String], console: Console) -> Int32 {
        do {
            let parsed = try Arguments(args, spec: command.spec)
            if parsed.wantsHelp {
                console.out(command.spec.help)
                return 0
            }
            return try command.run(parsed, console)
        } catch let e as UsageError {
            console.err("seatmap \(command.spec.name): \(e.message)\nRun `seatmap \(command.spec.name) --help` for usage.")
            return 2
        } catch let e as SeatMapError {
            console.err(e.message)
            return 1
        } catch {
            console.err("seatmap \(command.spec.name): \(error)")
            return 1
        }
    }

    /// `-o OUT` and its long form `--output OUT`.
    static func outputOptions(_ valueName: String, _ what: String) -> [CommandSpec.Option] {
        [.value("o", valueName, "\(what) (alias --output)."), .value("output", valueName, "Same as -o.")]
    }

    /// The `-o` / `--output` value, or nil.
    static func output(_ a: Arguments) -> String? { a.value("o") ?? a.value("output") }

    /// Exactly `count` positional arguments, or a usage error naming them.
    static func positionals(_ a: Arguments, _ names: [String]) throws(UsageError) -> [String] {
        guard a.positionals.count == names.count else {
            if a.positionals.count < names.count {
                throw UsageError(message: "missing \(names[a.positionals.count])")
            }
            throw UsageError(message: "unexpected argument \"\(a.positionals[names.count])\"")
        }
        return a.positionals
    }
}
