import Foundation
import PackagePlugin

/// Writes the git commit the package is built from (empty outside a
/// checkout) into the target as `buildCommit`, before every build.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let out = context.pluginWorkDirectoryURL.appendingPathComponent("generated")
        let file = out.appendingPathComponent("BuildInfo.swift")
        let script = """
        mkdir -p "$2"
        c=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || true)
        if [ -n "$c" ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null | head -n 1)" ]; then c="$c-modified"; fi
        printf '/// The git commit this build came from ("" outside a checkout).\\nlet buildCommit = "%s"\\n' "$c" > "$3.tmp"
        if cmp -s "$3.tmp" "$3"; then rm -f "$3.tmp"; else mv "$3.tmp" "$3"; fi
        """
        return [.prebuildCommand(displayName: "Recording the git commit",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", script, "sh", context.package.directoryURL.path, out.path, file.path],
                                 outputFilesDirectory: out)]
    }
}
