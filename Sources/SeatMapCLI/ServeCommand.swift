import Dispatch
import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapStore

extension SeatMapCLI {
    static let serveCommand = Command(
        spec: CommandSpec(
            name: "serve",
            usage: "serve --halls DIR [--store DB] [--host 127.0.0.1] [--port 8080] [--workers N]",
            summary: "An HTTP service: the halls in DIR rendered, hit-tested and summarised over HTTP/1.1.",
            options: [
                .value("halls", "DIR", "The hall files served: DIR/NAME.json is the hall NAME."),
                .value("store", "DB", "The selection store (SQLite): held selections, confirmed orders, applied status batches."),
                .value("host", "IP", "The address to listen on, an IPv4 or IPv6 literal (default 127.0.0.1)."),
                .value("port", "N", "The port (default 8080; 0 picks a free one, printed at start)."),
                .value("workers", "N", "Requests worked on at once (default: the number of cores)."),
            ],
            details: """
            Endpoints (README "The HTTP service" has curl examples):
              GET  /healthz                      {"status": "ok"}
              GET  /halls                        every hall's summary, as `info --json`, with its name
              GET  /halls/NAME.png|.svg|.pdf|.html  the same bytes as `render`; query parameters are its options
                                                 (zoom, fit, scale, theme, no-header, no-legend, locale, viewport,
                                                 offset, minimap, pin-row-labels, select, highlight, ticket,
                                                 show-occupancy, page, png-compression, svg-text); ETag from the
                                                 content, If-None-Match answered 304, Cache-Control: no-cache
              GET  /halls/NAME/picker?show=SHOW  the picker page, its toggles sent to /shows/SHOW/select
              POST /halls/NAME/hit               {"points": [[x, y], ...], "zoom": 2, ...}: the JSON of `hit --json`
              POST /shows/SHOW/select            {"hall": NAME, "toggle": [ids], "holdSeconds": 600}: the JSON of
                                                 `select --store DB --show SHOW --json` (the hold kept in the store)
              POST /shows/SHOW/order             {"hall": NAME}: the held seats become sold in DIR/NAME.json
              POST /halls/NAME/status            status batches as `apply` reads them: applied to DIR/NAME.json,
                                                 each batch id once (the store remembers them)
            Errors are JSON {"error", "status"} with the CLI's message: 400 bad parameters, 404 unknown hall or
            path, 405 wrong method, 413 body over 1 MiB, 422 a hall file with errors, 503 over 512 requests waiting.
            One log line per request on standard error. Stops on SIGINT or SIGTERM.
            """),
        run: { args, console in
            _ = try positionals(args, [])
            guard let dir = args.value("halls") else { throw UsageError(message: "missing --halls DIR") }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw SeatMapError(file: dir, "is not a folder")
            }
            let host = args.value("host") ?? "127.0.0.1"
            let port = try args.int("port", in: 0...65535) ?? 8080
            let workers = try args.int("workers", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
            let service = try SeatMapService(halls: dir, store: args.value("store"), host: host, port: UInt16(port), workers: workers,
                                             log: { console.err($0) })
            console.out("seatmap serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(service.port) (halls in \(dir), \(workers) workers)")
            // Serve until SIGINT or SIGTERM (main's handlers end the process).
            let forever = DispatchSemaphore(value: 0)
            forever.wait()
            service.stop()
            return 0
        })
}

/// `seatmap serve` as a library: the HTTP service over a folder of halls,
/// listening from `init` until `stop()` (tests and embedding programs).
public final class SeatMapService: @unchecked Sendable {
    private let server: HTTPServer
    /// The port listened on (the one picked when 0 was asked for).
    public var port: UInt16 { server.port }

