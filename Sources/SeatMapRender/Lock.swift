import Foundation

/// A lock around calls into libraries that are not safe to call from
/// several threads at once (fontconfig's configuration).
final class NSLockBox: @unchecked Sendable {
    private let lock = NSLock()
    func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
