import SeatMapCore

/// A use case's failure: what kind it is (the CLI maps kinds to exit codes,
/// the HTTP service to statuses) and a message in the library's words.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Options or a request that do not fit together (exit 2, HTTP 400).
        case usage
        /// An input with errors: a hall, a batch file (exit 1, HTTP 422).
        case input
        /// No such show, hall or order (exit 1, HTTP 404).
        case notFound
        /// The state forbids it: another hall's show, seats no longer held,
        /// nothing to order (exit 1, HTTP 409).
        case conflict
        /// A back-office request without the right key (HTTP 401).
        case unauthorized
        /// The store cannot be reached or written (exit 1, HTTP 503).
        case unavailable
        /// A limit on tokens reached: the show's, or one client address's
        /// (exit 1, HTTP 429).
        case tooMany
    }

    public var kind: Kind
    public var message: String
    /// A conflict with a buyer who came first, worth trying again at once
    /// (best available's seats taken between its search and its hold).
    var raced = false

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The CLI's exit code for the kind.
    public var exitCode: Int32 { kind == .usage ? 2 : 1 }

    /// The HTTP status for the kind.
    public var httpStatus: Int {
        switch kind {
        case .usage: return 400
        case .input: return 422
        case .notFound: return 404
        case .conflict: return 409
        case .unauthorized: return 401
        case .unavailable: return 503
        case .tooMany: return 429
        }
    }
}
