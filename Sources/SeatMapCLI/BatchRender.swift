import Dispatch
import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

/// `render --out-dir`: the batch's schedule (largest files first, each
/// render given its share of the cores, workers pinned to a core each when
/// the batch has the machine), its progress line and its writers.
extension SeatMapCLI {
    /// Renders many halls on all cores; a failure is reported and the rest go on.
    static func renderBatch(_ files: [String], dir: String, format: OutputFormat, _ settings: ImageOptions, args: Arguments,
                            _ console: Console) throws -> Int32 {
        let outputs = files.map { f -> String in
            let base = f == "-" ? "stdin" : URL(fileURLWithPath: f).deletingPathExtension().lastPathComponent
            return URL(fileURLWithPath: dir).appendingPathComponent("\(base).\(format.name)").path
        }
        // Before anything is made: two inputs named alike would write one
        // output (names compared as bytes, as the file system does).
        var firstFor: [[UInt8]: String] = [:]
        for (file, output) in zip(files, outputs) {
            if let other = firstFor[Array(output.utf8)] { throw UsageError(message: "\(other) and \(file) would both write \(output)") }
            firstFor[Array(output.utf8)] = file
        }
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            // Each missing folder in turn, so a failure names its reason (errno), not an NSError dump.
            var path = dir.hasPrefix("/") ? "" : "."
            for part in dir.split(separator: "/") {
                path += "/" + part
                if mkdir(path, 0o777) != 0 && errno != EEXIST {
                    throw SeatMapError(file: dir, "cannot create the folder \(path): \(String(cString: strerror(errno)))")
                }
            }
        } else if !isDir.boolValue {
            throw SeatMapError(file: dir, "is not a folder")
        }
        let results = BatchResults(count: files.count)
        let quiet = args.flag("quiet")
        let progress = console.stderrIsTerminal && !quiet
        let limit = Files.maxInputBytes  // task-local: carried into the worker threads by hand
        // Largest files first (a file's size stands for its work): the
        // last renders are the small ones, so no core waits long for the
        // others to finish. Each result is reported as it finishes.
        let sizes = files.map { f -> Int in
            var st = stat()
            return f != "-" && stat(f, &st) == 0 ? Int(st.st_size) : 0
        }
        let order = files.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        // Each render gets its share of the cores: with as many files as
        // cores, one each (no bands or strips fighting the other renders).
        // The processors this process may run on (taskset, a cpuset), or
        // fewer when a CPU quota says so (activeProcessorCount reads it).
        let active = ProcessInfo.processInfo.activeProcessorCount, mine = ProcessorPin.current().count
        let allowed = mine > 0 ? mine : active
        let cores = max(1, min(active, allowed))
        let workers = max(1, min(files.count, cores))
        let share = max(1, cores / workers)
        // A worker a processor, kept there, only when the workers have every
        // processor the process may use (no quota took some): under a quota
        // on a larger machine, pins would stack every batch on the first ones.
        let pins = workers > 1 && share == 1 && cores == allowed
        let queue = BatchQueue(order)
        let started = DispatchTime.now()
        // A thread a worker, each taking the next file until none is left.
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            // One render a processor: each worker kept on a processor of its
            // own, with the threads Pango starts for it (see ProcessorPin).
            let pin = pins ? ProcessorPin(worker) : nil
            // Each file is written (and synced to disk) on a thread of its
            // own while this worker renders the next one (see OutputWriter).
            let writer = OutputWriter()
            defer {
                writer.wait()
                withExtendedLifetime(pin) {}
            }
            while let i = queue.next() {
                // Each result is said when it is known (a bad file at once, not
                // after the whole batch); the bar, redrawn under it, names the file.
                let report: @Sendable (String?) -> Void = { failure in
                    results.report(i, failure) { done in
                        if progress { console.rawErr("\r\u{1B}[K") }
                        if let failure { console.err(failure) } else if !quiet { console.out("wrote \(outputs[i])") }
                        if progress { console.rawErr(progressBar(done: done, of: files.count, last: files[i], since: started)) }
                    }
                }
                do {
                    let bytes = try Files.$maxInputBytes.withValue(limit) {
                        try Renderer.$cores.withValue(share) {
                            try renderBytes(files[i], for: outputs[i], format: format, settings, args: args)
                        }
                    }
                    writer.start {
                        do {
                            try Files.writeAtomically(bytes, to: outputs[i])
                            report(nil)
                        } catch {
                            report(batchFailure(files[i], error))
                        }
                    }
                } catch {
                    report(batchFailure(files[i], error))
                }
            }
        }
        if progress { console.rawErr("\n") }
        let failed = results.errors.compactMap { $0 }.count
        if failed > 0 { console.err("\(failed) of \(files.count) failed") }
        return failed > 0 ? 1 : 0
    }

    /// The batch's progress line: a bar, how many are done, the file just
    /// finished and, while some are left, the time they should take at the
    /// pace so far ("ETA 12 s").
    static func progressBar(done: Int, of count: Int, last file: String, since start: DispatchTime) -> String {
        let width = 30, filled = done * width / max(1, count)
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(count) \(file)"
        if done > 0, done < count {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            line += " ETA \(Int((elapsed / Double(done) * Double(count - done)).rounded(.up))) s"
        }
        return line
    }
}

