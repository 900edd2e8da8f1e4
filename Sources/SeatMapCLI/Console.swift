import Foundation

/// Where a command writes: the real standard streams, or buffers in tests.
public final class Console: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// True when standard error is a terminal (progress bars go there).
    public let stderrIsTerminal: Bool
    /// Remembers why standard output could not be written (the command then fails).
    final class FailureFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var message: String?
        func set(_ text: String) {
            lock.lock()
            if message == nil { message = text }
            lock.unlock()
        }
        var value: String? {
            lock.lock()
            defer { lock.unlock() }
            return message
        }
    }

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, stderrIsTerminal: Bool = false) {
        self.writeOut = out
        self.writeErr = err
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The process's standard output and error. Standard output that cannot
    /// be written (a full disk, a closed descriptor) makes the command fail
    /// (see `SeatMapCLI.main`) instead of trapping; standard error that cannot
    /// be written loses the text: there is nowhere left to report it.
    public static func standard() -> Console {
        let flag = FailureFlag()
        let console = Console(
            out: { text in
                do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch {
                    flag.set((error as NSError).localizedDescription)
                }
            },
            err: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) },
            stderrIsTerminal: isatty(2) == 1)
        console.sharedFailure = flag
        return console
    }

    /// The failure of the standard streams, for `standard()` consoles.
    var sharedFailure: FailureFlag? = nil
    /// Why standard output could not be written, if it could not.
    var outputError: String? { sharedFailure?.value }

    public func out(_ line: String) { writeOut(line + "\n") }
    public func err(_ line: String) { writeErr(line + "\n") }
    /// Writes without adding a newline (progress lines).
    public func rawErr(_ text: String) { writeErr(text) }
}

/// A console that keeps what was written, for tests.
public final class CapturedConsole {
    public private(set) var stdout = ""
    public private(set) var stderr = ""
    public init() {}
    public var console: Console {
        Console(out: { [unowned self] in self.stdout += $0 }, err: { [unowned self] in self.stderr += $0 })
    }
}

/// Text written from any thread, read back whole (`text`) or as the
/// pieces (`parts`): a console's capture in tests and embedding programs.
public final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pieces: [String] = []
    public init() {}
    public func append(_ s: String) {
        lock.lock()
        pieces.append(s)
        lock.unlock()
    }
    public var parts: [String] {
        lock.lock()
        defer { lock.unlock() }
        return pieces
    }
    public var text: String { parts.joined() }
}
