import Foundation
import SeatMapRender

/// The seatmap command's warm-up for a render: fontconfig's configuration
/// and Pango's font map (`FontResolver.prepare`) loaded on a thread of its
/// own while the command reads its input and lays the hall out. Only the
/// command starts it; the library starts no thread of its own.
enum TextWarmUp {
    private static let done = DispatchSemaphore(value: 0)
    private static let lock = NSLock()
    nonisolated(unsafe) private static var started = false

    /// Starts the warm-up (once a process).
    static func begin() {
        lock.lock()
        defer { lock.unlock() }
        guard !started else { return }
        started = true
        Thread.detachNewThread {
            FontResolver.prepare()
            done.signal()
        }
    }

    /// Whether a warm-up began (the process is a render).
    static var began: Bool {
        lock.lock()
        defer { lock.unlock() }
        return started
    }

    /// Returns once the warm-up is done (at once when none began), or
    /// after `seconds` when given (fontconfig scanning fonts with no cache
    /// can take seconds; a refused render need not wait for that). No time,
    /// or not a number, returns at once; a year or more is no limit.
    static func wait(upTo seconds: Double? = nil) {
        guard began else { return }
        let finished: Bool
        if let seconds, seconds < 3.2e7 {
            finished = done.wait(timeout: .now() + (seconds > 0 ? seconds : 0)) == .success
        } else if let seconds, seconds.isNaN {
            finished = done.wait(timeout: .now()) == .success
        } else {
            done.wait()
            finished = true
        }
        // Left signalled for the next wait.
        if finished { done.signal() }
    }
}
