import Foundation
#if canImport(Glibc)
import Glibc
/// POSIX read and write (named apart from `Files.read`).
private let systemRead = Glibc.read
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
private let systemWrite = Darwin.write
#endif

/// Reading inputs and writing outputs safely.
///
/// Inputs are never modified. Outputs are written to a temporary file in the
/// destination folder and renamed over the target, so a failure leaves any
/// existing file untouched and never leaves a partial one.
public enum Files {
    /// The most bytes any one input may have (64 MiB unless the command
    /// line's `--max-input-bytes` says otherwise), checked while reading.
    @TaskLocal public static var maxInputBytes = 64 << 20
    /// Seconds a FIFO named as an input may stay silent before it is refused.
    public static let fifoWait = 5

    /// Reads a file, or standard input for `-`, at most `maxInputBytes`:
    /// a larger input is refused as soon as it passes the limit, without
    /// reading the rest (so `/dev/zero` or a huge file costs nothing).
    ///
    /// Every path is opened non-blocking and checked with `fstat` before
    /// anything is read, so nothing waits on it unbounded: with
    /// `regularOnly` (the HTTP service's inputs) anything but a regular file
    /// is refused; otherwise (the command line) a device or socket is
    /// refused, and a FIFO (`<(…)` in a shell) is read once something writes
    /// to it, refused when nothing has within `fifoWait` seconds.
    public static func read(_ path: String, regularOnly: Bool = false) throws(SeatMapError) -> SourceText {
        let limit = maxInputBytes
        let name = path == "-" ? "<stdin>" : path
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            var st = stat()
            guard stat(path, &st) == 0 else {
                throw SeatMapError(file: path, errno == ENOENT ? "no such file" : "cannot read: \(String(cString: strerror(errno)))")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw SeatMapError(file: path, "is a directory, expected a file") }
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw SeatMapError(file: path, "cannot read: \(String(cString: strerror(errno)))") }
            var opened = stat()
            guard fstat(fd, &opened) == 0 else {
                close(fd)
                throw SeatMapError(file: path, "cannot read: \(String(cString: strerror(errno)))")
            }
            let kind = opened.st_mode & S_IFMT
            if regularOnly && kind != S_IFREG {
                close(fd)
                throw SeatMapError(file: path, "is not a regular file (a FIFO, device or socket); only regular files are read")
            }
            if kind != S_IFREG && kind != S_IFIFO {
                close(fd)
                throw SeatMapError(file: path, "is a device or socket, not a file (give - to read standard input)")
            }
            if kind == S_IFIFO {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                var waited = 0
                while waited < fifoWait * 10 {
                    let n = poll(&ready, 1, 100)
                    if n > 0 || (n < 0 && errno != EINTR) { break }
                    waited += 1
                }
                if waited >= fifoWait * 10 {
                    close(fd)
                    throw SeatMapError(file: path, "is a FIFO that nothing wrote to within \(fifoWait) s")
                }
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SeatMapError(file: name, "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            guard bytes.count + n <= limit else {
                throw SeatMapError(file: name, "the input is larger than the limit of \(limit) bytes; raise it with {{max-input-bytes}} N")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return SourceText(name: name, bytes: bytes)
    }

    /// Reads and validates a hall file.
    public static func readHall(_ path: String, regularOnly: Bool = false) throws(SeatMapError) -> Hall {
        try HallFormat.decode(read(path, regularOnly: regularOnly)).hall
    }

    /// Writes `bytes` to `path` through a temporary file and a rename (see
    /// `writeAll`). `-` writes to standard output.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SeatMapError) {
        try writeAll([(bytes, path)])
    }

    public static func writeAtomically(_ text: String, to path: String) throws(SeatMapError) {
        try writeAtomically(Array(text.utf8), to: path)
    }

    /// Writes a command's outputs all or nothing: every file is first
    /// written in full to a temporary file beside its target
    /// (`.seatmap-tmp-*`), and only when all are written are they renamed
    /// into place; on any failure every temporary file is removed and no
    /// target is touched. Only regular files are replaced (a device, FIFO,
    /// socket or folder is refused); a replaced file keeps its permission
    /// bits; a symbolic link is followed and its target replaced. `-` is
    /// standard output, written after the files.
    public static func writeAll(_ outputs: [(bytes: [UInt8], path: String)]) throws(SeatMapError) {
        try stage(outputs).install()
    }

    /// Outputs written in full to temporary files beside their targets, not
    /// yet renamed into place: `install()` renames them (and writes
    /// standard output), `discard()` removes them. A command whose outputs
    /// must follow a store's commit stages them inside its transaction and
    /// installs them after the commit, discarding them when it fails.
    public final class StagedOutputs {
        var staged: [(temp: String, target: String, path: String)]
        let stdout: [[UInt8]]

        init(staged: [(temp: String, target: String, path: String)], stdout: [[UInt8]]) {
            self.staged = staged
            self.stdout = stdout
        }

        deinit { discard() }

        /// Removes the temporary files (nothing is replaced).
        public func discard() {
            for s in staged {
                unlink(s.temp)
                TempFiles.shared.remove(s.temp)
            }
            staged = []
        }

        /// Renames every file into place, then writes standard output.
        public func install() throws(SeatMapError) {
            for (k, s) in staged.enumerated() where rename(s.temp, s.target) != 0 {
                let reason = String(cString: strerror(errno))
                staged.removeFirst(k)
                discard()
                throw SeatMapError(file: s.path, "cannot replace the file: \(reason)")
            }
            for s in staged { TempFiles.shared.remove(s.temp) }
            staged = []
            for bytes in stdout {
                do {
                    try FileHandle.standardOutput.write(contentsOf: Data(bytes))
                } catch {
                    throw SeatMapError(file: "-", "cannot write standard output: \((error as NSError).localizedDescription)")
                }
            }
        }
    }

