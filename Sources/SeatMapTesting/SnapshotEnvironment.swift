import Foundation
import SeatMapCore
import SeatMapRender

/// The environment a rendering depends on (SeatMap, Cairo, libpng,
/// fontconfig and the theme's font file), recorded beside a PNG reference
/// so that a failure on another machine says so first.
public enum SnapshotEnvironment {
    /// The versions and font a theme's rendering depends on here.
    public static func fingerprint(theme: Theme) -> [String: String] {
        let font = try? FontResolver.resolve(family: theme.fontFamily, package: theme.fontPackage)
        let file = font?.file ?? ""
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int).flatMap { $0 }
        var out = ["seatmap": SeatMap.version, "font": theme.fontFamily, "fontFile": (file as NSString).lastPathComponent,
                   "fontBytes": size.map(String.init) ?? "?"]
        for (name, version) in CairoLibrary.linkedVersions { out[name] = version }
        return out
    }

    /// Writes the sidecar: the fingerprint as JSON, keys sorted.
    static func writeSidecar(_ fingerprint: [String: String], to path: String) throws {
        let json = JSONNode.object(fingerprint.keys.sorted().map { ($0, JSONNode.string(fingerprint[$0] ?? "")) })
        try Files.writeAtomically(JSONWriter.write(json), to: path)
    }
}
