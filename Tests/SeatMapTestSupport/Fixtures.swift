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

    /// The cinema-grid examples (grid-only properties: seams, bands, grid cells).
    public static let gridExampleNames: [String] = exampleNames.filter { (try? example($0))?.isFree == false }
    /// The free venues (seats at positions, areas, levels).
    public static let freeExampleNames: [String] = exampleNames.filter { (try? example($0))?.isFree == true }

    public static func examplePath(_ name: String) -> String {
        examplesFolder.appendingPathComponent(name).path
    }

    public static func exampleBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: examplesFolder.appendingPathComponent(name)))
    }

    public static func example(_ name: String) throws -> Hall {
        try Files.readHall(examplePath(name))
    }

    /// A file of `Tests/SeatMapGoldenTests/Fixtures/` (PNG test images).
    public static func imagePath(_ name: String) -> String {
        root.appendingPathComponent("Tests/SeatMapGoldenTests/Fixtures/\(name)").path
    }

    /// Writes `text` to `dir/name` and returns the path (small inputs made by a test).
    @discardableResult
    public static func write(_ text: String, to name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// A fresh empty temporary folder, inside this test run's own folder,
    /// which is removed when the run ends (kept with SEATMAP_KEEP_TEST_FILES=1).
    public static func tempFolder() throws -> URL {
        let url = runFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// This process's parent of every `tempFolder()`, registered for removal at exit.
    static let runFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seatmap-test-\(getpid())-\(UUID().uuidString)")
        if (ProcessInfo.processInfo.environment["SEATMAP_KEEP_TEST_FILES"] ?? "").isEmpty {
            atexit { try? FileManager.default.removeItem(at: Fixtures.runFolder) }
        }
        return url
    }()
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

/// Runs the built `seatmap` executable as a real process (for what only a
/// process shows: its own stdout, signals, concurrency, memory).
public enum SeatmapProcess {
    /// The `seatmap` binary built beside the test bundle.
    public static var executable: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("seatmap"),
            Fixtures.root.appendingPathComponent(".build/debug/seatmap"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public struct Result: Sendable {
        public var code: Int32
        public var stdout: [UInt8]
        public var stderr: String
    }

    /// Runs `seatmap ARGS` with `stdin` (a file to read it from, or nothing)
    /// and `environment` added to the test's own.
    public static func run(_ args: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
        guard let exe = executable else { throw CocoaError(.fileNoSuchFile) }
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let stdin { p.standardInput = FileHandle(forReadingAtPath: stdin) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes while it runs, so a large output cannot block it.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        return Result(code: p.terminationStatus, stdout: [UInt8](outData), stderr: String(decoding: errData, as: UTF8.self))
    }
}
