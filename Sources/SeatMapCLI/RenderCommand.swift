import Dispatch
import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

extension SeatMapCLI {
    static let renderCommand = Command(
        spec: CommandSpec(
            name: "render",
            usage: "render FILE -o OUT.\(OutputFormat.all.map(\.name).joined(separator: "|.")) [options]  |  render FILE... --out-dir DIR [--format \(OutputFormat.all.map(\.name).joined(separator: "|"))] [options]",
            summary: "Draw seat maps as \(HelpPhrases.or(OutputFormat.allCases.map { $0.name.uppercased() })).",
            options: OutputOptions.images + GeometryOptions.table + ImageOptions.table + ShowInput.options,
            details: "Formats (the extension of -o, or --format):\n"
                + OutputFormat.all.map { "  \($0.name)  \($0.summary)" }.joined(separator: "\n") + "\n" + """
            The geometry flags (theme, zoom or fit, scale, header, legend) are shared with layout, hit and apply:
            the same flags give the same layout. Outputs are written to a temporary file and renamed: a failed render leaves no partial
            file and an existing output untouched. Images over 32767 px a side or 400 megapixels
            are refused. Exit status: 0 all rendered, 1 any failed, 2 usage error.
            """),
        run: { args, console in
            // `-o` is spelled with one dash; accept it as an option.
            try renderRun(args, console)
        })

    /// Renders one hall file (or, with `--show`, the show's view of it) to one output path.
    static func renderOne(_ file: String, to out: String, format: OutputFormat, _ s: ImageOptions, args: Arguments) throws {
        try Files.writeAtomically(try renderBytes(file, for: out, format: format, s, args: args), to: out)
    }

    /// The bytes `renderOne` writes to `out`.
    static func renderBytes(_ file: String, for out: String, format: OutputFormat, _ s: ImageOptions, args: Arguments) throws -> [UInt8] {
        if s.svgTextAsPaths, format != .svg && format != .html {
            throw UsageError(message: "--svg-text goes with SVG or HTML output (\(out) is not .svg or .html)")
        }
        let view = try ShowInput.hall(file, args)
        return try HallImage.bytes(view.hall, format: format, s, selected: view.selected, output: out)
    }

    static func renderRun(_ args: Arguments, _ console: Console) throws -> Int32 {
        let files = args.positionals
        guard !files.isEmpty else { throw UsageError(message: "missing FILE") }
        let output = try OutputOptions(args, inputs: files.count)
        let settings = try ImageOptions.settings(args)
        switch output.target {
        case .folder(let dir, let format):
            return try renderBatch(files, dir: dir, format: format, settings, args: args, console)
        case .standardOutput(let format):
            try renderOne(files[0], to: "-", format: format, settings, args: args)
        case .file(let path, let format):
            try renderOne(files[0], to: path, format: format, settings, args: args)
            if !output.quiet { console.out("wrote \(path)") }
        }
        return 0
    }
}
