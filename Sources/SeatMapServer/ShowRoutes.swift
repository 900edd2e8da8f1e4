import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapRender
import SeatMapService

/// The show endpoints: create, seats, select, order, status batches, and
/// the show's images, hits and picker.
extension Controller {
    /// JSON as the CLI's `--json` prints it (one line).
    static func compact(_ node: JSONNode, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
                     body: Array((JSONWriter.write(node, pretty: false) + "\n").utf8))
    }

    /// The client a request is from, for the per-address token limit: the
    /// connection's peer, or, when the peer is a trusted proxy, the last
    /// address of `X-Forwarded-For` that is not one (each proxy appends the
    /// address it was reached from).
    func clientAddress(_ request: HTTPRequest) -> String? {
        guard let peer = request.peer else { return nil }
        guard trustedProxies.contains(peer), let forwarded = request.headers["x-forwarded-for"] else { return peer }
        let hops = forwarded.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0.count <= 64 }
        return hops.last(where: { !trustedProxies.contains($0) }) ?? hops.first ?? peer
    }

    /// The show's inventory and its hall's plan.
    /// (A show's hall is remembered: it never changes; the use cases check it again.)
    func showPlan(_ show: String) throws -> (ShowService, HallPlan) {
        let service = try requireShows()
        let hall: String
        if let known = showHalls.get(show) {
            hall = known
        } else {
            hall = try service.hallName(of: show)
            showHalls.put(show, hall)
        }
        let (plan, _) = try halls.plan(hall).get()
        return (service, plan)
    }

    /// POST /shows/SHOW `{"hall": NAME, "rules"?: {…}}`: 201 created, 200
    /// the same hall again, 409 another hall (or other rules).
    func createShow(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let service = try requireShows()
            var hall: String? = nil, rules: JSONNode? = nil
            for m in try Controller.object(request) {
                switch (m.key, m.node.value) {
                case ("hall", .string(let h)): hall = h
                case ("rules", .object): rules = m.node
                default: throw UsageError(message: "\(m.key): unknown member or wrong type (known: hall, rules)")
                }
            }
            guard let hall else { throw UsageError(message: "missing \"hall\": the hall's name") }
            let (plan, _) = try halls.plan(hall).get()
            let (inv, created) = try service.create(show: show, plan: plan, rules: rules)
            if created { changes.bump(show) }
            return Controller.compact(.object([("show", .string(inv.show)), ("hall", .string(inv.hall)), ("created", .bool(created)),
                                               ("rules", service.rules(of: inv, plan: plan).json())]),
                                      status: created ? 201 : 200)
        }
    }

    /// GET /shows/SHOW/seats[?token=T][&wait=SECONDS]: every seat's status
    /// for that buyer, with an ETag. With `wait` (1 to 30) and an
    /// `If-None-Match` naming the current state, the answer waits until the
    /// show changes — through any instance sharing the store — or the time
    /// is up (304).
    ///
    /// With `since=N`, only the seats changed after the show's change
    /// sequence N (`{"show", "sequence", "changes", "areas"}`), or the whole
    /// show marked `"full": true` when N is older than the kept log; with
    /// `wait`, the answer waits until something changed after N or the time
    /// is up (then `changes` is empty).
    func showSeats(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (token, rest) = Controller.take("token", from: request.query)
            let (waitText, rest2) = Controller.take("wait", from: rest)
            let (sinceText, others) = Controller.take("since", from: rest2)
            if let bad = others.first { throw UsageError(message: "unknown parameter \"\(bad.0)\" (known: token, wait, since)") }
            var wait: Double = 0
            if let waitText {
                guard let w = Double(waitText), w >= 1, w <= 30 else { throw UsageError(message: "wait: 1 to 30 seconds, got \"\(waitText)\"") }
                wait = w
            }
            let (service, plan) = try showPlan(show)
            let deadline = Date().addingTimeInterval(wait)
            if let sinceText {
                guard let since = Int(sinceText), since >= 0 else { throw UsageError(message: "since: a sequence (a whole number ≥ 0), got \"\(sinceText)\"") }
                while true {
                    let seen = changes.version(show)
                    guard let delta = try service.changes(show: show, since: since, token: token, plan: plan) else {
                        let view = try service.view(show: show, token: token, plan: plan)
                        return Controller.compact(ShowJSON.seats(view, plan: plan.hall, full: true)).adding(("Cache-Control", "no-cache"))
                    }
                    if !delta.changes.isEmpty || delta.sequence != since || Date() >= deadline || changes.isClosed {
                        return Controller.compact(ShowJSON.changes(delta)).adding(("Cache-Control", "no-cache"))
                    }
                    // Expiring holds reach readers within a second (the sweep in `changes`).
                    _ = changes.wait(show, seen: seen, until: min(deadline, Date().addingTimeInterval(1)))
                }
            }
            while true {
                let seen = changes.version(show)
                let view = try service.seatsView(show: show, token: token, plan: plan)
                var r = Controller.compact(ShowJSON.seats(view, plan: plan.hall))
                let etag = "\"" + Controller.contentHash(r.body) + "\""
                r.headers += [("ETag", etag), ("Cache-Control", "no-cache")]
                guard Controller.matches(request, etag) else { return r }
                if Date() >= deadline || changes.isClosed {
                    return HTTPResponse(status: 304, headers: r.headers.filter { $0.0 != "Content-Type" })
                }
                // A hold that expires changes the answer too, with no commit to tell of
                // it: looked at again within a second (the view's sweep releases it).
                _ = changes.wait(show, seen: seen, until: min(deadline, Date().addingTimeInterval(1)))
            }
        }
    }

    /// GET /shows/SHOW/status (back office): holds with tokens, orders, places.
    func showStatus(_ show: String) -> HTTPResponse {
        attempt {
            let service = try requireShows()
            var inv = try service.inventory(show)
            let now = Date()
            inv.releaseExpired(now: now)
            return Controller.compact(ShowJSON.status(inv, now: now))
        }
    }

    /// POST /shows/SHOW/select `{"toggle": [ids], "area"?: {AREA: N}, "types"?: {ID: TYPE}, "token"?, "holdSeconds"?, "locale"?,
    /// "singleSeatRule"?}`.
    func select(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            var r = ShowService.SelectRequest(show: show, toggles: [], address: clientAddress(request))
            var locale: SeatMapLocale? = nil
            for m in try Controller.object(request) {
                switch (m.key, m.node.value) {
                case ("hall", .string(let h)):
                    guard h == plan.name else { throw ServiceError(.conflict, "show \(show) is of the hall \(plan.name), not \(h)") }
                case ("toggle", .array(let ids)):
                    try ShowService.checkSelectSizes(toggles: ids.count, types: 0, places: [], say: { $0 })
                    for (i, id) in ids.enumerated() {
                        guard case .string(let text) = id.value, !text.isEmpty else { throw UsageError(message: "toggle[\(i)]: expected a seat id such as \"1-3-5\"") }
                        r.toggles.append(text)
                    }
                case ("area", .object(let areas)):
                    for a in areas {
                        guard case .number(let n) = a.node.value, let v = Int(n), v >= 0, v <= ShowService.maxPlaces else {
                            throw UsageError(message: "area.\(a.key): expected a whole number of places ≥ 0")
                        }
                        r.areas.append((a.key, v))
                    }
                case ("types", .object(let types)):
                    try ShowService.checkSelectSizes(toggles: 0, types: types.count, places: [], say: { $0 })
                    for t in types {
                        guard case .string(let name) = t.node.value, !name.isEmpty else { throw UsageError(message: "types.\(t.key): expected a ticket type's name") }
                        r.types.append((t.key, name))
                    }
                case ("token", .string(let t)): r.token = t
                case ("holdSeconds", .number(let n)):
                    r.ttl = try StoreOptions.holdSeconds(request: n, limit: service.defaultTTL)
                case ("locale", .string(let l)):
                    locale = try LocaleOptions.named(l, input: "locale")
                case ("singleSeatRule", .bool(let b)): r.singleSeatRule = b
                default:
                    throw UsageError(message: "\(m.key): unknown member or wrong type (known: toggle, area, types, token, holdSeconds, locale, singleSeatRule, hall)")
                }
            }
            // With a token, an empty toggle list reads its holds back (and counts as activity).
            guard !r.toggles.isEmpty || !r.areas.isEmpty || !r.types.isEmpty || r.token != nil else {
                throw UsageError(message: "toggle: expected 1 to \(ShowService.maxNamedSeats) seat ids (or \"area\", or a \"token\" to read back)")
            }
            let a = try service.select(r, plan: plan)
            if !r.toggles.isEmpty || !r.areas.isEmpty || !r.types.isEmpty { changes.bump(show) }
            let words = LocaleOptions.words(locale, for: plan.hall)
            return Controller.compact(ShowJSON.selection(results: a.results, selection: a.selection, breaks: a.breaks, hall: a.hall,
                                                         locale: words, token: a.kept ? a.token : nil, expiresAt: a.kept ? a.expiresAt : nil))
        }
    }

    /// POST /shows/SHOW/best `{"count", "section"?, "category"?, "level"?, "accessible"?, "priceMax"?, "together"?, "token"?,
    /// "holdSeconds"?, "locale"?}`: best available, held under the token.
    func best(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            var values: [String: String] = [:], flags: Set<String> = []
            var token: String? = nil, ttl: TimeInterval? = nil
            var locale: SeatMapLocale? = nil
            for m in try Controller.object(request) {
                // The request's own members are the option group's, camel-cased.
                if let option = BestAvailableOptions.option(member: m.key) {
                    switch (option.arity, m.node.value) {
                    case (.flag, .bool(let b)): if b { flags.insert(option.name) }
                    case (.value, .number(let text)), (.value, .string(let text)): values[option.name] = text
                    default: throw UsageError(message: "\(m.key): expected \(option.arity == .flag ? "true or false" : "a number or a string")")
                    }
                    continue
                }
                switch (m.key, m.node.value) {
                case ("token", .string(let t)): token = t
                case ("holdSeconds", .number(let n)):
                    ttl = try StoreOptions.holdSeconds(request: n, limit: service.defaultTTL)
                case ("locale", .string(let l)):
                    locale = try LocaleOptions.named(l, input: "locale")
                default:
                    let known = BestAvailableOptions.table.map { InputNames.member($0.name) } + ["token", "holdSeconds", "locale"]
                    throw UsageError(message: "\(m.key): unknown member or wrong type (known: \(known.joined(separator: ", ")))")
                }
            }
            let r = try BestAvailableOptions.request(value: { values[$0] }, flag: { flags.contains($0) }, say: InputNames.member)
            let a = try service.best(show: show, token: token, request: r, plan: plan, ttl: ttl, address: clientAddress(request))
            if a.changed { changes.bump(show) }
            let words = LocaleOptions.words(locale, for: plan.hall)
            return Controller.compact(ShowJSON.best(a.recommendation, selection: a.selection, hall: a.hall, locale: words,
                                                    token: a.token, expiresAt: a.expiresAt))
        }
    }

    /// POST /shows/SHOW/order `{"token", "orderId", "seats"?}` (back office).
    func order(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            var token: String? = nil, orderId: String? = nil, seats: [SeatID]? = nil
            for m in try Controller.object(request) {
                switch (m.key, m.node.value) {
                case ("token", .string(let t)): token = t
                case ("orderId", .string(let o)): orderId = o
                case ("seats", .array(let ids)):
                    seats = try ids.enumerated().map { i, node in
                        guard case .string(let s) = node.value, let id = SeatID(s) else { throw UsageError(message: "seats[\(i)]: expected a seat id such as \"1-3-5\"") }
                        return id
                    }
                default: throw UsageError(message: "\(m.key): unknown member or wrong type (known: token, orderId, seats)")
                }
            }
            guard let token else { throw UsageError(message: "missing \"token\": the buyer's hold token") }
            guard let orderId else { throw UsageError(message: "missing \"orderId\": the order's id (repeating it sells nothing more)") }
            let answer = try service.order(show: show, token: token, orderId: orderId, expecting: seats, plan: plan)
            changes.bump(show)
            return Controller.compact(ShowJSON.order(answer, show: show))
        }
    }

    /// POST /shows/SHOW/channels/CHANNEL `{"seats": [ids]}` (back office):
    /// reserves the seats for the channel; `{"release": true}` gives every
    /// seat of the channel to the public at once; `{"token": true,
    /// "holdSeconds"?}` opens a token of the channel for a buyer.
    func channel(_ show: String, _ channel: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            var seats: [String]? = nil, release = false, token = false, ttl: TimeInterval? = nil
            for m in try Controller.object(request) {
                switch (m.key, m.node.value) {
                case ("seats", .array(let ids)):
                    guard ids.count <= 100_000 else { throw UsageError(message: "seats: expected at most 100000 seat ids") }
                    seats = try ids.enumerated().map { i, node in
                        guard case .string(let s) = node.value, !s.isEmpty else { throw UsageError(message: "seats[\(i)]: expected a seat id such as \"1-3-5\"") }
                        return s
                    }
                case ("release", .bool(let b)): release = b
                case ("token", .bool(let b)): token = b
                case ("holdSeconds", .number(let n)):
                    // The back office (admin key) sets a channel token's hold time within the whole range.
                    ttl = try StoreOptions.holdSeconds(request: n, limit: HoldTime.range.upperBound)
                default: throw UsageError(message: "\(m.key): unknown member or wrong type (known: seats, release, token, holdSeconds)")
                }
            }
            guard [seats != nil, release, token].filter({ $0 }).count == 1 else {
                throw UsageError(message: "expected one of \"seats\" (reserve), \"release\": true or \"token\": true")
            }
            if ttl != nil && !token { throw UsageError(message: "holdSeconds goes with \"token\": true") }
            if token {
                let (t, expiry) = try service.openChannelToken(show: show, channel: channel, plan: plan, ttl: ttl)
                return Controller.compact(.object([("show", .string(show)), ("channel", .string(channel)), ("token", .string(t)),
                                                   ("expiresAt", .string(ShowJSON.time(expiry)))]), status: 201)
            }
            let ids = release ? try service.releaseChannel(show: show, channel: channel, plan: plan)
                              : try service.reserve(show: show, channel: channel, seats: seats ?? [], plan: plan)
            changes.bump(show)
            return Controller.compact(.object([("show", .string(show)), ("channel", .string(channel)),
                                               (release ? "released" : "reserved", .array(ids.map { .string($0.description) }))]))
        }
    }

    /// POST /shows/SHOW/status (back office): status batches as `apply`
    /// reads them, applied to the show in one transaction; each batch id once.
    func statusBatches(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            let batches = try StatusBatch.decode(SourceText(name: "the body", bytes: request.body))
            let geometry = try GeometryOptions(try Controller.arguments(request.query, GeometryOptions.table))
            let layout = try geometry.layout(for: plan.hall).layout
            let run = try service.apply(show: show, plan: plan, batches: batches, layout: layout, updatesFile: "the body")
            changes.bump(show)
            return Controller.compact(.array(run.reports))
        }
    }

    /// GET /shows/SHOW.png|svg|pdf|html[?token=T&render options].
    func showImage(_ show: String, _ ext: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let format = try Controller.format(ext, request)
            let (token, query) = Controller.take("token", from: request.query)
            let (service, plan) = try showPlan(show)
            let settings = try ImageOptions.settings(try Controller.arguments(query, Controller.renderOptions))
            let view = try service.view(show: show, token: token, plan: plan)
            return Controller.image(try HallImage.bytes(view.hall, format: format, settings, selected: view.selected), format, request)
        }
    }

    /// GET /shows/SHOW/picker[?render options]: the picker page for the
    /// show, the same bytes for every buyer (the page reads `?token=T` from
    /// its own address, fetches the statuses and long-polls them). In open
    /// development mode its confirm button orders; otherwise it hands the
    /// cart to the host page.
    func showPicker(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (_, query) = Controller.take("token", from: request.query)
            let (_, plan) = try showPlan(show)
            let (_, path) = try halls.plan(plan.name).get()
            let level = query.last(where: { $0.0 == "level" }).flatMap { Int($0.1) }
            let words = LocaleOptions.words(try query.last(where: { $0.0 == "locale" }).map { try LocaleOptions.named($0.1, input: "locale") },
                                            for: plan.hall)
            let endpoint = PickerEndpoint(show: show, select: "/shows/\(show)/select", seats: "/shows/\(show)/seats",
                                          order: adminKey == nil ? "/shows/\(show)/order" : nil, hostOrigins: allowedOrigins.sorted(),
                                          levels: plan.hall.levels.map { ($0, plan.hall.levelName($0, in: words)) }, level: level)
            return try picker(plan, path: path, query: query, endpoint: endpoint, request)
        }
    }

    /// POST /shows/SHOW/hit: as /halls/NAME/hit, on the show's statuses
    /// (`held`, and `selected` for `"token"`'s own seats).
    func showHit(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            var token: String? = nil
            let members = try Controller.object(request)
            if let t = members.first(where: { $0.key == "token" }) {
                guard case .string(let s) = t.node.value else { throw UsageError(message: "token: expected the buyer's hold token") }
                token = s
            }
            let (service, plan) = try showPlan(show)
            let (args, points) = try Controller.hitRequest(members.filter { $0.key != "token" })
            let view = try service.view(show: show, token: token, plan: plan)
            let (layout, results) = try HitQuery.hit(view.hall, args, points: points)
            return Controller.compact(.array(zip(points, results).map { ResultJSON.hitJSON($0, $1, layout, statuses: view.statuses) }))
        }
    }
}
