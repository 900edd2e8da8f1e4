import CLibPQ
import Dispatch
import Foundation

/// Up to `size` connections shared by the threads of a process: a caller
/// waits for a free one; a broken connection is dropped and a new one made
/// the next time (so the pool reconnects after the database restarts).
final class PGPool: @unchecked Sendable {
    let conninfo: String
    private let location: String
    private let slots: DispatchSemaphore
    private let lock = NSLock()
    private var idle: [PGConnection] = []

    init(conninfo: String, size: Int, location: String) {
        self.conninfo = conninfo
        self.location = location
        slots = DispatchSemaphore(value: size)
    }

    func with<T>(_ body: (PGConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        lock.lock()
        var connection = idle.popLast()
        lock.unlock()
        if let c = connection, !c.isUsable { connection = nil }
        let c = try connection ?? PGConnection(conninfo: conninfo, location: location)
        defer {
            if c.isUsable {
                lock.lock()
                idle.append(c)
                lock.unlock()
            }
        }
        do {
            return try body(c)
        } catch let e as PGFailure where e.connectionLost {
            // The server went away: every idle connection is as stale as this one
            // (libpq learns of a closed socket only on its next use).
            lock.lock()
            idle.removeAll()
            lock.unlock()
            throw e
        }
    }
}
