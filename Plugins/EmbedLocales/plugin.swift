import Foundation
import PackagePlugin

/// Embeds the locale catalogues `Locales/*.json` into the target as generated
/// Swift, at build time (the same tool as the themes).
@main
struct EmbedLocales: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appendingPathComponent("Locales")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedLocales.swift")
        return [.buildCommand(displayName: "Embedding \(files.count) locale catalogues",
                              executable: try context.tool(named: "seatmap-embed-themes").url,
                              arguments: ["--name", "embeddedLocaleSources", output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
