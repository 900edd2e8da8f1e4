import Foundation
import PackagePlugin

/// Embeds `Themes/*.json` into the target as generated Swift, at build time.
@main
struct EmbedThemes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let themes = context.package.directoryURL.appendingPathComponent("Themes")
        let files = try FileManager.default.contentsOfDirectory(at: themes, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedThemes.swift")
        return [.buildCommand(displayName: "Embedding \(files.count) shipped themes",
                              executable: try context.tool(named: "seatmap-embed-themes").url,
                              arguments: [output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
