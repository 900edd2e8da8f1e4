import Foundation
import Testing
@testable import SeatMapStore
import SeatMapCLI

/// The group commit under the stores: updates share transactions, each
/// returns only once its own transaction committed, a failed commit fails
/// exactly its own updates; an update alone commits on its caller's
/// thread, and under load a committer thread of the queue's own takes over.
@Suite("Group commit")
struct GroupCommitTests {
    /// What the commits saw, under a lock.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var batches: [[Int]] = []
        private(set) var committed = Set<Int>()
        private(set) var committerThreads = Set<UInt>()
        func begin(_ thread: UInt) -> Int {
            lock.lock()
            defer { lock.unlock() }
            committerThreads.insert(thread)
            batches.append([])
            return batches.count - 1
        }
        func add(_ update: Int, to batch: Int) {
            lock.lock()
            batches[batch].append(update)
            lock.unlock()
        }
        func commit(_ batch: Int) {
            lock.lock()
            committed.insert(batch)
            lock.unlock()
        }
        func batch(of update: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            return batches.firstIndex { $0.contains(update) }
        }
        func isCommitted(_ batch: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return committed.contains(batch)
        }
    }

    struct Refused: Error, Equatable { var batch: Int }

    static func threadID() -> UInt { UInt(pthread_self()) }

    @Test("32 threads × 8 updates: batches shared, each update back only after its batch committed, a failed commit fails its batch alone, a committer thread takes over, and ends when idle")
    func batches() throws {
        let commits = GroupCommit<Int>()
        let log = Log()
        let answers = OutputBuffer(), submitters = OutputBuffer()
        StoreBaseline.threads(32) { k in
            submitters.append("\(GroupCommitTests.threadID())")
            for i in 0..<8 {
                let update = k * 8 + i
                do {
                    try commits.submit(key: "S", { batch in log.add(update, to: batch) }, commit: { runAll in
                        let batch = log.begin(GroupCommitTests.threadID())
                        try runAll(batch)
                        usleep(2_000)  // the commit's write and sync
                        if batch % 5 == 2 { throw Refused(batch: batch) }
                        log.commit(batch)
                    })
                    let batch = log.batch(of: update)
                    answers.append("\(update) ok \(batch.map { log.isCommitted($0) } ?? false)")
                } catch let e as Refused {
                    answers.append("\(update) refused \(e.batch == log.batch(of: update))")
                } catch {
                    answers.append("\(update) \(error)")
                }
            }
        }
        let lines = answers.parts
        #expect(lines.count == 256)
        #expect(lines.allSatisfy { $0.hasSuffix(" ok true") || $0.hasSuffix(" refused true") },
                "an update answered before its batch committed, or failed by another batch: \(lines.filter { !$0.hasSuffix(" true") }.prefix(5))")
        #expect(log.batches.map(\.count).reduce(0, +) == 256, "every update ran once")
        #expect(log.batches.count < 256, "updates arriving together share a batch (\(log.batches.count) batches)")
        #expect(lines.contains { $0.hasSuffix(" refused true") }, "some batch failed (every fifth from the third)")
        let waiting = Set(submitters.parts.compactMap { UInt($0) })
        #expect(!log.committerThreads.subtracting(waiting).isEmpty, "under load a committer thread of the queue's own runs batches")
        usleep(UInt32(GroupCommit<Int>.idleSeconds * 4 * 1e6))
        #expect(!commits.isCommitting("S"), "an idle committer ends")
    }

    @TaskLocal static var marker = "unset"

    @Test("an update alone commits on its caller's thread: it sees the task-local values its caller bound (a command's limits)")
    func alone() throws {
        let commits = GroupCommit<Int>()
        var seen: [String] = [], threads: [UInt] = []
        for round in 0..<3 {
            try GroupCommitTests.$marker.withValue("bound \(round)") {
                try commits.submit(key: "S", { _ in
                    seen.append(GroupCommitTests.marker)
                    threads.append(GroupCommitTests.threadID())
                }, commit: { runAll in try runAll(round) })
            }
            #expect(!commits.isCommitting("S"))
        }
        #expect(seen == ["bound 0", "bound 1", "bound 2"])
        #expect(Set(threads) == [GroupCommitTests.threadID()])
    }
}
