import Dispatch
import Foundation

/// Group commit: updates arriving together share one transaction and one
/// commit (one write of the database's log, one sync to disk for all of
/// them), each in a savepoint of its own so that one failing undoes only
/// itself. None returns before the commit that made it durable.
///
/// An update joins its key's queue (the SQLite store has one queue, the
/// PostgreSQL store one per show: a transaction never locks two shows'
/// rows, so instances never deadlock). An update that finds its queue
/// without a committer commits it on its own thread (alone, it runs as if
/// there were no queue). When updates were queued meanwhile, a committer
/// thread of the queue's own takes over: it takes every queued update,
/// runs them in one transaction (`commit`), wakes them, and goes straight
/// on with the updates queued meanwhile, so while updates keep coming one
/// batch follows the other without waiting for a woken thread to be
/// scheduled. A committer with nothing to do for `idleSeconds` ends.
///
/// An update's `run` may thus run on another thread than its caller's
/// (task-local values the caller bound are not seen there), and every
/// update of a queue must pass the same `commit` (the batch's first one runs).
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

    /// How long a committer thread waits for more updates before it ends.
    static var idleSeconds: Double { 0.05 }

    private let condition = NSCondition()
    private var queues: [String: [Pending]] = [:]
    /// Keys whose queue has a committer (a caller's thread or a committer thread).
    private var committers: Set<String> = []
    /// Keys whose committer thread waits for updates.
    private var idle: Set<String> = []

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
                let commitsHere = committers.insert(key).inserted
                if !commitsHere && idle.contains(key) { condition.broadcast() }
                condition.unlock()
                if commitsHere {
                    // The queue had no committer, so it held nothing before
                    // this update: the first batch is this update's. What was
                    // queued meanwhile goes to a committer thread (to this one
                    // when the system gives no thread).
                    condition.lock()
                    runBatch(key)
                    let more = !(queues[key]?.isEmpty ?? true)
                    if !more { committers.remove(key) }
                    condition.unlock()
                    if more && !startCommitter(key) { commitLoop(key) }
                } else {
                    update.done.wait()
                }
                if let failure = update.failure { throw failure }
            }
        }
    }

    /// Whether `key`'s queue has a committer now.
    func isCommitting(_ key: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return committers.contains(key)
    }

    /// Runs every update queued for `key` in one transaction and wakes them
    /// (called and returning with `condition` locked).
    private func runBatch(_ key: String) {
        guard let batch = queues[key], let first = batch.first else { return }
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

    /// A committer thread for `key` (8 MiB of stack: the use cases run on
    /// it, as on a request's thread); false when none could be started.
    private func startCommitter(_ key: String) -> Bool {
        startThread(CommitterStart { [self] in self.commitLoop(key) })
    }

    /// A queue's committer thread: batch after batch while updates wait;
    /// ends when none came for `idleSeconds`.
    private func commitLoop(_ key: String) {
        condition.lock()
        var deadline: Date? = nil
        while true {
            if !(queues[key]?.isEmpty ?? true) {
                deadline = nil
                runBatch(key)
                continue
            }
            let until = deadline ?? Date(timeIntervalSinceNow: GroupCommit.idleSeconds)
            deadline = until
            idle.insert(key)
            let woken = condition.wait(until: until)
            idle.remove(key)
            if !woken && (queues[key]?.isEmpty ?? true) {
                committers.remove(key)
                queues[key] = nil
                condition.unlock()
                return
            }
        }
    }
}

/// What a committer thread runs.
private final class CommitterStart {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// A detached thread of 8 MiB stack running `start`; false when the system
/// gave none (the caller then does the work itself).
private func startThread(_ start: CommitterStart) -> Bool {
    let box = Unmanaged.passRetained(start).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 8 << 20)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let rc = pthread_create(&thread, &attributes, committerThreadMain, box)
    if rc != 0 { Unmanaged<CommitterStart>.fromOpaque(box).release() }
    return rc == 0
}

private func committerThreadMain(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    Unmanaged<CommitterStart>.fromOpaque(raw).takeRetainedValue().body()
    return nil
}
