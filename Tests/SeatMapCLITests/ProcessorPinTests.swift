import Foundation
import Testing
@testable import SeatMapCLI

/// What a thread gave back, and when.
final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
    let done = DispatchSemaphore(value: 0)
}

/// `render --out-dir` keeps each worker on a processor of its own, with the
/// threads Pango starts for it, and gives it back its processors after.
@Suite("Processor pins")
struct ProcessorPinTests {
    /// Runs `body` on a thread of its own (the test's own threads keep
    /// their processors) and returns what it returned.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let box = ThreadResult<T>()
        let thread = Thread { box.value = body(); box.done.signal() }
        thread.start()
        box.done.wait()
        guard let value = box.value else { fatalError("the thread gave nothing back") }
        return value
    }

    @Test("a pinned thread runs on the one processor asked for, threads it starts meanwhile inherit it, and unpinned it has all it had; a processor it may not run on pins nothing")
    func pins() {
        struct Seen: Sendable {
            var before, pinned, child, after, refused: (count: Int, first: Int)
            var refusedIsNil: Bool
        }
        let seen = Self.onThread { () -> Seen in
            let before = ProcessorPin.current()
            var pinned = (count: 0, first: -1), child = (count: 0, first: -1)
            do {
                // The last processor this thread may run on.
                let pin = ProcessorPin(before.count - 1)
                pinned = ProcessorPin.current()
                child = Self.onThread { ProcessorPin.current() }
                withExtendedLifetime(pin) {}
            }
            let after = ProcessorPin.current()
            let refused = ProcessorPin(before.count)
            return Seen(before: before, pinned: pinned, child: child, after: after, refused: ProcessorPin.current(), refusedIsNil: refused == nil)
        }
        #expect(seen.before.count >= 1 && seen.before.first >= 0)
        #expect(seen.pinned.count == 1, "pinned to one processor")
        #expect(seen.before.count == 1 || seen.pinned.first > seen.before.first, "the last of several, not the first")
        #expect(seen.child.count == 1 && seen.child.first == seen.pinned.first, "a thread started while pinned runs there too")
        #expect(seen.after.count == seen.before.count && seen.after.first == seen.before.first, "given back")
        #expect(seen.refusedIsNil && seen.refused.count == seen.before.count, "no such processor: nothing changed")
    }
}
