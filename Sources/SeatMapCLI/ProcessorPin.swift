import CProcessorPin

/// The calling thread kept on one processor, with every thread it starts
/// meanwhile (they inherit it), such as the threads Pango starts to match
/// each new text size's fonts. A render waits for such a thread: kept on
/// the render's processor, it runs in the time the wait leaves idle, where
/// the scheduler would otherwise often queue it behind a render on the
/// other processor (`render --out-dir` runs one render a processor).
/// A thread started meanwhile keeps the pin for its life; Pango's end with
/// their sort, so a process that lives on after a batch has every thread
/// back on every processor (the batch test checks it).
final class ProcessorPin {
    private var previous = seatmap_cpu_mask()

    /// Keeps the thread on the `n`-th processor (from 0) of those it may
    /// run on; nil (nothing changed) when there is none or the kernel refuses.
    init?(_ n: Int) {
        guard seatmap_thread_pin(Int32(clamping: n), &previous) == 0 else { return nil }
    }

    /// Gives the thread back the processors it had.
    deinit { seatmap_thread_unpin(&previous) }

    /// How many processors the calling thread may run on, and the first.
    static func current() -> (count: Int, first: Int) {
        var first: Int32 = -1
        let count = seatmap_thread_cpus(&first)
        return (Int(count), Int(first))
    }
}
