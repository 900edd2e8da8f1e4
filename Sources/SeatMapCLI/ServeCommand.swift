import Dispatch
import Foundation
import SeatMapCore
import SeatMapService

extension SeatMapCLI {
    static let serveCommand = Command(
        spec: CommandSpec(
            name: "serve",
            usage: "serve --halls DIR [--store DB|postgresql://...] [--store-connections N] [--admin-key-file F] [--allowed-origin O] [--allowed-host H] [--hold-ttl SECONDS] [--host 127.0.0.1] [--port 8080] [--workers N]",
            summary: "An HTTP service: the halls in DIR drawn and hit-tested, their shows sold from the store.",
            options: [
                .value("halls", "DIR", "The hall files (the plans, never written): DIR/NAME.json is the hall NAME."),
                StoreOptions.store,
                .value("store-connections", "N", "Connections to a PostgreSQL store (default twice the workers, at least 4)."),
                .value("admin-key-file", "F", "A file holding the back office's key: creating shows, orders and status batches then need Authorization: Bearer KEY."),
                StoreOptions.holdTTL("a token's holds"),
                .value("host", "IP", "The address to listen on, an IPv4 or IPv6 literal (default 127.0.0.1)."),
                .values("allowed-origin", "ORIGIN", "Another origin (https://shop.example) whose pages may call the service; repeat for several."),
                .values("allowed-host", "NAME", "A host name the service answers to besides IP addresses and localhost; repeat for several."),
                .value("max-connections-per-address", "N", "Connections one client address may hold open (default 128)."),
                .value("max-tokens-per-address", "N", "Live buyers' tokens one client address may have for a show (default \(ShowService.TokenLimits.defaultPerAddress); 0: no limit); one more answers 429."),
                .value("max-tokens-per-show", "N", "Buyers' tokens a show keeps at most (default \(ShowService.TokenLimits.defaultPerShow); 0: no limit); one more answers 429."),
                .values("trusted-proxy", "IP", "A load balancer's address: a request from it is from the client its X-Forwarded-For names (repeat for several)."),
                .value("header-timeout", "SECONDS", "How long a new connection may take to send its first request header before it is closed (default 10, at most 30)."),
                .value("max-image-megapixels", "N", "The largest image one request may have drawn, in megapixels (default 100, at most 400); larger ones answer 422."),
                .value("port", "N", "The port (default 8080; 0 picks a free one, printed at start)."),
                .value("workers", "N", "Renders worked on at once (default: the number of cores); other requests on 8 threads a worker (SQLite) or one a store connection (PostgreSQL)."),
            ],
            details: """
            Endpoints (docs/service.md has curl examples; * needs the admin key when one is set):
              GET  /healthz                          {"status": "ok", "mode": "open"|"admin-key", "store": bool}; 503 while
                                                     the store cannot be reached ({"status": "degraded", "storeError"})
              GET  /halls                            every hall's summary, as `info --json`, with its name
              GET  /halls/NAME.png|.svg|.pdf|.html   the plan drawn: `render`'s bytes; query parameters are its options
              GET  /halls/NAME/picker                the plan's picker page
              POST /halls/NAME/hit                   {"points": [[x, y], ...], "zoom": 2, ...}: `hit --json`
            * POST /shows/SHOW                       {"hall": NAME}: 201 created, 200 the same hall again, 409 another
              GET  /shows/SHOW/seats[?token=T]       {"show", "hall", "sequence", "seats": {ID: status}, "areas"}; ETag
              POST /shows/SHOW/select                {"toggle": [ids], "area"?, "token"?, "holdSeconds"?}: select's JSON
                                                     with "token" and "expiresAt"
            * POST /shows/SHOW/order                 {"token", "orderId", "seats"?}: {"sold": [...]}; 409 nothing sold
            * POST /shows/SHOW/status                status batches (as `apply` reads them): apply's JSON per batch
            * GET  /shows/SHOW/status                holds with tokens and expiry, orders, places per area
              GET  /shows/SHOW.png|.svg|.pdf|.html   the show drawn (holds locked; ?token=T: that buyer's selected)
              GET  /shows/SHOW/picker[?token=T]      the picker page, its toggles sent with the token
              POST /shows/SHOW/hit                   as /halls/NAME/hit on the show's statuses ("token"? for its own)
            Errors are JSON {"error", "status"}: 400 bad request, 401 no or wrong admin key, 404 unknown hall,
            show or path, 405 wrong method, 409 conflict (held, sold, another hall, no store), 410 the old
            /halls/NAME/status, 413 body over 1 MiB, 422 a hall or batch with errors, 429 too many tokens (the show's
            or one address's), 503 busy or store failing.
            Without --admin-key-file the service runs in open development mode (said on start and in /healthz).
            Every POST must be Content-Type: application/json (415) and come from the service's own pages or an
            --allowed-origin (403); a Host that is not an IP address, localhost or an --allowed-host gets 421; a NUL,
            control character or bad %-escape in the path or query gets 400.
            One log line per request on standard error. Stops on SIGINT or SIGTERM.
            """),
        run: { args, console in
            guard let serve = SeatMapCLI.serveSide?.serve else { throw SeatMapCLI.needsServeSide("serve") }
            return try serve(args, console)
        })
}
