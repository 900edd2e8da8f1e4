import Foundation
import SeatMapCore
import SeatMapGolden
#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// The comparison behind `assertSeatMapSnapshot(of:as:named:)`.
enum SnapshotCheck {
    /// Nil when the snapshot matches; else why not (a recording is a failure too).
    static func verify(_ made: SnapshotContent, pathExtension: String, named name: String, testFile: String,
                              mode: GoldenFile.RecordMode) throws -> String? {
        let testURL = URL(fileURLWithPath: testFile)
        let folder = testURL.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testURL.deletingPathExtension().lastPathComponent).path
        let artifacts = GoldenFile.artifactsFolder(default: FileManager.default.temporaryDirectory
            .appendingPathComponent("seatmap-snapshot-artifacts-\(getuid())").path)
        switch made {
        case .image(let raster, let gates, let comparison, let environment):
            let image = RGBAImage(width: raster.width, height: raster.height, pixels: raster.rgbaPixels())
            let sidecar = (folder as NSString).appendingPathComponent(name + ".json")
            let then = (try? Data(contentsOf: URL(fileURLWithPath: sidecar)))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] }
            switch try GoldenFile.check(image, png: { try raster.pngData(compression: .best) }, name: name, folder: folder,
                                        artifacts: artifacts, mode: mode, gates: gates, options: comparison) {
            case .matched: return nil
            case .recorded(let message):
                try SnapshotEnvironment.writeSidecar(environment, to: sidecar)
                return message
            case .mismatch(let message):
                guard let then, then != environment else { return message }
                let changes = Set(then.keys).union(environment.keys).sorted().compactMap { key -> String? in
                    then[key] == environment[key] ? nil : "\(key) \(then[key] ?? "-") → \(environment[key] ?? "-")"
                }
                return "The environment differs from the one the reference was recorded in (\(changes.joined(separator: ", "))); "
                    + "the difference may come from it.\n" + message
            }
        case .text(let text):
            let reference = (folder as NSString).appendingPathComponent("\(name).\(pathExtension)")
            let old = try? String(contentsOfFile: reference, encoding: .utf8)
            func record(_ why: String) throws -> String {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Files.writeAtomically(text, to: reference)
                return "\(reference) \(why). Look at it, then re-run to assert against it."
            }
            guard let old else {
                return mode == .never ? "\(reference) is missing (SEATMAP_RECORD=never)" : try record("was missing and has been recorded")
            }
            if mode == .all { return try record("was re-recorded (record mode all)") }
            if old == text { return nil }
            let a = old.components(separatedBy: "\n"), b = text.components(separatedBy: "\n")
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
            let actual = (artifacts as NSString).appendingPathComponent("\(name)-actual.\(pathExtension)")
            try Files.writeAtomically(text, to: actual)
            if mode == .failed { return try record("did not match and was re-recorded (record mode failed)") }
            let was = first < a.count ? a[first] : "(the end)", now = first < b.count ? b[first] : "(the end)"
            return "\(name).\(pathExtension) differs from its reference from line \(first + 1):\n  was: \(was.prefix(200))\n  now: \(now.prefix(200))\nActual: \(actual)"
        }
    }
}
