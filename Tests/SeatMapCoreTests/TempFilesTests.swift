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

    static func make(_ path: String) -> Int32 { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }

    @Test("after the clean-up starts no temporary file is made, and the ones made before it are all in its list")
    func closeStopsNewFiles() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TempFiles()
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
        #expect(refused == -1 && errno == ECANCELED && !called)
        #expect(!FileManager.default.fileExists(atPath: late))
    }

    @Test("threads making files while the clean-up runs: every file on disk is in the clean-up's list", arguments: 0..<5)
    func closeRacesMakers(_ round: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = TempFiles()
        let start = DispatchSemaphore(value: 0), firstMade = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for t in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                start.wait()
                var k = 0
                while true {
                    let path = dir.appendingPathComponent("t\(t)-\(k)").path
                    let fd = files.create(path) { Self.make(path) }
                    if fd < 0 { break }
                    close(fd)
                    if k == 0 { firstMade.signal() }
                    k += 1
                }
                group.leave()
            }
        }
        for _ in 0..<4 { start.signal() }
        // Every thread is making files, then the clean-up comes a little later each round.
        for _ in 0..<4 { firstMade.wait() }
        usleep(useconds_t(100 + 300 * round))
        let listed = Set(files.close())
        group.wait()
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path).map { dir.appendingPathComponent($0).path })
        #expect(listed.count >= 4)
        #expect(onDisk == listed, "made after the clean-up looked: \(onDisk.subtracting(listed).sorted().prefix(3))")
    }
}
