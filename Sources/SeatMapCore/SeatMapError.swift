/// One problem found in an input, with where it is and what is wrong.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// JSON path with zero-based indices, e.g. `rows[3].seats[5].status`;
    /// empty for a problem with the document as a whole.
    public var path: String
    public var message: String
    /// 1-based position in the source file, when the input came from text.
    public var line: Int?
    public var column: Int?
    /// The message with the inputs it names marked (`{{zoom}}`), when it
    /// names any: `message` says them as the library calls them (`zoom`),
    /// `naming(_:)` as a face does (the CLI's `--zoom`, a query's `zoom=`).
    public var template: String?

    /// A message naming inputs as `{{name}}` keeps them marked in `template`.
    public init(path: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.template = message.contains("{{") ? message : nil
        self.message = template.map { Diagnostic.fill($0) { $0 } } ?? message
        self.line = line
        self.column = column
    }

    /// A template with each `{{name}}` said as `name(name)`.
    public static func fill(_ template: String, _ name: (String) -> String) -> String {
        var out = "", rest = template[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let word = rest[open.upperBound..<close.lowerBound]
            guard !word.isEmpty, word.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                out += rest[..<open.upperBound]
                rest = rest[open.upperBound...]
                continue
            }
            out += rest[..<open.lowerBound] + name(String(word))
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The diagnostic with the inputs it names said as `name` says them.
    public func naming(_ name: (String) -> String) -> Diagnostic {
        guard let template else { return self }
        var d = self
        d.message = Diagnostic.fill(template, name)
        return d
    }

    /// The diagnostics with each repeated message said once, at its first
    /// place, with how many times it was found ("unknown key "uuid"
    /// (ignored), 590 times; the first here").
    public static func sayingRepeatsOnce(_ all: [Diagnostic]) -> [Diagnostic] {
        var counts: [String: Int] = [:]
        for d in all { counts[d.message, default: 0] += 1 }
        var said = Set<String>()
        var out: [Diagnostic] = []
        for var d in all where !said.contains(d.message) {
            said.insert(d.message)
            if let n = counts[d.message], n > 1 { d.message += ", \(n) times; the first here" }
            out.append(d)
        }
        return out
    }

    /// `PATH: message (line L, column C)`.
    public var description: String {
        var s = path.isEmpty ? message : "\(path): \(message)"
        if let line, let column { s += " (line \(line), column \(column))" }
        return s
    }
}

/// The one public error type of SeatMap: a message for people, the file it
/// concerns (when there is one), and the individual diagnostics behind it.
public struct SeatMapError: Error, Sendable, CustomStringConvertible {
    /// At most this many diagnostics are listed; the rest are counted.
    public static let maxListed = 50

    /// The input or output file concerned, or nil.
    public var file: String?
    public var diagnostics: [Diagnostic]

    public init(file: String? = nil, diagnostics: [Diagnostic]) {
        self.file = file
        self.diagnostics = diagnostics
    }

    /// A single problem without a JSON location (bad option value, I/O error).
    public init(file: String? = nil, _ message: String) {
        self.init(file: file, diagnostics: [Diagnostic(path: "", message: message)])
    }

    /// Every listed diagnostic on its own line as `FILE: PATH: message`,
    /// then `and N more` when more than `maxListed` were found.
    public var message: String {
        let prefix = file.map { "\($0): " } ?? ""
        var lines = diagnostics.prefix(SeatMapError.maxListed).map { prefix + $0.description }
        if diagnostics.count > SeatMapError.maxListed {
            lines.append("\(prefix)and \(diagnostics.count - SeatMapError.maxListed) more")
        }
        return lines.joined(separator: "\n")
    }

    public var description: String { message }

    /// The error with the inputs it names said as a face names them (the
    /// CLI: `--zoom`; the HTTP service: the query parameter).
    public func naming(_ name: (String) -> String) -> SeatMapError {
        var e = self
        e.diagnostics = diagnostics.map { $0.naming(name) }
        return e
    }
}
