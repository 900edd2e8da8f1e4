import CLibPQ
import Dispatch
import Foundation

/// The thread behind `watchChanges`.
final class PGListener: StoreWatch, @unchecked Sendable {
    private let conninfo: String, location: String
    private let onChange: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(conninfo: String, location: String, onChange: @escaping @Sendable (String) -> Void) {
        self.conninfo = conninfo
        self.location = location
        self.onChange = onChange
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    func start() {
        let thread = Thread { [self] in
            var missed = false
            while !isStopped {
                guard let c = try? PGConnection(conninfo: conninfo, location: location), (try? c.exec("LISTEN seatmap_shows")) != nil else {
                    missed = true
                    Thread.sleep(forTimeInterval: 1)
                    continue
                }
                if missed { onChange("*") }
                missed = true
                while !isStopped, let shows = c.notifications(waiting: 1) {
                    for show in shows { onChange(show) }
                }
            }
            finished.signal()
        }
        thread.name = "seatmap-store-listen"
        thread.start()
    }

    func stop() {
        lock.lock()
        let was = stopped
        stopped = true
        lock.unlock()
        if !was { _ = finished.wait(timeout: .now() + 3) }
    }
}
