import Dispatch
import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService
import SeatMapInventory

/// The `seatmap` command line: thin commands over the SeatMap modules.
///
/// Exit codes: 0 success, 1 bad input (or a check that failed), 2 bad usage.
public enum SeatMapCLI {
    /// What only the serving side has (`SeatMapServeCLI`, the seatmap-serve
    /// executable): the SQLite and PostgreSQL stores and the HTTP service.
    package struct ServeSide: Sendable {
        package var openStore: @Sendable (String, Int) throws(SeatMapError) -> any InventoryStore
        package var serve: @Sendable (Arguments, Console) throws -> Int32
        /// The C libraries it links, with their versions (for --version).
        package var libraries: [(String, String)]
        package init(openStore: @escaping @Sendable (String, Int) throws(SeatMapError) -> any InventoryStore,
                     serve: @escaping @Sendable (Arguments, Console) throws -> Int32, libraries: [(String, String)]) {
            self.openStore = openStore
            self.serve = serve
            self.libraries = libraries
        }
    }
    /// Set by `ServeCLI.install()`; nil in the seatmap executable.
    package static var serveSide: ServeSide? {
        get { serveSideLock.withLock { installedServeSide } }
        set { serveSideLock.withLock { installedServeSide = newValue } }
    }
    private static let serveSideLock = NSLock()
    nonisolated(unsafe) private static var installedServeSide: ServeSide?

    /// The error of a command that needs the serving side where it is not
    /// (a program that uses SeatMapCLI without SeatMapServeCLI).
    static func needsServeSide(_ what: String) -> SeatMapError {
        SeatMapError("\(what) needs the stores and the HTTP service: run seatmap-serve (the seatmap command runs it itself when it is installed beside it)")
    }

    /// Whether a command line needs the serving side: `serve`, `--version`
    /// (it names the stores' libraries), or any `--store`.
    public static func needsServeSide(_ args: [String]) -> Bool {
        let rest = (try? inputLimit(args))?.rest ?? args
        if let name = rest.first, ["serve", "--version", "version"].contains(name) { return true }
        return rest.contains { $0 == "--store" || $0.hasPrefix("--store=") }
    }

