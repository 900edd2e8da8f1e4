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

    /// A message naming inputs as `{{name}}` (in its literal text) keeps
    /// them marked in `template`; the values interpolated into it are
    /// never read as marks, whatever they hold.
    public init(path: String, message: Text, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.template = message.marksInputs ? message.template : nil
        self.message = Diagnostic.fill(message.template) { $0 }
        self.line = line
        self.column = column
    }

    /// A message: its literal text may mark inputs (`"use a lower {{zoom}}"`);
    /// interpolated values (a key, a file's text) are kept as they are.
    public struct Text: ExpressibleByStringInterpolation, Sendable, Equatable {
        /// The message with inputs marked `{{name}}` and each `{` of a value written `{{}}`.
        public private(set) var template: String

        public init(stringLiteral text: String) { template = text }

        /// Text taken as it is, marking nothing.
        public init(verbatim text: String) { template = Text.escaped(text) }

        public init(stringInterpolation: StringInterpolation) { template = stringInterpolation.template }

        init(template: String) { self.template = template }

        /// An input's mark, for a name known only at run time (`{{selected}}`).
        public static func input(_ name: String) -> Text { Text(template: "{{" + Text.escaped(name) + "}}") }

        public struct StringInterpolation: StringInterpolationProtocol {
            var template = ""
            public init(literalCapacity: Int, interpolationCount: Int) { template.reserveCapacity(literalCapacity) }
            public mutating func appendLiteral(_ literal: String) { template += literal }
            public mutating func appendInterpolation<T>(_ value: T) { template += Text.escaped(String(describing: value)) }
            /// Another message, its marks kept.
            public mutating func appendInterpolation(_ text: Text) { template += text.template }
        }

        /// The text says at least one input by its mark.
        var marksInputs: Bool {
            var found = false
            _ = Diagnostic.fill(template) { found = true; return $0 }
            return found
        }

        static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "{", with: "{{}}") }

        public static func + (a: Text, b: Text) -> Text {
            var t = a
            t.template += b.template
            return t
        }
    }

    /// A template with each `{{name}}` said as `name(name)` (and each
    /// escaped `{{}}` as `{`).
    public static func fill(_ template: String, _ name: (String) -> String) -> String {
        var out = "", rest = template[...]
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let word = rest[open.upperBound..<close.lowerBound]
            if word.isEmpty {
                out += rest[..<open.lowerBound] + "{"
                rest = rest[close.upperBound...]
                continue
            }
            guard word.allSatisfy({ $0.isLetter || $0 == "-" }) else {
                out += rest[..<open.upperBound]
                rest = rest[open.upperBound...]
                continue
            }
            out += rest[..<open.lowerBound] + name(String(word))
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The message as a text, its marks kept.
    public var text: Text { template.map { Text(template: $0) } ?? Text(verbatim: message) }

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
            if let n = counts[d.message], n > 1 {
                d.message += ", \(n) times; the first here"
                d.template? += ", \(n) times; the first here"
            }
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
    public init(file: String? = nil, _ message: Diagnostic.Text) {
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
