import Dispatch
import Foundation

/// Group commit: updates arriving together share one transaction and one
/// commit (one write of the database's log, one sync to disk for all of
/// them), each in a savepoint of its own so that one failing undoes only
/// itself. None returns before the commit that made it durable.
///
/// An update joins its key's queue (the SQLite store has one queue, the
/// PostgreSQL store one per show: a transaction never locks two shows'
/// rows, so instances never deadlock) and waits. A committer thread of the
/// queue's own takes every queued update, runs them in one transaction
/// (`commit`), wakes them, and goes straight on with the updates queued
/// meanwhile: while updates keep coming, one batch follows the other
/// without waiting for a waking thread to be scheduled. A committer with
/// nothing to do for `idleSeconds` ends (the next update starts another).
final class GroupCommit<Context>: @unchecked Sendable {
    /// One update waiting for a commit.
    final class Pending {
        /// Runs the update in the batch's transaction (in its own savepoint).
        /// Dropped once its batch is done: it borrows the caller's body,
        /// which must not outlive the call.
        var run: ((Context) throws -> Void)?
        /// Opens the transaction, runs the batch and commits (the caller's, borrowed too).
        var commit: ((_ runAll: (Context) throws -> Void) throws -> Void)?
        let done = DispatchSemaphore(value: 0)
        var failure: (any Error)?
        init(_ run: @escaping (Context) throws -> Void, _ commit: @escaping (_ runAll: (Context) throws -> Void) throws -> Void) {
            self.run = run
            self.commit = commit
        }
    }

    /// How long a committer waits for more updates before it ends.
    static var idleSeconds: Double { 0.05 }

    private let condition = NSCondition()
    private var queues: [String: [Pending]] = [:]
    private var committers: Set<String> = []

    /// Runs `run` in a shared transaction; `commit` opens one, calls
    /// `runAll` with its context (which runs every update of the batch; it
    /// throws when `run` did: the transaction itself is broken, and may be
    /// tried again) and commits, throwing when the transaction failed (then
    /// none of the batch was kept, and each update of it throws that error).
    func submit(key: String, _ run: (Context) throws -> Void, commit: (_ runAll: (Context) throws -> Void) throws -> Void) throws {
        try withoutActuallyEscaping(run) { run in
            try withoutActuallyEscaping(commit) { commit in
                let update = Pending(run, commit)
                condition.lock()
                queues[key, default: []].append(update)
                if committers.insert(key).inserted {
                    let thread = Thread { [self] in self.commitLoop(key) }
                    // The use cases run on it, as on a request's thread.
                    thread.stackSize = 8 << 20
                    thread.name = "seatmap-commit"
                    thread.start()
                } else {
                    condition.broadcast()
                }
                condition.unlock()
                update.done.wait()
                if let failure = update.failure { throw failure }
            }
        }
    }

    /// A queue's committer: batch after batch while updates wait.
    private func commitLoop(_ key: String) {
        condition.lock()
        while true {
            guard let batch = queues[key], let first = batch.first else {
                if !condition.wait(until: Date(timeIntervalSinceNow: GroupCommit.idleSeconds)), queues[key]?.isEmpty ?? true {
                    committers.remove(key)
                    queues[key] = nil
                    condition.unlock()
                    return
                }
                continue
            }
            queues[key] = nil
            condition.unlock()
            var failure: (any Error)? = nil
            do {
                try first.commit? { context in
                    for u in batch { try u.run?(context) }
                }
            } catch {
                failure = error
            }
            for u in batch {
                u.run = nil
                u.commit = nil
                u.failure = failure
                u.done.signal()
            }
            condition.lock()
        }
    }
}
