import CMicroHTTPD
import Dispatch
import Foundation
import SeatMapRender

/// Threads of its own taking jobs in order (not Dispatch's shared pool,
/// whose threads blocked renders could all occupy).
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false
    private var running = 0

    init(threads: Int, name: String) {
        for i in 0..<threads {
            let thread = Thread { [self] in self.loop() }
            thread.name = "\(name)-\(i)"
            thread.stackSize = 8 << 20
            running += 1
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty && stopping {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            // Each request's render uses one core: the pool is the parallelism.
            Renderer.$cores.withValue(1) { job() }
        }
    }

    /// Finishes the queued jobs, then ends the threads.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
