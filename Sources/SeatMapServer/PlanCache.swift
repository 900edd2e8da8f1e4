import Dispatch
import Foundation
import SeatMapCore

/// Parsed hall files by file identity (at most 32, the oldest dropped first).
final class PlanCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Hall] = [:]
    private var order: [String] = []

    func get(_ key: String) -> Hall? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ hall: Hall) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil else { return }
        entries[key] = hall
        order.append(key)
        while order.count > 32 { entries[order.removeFirst()] = nil }
    }
}
