import Foundation

/// Reading inputs and writing outputs safely.
///
/// Inputs are never modified. Outputs are written to a temporary file in the
/// destination folder and renamed over the target, so a failure leaves any
/// existing file untouched and never leaves a partial one.
public enum Files {
    /// Reads a file, or standard input for `-`.
    public static func read(_ path: String) throws(SeatMapError) -> SourceText {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return SourceText(name: "<stdin>", bytes: [UInt8](data))
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw SeatMapError(file: path, "no such file")
        }
        if isDir.boolValue { throw SeatMapError(file: path, "is a directory, expected a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SeatMapError(file: path, "cannot read the file (permission denied?)")
        }
        return SourceText(name: path, bytes: [UInt8](data))
    }

    /// Reads and validates a hall file.
    public static func readHall(_ path: String) throws(SeatMapError) -> Hall {
        try HallFormat.decode(read(path)).hall
    }

    /// Writes `bytes` to `path` through a temporary file and a rename.
    /// `-` writes to standard output.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SeatMapError) {
        if path == "-" {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue else {
            throw SeatMapError(file: path, "the folder \(dir.path) does not exist")
        }
        let temp = dir.appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try Data(bytes).write(to: temp)
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw SeatMapError(file: path, "cannot write: \(error.localizedDescription)")
        }
        if rename(temp.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temp)
            throw SeatMapError(file: path, "cannot replace the file: \(reason)")
        }
    }

    public static func writeAtomically(_ text: String, to path: String) throws(SeatMapError) {
        try writeAtomically(Array(text.utf8), to: path)
    }
}
