import Dispatch
import Foundation

/// Group commit: updates arriving together share one transaction and one
/// commit (one write of the database's log, one sync to disk for all of
/// them), each in a savepoint of its own so that one failing undoes only
/// itself. None returns before the commit that made it durable.
///
/// An update joins its key's queue (the SQLite store has one queue, the
/// PostgreSQL store one per show: a transaction never locks two shows'
/// rows, so instances never deadlock). When no thread is leading that
/// queue's commit, this one does: it takes every queued update, runs them
/// in one transaction (`commit`), wakes them, and hands the lead to the
/// first update queued meanwhile, so no thread leads for long.
final class GroupCommit<Context>: @unchecked Sendable {
    /// One update waiting for a commit.
    final class Pending {
        /// Runs the update in the batch's transaction (in its own savepoint).
        /// Dropped once its batch is done: it borrows the caller's body,
        /// which must not outlive the call.
        var run: ((Context) throws -> Void)?
        let wake = DispatchSemaphore(value: 0)
        var leads = false
        var failure: (any Error)?
        init(_ run: @escaping (Context) throws -> Void) { self.run = run }
    }

    private let lock = NSLock()
    private var queues: [String: [Pending]] = [:]
    private var leading: Set<String> = []

    /// Runs `run` in a shared transaction; `commit` opens one, calls
    /// `runAll` with its context (which runs every update of the batch; it
    /// throws when `run` did: the transaction itself is broken, and may be
    /// tried again) and commits, throwing when the transaction failed (then
    /// none of the batch was kept, and each update of it throws that error).
    func submit(key: String, _ run: (Context) throws -> Void, commit: (_ runAll: (Context) throws -> Void) throws -> Void) throws {
        try withoutActuallyEscaping(run) { run in
            let update = Pending(run)
            lock.lock()
            queues[key, default: []].append(update)
            let leadsNow = !leading.contains(key)
            leading.insert(key)
            lock.unlock()
            if !leadsNow {
                update.wake.wait()
                guard update.leads else {
                    if let failure = update.failure { throw failure }
                    return
                }
            }
            lock.lock()
            let batch = queues[key] ?? []
            queues[key] = nil
            lock.unlock()
            var failure: (any Error)? = nil
            do {
                try commit { context in
                    for u in batch { try u.run?(context) }
                }
            } catch {
                failure = error
            }
            for u in batch { u.run = nil }
            lock.lock()
            let next = queues[key]?.first
            if let next { next.leads = true } else { leading.remove(key) }
            lock.unlock()
            for u in batch where u !== update {
                u.failure = failure
                u.wake.signal()
            }
            next?.wake.signal()
            if let failure { throw failure }
        }
    }
}
