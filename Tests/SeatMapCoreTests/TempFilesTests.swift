import Foundation
import Testing
@testable import SeatMapCore

/// The temporary files a signal's clean-up removes: every one made before
/// the clean-up is in its list, and none is made after it.
@Suite("Outputs: temporary files and the signal clean-up")
struct TempFilesTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("seatmap-tempfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A new folder and a clean-up list of its own (not the process's).
    static func scratch() throws -> (URL, TempFiles) { (try folder(), TempFiles()) }

    static func make(_ path: String) -> Int32 { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }

    @Test("after the clean-up starts no temporary file is made, and the ones made before it are all in its list")
    func closeStopsNewFiles() throws {
        let (dir, files) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first").path
        let fd = files.create(first) { Self.make(first) }
        #expect(fd >= 0)
        close(fd)
        #expect(files.close() == [first])
        let late = dir.appendingPathComponent("late").path
        var called = false
        let refused = files.create(late) {
            called = true
            return Self.make(late)
        }
        let reason = errno
        #expect(refused == -1 && reason == ECANCELED && !called)
        #expect(!FileManager.default.fileExists(atPath: late))
    }

    @Test("threads making files while the clean-up runs: every file on disk is in the clean-up's list", arguments: 0..<5)
    func closeRacesMakers(_ round: Int) throws {
        let (dir, files) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let start = DispatchSemaphore(value: 0), firstMade = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let stops = Stops()
        for t in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                var k = 0
                // Said once whatever happens (a failed open must not leave the test waiting).
                defer {
                    if k == 0 { firstMade.signal() }
                    group.leave()
                }
                while k < 5_000 {
                    let path = dir.appendingPathComponent("t\(t)-\(k)").path
                    let fd = files.create(path) { Self.make(path) }
                    if fd < 0 {
                        let reason = errno
                        if reason != ECANCELED { stops.append("thread \(t): \(String(cString: strerror(reason)))") }
                        return
                    }
                    close(fd)
                    if k == 0 { firstMade.signal() }
                    k += 1
                }
            }
        }
        for _ in 0..<4 { start.signal() }
        // Every thread is making files, then the clean-up comes a little later each round.
        for _ in 0..<4 { #expect(firstMade.wait(timeout: .now() + 30) == .success) }
        usleep(useconds_t(100 + 300 * round))
        let listed = Set(files.close())
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(stops.all.isEmpty, "\(stops.all)")
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).map { dir.appendingPathComponent($0).path })
        #expect(listed.count >= 4)
        #expect(onDisk == listed, "made after the clean-up looked: \(onDisk.subtracting(listed).sorted().prefix(3))")
    }

    @Test("the clean-up waits for a file being made, and lists it")
    func closeWaitsForAFileBeingMade() throws {
        let (dir, files) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("slow").path
        let entered = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fd = files.create(path) {
                entered.signal()
                usleep(200_000)
                return Self.make(path)
            }
            if fd >= 0 { close(fd) }
            done.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        let listed = files.close()
        // The file was made before the clean-up returned, and is in its list.
        #expect(listed == [path])
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(done.wait(timeout: .now() + 30) == .success)
    }
}

/// Why threads stopped making files, other than the clean-up.
final class Stops: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [String] = []
    func append(_ reason: String) {
        lock.lock()
        reasons.append(reason)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return reasons
    }
}
