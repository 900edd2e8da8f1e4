import Dispatch
import Foundation

/// Each show's hall name, which never changes once the show exists.
final class ShowHalls: @unchecked Sendable {
    private let lock = NSLock()
    private var halls: [String: String] = [:]

    func get(_ show: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return halls[show]
    }

    func put(_ show: String, _ hall: String) {
        lock.lock()
        defer { lock.unlock() }
        if halls.count > 100_000 { halls.removeAll() }
        halls[show] = hall
    }
}
