import CZlib
import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

/// The HTTP face: each route parses its request into the service's typed
/// options and requests, calls the service, and answers its result JSON
/// or its error kind as a status. No handler builds an argv.
struct Controller: Sendable {
    let halls: HallFolder
    /// The show use cases (nil: no store, the show endpoints answer 409).
    let shows: ShowService?
    let adminKey: String?
    /// Other origins whose pages may call the service (CORS), besides its own.
    var allowedOrigins: Set<String> = []
    /// The largest image one request may have rendered (`--max-image-megapixels`).
    var maxImagePixels = SeatMapHTTPService.defaultMaxImagePixels
    /// Host names the service answers to besides IP literals and `localhost`.
    var allowedHosts: Set<String> = []
    /// Proxies (a load balancer's addresses) whose `X-Forwarded-For` names
    /// the client: a request from one is the client's it names.
    var trustedProxies: Set<String> = []
    let health: StoreHealth
    let changes: ShowChanges
    let cache = RenderCache()
    let showHalls = ShowHalls()

    /// The route table: each route's pool, guard, OpenAPI description and handler.
    func routes() -> Router {
        typealias D = RouteDoc
        var r = Router()
        r.add("GET", "/healthz", pool: .instant, D(summary: "Whether the service and its store answer", answer: .json(HTTPAPI.health))) { _, _ in
            self.healthAnswer()
        }
        r.add("GET", "/openapi.json", pool: .instant, D(summary: "This document", answer: .json(APISchema.anyObject))) { _, _ in
            self.openAPI()
        }
        // The plans.
        r.add("GET", "/halls", D(summary: "The halls the service serves, each with its summary or why it cannot be read",
                                 answer: .json(APISchema.array(HTTPAPI.hallSummary)))) { _, _ in self.hallList() }
        r.add("GET", "/halls/:hall.:ext", pool: .render,
              D(summary: "The hall drawn as PNG, SVG, PDF or the picker page", query: D.parameters(Controller.renderOptions),
                answer: .image, statuses: [304: "the client's copy (If-None-Match) is current"])) { req, p in
            self.hallImage(p["hall"], p["ext"], req)
        }
        r.add("GET", "/halls/:hall/picker", pool: .render,
              D(summary: "The hall's seat-picker page", query: D.parameters(Controller.pickerOptions), answer: .html,
                statuses: [304: "the client's copy (If-None-Match) is current"])) { req, p in self.hallPicker(p["hall"], req) }
        r.add("POST", "/halls/:hall/hit", D(summary: "What each view point lands on", body: HTTPAPI.hitBody(token: false),
                                             answer: .json(APISchema.array(HTTPAPI.hit)))) { req, p in self.hallHit(p["hall"], req) }
        r.add("POST", "/halls/:hall/status", D(summary: "Gone: status batches change a show (POST /shows/{show}/status)",
                                                body: .object([]), answer: .json(OpenAPI.errorSchema))) { _, p in
            .error(410, "status batches change a show, not its hall's plan: POST /shows/SHOW/status (hall \(p["hall"]))")
        }
        // The shows.
        r.add("POST", "/shows/:show", pool: .render, admin: true,
              D(summary: "Creates a show of a hall (200 when it exists with the same hall and rules, 409 otherwise)",
                body: HTTPAPI.createBody, answer: .json(HTTPAPI.created), statuses: [201: "created"])) { req, p in
            self.createShow(p["show"], req)
        }
        r.add("GET", "/shows/:show.:ext", pool: .render,
              D(summary: "The show drawn with its statuses (the token's own seats selected)",
                query: D.parameters([ShowRequests.viewer] + Controller.renderOptions),
                answer: .image, statuses: [304: "the client's copy (If-None-Match) is current"])) { req, p in
            self.showImage(p["show"], p["ext"], req)
        }
        r.add("GET", "/shows/:show/seats", pool: .wait,
              D(summary: "Every seat's status for a buyer, or with since only the changes after a sequence",
                description: "With wait (1 to 30 s) the answer waits for a change: after since, or from the state If-None-Match names.",
                query: D.parameters(ShowRequests.seats), answer: .json(APISchema.anyOf([HTTPAPI.seats, HTTPAPI.delta])),
                statuses: [304: "nothing changed within wait"])) { req, p in self.showSeats(p["show"], req) }
        r.add("GET", "/shows/:show/status", pool: .render, admin: true,
              D(summary: "The show's whole state for the back office", answer: .json(HTTPAPI.status))) { _, p in self.showStatus(p["show"]) }
        r.add("GET", "/shows/:show/picker", pool: .render,
              D(summary: "The show's seat-picker page",
                query: D.parameters([Controller.pageToken] + Controller.pickerOptions), answer: .html,
                statuses: [304: "the client's copy (If-None-Match) is current"])) { req, p in self.showPicker(p["show"], req) }
        r.add("POST", "/shows/:show/select", D(summary: "Holds or gives back seats and standing places under a token",
                                                body: HTTPAPI.selectBody, answer: .json(HTTPAPI.selection))) { req, p in
            self.select(p["show"], req)
        }
        // Its search is processor work: as many at once as cores, so that a rush
        // neither thrashes the processors nor multiplies searches of the same seats.
        r.add("POST", "/shows/:show/best", pool: .render, D(summary: "Holds the best N seats under a token", body: HTTPAPI.bestBody,
                                                            answer: .json(HTTPAPI.best))) { req, p in self.best(p["show"], req) }
        r.add("POST", "/shows/:show/hit", D(summary: "What each view point lands on, with the show's statuses for a buyer",
                                             body: HTTPAPI.hitBody(token: true), answer: .json(APISchema.array(HTTPAPI.hit)))) { req, p in
            self.showHit(p["show"], req)
        }
        r.add("POST", "/shows/:show/order", admin: true,
              D(summary: "Sells a token's held seats once (repeating the order id sells nothing more)", body: HTTPAPI.orderBody,
                answer: .json(HTTPAPI.order))) { req, p in self.order(p["show"], req) }
        r.add("POST", "/shows/:show/channels/:channel", pool: .render, admin: true,
              D(summary: "Reserves seats for a sales channel, releases them, or opens the channel's token", body: HTTPAPI.channelBody,
                answer: .json(HTTPAPI.channel), statuses: [201: "the channel's token"])) { req, p in
            self.channel(p["show"], p["channel"], req)
        }
        r.add("POST", "/shows/:show/status", pool: .render, admin: true,
              D(summary: "Applies status batches (each batch id once)", query: D.parameters(GeometryOptions.table),
                body: APISchema.oneOf([HTTPAPI.batch, APISchema.array(HTTPAPI.batch, max: 10_000)]),
                answer: .json(APISchema.array(APISchema.anyObject)))) { req, p in self.statusBatches(p["show"], req) }
        return r
    }

