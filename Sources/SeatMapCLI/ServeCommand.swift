import Dispatch
import Foundation
import SeatMapCore
import SeatMapServer
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
            _ = try positionals(args, [])
            guard let dir = args.value("halls") else { throw UsageError(message: "missing --halls DIR") }
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw SeatMapError(file: dir, "is not a folder")
            }
            let host = args.value("host") ?? "127.0.0.1"
            let port = try args.int("port", in: 0...65535) ?? 8080
            let workers = try args.int("workers", in: 1...256) ?? SeatMapHTTPService.defaultWorkers
            let ttl = try StoreOptions.holdSeconds(args)
            let connections = try args.int("store-connections", in: 1...1000)
            let perAddress = try args.int("max-connections-per-address", in: 1...4096) ?? 128
            let tokenLimits = ShowService.TokenLimits(
                perShow: try args.int("max-tokens-per-show", in: 0...100_000_000) ?? ShowService.TokenLimits.defaultPerShow,
                perAddress: try args.int("max-tokens-per-address", in: 0...1_000_000) ?? ShowService.TokenLimits.defaultPerAddress)
            let proxies = args.values["trusted-proxy"] ?? []
            for p in proxies where !SeatMapHTTPService.isIPLiteral(p) {
                throw UsageError(message: "--trusted-proxy expects an IP address such as 127.0.0.1 or ::1, got \"\(p)\"")
            }
            let headerSeconds = try args.int("header-timeout", in: 1...30) ?? 10
            let megapixels = try args.int("max-image-megapixels", in: 1...(ImageLimits.maxPixels / 1_000_000)) ?? SeatMapHTTPService.defaultMaxImagePixels / 1_000_000
            let origins = args.values["allowed-origin"] ?? []
            for o in origins where !(o.hasPrefix("http://") || o.hasPrefix("https://")) || o.dropFirst(8).contains("/") {
                throw UsageError(message: "--allowed-origin expects an origin such as https://shop.example (scheme, host, optional port), got \"\(o)\"")
            }
            var key: String? = nil
            if let file = args.value("admin-key-file") {
                let text = String(decoding: try Files.read(file).bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard text.count >= 16, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                    throw SeatMapError(file: file, "the admin key must be at least 16 visible ASCII characters on one line")
                }
                key = text
            }
            let service = try SeatMapHTTPService(halls: dir, store: args.value("store"), adminKey: key, holdSeconds: ttl, storeConnections: connections,
                                                 allowedOrigins: origins, allowedHosts: args.values["allowed-host"] ?? [],
                                                 connectionsPerAddress: perAddress, headerSeconds: headerSeconds,
                                                 tokenLimits: tokenLimits, trustedProxies: proxies,
                                                 maxImagePixels: megapixels * 1_000_000, host: host,
                                                 port: UInt16(port), workers: workers, log: { console.err($0) })
            console.out("seatmap serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(service.port) (halls in \(dir), \(workers) workers)")
            if key == nil {
                console.err("seatmap serve: open development mode: anyone can create shows, order and apply status batches (give --admin-key-file F)")
            }
            // Serve until SIGINT or SIGTERM (main's handlers end the process).
            let forever = DispatchSemaphore(value: 0)
            forever.wait()
            service.stop()
            return 0
        })
}
