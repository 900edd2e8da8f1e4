import Foundation

/// The route table: method + path pattern → handler. A pattern is a path
/// of segments; `:name` captures a segment, `:name.:ext` captures one split
/// at its last dot. A path that matches no pattern is 404; one whose
/// patterns do not take the method is 405 with `Allow`.
struct Router: Sendable {
    /// Where a route's work runs.
    enum Pool: Sendable {
        /// Answered on the I/O thread at once (never reads a file).
        case instant
        /// The pool of a thread a core (`--workers`), for work bound by the
        /// processor: images and pages, best available's search, a whole
        /// show's status or batches.
        case render
        /// The pool for everything else, which mostly waits on the store
        /// (hits, selections, orders): more threads than workers (see
        /// `SeatMapHTTPService.requestThreadsPerWorker`).
        case light
        /// Long polls: requests that may wait for a change.
        case wait
    }

    typealias Handler = @Sendable (HTTPRequest, Parameters) -> HTTPResponse

    struct Route: Sendable {
        var method: String
        var pattern: [String]
        var pool: Pool
        /// Back-office routes need the admin key (when the service has one).
        var admin: Bool
        /// What the OpenAPI document says of it.
        var doc: RouteDoc
        var handler: Handler
    }

    /// The captured segments of a matched path.
    struct Parameters: Sendable {
        var values: [String: String] = [:]
        subscript(_ name: String) -> String { values[name] ?? "" }
    }

    private(set) var routes: [Route] = []

    mutating func add(_ method: String, _ path: String, pool: Pool = .light, admin: Bool = false, _ doc: RouteDoc,
                      _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: path.split(separator: "/").map(String.init), pool: pool, admin: admin, doc: doc,
                            handler: handler))
    }

    /// The segments of a request path ("/a/b" → ["a", "b"]; empty segments kept).
    static func segments(_ path: String) -> [String] {
        Array(path.split(separator: "/", omittingEmptySubsequences: false).map(String.init).dropFirst())
    }

    /// The captures of `pattern` in `segments`, or nil when it does not match.
    static func match(_ pattern: [String], _ segments: [String]) -> Parameters? {
        guard pattern.count == segments.count else { return nil }
        var p = Parameters()
        for (want, got) in zip(pattern, segments) {
            if want.hasPrefix(":") {
                let name = String(want.dropFirst())
                if let dot = name.firstIndex(of: ".") {
                    guard let cut = got.lastIndex(of: "."), cut != got.startIndex else { return nil }
                    p.values[String(name[..<dot])] = String(got[..<cut])
                    p.values[String(name[name.index(after: dot)...]).replacingOccurrences(of: ":", with: "")] = String(got[got.index(after: cut)...])
                } else {
                    guard !got.isEmpty else { return nil }
                    p.values[name] = got
                }
            } else if want != got {
                return nil
            }
        }
        return p
    }

    /// What a request resolves to: a route and its captures, or the 404 /
    /// 405 answer. HEAD is answered by a GET route.
    func resolve(_ request: HTTPRequest) -> Result<(Route, Parameters), HTTPResponseError> {
        let segments = Router.segments(request.path)
        var allowed: [String] = []
        let method = request.method == "HEAD" ? "GET" : request.method
        // A pattern without a dot capture wins over one with (so
        // /shows/S/seats is never read as a render of "S/seats").
        for route in routes {
            guard let params = Router.match(route.pattern, segments) else { continue }
            if route.method == method { return .success((route, params)) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty {
            return .failure(HTTPResponseError(.error(404, "no such endpoint: \(request.method) \(request.path)")))
        }
        var r = HTTPResponse.error(405, "\(request.path) answers \(allowed.joined(separator: ", "))")
        r.headers.append(("Allow", (allowed.contains("GET") ? allowed + ["HEAD"] : allowed).joined(separator: ", ")))
        return .failure(HTTPResponseError(r))
    }
}

/// An HTTP answer carried as an error.
struct HTTPResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// One step of a request's way to its handler: it answers the request
/// itself, or calls `next` and may change what comes back. Steps compose
/// in order (`Middleware.run`), so each concern (screening, CORS, the admin
/// key, compression…) is one step, testable and reorderable on its own.
struct Middleware: Sendable {
    typealias Next = (HTTPRequest) -> HTTPResponse
    let name: String
    let step: @Sendable (HTTPRequest, Router, Next) -> HTTPResponse

    init(_ name: String, _ step: @escaping @Sendable (HTTPRequest, Router, Next) -> HTTPResponse) {
        self.name = name
        self.step = step
    }

    /// `request` through `steps` (the first outermost) to `handler`.
    static func run(_ steps: [Middleware], _ request: HTTPRequest, _ router: Router, _ handler: Next) -> HTTPResponse {
        func at(_ i: Int, _ request: HTTPRequest) -> HTTPResponse {
            guard i < steps.count else { return handler(request) }
            return steps[i].step(request, router) { at(i + 1, $0) }
        }
        return at(0, request)
    }
}
