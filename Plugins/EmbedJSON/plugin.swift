import Foundation
import PackagePlugin

/// Embeds a folder of JSON files into the target as generated Swift, at build
/// time: `Themes/*.json` into SeatMapRender (`embeddedThemeSources`),
/// `Locales/*.json` into SeatMapCore (`embeddedLocaleSources`).
@main
struct EmbedJSON: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let (folder, variable, what) = target.name == "SeatMapCore"
            ? ("Locales", "embeddedLocaleSources", "locale catalogues")
            : ("Themes", "embeddedThemeSources", "shipped themes")
        let files = try FileManager.default.contentsOfDirectory(at: context.package.directoryURL.appendingPathComponent(folder),
                                                                includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Embedded\(folder).swift")
        return [.buildCommand(displayName: "Embedding \(files.count) \(what)",
                              executable: try context.tool(named: "seatmap-embed-themes").url,
                              arguments: ["--name", variable, output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