    /// Writes every output to a temporary file beside its target (see
    /// `writeAll` for what is refused); nothing is replaced yet.
    public static func stage(_ outputs: [(bytes: [UInt8], path: String)]) throws(SeatMapError) -> StagedOutputs {
        // Two outputs naming one file (or both standard output) would lose one.
        var seen = Set<String>()
        for (_, path) in outputs {
            let key = path == "-" ? "-" : URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard seen.insert(key).inserted else {
                throw SeatMapError(file: path, "two outputs name this same file; give each its own")
            }
        }
        let result = StagedOutputs(staged: [], stdout: outputs.filter { $0.path == "-" }.map(\.bytes))
        for (bytes, path) in outputs where path != "-" {
            let (target, mode) = try replaceableTarget(path)
            result.staged.append((try stage(bytes, beside: target, mode: mode, for: path), target, path))
        }
        return result
    }

    /// The file an output path names (symbolic links followed) and the
    /// permission bits to give it (those of the file it replaces, or nil
    /// for a new file); refuses anything that is not a regular file.
    static func replaceableTarget(_ path: String) throws(SeatMapError) -> (String, mode_t?) {
        var target = path
        var st = stat()
        for _ in 0..<40 {
            guard lstat(target, &st) == 0 else {
                guard errno == ENOENT else { throw SeatMapError(file: path, "cannot write: \(String(cString: strerror(errno)))") }
                let dir = (target as NSString).deletingLastPathComponent
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dir.isEmpty ? "." : dir, isDirectory: &isDir), isDir.boolValue else {
                    throw SeatMapError(file: path, "the folder \(dir.isEmpty ? "." : dir) does not exist")
                }
                return (target, nil)
            }
            guard (st.st_mode & S_IFMT) == S_IFLNK else { break }
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: target) else {
                throw SeatMapError(file: path, "cannot follow the symbolic link \(target)")
            }
            target = link.hasPrefix("/") ? link : ((target as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return (target, st.st_mode & 0o7777)
        case S_IFLNK: throw SeatMapError(file: path, "too many levels of symbolic links")
        case S_IFDIR: throw SeatMapError(file: path, "is a folder; give a file name")
        default:
            throw SeatMapError(file: path, "is not a regular file (a device, FIFO or socket); SeatMap replaces only regular files")
        }
    }

    /// Writes `bytes` to a new temporary file beside `target`, with `mode`.
    static func stage(_ bytes: [UInt8], beside target: String, mode: mode_t?, for path: String) throws(SeatMapError) -> String {
        let dir = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        // Within the file system's 255-byte name limit whatever the target's
        // length (a legal name is never refused for its temporary's sake).
        let prefix = ".seatmap-tmp-", suffix = "-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var kept = ""
        for ch in name where prefix.utf8.count + kept.utf8.count + String(ch).utf8.count + suffix.utf8.count <= 255 { kept.append(ch) }
        let temp = (dir.isEmpty ? "" : dir + "/") + prefix + kept + suffix
        // Noted before it is made: a signal's clean-up either finds it or
        // has already stopped new ones (then the process is ending).
        let fd = TempFiles.shared.create(temp) { open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ?? 0o666) }
        guard fd >= 0 else { throw SeatMapError(file: path, "cannot write in \(dir.isEmpty ? "." : dir): \(String(cString: strerror(errno)))") }
        var failure: String? = nil
        if let mode, fchmod(fd, mode) != 0 { failure = String(cString: strerror(errno)) }
        var written = 0
        while failure == nil && written < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
            } else {
                written += n
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temp)
            TempFiles.shared.remove(temp)
            throw SeatMapError(file: path, "cannot write: \(failure)")
        }
        return temp
    }

    /// Removes every temporary file still being written, and lets no other
    /// be made from then on (for a signal handler, before the process
    /// exits: a killed command leaves no `.seatmap-tmp-*` behind, even
    /// where other threads are still writing). For the command line's
    /// signal handler only: the process cannot write a file afterwards.
    package static func removeTemporaryFiles() {
        for temp in TempFiles.shared.close() { unlink(temp) }
    }
}

/// The temporary files being written right now.
final class TempFiles: @unchecked Sendable {
    static let shared = TempFiles()
    private let condition = NSCondition()
    private var paths = Set<String>()
    /// Set by `close()`: the process is ending, no file is made any more.
    private var closed = false
    /// Files noted but still being made (their `open` not yet returned).
    private var making = 0

    /// Notes `path`, then makes it with `make` (a descriptor, or -1 with
    /// errno set). The lock is not held while the file is made (an `open`
    /// on a hung network file system must not hold up a signal's
    /// clean-up); `close()` waits for files being made instead. After
    /// `close()` nothing is made: -1, errno ECANCELED.
    func create(_ path: String, _ make: () -> Int32) -> Int32 {
        condition.lock()
        guard !closed else {
            condition.unlock()
            errno = ECANCELED
            return -1
        }
        paths.insert(path)
        making += 1
        condition.unlock()
        let fd = make()
        let reason = errno
        condition.lock()
        making -= 1
        if fd < 0 { paths.remove(path) }
        condition.broadcast()
        condition.unlock()
        errno = reason
        return fd
    }

    func remove(_ path: String) {
        condition.lock()
        paths.remove(path)
        condition.unlock()
    }

    /// Stops new files from being made and returns the ones being written,
    /// once the files being made have been made (waiting up to `patience`
    /// seconds: a file whose `open` returns later than that may stay).
    func close(patience: TimeInterval = 2) -> [String] {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        let deadline = Date(timeIntervalSinceNow: patience)
        while making > 0 && condition.wait(until: deadline) {}
        return Array(paths)
    }
}
