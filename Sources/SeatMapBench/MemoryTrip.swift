/// One trip to memory over a working set of a given size: a buffer of
/// 64-byte lines linked in one random cycle (each line holds the next's
/// place), walked so that every read waits for the one before, as a
/// hit-test's read of its bucket waits for the query's arithmetic. Over a
/// buffer bigger than the caches each step costs one miss (and its page
/// walk); over a small one, a cache hit.
struct MemoryTrip {
    static let lineWords = 8
    let bytes: Int
    /// Each line's first word: where the next line starts.
    let next: [Int]

    init(bytes wanted: Int) {
        let lines = max(2, wanted / (MemoryTrip.lineWords * MemoryLayout<Int>.stride))
        bytes = lines * MemoryTrip.lineWords * MemoryLayout<Int>.stride
        // The lines in a random order, each linked to the next and the last
        // to the first: one cycle through every line.
        var order = Array(0..<lines)
        var rng = BenchScenes.Random(state: 7)
        for i in stride(from: lines - 1, to: 0, by: -1) {
            order.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        var next = [Int](repeating: 0, count: lines * MemoryTrip.lineWords)
        for k in 0..<lines {
            next[order[k] * MemoryTrip.lineWords] = order[(k + 1) % lines] * MemoryTrip.lineWords
        }
        self.next = next
    }

    /// Walks `reads` steps and returns the time of one.
    func nanosecondsPerRead(_ reads: Int) -> Double {
        var at = 0
        let t0 = Bench.now()
        next.withUnsafeBufferPointer { p in
            for _ in 0..<reads { at = p[at] }
        }
        let elapsed = Double(Bench.now() - t0)
        // Where the walk ended, so that it cannot be left out.
        if at < 0 { print(at) }
        return elapsed / Double(max(1, reads))
    }
}