    public init(halls folder: String, store: String? = nil, host: String = "127.0.0.1", port: UInt16 = 0, workers: Int = 2,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws(SeatMapError) {
        if let store { _ = try SeatStore(path: store) }  // created (or its problem reported) at start
        let service = HallService(folder: folder, store: store)
        server = try HTTPServer(host: host, port: port, workers: workers, log: log, instant: HallService.isInstant,
                                heavy: HallService.isRender) { service.respond($0) }
    }

    public func stop() { server.stop() }
}

/// The routes of `seatmap serve` over a folder of hall files. Every answer
/// is produced by the code the CLI runs for the same options (option
/// parsing included), so the bytes and the messages are the CLI's.
struct HallService: Sendable {
    let folder: String
    /// The SQLite store for selections, orders and status batches (nil:
    /// those endpoints answer 409).
    var store: String? = nil
    /// One writer at a time per hall file (in this process).
    let locks = HallLocks()
    /// Recent renders by file identity and options.
    let cache = RenderCache()

    /// The query parameters a render takes: `render`'s options that shape
    /// the image (not its output or batch options).
    static let renderParameters: Set<String> = [
        "zoom", "fit", "scale", "theme", "no-header", "no-legend", "locale", "viewport", "offset", "minimap",
        "pin-row-labels", "select", "highlight", "ticket", "show-occupancy", "page", "png-compression", "svg-text",
    ]
    /// The JSON members a hit request takes besides `points`.
    static let hitParameters: Set<String> = [
        "zoom", "fit", "scale", "theme", "no-header", "no-legend", "locale", "viewport", "offset", "slop", "pin-row-labels",
    ]

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        let parts = Array(request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init).dropFirst())
        let method = request.method
        if parts == ["healthz"] {
            guard method == "GET" || method == "HEAD" else { return HallService.notAllowed(request.path, "GET, HEAD") }
            return .json(200, JSONNode(.object([JSONMember("status", JSONNode(.string("ok")))])))
        }
        if parts == ["halls"] {
            guard method == "GET" || method == "HEAD" else { return HallService.notAllowed(request.path, "GET, HEAD") }
            return halls()
        }
        if parts.count == 2, parts[0] == "halls", parts[1].contains(".") {
            guard method == "GET" || method == "HEAD" else { return HallService.notAllowed(request.path, "GET, HEAD") }
            return render(parts[1], request)
        }
        if parts.count == 3, parts[0] == "halls", parts[2] == "hit" {
            guard method == "POST" else { return HallService.notAllowed(request.path, "POST") }
            return hit(parts[1], request)
        }
        if parts.count == 3, parts[0] == "halls", parts[2] == "picker" {
            guard method == "GET" || method == "HEAD" else { return HallService.notAllowed(request.path, "GET, HEAD") }
            return picker(parts[1], request)
        }
        if parts.count == 3, parts[0] == "halls", parts[2] == "status" {
            guard method == "POST" else { return HallService.notAllowed(request.path, "POST") }
            return status(parts[1], request)
        }
        if parts.count == 3, parts[0] == "shows", parts[2] == "select" || parts[2] == "order" {
            guard method == "POST" else { return HallService.notAllowed(request.path, "POST") }
            return parts[2] == "select" ? select(parts[1], request) : order(parts[1], request)
        }
        return .error(404, "no such endpoint: \(method) \(request.path)")
    }

    /// 405 with the methods the path answers (`Allow`).
    static func notAllowed(_ path: String, _ allow: String) -> HTTPResponse {
        var r = HTTPResponse.error(405, "\(path) answers \(allow.replacingOccurrences(of: ", HEAD", with: ""))")
        r.headers.append(("Allow", allow))
        return r
    }

    /// Whether a request is cheap enough to answer on the I/O thread (no
    /// file is read: it can never wait behind a render).
    static func isInstant(_ request: HTTPRequest) -> Bool { request.path == "/healthz" }

    /// Whether a request renders an image or page (the render pool); the
    /// rest (hit tests, selections, orders, statuses) has a pool of its own,
    /// so renders never hold up a selection.
    static func isRender(_ request: HTTPRequest) -> Bool {
        request.method != "POST" && request.path.hasPrefix("/halls/") && (request.path.contains(".") || request.path.hasSuffix("/picker"))
    }

    /// The JSON object of a request body, or the 400 answer.
    static func object(_ request: HTTPRequest) -> Result<[JSONMember], HTTPResponseError> {
        let body: JSONNode
        do { body = try JSONParser.parse(request.body) } catch {
            return .failure(HTTPResponseError(.error(400, "the body is not JSON: \(error.message)")))
        }
        guard case .object(let members) = body.value else { return .failure(HTTPResponseError(.error(400, "the body must be a JSON object"))) }
        var seen: Set<String> = []
        for m in members where !seen.insert(m.key).inserted {
            return .failure(HTTPResponseError(.error(400, "\"\(m.key)\" is given twice")))
        }
        return .success(members)
    }

    /// The store's key for a show's hold: the show in its hall, so an order
    /// can only sell what was selected in the hall it names.
    static func holdKey(show: String, hall: String) -> String { "\(hall)/\(show)" }

    /// A show id: what a hall name may be.
    static func showID(_ s: String) -> HTTPResponse? {
        isHallName(s) ? nil : .error(400, "a show id is letters, digits, -, _ and . (not leading): \"\(s)\"")
    }

    /// POST /shows/SHOW/select: `{"hall", "toggle": [ids], "holdSeconds"?, "locale"?, "singleSeatRule"?}`.
    func select(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        if let bad = HallService.showID(show) { return bad }
        guard let store else { return .error(409, "this service runs without --store: selections need one") }
        let members: [JSONMember]
        switch HallService.object(request) {
        case .success(let m): members = m
        case .failure(let e): return e.response
        }
        var hall: String?, toggles: [String] = [], extra: [String] = []
        for m in members {
            switch (m.key, m.node.value) {
            case ("hall", .string(let h)): hall = h
            case ("toggle", .array(let ids)):
                for (i, id) in ids.enumerated() {
                    guard case .string(let text) = id.value, !text.isEmpty, !text.contains(","), !text.hasPrefix("-") else {
                        return .error(400, "toggle[\(i)]: expected a seat id such as \"1-3-5\"")
                    }
                    toggles.append(text)
                }
            case ("holdSeconds", .number(let n)):
                guard let v = Double(n), v >= 1, v <= 3600 else { return .error(400, "holdSeconds: expected 1 to 3600 seconds, got \(n)") }
                extra += ["--hold-ttl", n]
            case ("locale", .string(let l)):
                do { try HallService.checkValue("locale", l) } catch { return .error(400, error.message) }
                extra += ["--locale", l]
            case ("singleSeatRule", .bool(let b)): if !b { extra.append("--no-single-seat-rule") }
            default: return .error(400, "\(m.key): unknown member or wrong type (known: hall, toggle, holdSeconds, locale, singleSeatRule)")
            }
        }
        guard let hall else { return .error(400, "missing \"hall\": the hall's name") }
        guard !toggles.isEmpty, toggles.count <= 1000 else { return .error(400, "toggle: expected 1 to 1000 seat ids") }
        // The hall file is read while no status batch or order is rewriting it.
        return withHall(hall) { path in
            locks.with(hall) {
                runJSON(["select", path, "--store", store, "--show", HallService.holdKey(show: show, hall: hall), "--json",
                         "--toggle", toggles.joined(separator: ",")] + extra, rename: ["hold-ttl": "holdSeconds"])
            }
        }
    }

    /// POST /shows/SHOW/order `{"hall"}`: the show's held seats become sold
    /// in the hall file, and the hold is cleared. 409 when nothing is held
    /// or a held seat was sold in the meantime ("seat just sold").
    func order(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        if let bad = HallService.showID(show) { return bad }
        guard let store else { return .error(409, "this service runs without --store: orders need one") }
        var hallName: String?
        switch HallService.object(request) {
        case .success(let members):
            for m in members {
                guard m.key == "hall", case .string(let h) = m.node.value else { return .error(400, "\(m.key): unknown member (known: hall)") }
                hallName = h
            }
        case .failure(let e): return e.response
        }
        guard let hallName else { return .error(400, "missing \"hall\": the hall's name") }
        return withHall(hallName) { path in
            locks.with(hallName) {
                do {
                    let db = try SeatStore(path: store)
                    let hall = try Files.readHall(path)
                    let key = HallService.holdKey(show: show, hall: hallName)
                    let held = try db.heldSeats(show: key).filter { !$0.hasPrefix("area:") }
                    guard !held.isEmpty else {
                        return .error(409, "show \(show) holds no seats in \(hallName) (select them there first, within the hold time)")
                    }
                    let gone = held.filter { id -> Bool in
                        guard let seat = SeatID(id), let cell = hall.cell(id: seat) else { return true }
                        return cell.seat.status != .available
                    }
                    if !gone.isEmpty {
                        return .error(409, "seat just sold: \(gone.joined(separator: ", ")) is no longer available; select again")
                    }
                    let batch = JSONNode.object([
                        ("batchId", .string("order:\(show):\(held.joined(separator: ","))")),
                        ("sequence", .int(1)),
                        ("changes", .array(held.map { JSONNode.object([("id", .string($0)), ("status", .int(2))]) })),
                    ])
                    let applied = apply(path, Array(JSONWriter.write(batch, pretty: false).utf8), what: "the order", [])
                    guard applied.status == 200 else { return applied }
                    try db.transaction { try db.release(show: key) }
                    return .json(200, .object([("show", .string(show)), ("hall", .string(hallName)),
                                               ("sold", .array(held.map { .string($0) }))]))
                } catch let e as SeatMapError {
                    return .error(422, clean(e.message))
                } catch {
                    return .error(500, "\(error)")
                }
            }
        }
    }

    /// POST /halls/NAME/status: status batches as `apply` reads them,
    /// applied all or nothing to the hall file; a batch id seen before is
    /// skipped (the store remembers them per hall).
    func status(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let store else { return .error(409, "this service runs without --store: status batches need one") }
        return withHall(name) { path in
            locks.with(name) { apply(path, request.body, what: "the body", ["--store", store, "--show", "hall:" + name]) }
        }
    }

    /// Runs `apply` on the hall file with `batches` (kept in a temporary
    /// file for it), writing the hall back in place; messages name the
    /// batches as `what`, not the temporary file. Call under the hall's lock.
    func apply(_ path: String, _ batches: [UInt8], what: String, _ extra: [String]) -> HTTPResponse {
        let updates = FileManager.default.temporaryDirectory
            .appendingPathComponent("seatmap-batches-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).json").path
        do { try Files.writeAtomically(batches, to: updates) } catch { return .error(500, "\(error)") }
        defer { try? FileManager.default.removeItem(atPath: updates) }
        let answer = runJSON(["apply", path, updates, "-o", path, "--json"] + extra)
        guard answer.status != 200 else { return answer }
        let text = String(decoding: answer.body, as: UTF8.self).replacingOccurrences(of: updates, with: what)
        return HTTPResponse(status: answer.status, headers: answer.headers, body: Array(text.utf8))
    }

    /// A hall name: letters, digits, `-`, `_` and `.` (not leading), so a
    /// path can never leave the folder.
    static func isHallName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 200 && !s.hasPrefix(".")
            && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.".unicodeScalars.contains($0) }
    }

    /// `body` with the hall file of `name`, or the 404 answer.
    func withHall(_ name: String, _ body: (String) -> HTTPResponse) -> HTTPResponse {
        guard HallService.isHallName(name) else { return .error(404, "no such hall: \(name)") }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name + ".json").path
        guard FileManager.default.isReadableFile(atPath: path) else {
            return .error(404, "no such hall: \(name) (no \(name).json in the halls folder)")
        }
        return body(path)
    }

    func halls() -> HTTPResponse {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(HallService.isHallName).sorted()
        var items: [JSONNode] = []
        for name in names {
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name + ".json").path
            var members = [JSONMember("hall", JSONNode(.string(name)))]
            do {
                let summary = HallSummary(try Files.readHall(path)).json
                if case .object(let more) = summary.value { members += more }
            } catch {
                members.append(JSONMember("error", JSONNode(.string(clean(error.message)))))
            }
            items.append(JSONNode(.object(members)))
        }
        return .json(200, JSONNode(.array(items)))
    }

    /// The query as `render`'s arguments; a flag's value may be empty,
    /// `1` or `true` (given) or `0` or `false` (not given).
    static func arguments(_ query: [(String, String)], allowed: Set<String>, flags: Set<String>) throws(UsageError) -> [String] {
        var args: [String] = []
        guard query.count <= 64 else { throw UsageError(message: "too many parameters (\(query.count); at most 64)") }
        for (key, value) in query {
            guard allowed.contains(key) else {
                throw UsageError(message: "unknown parameter \"\(key)\" (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            try checkValue(key, value)
            if flags.contains(key) {
                switch value {
                case "", "1", "true": args.append("--" + key)
                case "0", "false": continue
                default: throw UsageError(message: "\(key) is a flag: give it as \(key), \(key)=1 or \(key)=true")
                }
            } else {
                args += ["--" + key, value]
            }
        }
        return args
    }

    /// The themes a request may name: the service's own (shipped, or in
    /// $SEATMAP_THEMES / ./Themes where it runs), by name only. A path would
    /// let a client make the service open any file.
    static let themeNames: Set<String> = Set(Theme.available().map(\.name))

    /// A value as an option's value: a theme must be one of `themeNames`,
    /// and nothing may look like an option (`--help`); negative numbers may.
    static func checkValue(_ key: String, _ value: String) throws(UsageError) {
        if key == "theme" && !themeNames.contains(value) {
            throw UsageError(message: "theme: one of \(themeNames.sorted().joined(separator: ", ")), got \"\(value)\"")
        }
        if value.hasPrefix("-"), !(value.dropFirst().first?.isNumber ?? false) {
            throw UsageError(message: "\(key): a value cannot start with \"-\", got \"\(value)\"")
        }
    }

    /// `render`'s flags (options without a value).
    static let renderFlags = Set(SeatMapCLI.renderCommand.spec.options.filter { $0.arity == .flag }.map(\.name))

    /// The bytes `render` writes for the query's options, or the error
    /// answer. Images are kept in the render cache; a picker page for a
    /// show (its held seats inside) is not.
    func rendered(_ path: String, _ format: OutputFormat, _ query: [(String, String)], allowed: Set<String>,
                  picker: PickerEndpoint? = nil) -> Result<[UInt8], HTTPResponseError> {
        do {
            let args = try HallService.arguments(query, allowed: allowed, flags: HallService.renderFlags)
            let settings = try SeatMapCLI.renderSettings(try Arguments(args, spec: SeatMapCLI.renderCommand.spec))
            // Same file (inode, size, modification time), same options: the
            // same bytes, so a recent render is answered again.
            let key = picker == nil ? RenderCache.key(path: path, parts: [format.name] + args) : nil
            if let key, let cached = cache.get(key) { return .success(cached) }
            let bytes = try SeatMapCLI.renderBytes(path, format: format, settings, picker: picker)
            if let key { cache.put(key, bytes) }
            return .success(bytes)
        } catch let e as UsageError {
            return .failure(HTTPResponseError(.error(400, clean(e.message.replacingOccurrences(of: "--", with: "")))))
        } catch let e as SeatMapError {
            return .failure(HTTPResponseError(.error(422, clean(e.message.replacingOccurrences(of: "--", with: "")))))
        } catch {
            return .failure(HTTPResponseError(.error(500, "\(error)")))
        }
    }

    func render(_ file: String, _ request: HTTPRequest) -> HTTPResponse {
        let dot = file.lastIndex(of: ".") ?? file.endIndex
        let name = String(file[..<dot]), ext = String(file[file.index(after: dot)...])
        guard let format = OutputFormat.named(ext) else {
            return .error(404, "no such endpoint: \(request.path) (halls render as \(OutputFormat.list(prefix: ".")))")
        }
        return withHall(name) { path in
            let bytes: [UInt8]
            switch rendered(path, format, request.query, allowed: HallService.renderParameters) {
            case .success(let b): bytes = b
            case .failure(let e): return e.response
            }
            let etag = "\"" + HallService.contentHash(bytes) + "\""
            let headers = [("Content-Type", format.mimeType), ("ETag", etag), ("Cache-Control", "no-cache")]
            if let match = request.headers["if-none-match"],
               match.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).contains(where: { $0 == etag || $0 == "W/" + etag || $0 == "*" }) {
                return HTTPResponse(status: 304, headers: headers.filter { $0.0 != "Content-Type" })
            }
            return HTTPResponse(status: 200, headers: headers, body: request.method == "HEAD" ? [] : bytes)
        }
    }

    /// GET /halls/NAME/picker?show=SHOW&...render options: the picker page,
    /// its toggles sent to /shows/SHOW/select (the show's held seats drawn
    /// picked). Without `show` it is the page `render --format html` writes.
    func picker(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        withHall(name) { path in
            var query = request.query
            var endpoint: PickerEndpoint? = nil
            if let i = query.firstIndex(where: { $0.0 == "show" }) {
                let show = query[i].1
                query.remove(at: i)
                if let bad = HallService.showID(show) { return bad }
                guard let store else { return .error(409, "this service runs without --store: a picker for a show needs one") }
                let held: [String]
                do { held = try SeatStore(path: store).heldSeats(show: HallService.holdKey(show: show, hall: name)).filter { !$0.hasPrefix("area:") } } catch {
                    return .error(500, (error as? SeatMapError)?.message ?? "\(error)")
                }
                endpoint = PickerEndpoint(select: "/shows/\(show)/select", hall: name, held: held)
            }
            switch rendered(path, .html, query, allowed: HallService.renderParameters.subtracting(["page", "png-compression"]), picker: endpoint) {
            case .success(let bytes):
                return HTTPResponse(status: 200, headers: [("Content-Type", OutputFormat.html.mimeType), ("Cache-Control", "no-store")],
                                    body: request.method == "HEAD" ? [] : bytes)
            case .failure(let e): return e.response
            }
        }
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

    /// POST /halls/NAME/hit: `{"points": [[x, y], ...], ...options}` run as
    /// `seatmap hit FILE --json --point x,y ... --option value`.
    func hit(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        withHall(name) { path in hitAnswer(path, request) }
    }

    private func hitAnswer(_ path: String, _ request: HTTPRequest) -> HTTPResponse {
        let members: [JSONMember]
        switch HallService.object(request) {
        case .success(let m): members = m
        case .failure(let e): return e.response
        }
        var args = ["hit", path, "--json"]
        var sawPoints = false
        for m in members {
            if m.key == "points" {
                guard case .array(let points) = m.node.value, !points.isEmpty, points.count <= 10_000 else {
                    return .error(400, "points: expected an array of 1 to 10000 [x, y] pairs")
                }
                for (i, p) in points.enumerated() {
                    guard let pair = HallService.pair(p) else { return .error(400, "points[\(i)]: expected [x, y] numbers") }
                    args += ["--point", pair]
                }
                sawPoints = true
                continue
            }
            guard HallService.hitParameters.contains(m.key) else {
                return .error(400, "unknown member \"\(m.key)\" (known: points, \(HallService.hitParameters.sorted().joined(separator: ", ")))")
            }
            switch m.node.value {
            case .bool(let b): if b { args.append("--" + m.key) }
            case .number(let n): args += ["--" + m.key, n]
            case .string(let s):
                do { try HallService.checkValue(m.key, s) } catch { return .error(400, error.message) }
                args += ["--" + m.key, s]
            case .array:
                guard let pair = HallService.pair(m.node) else { return .error(400, "\(m.key): expected [x, y] numbers or \"x,y\"") }
                args += ["--" + m.key, pair]
            default: return .error(400, "\(m.key): expected a number, a string, true or [x, y]")
            }
        }
        guard sawPoints else { return .error(400, "missing \"points\": [[x, y], ...]") }
        return runJSON(args)
    }

    static func pair(_ node: JSONNode) -> String? {
        guard case .array(let xy) = node.value, xy.count == 2, case .number(let x) = xy[0].value, case .number(let y) = xy[1].value else { return nil }
        return "\(x),\(y)"
    }

    /// Runs a CLI command whose standard output is JSON: 200 with it, or
    /// the command's message (400 for usage, 422 for bad input).
    func runJSON(_ args: [String], rename: [String: String] = [:]) -> HTTPResponse {
        let out = OutputBuffer(), err = OutputBuffer()
        let console = Console(out: { out.append($0) }, err: { err.append($0) })
        let code = SeatMapCLI.run(args, console: console)
        if code == 0 {
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array(out.text.utf8))
        }
        // The CLI's message without its "Run `seatmap … --help`" advice.
        let message = err.text.split(separator: "\n").filter { !$0.hasPrefix("Run `seatmap") }
            .map { line in line.hasPrefix("seatmap \(args[0]): ") ? line.dropFirst("seatmap \(args[0]): ".count) : line[...] }
            .joined(separator: "\n")
        var text = message.replacingOccurrences(of: "--", with: "")
        for (from, to) in rename { text = text.replacingOccurrences(of: from, with: to) }
        return .error(code == 2 ? 400 : 422, clean(text))
    }

    /// A message as a client sees it: hall files by name, not by the
    /// service's paths.
    func clean(_ message: String) -> String {
        let dir = URL(fileURLWithPath: folder).standardizedFileURL.path
        return message.replacingOccurrences(of: dir + "/", with: "").replacingOccurrences(of: folder + "/", with: "")
    }
}

