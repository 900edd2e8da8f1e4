import Foundation

/// Where a command writes: the real standard streams, or buffers in tests.
public final class Console: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// True when standard error is a terminal (progress bars go there).
    public let stderrIsTerminal: Bool

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void, stderrIsTerminal: Bool = false) {
        self.writeOut = out
        self.writeErr = err
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The process's standard output and error.
    public static func standard() -> Console {
        Console(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) },
            stderrIsTerminal: isatty(2) == 1)
    }

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
