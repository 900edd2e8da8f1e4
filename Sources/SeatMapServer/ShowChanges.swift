import Dispatch
import Foundation

/// A counter per show that commits bump (this instance's own, and every
/// instance's through the store's change feed), and long polls wait on.
final class ShowChanges: @unchecked Sendable {
    private let condition = NSCondition()
    private var versions: [String: UInt64] = [:]
    private var all: UInt64 = 0
    private var closed = false
    /// Whether the store tells of other instances' commits; if not, a
    /// waiter looks again every second.
    var notified = false

    func version(_ show: String) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return (versions[show] ?? 0) &+ all
    }

    func bump(_ show: String) {
        condition.lock()
        versions[show, default: 0] &+= 1
        if versions.count > 100_000 { versions.removeAll(); all &+= 1 }
        condition.broadcast()
        condition.unlock()
    }

    func bumpAll() {
        condition.lock()
        all &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the show's version is no longer `seen`, or `deadline`
    /// (at most a second without a change feed); true when it changed.
    func wait(_ show: String, seen: UInt64, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = notified ? deadline : min(deadline, Date().addingTimeInterval(1))
        while !closed && (versions[show] ?? 0) &+ all == seen {
            if !condition.wait(until: limit) { break }
        }
        return (versions[show] ?? 0) &+ all != seen
    }

    /// Wakes every waiter for good (the service is stopping).
    func shutdown() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
