import Foundation
import SeatMapCore
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
            let r = try ShowRequests.create(try Controller.body(request, ShowRequests.create))
            let (plan, _) = try halls.plan(r.hall).get()
            let (inv, created) = try service.create(show: show, plan: plan, rules: r.rules)
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
            let q = try ShowRequests.seats(try Controller.arguments(request.query, ShowRequests.seats))
            let token = q.token
            let (service, plan) = try showPlan(show)
            let deadline = Date().addingTimeInterval(q.wait)
            if let since = q.since {
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
            let a = try Controller.body(request, ShowRequests.select + [Controller.hallCheck])
            if let h = a.value(Controller.hallCheck.name), h != plan.name {
                throw ServiceError(.conflict, "show \(show) is of the hall \(plan.name), not \(h)")
            }
            let r = try ShowRequests.select(a, show: show, holdLimit: service.defaultTTL, address: clientAddress(request))
            let locale = try LocaleOptions.given(a)
            let answer = try service.select(r, plan: plan)
            if !r.toggles.isEmpty || !r.areas.isEmpty || !r.types.isEmpty { changes.bump(show) }
            let words = LocaleOptions.words(locale, for: plan.hall)
            return Controller.compact(ShowJSON.selection(results: answer.results, selection: answer.selection, breaks: answer.breaks, hall: answer.hall,
                                                         locale: words, token: answer.kept ? answer.token : nil,
                                                         expiresAt: answer.kept ? answer.expiresAt : nil))
        }
    }

    /// POST /shows/SHOW/best `{"count", "section"?, "category"?, "level"?, "accessible"?, "priceMax"?, "together"?, "token"?,
    /// "holdSeconds"?, "locale"?}`: best available, held under the token.
    func best(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            let a = try Controller.body(request, ShowRequests.best)
            let r = try ShowRequests.best(a, holdLimit: service.defaultTTL)
            let locale = try LocaleOptions.given(a)
            let answer = try service.best(show: show, token: r.token, request: r.request, plan: plan, ttl: r.ttl, address: clientAddress(request))
            if answer.changed { changes.bump(show) }
            let words = LocaleOptions.words(locale, for: plan.hall)
            return Controller.compact(ShowJSON.best(answer.recommendation, selection: answer.selection, hall: answer.hall, locale: words,
                                                    token: answer.token, expiresAt: answer.expiresAt))
        }
    }

    /// POST /shows/SHOW/order `{"token", "orderId", "seats"?}` (back office).
    func order(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let (service, plan) = try showPlan(show)
            let r = try ShowRequests.order(try Controller.body(request, ShowRequests.order))
            let answer = try service.order(show: show, token: r.token, orderId: r.orderId, expecting: r.seats, plan: plan)
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
            let action = try ShowRequests.channel(try Controller.body(request, ShowRequests.channel))
            let word: String, ids: [SeatID]
            switch action {
            case .token(let ttl):
                let (t, expiry) = try service.openChannelToken(show: show, channel: channel, plan: plan, ttl: ttl)
                return Controller.compact(.object([("show", .string(show)), ("channel", .string(channel)), ("token", .string(t)),
                                                   ("expiresAt", .string(ShowJSON.time(expiry)))]), status: 201)
            case .release:
                (word, ids) = ("released", try service.releaseChannel(show: show, channel: channel, plan: plan))
            case .reserve(let seats):
                (word, ids) = ("reserved", try service.reserve(show: show, channel: channel, seats: seats, plan: plan))
            }
            changes.bump(show)
            return Controller.compact(.object([("show", .string(show)), ("channel", .string(channel)),
                                               (word, .array(ids.map { .string($0.description) }))]))
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
            let a = try Controller.arguments(request.query, Controller.renderOptions + [ShowRequests.viewer])
            let (service, plan) = try showPlan(show)
            let settings = try ImageOptions.settings(a)
            let view = try service.view(show: show, token: ShowRequests.viewer(a), plan: plan)
            return Controller.image(try HallImage.bytes(view.hall, format: format, settings, selected: view.selected), format, request)
        }
    }

    /// GET /shows/SHOW/picker[?render options]: the picker page for the
    /// show, the same bytes for every buyer (the page reads `?token=T` from
    /// its own address, fetches the statuses and long-polls them). In open
    /// development mode its confirm button orders; otherwise it hands the
    /// cart to the host page.
    func showPicker(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        pickerAttempt(request) {
            // The page reads `token` from its own address: the page's bytes do not depend on it.
            let a = try Controller.arguments(request.query, Controller.pickerOptions + [Controller.pageToken])
            let (_, plan) = try showPlan(show)
            let (_, path) = try halls.plan(plan.name).get()
            let settings = try ImageOptions.settings(a)
            let words = LocaleOptions.words(settings.geometry.locale, for: plan.hall)
            let endpoint = PickerEndpoint(show: show, select: "/shows/\(show)/select", seats: "/shows/\(show)/seats",
                                          order: adminKey == nil ? "/shows/\(show)/order" : nil, best: "/shows/\(show)/best",
                                          maxPerOrder: plan.hall.maxSelectCount, hostOrigins: allowedOrigins.sorted(),
                                          levels: plan.hall.levels.map { ($0, plan.hall.levelName($0, in: words)) }, level: settings.geometry.level)
            return try picker(plan, path: path, query: request.query.filter { $0.0 != Controller.pageToken.name }, endpoint: endpoint, request)
        }
    }

    /// POST /shows/SHOW/hit: as /halls/NAME/hit, on the show's statuses
    /// (`held`, and `selected` for `"token"`'s own seats).
    func showHit(_ show: String, _ request: HTTPRequest) -> HTTPResponse {
        attempt {
            let r = try ShowRequests.hit(try Controller.body(request, Controller.hitOptions + [ShowRequests.token]))
            let (service, plan) = try showPlan(show)
            let view = try service.view(show: show, token: r.token, plan: plan)
            let (layout, results) = try HitQuery.hit(view.hall, r.view, points: r.points)
            return Controller.compact(.array(zip(r.points, results).map { ResultJSON.hitJSON($0, $1, layout, statuses: view.statuses) }))
        }
    }
}
