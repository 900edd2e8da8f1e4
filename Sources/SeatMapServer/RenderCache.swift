import Dispatch
import Foundation

/// Recent renders, keyed by the hall file's identity (device, inode, size,
/// modification time in nanoseconds), the show's state and the render's
/// options; at most 64 entries and 256 MB, the oldest dropped first.
final class RenderCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [UInt8]] = [:]
    private var order: [String] = []
    private var bytes = 0
    private let maxEntries = 64, maxBytes = 256 << 20

    static func key(path: String, parts: [String]) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)\u{0}\(path)\u{0}" + parts.joined(separator: "\u{0}")
    }

    func get(_ key: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ value: [UInt8]) {
        guard value.count <= maxBytes / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        if entries[key] != nil { return }
        entries[key] = value
        order.append(key)
        bytes += value.count
        while order.count > maxEntries || bytes > maxBytes, !order.isEmpty {
            let old = order.removeFirst()
            bytes -= entries[old]?.count ?? 0
            entries[old] = nil
        }
    }
}
