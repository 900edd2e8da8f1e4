import Foundation
import SeatMapCore

/// Golden-image assertions: compare a rendering with its reference PNG,
/// record references on request, and leave artefacts to look at on failure.
///
/// Record mode comes from `SEATMAP_RECORD`: `all` (or `1`) rewrites every
/// reference, `failed` rewrites those that fail, `never` records nothing
/// (a missing reference fails), unset records only missing ones. Any
/// recording is a failure, so nobody records by accident.
public enum GoldenFile {
    public enum RecordMode: Sendable, Equatable {
        /// Record references that do not exist yet (and fail).
        case missing
        /// Rewrite every reference (and fail).
        case all
        /// Rewrite the references that do not match (and fail).
        case failed
        /// Never record: a missing reference is a failure.
        case never

        public static var fromEnvironment: RecordMode {
            switch (ProcessInfo.processInfo.environment["SEATMAP_RECORD"] ?? "").lowercased() {
            case "1", "all", "true", "yes": return .all
            case "failed": return .failed
            case "never", "0", "no": return .never
            default: return .missing
            }
        }
    }

    public enum Outcome: Sendable, Equatable {
        case matched(PixelMatch.Result)
        /// The reference was (re)written; the test must fail with this message.
        case recorded(String)
        /// The rendering differs beyond the gates; the message says where the artefacts are.
        case mismatch(String)
    }

    /// Where failure artefacts go: `$SEATMAP_ARTIFACTS`, else `defaultFolder`.
    public static func artifactsFolder(default defaultFolder: String) -> String {
        let env = ProcessInfo.processInfo.environment["SEATMAP_ARTIFACTS"] ?? ""
        return env.isEmpty ? defaultFolder : env
    }

    public static let rerecordCommand = "SEATMAP_RECORD=1 make test   (or: make golden)"

    /// Checks a rendering against `folder/name.png`. `png` encodes the
    /// rendering; it is called only when a reference is recorded.
    public static func check(_ actualImage: RGBAImage, png: () throws -> [UInt8], name: String, folder: String,
                             artifacts: String, mode: RecordMode = .fromEnvironment, gates: DiffGates = DiffGates(),
                             options: PixelMatch.Options = PixelMatch.Options()) throws -> Outcome {
        let reference = (folder as NSString).appendingPathComponent(name + ".png")
        let exists = FileManager.default.fileExists(atPath: reference)
        func record(_ why: String) throws -> Outcome {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(try png()).write(to: URL(fileURLWithPath: reference), options: .atomic)
            } catch {
                throw GoldenError("\(reference): cannot record: \(error.localizedDescription)")
            }
            return .recorded("\(reference) \(why). Open it and look at it, then re-run to assert against it.")
        }
        if !exists && mode == .never {
            return .mismatch("\(reference) is missing (SEATMAP_RECORD=never). Record it with SEATMAP_RECORD=missing.")
        }
        if mode == .all || !exists { return try record(exists ? "re-recorded (SEATMAP_RECORD=all)" : "was missing and has been recorded") }
        let expected = try RGBAImage(contentsOf: reference)
        // What failed, for a re-recording, and the report of it otherwise.
        let paths: [String], failure: String, report: String
        if expected.width != actualImage.width || expected.height != actualImage.height {
            paths = try writeArtifacts(name: name, expected: expected, actual: actualImage, diff: nil,
                                       outcome: .resized(old: "\(expected.width)×\(expected.height)", new: "\(actualImage.width)×\(actualImage.height)"),
                                       reference: reference, folder: artifacts)
            failure = "changed size (\(expected.width)×\(expected.height) → \(actualImage.width)×\(actualImage.height))"
            report = "\(name): size changed from \(expected.width)×\(expected.height) to \(actualImage.width)×\(actualImage.height). Artefacts in \(artifacts). If intended, re-record: \(rerecordCommand)"
        } else {
            let (result, diff) = try PixelMatch.compare(expected, actualImage, options: options, diff: true)
            if gates.passes(result) { return .matched(result) }
            paths = try writeArtifacts(name: name, expected: expected, actual: actualImage, diff: diff,
                                       outcome: .changed(result, failures: gates.failures(result).map(\.message)),
                                       reference: reference, folder: artifacts)
            failure = "did not match (\(summary(result)))"
            report = "\(name): \(summary(result)); FAIL: \(gates.failures(result).map(\.message).joined(separator: ", ")).\n"
                + "Artefacts:\n" + paths.map { "  \($0)" }.joined(separator: "\n")
                + "\nIf the change is intended, re-record: \(rerecordCommand)"
        }
        if mode == .failed {
            return try record("\(failure) and was re-recorded (SEATMAP_RECORD=failed); the old one is in \(paths.first ?? artifacts)")
        }
        return .mismatch(report)
    }

    /// `N differing pixels (R %), M anti-aliased`.
    public static func summary(_ r: PixelMatch.Result) -> String {
        "\(r.diffPixels) differing pixels (\(String(format: "%.4f", r.diffRatio * 100)) %), \(r.aaPixels) anti-aliased"
    }

    @discardableResult
    static func writeArtifacts(name: String, expected: RGBAImage, actual: RGBAImage, diff: RGBAImage?,
                               outcome: ImageComparison.Outcome, reference: String, folder: String) throws(GoldenError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw GoldenError("\(folder): cannot create the artefacts folder: \(error.localizedDescription)")
        }
        var images = [("expected", expected), ("actual", actual)]
        if let diff {
            images.append(("diff", diff))
            images.append(("composite", RGBAImage.composite(expected: expected, diff: diff, actual: actual)))
        }
        var paths: [String] = []
        var encoded: [String: [UInt8]] = [:]
        for (kind, image) in images {
            let path = (folder as NSString).appendingPathComponent("\(name)-\(kind).png")
            let bytes = try image.pngData()
            do {
                try Files.writeAtomically(bytes, to: path)
            } catch {
                throw GoldenError(error.message)
            }
            encoded[kind] = bytes
            paths.append(path)
        }
        // The review page `seatmap diff --report` writes, for this pair.
        let report = (folder as NSString).appendingPathComponent("\(name)-report.html")
        let item = ImageComparison(name: name, outcome: outcome, old: encoded["expected"], new: encoded["actual"], diff: encoded["diff"])
        do {
            try Files.writeAtomically(SnapshotReport.html(title: "Snapshot \(name)", oldLabel: reference + " (the reference)",
                                                          newLabel: "this run's rendering", [item]), to: report)
        } catch {
            throw GoldenError(error.message)
        }
        paths.append(report)
        return paths
    }
}
