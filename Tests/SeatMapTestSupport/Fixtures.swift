import Foundation
import SeatMapCore

/// Paths and example halls shared by the test targets.
public enum Fixtures {
    /// The package root (found from this file's path).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var examplesFolder: URL { root.appendingPathComponent("Examples") }

    /// File names of the example halls, sorted.
    public static let exampleNames: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    public static func examplePath(_ name: String) -> String {
        examplesFolder.appendingPathComponent(name).path
    }

    public static func exampleBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: examplesFolder.appendingPathComponent(name)))
    }

    public static func example(_ name: String) throws -> Hall {
        try Files.readHall(examplePath(name))
    }

    /// A fresh empty temporary folder.
    public static func tempFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seatmap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// A small deterministic random number generator (SplitMix64) so sweeps
/// and random taps are the same on every run.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