/// What a batch says of a file that failed: the error, with the file's
/// name first unless the error names it.
func batchFailure(_ file: String, _ error: Error) -> String {
    if let e = error as? SeatMapError { return e.file == nil ? "\(file): \(CLIMessages.say(e))" : CLIMessages.say(e) }
    return "\(file): \(CLIMessages.say(error))"
}

/// A batch worker's outputs, each written on a thread of its own while
/// the worker renders the next file: a file's write waits for the disk
/// (`fsync`, 1-4 ms a file here), and a worker kept on its processor
/// would leave it idle meanwhile. One write at a time: `start` first
/// waits for the last one, so a worker holds at most one finished file's
/// bytes beside the one it renders. The thread inherits the worker's
/// processor (it mostly waits). The write itself is `writeAtomically`'s,
/// unchanged: a temporary file, synced, renamed into place.
/// Where no thread can be started (a limit on threads), the write is done
/// on the worker's own thread, as before.
final class OutputWriter: @unchecked Sendable {
    private let idle = DispatchSemaphore(value: 1)

    /// A write and the writer to tell when it is done, for the thread.
    private final class Job {
        private var write: (@Sendable () -> Void)?
        let idle: DispatchSemaphore
        init(_ write: @escaping @Sendable () -> Void, _ idle: DispatchSemaphore) {
            self.write = write
            self.idle = idle
        }
        /// Writes, lets go of the bytes (the closure holds them), then says
        /// it is done: once `wait` returns, no finished file is held.
        func run() {
            write?()
            write = nil
            idle.signal()
        }
    }

    func start(_ write: @escaping @Sendable () -> Void) {
        idle.wait()
        let job = Unmanaged.passRetained(Job(write, idle))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, job.toOpaque())
        if started != 0 { job.takeRetainedValue().run() }
    }

    /// Returns once the last write is done.
    func wait() {
        idle.wait()
        idle.signal()
    }
}

/// A batch's files in the order its workers take them, each once.
final class BatchQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let order: [Int]
    private var taken = 0

    init(_ order: [Int]) { self.order = order }

    /// The next file's index; nil when every one is taken.
    func next() -> Int? {
        lock.withLock {
            guard taken < order.count else { return nil }
            taken += 1
            return order[taken - 1]
        }
    }
}

/// Per-file results of a batch, filled from several threads.
final class BatchResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var errors: [String?]
    private var done = 0

    init(count: Int) { errors = Array(repeating: nil, count: count) }

    /// Records a result and says it (with how many are done) while no other
    /// result is being said, so lines and the bar never interleave.
    func report(_ i: Int, _ error: String?, _ say: (Int) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        errors[i] = error
        done += 1
        say(done)
    }
}
