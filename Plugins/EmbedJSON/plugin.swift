import Foundation
import PackagePlugin

/// Embeds folders of text files into the target as generated Swift, at build
/// time: `Themes/*.json` and the picker's script and styles
/// (`Picker/*.js`, `Picker/*.css`) into SeatMapRender
/// (`embeddedThemeSources`, `embeddedPickerSources`), `Locales/*.json` into
/// SeatMapCore (`embeddedLocaleSources`).
@main
struct EmbedJSON: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folders: [(folder: String, variable: String, what: String, extensions: Set<String>)] = target.name == "SeatMapCore"
            ? [("Locales", "embeddedLocaleSources", "locale catalogues", ["json"])]
            : [("Themes", "embeddedThemeSources", "shipped themes", ["json"]),
               ("Picker", "embeddedPickerSources", "picker scripts and styles", ["js", "css"])]
        return try folders.map { f in
            let files = try FileManager.default.contentsOfDirectory(at: context.package.directoryURL.appendingPathComponent(f.folder),
                                                                    includingPropertiesForKeys: nil)
                .filter { f.extensions.contains($0.pathExtension) && !$0.lastPathComponent.hasSuffix(".test.js") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("Embedded\(f.folder).swift")
            // JSON files are named without their extension (`light`), the picker's with it (`cart.js`).
            let naming = f.extensions == ["json"] ? [] : ["--keep-extension"]
            return .buildCommand(displayName: "Embedding \(files.count) \(f.what)",
                                 executable: try context.tool(named: "seatmap-embed-themes").url,
                                 arguments: ["--name", f.variable] + naming + [output.path] + files.map(\.path),
                                 inputFiles: files, outputFiles: [output])
        }
    }
}
