import Dispatch
import Foundation
import SeatMapStore

/// Whether the store answers, asked every two seconds off the request
/// threads, so `/healthz` can say so at once.
final class StoreHealth: @unchecked Sendable {
    private let lock = NSLock()
    private var problem: String? = nil
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private var watching = false

    /// Nil while the store answers, else the last failure.
    var storeProblem: String? {
        lock.lock()
        defer { lock.unlock() }
        return problem
    }

    func watch(_ store: any InventoryStore) {
        watching = true
        let thread = Thread { [self] in
            while true {
                let p = store.probe()
                lock.lock()
                problem = p
                let stop = stopped
                lock.unlock()
                if stop { break }
                if done.wait(timeout: .now() + 2) == .success { break }
            }
        }
        thread.name = "seatmap-store-health"
        thread.start()
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        if watching { done.signal() }
    }
}