/// A lock per hall name, so that one request at a time reads or rewrites
/// a hall file (renders read it without one: a file is replaced whole).
final class HallLocks: @unchecked Sendable {
    private let lock = NSLock()
    private var locks: [String: NSLock] = [:]
    func with<T>(_ hall: String, _ body: () -> T) -> T {
        lock.lock()
        let l = locks[hall] ?? NSLock()
        locks[hall] = l
        lock.unlock()
        l.lock()
        defer { l.unlock() }
        return body()
    }
}

/// Recent renders, keyed by the hall file's identity (device, inode, size,
/// modification time in nanoseconds: a status batch or order replaces the
/// file, so its key changes) and the render's options; at most 64 entries
/// and 256 MB, the oldest dropped first.
final class RenderCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [UInt8]] = [:]
    private var order: [String] = []
    private var bytes = 0
    private let maxEntries = 64, maxBytes = 256 << 20

    static func key(path: String, parts: [String]) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return "\(st.st_dev):\(st.st_ino):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)\u{0}\(path)\u{0}" + parts.joined(separator: "\u{0}")
    }

    func get(_ key: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ value: [UInt8]) {
        guard value.count <= maxBytes / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        if entries[key] != nil { return }
        entries[key] = value
        order.append(key)
        bytes += value.count
        while order.count > maxEntries || bytes > maxBytes, !order.isEmpty {
            let old = order.removeFirst()
            bytes -= entries[old]?.count ?? 0
            entries[old] = nil
        }
    }
}

/// An HTTP answer carried as an error.
struct HTTPResponseError: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// Text written by a command run for a request: pieces appended from any
/// thread, read back whole (`text`) or as the pieces (`parts`).
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
