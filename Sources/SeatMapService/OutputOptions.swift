import SeatMapRender

/// The output option group: where a command writes (`-o FILE`, `-o -` with
/// `--format`, or `--out-dir DIR` with `--format`) and whether it says so
/// (`-q`). Declared once: `render`, `import`, `export` and `apply` read it,
/// and the formats come from `OutputFormat`'s one table.
package struct OutputOptions {
    /// Where the result goes.
    package enum Target {
        /// One file; its extension names the format.
        case file(String, OutputFormat)
        /// Standard output (`-o -`), in the format `--format` names.
        case standardOutput(OutputFormat)
        /// Batch mode: one file a input in the folder, each in `format`.
        case folder(String, OutputFormat)
    }

    package var target: Target
    /// `-q`: no "wrote" lines or progress bar, only problems.
    package var quiet: Bool

    /// `-o OUT` and its long form `--output OUT`.
    package static func file(_ valueName: String, _ what: String) -> [CommandSpec.Option] {
        [.value("o", valueName, "\(what) (alias --output)."), .value("output", valueName, "Same as -o.")]
    }

    /// Options of an image-writing command.
    package static let images: [CommandSpec.Option] = file("OUT", "Output file; its extension picks the format") + [
        .value("out-dir", "DIR", "Batch mode: render every FILE into DIR, in parallel."),
        .value("format", "FMT", "\(OutputFormat.list()): with --out-dir (default png), or with -o - (required)."),
        quiet,
    ]

    package static let quiet = CommandSpec.Option.flag("quiet", "-q: no \"wrote\" lines or progress bar; only problems (on stderr) and the exit status.")

    /// The `-o` / `--output` value, or nil; both at once is a usage error.
    package static func path(_ a: Arguments) throws(UsageError) -> String? {
        if a.value("o") != nil && a.value("output") != nil { throw UsageError(message: "-o and --output name the same output; give one") }
        return a.value("o") ?? a.value("output")
    }

    /// Reads the image output options for `inputs` input files.
    package init(_ a: Arguments, inputs: Int) throws(UsageError) {
        quiet = a.flag("quiet")
        let output = try OutputOptions.path(a)
        func format(_ name: String) throws(UsageError) -> OutputFormat {
            guard let f = OutputFormat.named(name) else { throw Suggestion.unknown("--format", name, in: OutputFormat.allCases.map(\.name)) }
            return f
        }
        if let dir = a.value("out-dir") {
            if output != nil { throw UsageError(message: "use either -o or --out-dir") }
            target = .folder(dir, try format(a.value("format") ?? OutputFormat.png.name))
            return
        }
        guard let output else { throw UsageError(message: "missing -o OUT (or --out-dir DIR for several files)") }
        guard inputs == 1 else { throw UsageError(message: "-o takes one FILE; use --out-dir DIR for several") }
        if output == "-" {
            // To standard output (for a web server to pipe): the image alone; the format must be named.
            guard let name = a.value("format") else { throw UsageError(message: "-o - needs --format \(OutputFormat.list())") }
            target = .standardOutput(try format(name))
            return
        }
        if a.value("format") != nil { throw UsageError(message: "--format goes with --out-dir or -o -; -o FILE takes the format from its extension") }
        guard let f = OutputFormat.forPath(output) else { throw UsageError(message: "-o \(output): use a \(OutputFormat.list(prefix: ".")) name") }
        target = .file(output, f)
    }
}