    /// Runs seatmap-serve, from the folder this executable is in, with the
    /// same arguments in place of this process; returns only when it
    /// cannot (printing why): exit status 1.
    public static func runServeSide(_ args: [String]) -> Int32 {
        // This executable's own file (never a guess from argv[0], which a
        // PATH lookup leaves without a folder).
        guard let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            FileHandle.standardError.write(Data("seatmap: this command needs seatmap-serve, and this executable's folder cannot be found (/proc/self/exe)\n".utf8))
            return 1
        }
        let path = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("seatmap-serve").path
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        execv(path, &argv)
        let why = String(cString: strerror(errno))
        for p in argv { free(p) }
        FileHandle.standardError.write(Data("seatmap: this command needs seatmap-serve, installed beside seatmap (\(path): \(why))\n".utf8))
        return 1
    }

    struct Command: Sendable {
        var spec: CommandSpec
        var run: @Sendable (Arguments, Console) throws -> Int32
    }

    static var commands: [Command] {
        [validateCommand, infoCommand, layoutCommand, hitCommand, renderCommand, themeCommand, diffCommand, probesCommand, verifyTapsCommand, showCommand, selectCommand, orderCommand, recommendCommand, applyCommand, importCommand, exportCommand, serveCommand, completionsCommand, manCommand]
    }

    static let overview = """
    Usage: seatmap COMMAND [ARGS...]   |   seatmap --version

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
        lines.append("Every input is read to at most 64 MiB; any command takes --max-input-bytes N to change that.")
        return lines.joined(separator: "\n")
    }

    /// `seatmap --version`: SeatMap's version, the commit it was built from
    /// (when built from a git checkout), and the C libraries linked at run time.
    static var versionText: String {
        let commit = buildCommit.isEmpty ? "" : " (commit \(buildCommit))"
        let libs = CairoLibrary.linkedVersions + (serveSide?.libraries ?? [])
        return "seatmap \(SeatMap.version)\(commit)\n" + libs.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// Runs the command line on the process's standard streams. SIGINT,
    /// SIGTERM and SIGHUP remove the temporary files being written before
    /// the process ends (exit 128 + the signal), so a killed command leaves
    /// nothing behind.
    public static func main(_ args: [String]) -> Int32 {
        // A render's fonts load (on a thread of their own) while its hall is read and laid out.
        if let rest = (try? inputLimit(args))?.rest, rest.first == "render", !rest.contains("--help"), !rest.contains("-h") { TextWarmUp.begin() }
        var sources: [DispatchSourceSignal] = []
        // One queue for the three: two signals at once (a closed terminal
        // sends SIGHUP and SIGINT) run one clean-up, and it ends the process
        // at once (`_exit`: nothing is left to flush, standard output is
        // written unbuffered), before the threads whose writes it stopped
        // can end the command with another status.
        let signals = DispatchQueue(label: "seatmap.signals")
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: signals)
            source.setEventHandler {
                Files.removeTemporaryFiles()
                _exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        // A worker thread for the PNG encoder's strips, started now: made
        // when the encoder first asks for one, it started 1-2 ms late.
        if TextWarmUp.began { DispatchQueue.global().async {} }
        let console = Console.standard()
        let code = run(args, console: console)
        // A render refused before its first text: its warm-up normally ends
        // before the process does (at most 0.2 s is spent waiting for it).
        TextWarmUp.wait(upTo: 0.2)
        if let problem = console.outputError {
            console.err("seatmap: cannot write standard output: \(problem)")
            return code == 0 ? 1 : code
        }
        return code
    }

    /// Runs the command line, writing to `console`; returns the exit code.
    public static func run(_ allArgs: [String], console: Console) -> Int32 {
        // `--max-input-bytes N` applies to any command, before or after its name.
        let limit: Int?, args: [String]
        do {
            (limit, args) = try inputLimit(allArgs)
        } catch {
            console.err("seatmap: \(error.message)")
            return 2
        }
        if let limit { return Files.$maxInputBytes.withValue(limit) { dispatch(args, console: console) } }
        return dispatch(args, console: console)
    }

    /// Runs the command `args` names (without `--max-input-bytes`).
    static func dispatch(_ args: [String], console: Console) -> Int32 {
        guard let name = args.first else {
            console.err(help)
            return 2
        }
        if name == "--help" || name == "-h" || name == "help" {
            // `help COMMAND`: that command's help.
            if name == "help", args.count > 1, args[1] != "-h", args[1] != "--help" {
                guard let command = commands.first(where: { $0.spec.name == args[1] }) else { return unknownCommand(args[1], console) }
                console.out(command.spec.help)
                return 0
            }
            console.out(help)
            return 0
        }
        if name == "--version" || name == "version" {
            console.out(versionText)
            return 0
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else { return unknownCommand(name, console) }
        return run(command, Array(args.dropFirst()), console: console)
    }

    /// An unknown command: said in one line, with the nearest command when
    /// one is close, then the commands there are (not the whole usage).
    static func unknownCommand(_ name: String, _ console: Console) -> Int32 {
        let hint = Suggestion.closest(to: name, in: commands.map(\.spec.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
        console.err("seatmap: unknown command \"\(name)\"\(hint)\nCommands: \(commands.map(\.spec.name).joined(separator: ", ")). Run `seatmap COMMAND --help` for one.")
        return 2
    }

    /// Takes `--max-input-bytes N` (anywhere before `--`) out of the arguments.
    static func inputLimit(_ args: [String]) throws(UsageError) -> (limit: Int?, rest: [String]) {
        var rest: [String] = []
        var limit: Int? = nil
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { rest += args[i...]; break }
            var value: String? = nil
            if a == "--max-input-bytes" {
                guard i + 1 < args.count else { throw UsageError(message: "--max-input-bytes needs a value (N)") }
                value = args[i + 1]
                i += 1
            } else if a.hasPrefix("--max-input-bytes=") {
                value = String(a.dropFirst("--max-input-bytes=".count))
            }
            if let value {
                guard limit == nil else { throw UsageError(message: "--max-input-bytes given more than once") }
                guard DecodeContext.isDecimalNumber(value), let n = Int(value), n >= 1 else {
                    throw UsageError(message: "--max-input-bytes expects a whole number of bytes ≥ 1, got \"\(value)\"")
                }
                limit = n
            } else {
                rest.append(a)
            }
            i += 1
        }
        return (limit, rest)
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
            console.err(CLIMessages.say(e))
            return 1
        } catch let e as ServiceError {
            if e.kind == .usage {
                console.err("seatmap \(command.spec.name): \(e.message)\nRun `seatmap \(command.spec.name) --help` for usage.")
            } else if e.kind == .input {
                console.err(e.message)  // names its file, as every input error does
            } else {
                console.err("seatmap \(command.spec.name): \(e.message)")
            }
            return e.exitCode
        } catch {
            console.err("seatmap \(command.spec.name): \(error)")
            return 1
        }
    }

    /// `-o OUT` and its long form `--output OUT` (the output group's).
    static func outputOptions(_ valueName: String, _ what: String) -> [CommandSpec.Option] { OutputOptions.file(valueName, what) }

    /// The `-o` / `--output` value, or nil; both at once is a usage error.
    static func output(_ a: Arguments) throws(UsageError) -> String? { try OutputOptions.path(a) }

    /// Exactly `count` positional arguments, or a usage error naming them.
    package static func positionals(_ a: Arguments, _ names: [String]) throws(UsageError) -> [String] {
        if a.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "standard input (-) is named more than once; only one input can come from it")
        }
        guard a.positionals.count == names.count else {
            if a.positionals.count < names.count {
                throw UsageError(message: "missing \(names[a.positionals.count])")
            }
            throw UsageError(message: "unexpected argument \"\(a.positionals[names.count])\"")
        }
        return a.positionals
    }
}