    /// GET /openapi.json: the document of this route table (made once).
    func openAPI() -> HTTPResponse {
        .json(200, Controller.openAPIDocument)
    }
    static let openAPIDocument = OpenAPI.document(Controller.documentedRoutes)
    /// The routes as documented (no handler runs: a controller without halls or store).
    static var documentedRoutes: Router {
        Controller(halls: HallFolder(""), shows: nil, adminKey: nil, health: StoreHealth(), changes: ShowChanges()).routes()
    }

    /// The steps every request passes, outermost first: screening, the
    /// CORS preflight, CORS headers, HEAD, compression, the admin key and
    /// the image size cap, then the route's handler.
    var middleware: [Middleware] {
        [
            Middleware("screening") { request, _, next in self.screen(request) ?? next(request) },
            Middleware("preflight") { request, router, next in
                request.method == "OPTIONS" ? self.preflight(request, router) : next(request)
            },
            Middleware("cors") { request, _, next in
                var response = next(request)
                if let origin = request.headers["origin"], self.allowedOrigins.contains(origin) {
                    response.headers += [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
                }
                return response
            },
            Middleware("head") { request, _, next in
                var response = next(request)
                if request.method == "HEAD" { response.body = [] }
                return response
            },
            Middleware("compression") { request, _, next in Controller.compressed(next(request), request, cache: self.cache) },
            Middleware("admin key") { request, _, next in
                if case .success(let (route, _))? = request.route, route.admin, let refusal = self.authorize(request) {
                    return refusal
                }
                return next(request)
            },
            Middleware("image cap") { request, _, next in Renderer.$pixelLimit.withValue(self.maxImagePixels) { next(request) } },
        ]
    }

    /// Runs the request through the middleware to its route's handler; the
    /// route is resolved once (the server's lane has done it already).
    func answer(_ request: HTTPRequest, _ router: Router) -> HTTPResponse {
        var resolved = request
        if resolved.route == nil { resolved.route = router.resolve(request) }
        return Middleware.run(middleware, resolved, router) { request in
            switch request.route ?? router.resolve(request) {
            case .failure(let e): return e.response
            case .success(let (route, params)): return route.handler(request, params)
            }
        }
    }

    /// The refusal for a request that must not reach a handler: a Host the
    /// service does not answer to (421: DNS rebinding), a NUL, control
    /// character or bad %-escape in the path or a query parameter (400), a
    /// state-changing request that is not JSON (415) or comes from a page
    /// of another origin (403: a cross-site request).
    func screen(_ request: HTTPRequest) -> HTTPResponse? {
        if let host = request.headers["host"], !answersTo(host) {
            return .error(421, "this service does not answer to the host \"\(Controller.printable(host))\" (seatmap serve --allowed-host NAME)")
        }
        if Controller.hasControl(request.path) {
            return .error(400, "the path has a NUL, a control character or a malformed %-escape")
        }
        for (key, value) in request.query where Controller.hasControl(key) || Controller.hasControl(value) {
            return .error(400, "query parameter \"\(Controller.printable(key))\": a NUL, a control character or a malformed %-escape")
        }
        guard request.method == "POST" else { return nil }
        let type = (request.headers["content-type"] ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/json" else {
            return .error(415, "a POST body must be sent as Content-Type: application/json")
        }
        if let origin = request.headers["origin"], !sameOrigin(origin, request), !allowedOrigins.contains(origin) {
            return .error(403, "a request from the page at \(Controller.printable(origin)) is refused: that origin is not this service's (seatmap serve --allowed-origin)")
        }
        if request.headers["origin"] == nil, request.headers["sec-fetch-site"] == "cross-site" {
            return .error(403, "a cross-site request is refused")
        }
        return nil
    }

    /// CORS preflight: answered for the origins listed, refused otherwise.
    func preflight(_ request: HTTPRequest, _ router: Router) -> HTTPResponse {
        guard let origin = request.headers["origin"], allowedOrigins.contains(origin) || sameOrigin(origin, request) else {
            return .error(403, "cross-origin requests are allowed only from the origins given to --allowed-origin")
        }
        var probe = request
        probe.method = request.headers["access-control-request-method"] ?? "GET"
        if case .failure(let e) = router.resolve(probe) { return e.response }
        return HTTPResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
            ("Access-Control-Allow-Methods", "GET, HEAD, POST"),
            ("Access-Control-Allow-Headers", "Content-Type, Authorization, If-None-Match"),
            ("Access-Control-Expose-Headers", "ETag"),
            ("Access-Control-Max-Age", "600"),
        ])
    }

    /// Whether a Host header names this service: an IP literal (no DNS
    /// name to rebind), `localhost`, or a name given to `--allowed-host`.
    func answersTo(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if let colon = name.lastIndex(of: ":"), name.firstIndex(of: ":") == colon {
            name = String(name[..<colon])
        }
        if name == "localhost" || allowedHosts.contains(name) { return true }
        return Controller.isIPLiteral(name)
    }

    /// Whether text is an IPv4 or IPv6 address literal.
    package static func isIPLiteral(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Whether `origin` is the page's own: the scheme-less host it was sent to.
    func sameOrigin(_ origin: String, _ request: HTTPRequest) -> Bool {
        guard let host = request.headers["host"] else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    static func hasControl(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Text quoted in a message: control characters shown as `\u{N}`.
    static func printable(_ s: String) -> String {
        String(s.prefix(200).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined())
    }

    /// Nil when the request may use a back-office route, else the 401.
    func authorize(_ request: HTTPRequest) -> HTTPResponse? {
        guard let adminKey else { return nil }
        let given = request.headers["authorization"] ?? ""
        let expected = "Bearer " + adminKey
        // Compared in time independent of where they differ.
        let a = Array(given.utf8), b = Array(expected.utf8)
        var diff = a.count ^ b.count
        for i in 0..<b.count { diff |= Int((i < a.count ? a[i] : 0) ^ b[i]) }
        if diff == 0 { return nil }
        var r = HTTPResponse.error(401, given.isEmpty
            ? "this request needs the back office's key: Authorization: Bearer KEY"
            : "the key in Authorization is not the back office's")
        r.headers.append(("WWW-Authenticate", "Bearer realm=\"seatmap\""))
        return r
    }

    // MARK: Helpers

    /// A service error, a usage error or an input error as its answer.
    func failure(_ error: Error) -> HTTPResponse {
        switch error {
        case let e as ServiceError: return .error(e.httpStatus, halls.clean(e.message))
        case let e as UsageError: return .error(400, halls.clean(e.naming(InputNames.option)))
        case let e as SeatMapError: return .error(422, halls.clean(e.naming(InputNames.option).message))
        case let e as HTTPResponseError: return e.response
        default: return .error(500, "\(error)")
        }
    }

    /// A picker page's handler: a link a buyer followed that names no show
    /// or hall (404), or has a parameter the page cannot take (400), is
    /// answered to a browser (`Accept: text/html`) with a page saying so in
    /// the buyer's language (`?locale=`, else `Accept-Language`, else
    /// English), never the JSON error; other clients get the JSON error.
    func pickerAttempt(_ request: HTTPRequest, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        let answer = attempt(body)
        guard answer.status == 404 || answer.status == 400,
              (request.headers["accept"] ?? "").split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("text/html") })
        else { return answer }
        let asked = request.query.last(where: { $0.0 == LocaleOptions.option.name })?.1
        let locale = PickerPage.buyerLocale(asked: asked, acceptLanguage: request.headers["accept-language"])
        let page = PickerPage.errorPage(locale.text(answer.status == 404 ? "picker.noShow" : "picker.badLink"), locale: locale)
        return HTTPResponse(status: answer.status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")] + pageHeaders(),
                            body: Array(page.utf8))
    }

    /// Runs a handler body, its thrown errors as answers.
    func attempt(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do { return try body() } catch { return failure(error) }
    }

    func requireShows() throws -> ShowService {
        guard let shows else { throw HTTPResponseError(.error(409, "this service runs without --store: shows need one")) }
        return shows
    }

    /// The JSON object of a request body; members named twice are refused.
    static func object(_ request: HTTPRequest) throws -> [JSONMember] {
        let body: JSONNode
        do { body = try JSONParser.parse(request.body) } catch {
            throw HTTPResponseError(.error(400, "the body is not JSON: \(error.message)"))
        }
        guard case .object(let members) = body.value else { throw HTTPResponseError(.error(400, "the body must be a JSON object")) }
        var seen: Set<String> = []
        for m in members where !seen.insert(m.key).inserted {
            throw HTTPResponseError(.error(400, "\"\(m.key)\" is given twice"))
        }
        return members
    }

    /// The themes a request may name: the service's own, by name only (a
    /// path would let a client make the service open any file).
    static let themeNames: Set<String> = Set(Theme.available().map(\.name))

    /// A request's query parameters, decoded against `options`.
    static func arguments(_ pairs: [(String, String)], _ options: [CommandSpec.Option]) throws -> Arguments {
        guard pairs.count <= 64 else { throw UsageError(message: "too many parameters (\(pairs.count); at most 64)") }
        return try screened(try Arguments(named: pairs, spec: CommandSpec(name: "", usage: "", summary: "", options: options)))
    }

    /// A request's JSON body, decoded against `options` (members camel-cased).
    static func body(_ request: HTTPRequest, _ options: [CommandSpec.Option]) throws -> Arguments {
        try screened(try Arguments(json: try object(request), spec: CommandSpec(name: "", usage: "", summary: "", options: options)))
    }

    /// The options with a theme, if any, one of the service's own.
    static func screened(_ a: Arguments) throws -> Arguments {
        if let theme = a.value("theme"), !themeNames.contains(theme) {
            throw UsageError(message: "\(a.say("theme")): one of \(themeNames.sorted().joined(separator: ", ")), got \"\(theme)\"")
        }
        return a
    }

    /// `hall` in a select's body: the hall the client believes the show is of (checked).
    static let hallCheck = CommandSpec.Option.value("hall", "NAME", "The show's hall, checked (409 when it is another).")

    /// `token` in a show's picker address: read by the page itself (the page's bytes are every buyer's).
    static let pageToken = CommandSpec.Option.value("token", "T", "Read by the page from its own address: the buyer's hold token.")

    /// A hit's members: the geometry and view options by their own names
    /// (`pin-row-labels`, as the query parameters), and the points.
    static let hitOptions = (GeometryOptions.table + HitQuery.options).map(\.namedAsIs) + [ShowRequests.points]

    static let renderOptions = GeometryOptions.table + ImageOptions.table
    static let pickerOptions = renderOptions.filter { $0.name != "page" && $0.name != "png-compression" }

    /// An image answer with its ETag; 304 when the client has it.
    static func image(_ bytes: [UInt8], _ format: OutputFormat, _ request: HTTPRequest, extra: [(String, String)] = []) -> HTTPResponse {
        let etag = "\"" + contentHash(bytes) + "\""
        let headers = [("Content-Type", format.mimeType), ("ETag", etag), ("Cache-Control", "no-cache")] + extra
        if matches(request, etag) {
            return HTTPResponse(status: 304, headers: headers.filter { $0.0 != "Content-Type" })
        }
        return HTTPResponse(status: 200, headers: headers, body: bytes)
    }

    /// Whether the request's If-None-Match names `etag` (strong or weak,
    /// of the bytes as they are or gzipped, or `*`).
    static func matches(_ request: HTTPRequest, _ etag: String) -> Bool {
        guard let header = request.headers["if-none-match"] else { return false }
        let gz = String(etag.dropLast()) + gzipSuffix + "\""
        return header.split(separator: ",").contains {
            let t = $0.trimmingCharacters(in: .whitespaces)
            return t == "*" || t == etag || t == "W/" + etag || t == gz || t == "W/" + gz
        }
    }

    /// The picker page's headers: which pages may frame it (its own and the
    /// listed origins: no clickjacking from others), and that it fetches
    /// nothing from elsewhere.
    func pageHeaders() -> [(String, String)] {
        let ancestors = (["'self'"] + allowedOrigins.sorted()).joined(separator: " ")
        return [("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors \(ancestors)"),
                ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin")]
    }

    static let gzipSuffix = "-gz"
    /// Text answers of 1 KiB or more are sent gzipped to a client that
    /// accepts it (`Vary: Accept-Encoding`); the ETag of the gzipped bytes
    /// is the plain one with "-gz". Large bodies' gzipped forms are kept by
    /// their ETag, so a page is compressed once, not per buyer.
    static func compressed(_ response: HTTPResponse, _ request: HTTPRequest, cache: RenderCache) -> HTTPResponse {
        guard response.body.count >= 1024, response.status == 200 || response.status >= 400,
              let type = response.headers.first(where: { $0.0 == "Content-Type" })?.1,
              type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("image/svg+xml"),
              !response.headers.contains(where: { $0.0 == "Content-Encoding" }) else { return response }
        var r = response
        r.headers.append(("Vary", "Accept-Encoding"))
        guard acceptsGzip(request.headers["accept-encoding"]) else { return r }
        let etag = r.headers.firstIndex { $0.0 == "ETag" }
        let key = etag.map { "gzip\u{0}" + r.headers[$0].1 }
        if let key, response.body.count >= 64 << 10, let cached = cache.get(key) {
            r.body = cached
        } else {
            guard let packed = gzip(response.body) else { return r }
            if let key, response.body.count >= 64 << 10 { cache.put(key, packed) }
            r.body = packed
        }
        r.headers.append(("Content-Encoding", "gzip"))
        if let etag { r.headers[etag].1 = String(r.headers[etag].1.dropLast()) + gzipSuffix + "\"" }
        return r
    }

    /// Whether an Accept-Encoding header takes gzip (and not with q=0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.lowercased().split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = fields.first, name == "gzip" || name == "*" else { continue }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
        return false
    }

    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: seatmap_gzip_bound(bytes.count))
        let n = bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { seatmap_gzip(src.baseAddress, src.count, $0.baseAddress, $0.count) }
        }
        guard n > 0 else { return nil }
        out.removeSubrange(n...)
        return out
    }

    /// A hex digest of the bytes for the ETag (FNV-1a, 64 bits, twice with
    /// different offsets: collisions between two renders are not a concern
    /// at 128 bits).
    static func contentHash(_ bytes: [UInt8]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01B3
        }
        return String(format: "%016llx%016llx", a, b)
    }

    static func format(_ ext: String, _ request: HTTPRequest) throws -> OutputFormat {
        guard let format = OutputFormat.named(ext) else {
            throw HTTPResponseError(.error(404, "no such endpoint: \(request.path) (images are \(OutputFormat.list(prefix: ".")))"))
        }
        return format
    }

    // MARK: Health and halls

    /// 200 `{"status": "ok"}`; 503 `{"status": "degraded", "storeError"}`
    /// while the store cannot be reached (plan renders still work).
    func healthAnswer() -> HTTPResponse {
        var members: [(String, JSONNode)] = [("mode", .string(adminKey == nil ? "open" : "admin-key")), ("store", .bool(shows != nil))]
        if shows != nil, let problem = health.storeProblem {
            members = [("status", .string("degraded"))] + members + [("storeError", .string(problem))]
            return .json(503, .object(members))
        }
        return .json(200, .object([("status", .string("ok"))] + members))
    }

    func hallList() -> HTTPResponse {
        var items: [JSONNode] = []
        for name in halls.names() {
            var members = [JSONMember("hall", JSONNode(.string(name)))]
            switch halls.plan(name) {
            case .success(let (plan, _)):
                if case .object(let more) = HallSummary(plan.hall).json.value { members += more }
            case .failure(let e):
                if let error = (try? JSONParser.parse(e.response.body)).flatMap({ node -> String? in
                    if case .object(let m) = node.value, let first = m.first(where: { $0.key == "error" }), case .string(let s) = first.node.value { return s }
                    return nil
                }) { members.append(JSONMember("error", JSONNode(.string(error)))) }
            }
            items.append(JSONNode(.object(members)))
        }
        return .json(200, JSONNode(.array(items)))
    }

    func hallImage(_ name: String, _ ext: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let format = try Controller.format(ext, request)
            let (plan, path) = try halls.plan(name).get()
            let settings = try ImageOptions.settings(try Controller.arguments(request.query, Controller.renderOptions))
            // Same file (inode, size, modification time), same options: the same bytes.
            let key = RenderCache.key(path: path, parts: [format.name] + request.query.map { "\($0.0)=\($0.1)" })
            if let key, let cached = cache.get(key) { return Controller.image(cached, format, request) }
            let bytes = try HallImage.bytes(plan.hall, format: format, settings)
            if let key { cache.put(key, bytes) }
            return Controller.image(bytes, format, request)
        }
    }

    /// GET /halls/NAME/picker: the plan's picker page (toggles only
    /// announced to the host page: no show to hold seats in).
    func hallPicker(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        pickerAttempt(request) {
            let (plan, path) = try halls.plan(name).get()
            return try picker(plan, path: path, query: request.query, endpoint: nil, request)
        }
    }

    /// A picker page, kept by the hall file's identity and the options (the
    /// same bytes for every buyer: statuses and tokens are fetched by the page).
    func picker(_ plan: HallPlan, path: String, query: [(String, String)], endpoint: PickerEndpoint?, _ request: HTTPRequest) throws -> HTTPResponse {
        let settings = try ImageOptions.settings(try Controller.arguments(query, Controller.pickerOptions))
        let parts = ["picker", endpoint?.show ?? "", endpoint?.order ?? "", allowedOrigins.sorted().joined(separator: " ")] + query.map { "\($0.0)=\($0.1)" }
        let key = RenderCache.key(path: path, parts: parts)
        if let key, let cached = cache.get(key) { return Controller.image(cached, .html, request, extra: pageHeaders()) }
        let bytes = try HallImage.bytes(plan.hall, format: .html, settings, picker: endpoint)
        if let key { cache.put(key, bytes) }
        return Controller.image(bytes, .html, request, extra: pageHeaders())
    }

    func hallHit(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (plan, _) = try halls.plan(name).get()
            let r = try ShowRequests.hit(try Controller.body(request, Controller.hitOptions))
            let (layout, results) = try HitQuery.hit(plan.hall, r.view, points: r.points)
            return Controller.compact(.array(zip(r.points, results).map { ResultJSON.hitJSON($0, $1, layout) }))
        }
    }
}
