import Dispatch
import Foundation
import SeatMapCore
import SeatMapService
import SeatMapStore

/// `seatmap serve` as a library: the HTTP service over a folder of halls
/// (the plans, never written) and an inventory store (the shows),
/// listening from `init` until `stop()`.
public final class SeatMapHTTPService: @unchecked Sendable {
    private let server: HTTPServer
    /// The port listened on (the one picked when 0 was asked for).
    public var port: UInt16 { server.port }
    /// Whether back-office requests need the admin key.
    public let requiresAdminKey: Bool

    /// The default cap on one request's image: 100 megapixels (400 MB of
    /// RGBA), a quarter of what the command line allows.
    public static let defaultMaxImagePixels = 100_000_000

    /// Whether text is an IPv4 or IPv6 address literal (what `--host` and
    /// `--trusted-proxy` take).
    public static func isIPLiteral(_ text: String) -> Bool { Controller.isIPLiteral(text) }

    /// Renders worked on at once unless told: a worker a core.
    public static var defaultWorkers: Int {
        ProcessInfo.processInfo.activeProcessorCount
    }

    /// Threads for the other requests (selections, orders, hit tests) a
    /// render worker with a SQLite store: they mostly wait on the commit's
    /// sync to disk, and updates arriving together share a commit, so more
    /// of them in flight sell more a second (measured: 1,650 holds/s with 2
    /// threads, about 2,500 with 16, on 2 cores). A PostgreSQL store gets
    /// one a store connection.
    public static let requestThreadsPerWorker = 8

    /// - Parameters:
    ///   - store: the inventory store's SQLite file (nil: the show
    ///     endpoints answer 409), or `inventory` for another store.
    ///   - adminKey: the key back-office requests must send as
    ///     `Authorization: Bearer KEY`; nil runs the open development mode.
    public init(halls folder: String, store: String? = nil, inventory: (any InventoryStore)? = nil, adminKey: String? = nil,
                holdSeconds: TimeInterval = HoldTime.defaultSeconds, storeConnections: Int? = nil,
                allowedOrigins: [String] = [], allowedHosts: [String] = [], connectionsPerAddress: Int = 128, headerSeconds: Int = 10,
                tokenLimits: ShowService.TokenLimits = ShowService.TokenLimits(), trustedProxies: [String] = [],
                maxImagePixels: Int = SeatMapHTTPService.defaultMaxImagePixels,
                host: String = "127.0.0.1", port: UInt16 = 0, workers: Int = 2,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws(SeatMapError) {
        var shows: ShowService? = nil
        // PostgreSQL: as many request threads as store connections (each
        // waits on the server holding one; more only queue for the pool).
        let postgres = store.map(PostgresInventoryStore.isConnectionString) ?? false
        let requestThreads = postgres ? max(4, 2 * workers) : SeatMapHTTPService.requestThreadsPerWorker * workers
        if let inventory {
            shows = ShowService(store: inventory, defaultTTL: holdSeconds, tokenLimits: tokenLimits)
        } else if let store {
            // Twice the workers, at least 4: an update holds a connection only
            // while it leads a commit (the others of its show wait for that
            // commit, holding none), so more would only add server processes.
            let opened = try InventoryStores.open(store, connections: storeConnections ?? max(4, 2 * workers))  // reached (or its problem reported) at start
            for note in opened.notes { log(note) }
            shows = ShowService(store: opened, defaultTTL: holdSeconds, tokenLimits: tokenLimits)
        }
        requiresAdminKey = adminKey != nil
        let health = StoreHealth()
        let changes = ShowChanges()
        if let store = shows?.store {
            health.watch(store)
            watch = store.watchChanges { show in show == "*" ? changes.bumpAll() : changes.bump(show) }
            changes.notified = watch != nil
        }
        self.health = health
        self.changes = changes
        var configured = Controller(halls: HallFolder(folder), shows: shows, adminKey: adminKey, health: health, changes: changes)
        configured.allowedOrigins = Set(allowedOrigins)
        configured.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        configured.trustedProxies = Set(trustedProxies)
        configured.maxImagePixels = maxImagePixels
        let controller = configured
        var limits = HTTPServer.Limits()
        limits.perAddress = UInt32(max(1, min(connectionsPerAddress, 4096)))
        limits.headerTimeout = UInt32(max(1, min(headerSeconds, Int(limits.timeout))))
        let router = controller.routes()
        server = try HTTPServer(host: host, port: port, workers: workers, requestThreads: requestThreads,
                                limits: limits, log: log,
                                lane: { request in
                                    var resolved = request
                                    resolved.route = router.resolve(request)
                                    switch resolved.route {
                                    case .success(let (route, _))?:
                                        // A long poll without `wait` answers at once: the request pool.
                                        let pool = route.pool == .wait && !request.query.contains { $0.0 == "wait" } ? .light : route.pool
                                        return (pool, resolved)
                                    default:
                                        return (.instant, resolved)  // 404 and 405 read no file
                                    }
                                                                }) { request in controller.answer(request, router) }
    }

    private let health: StoreHealth
    private let changes: ShowChanges
    private var watch: (any StoreWatch)? = nil

    public func stop() {
        health.stop()
        watch?.stop()
        changes.shutdown()
        server.stop()
    }
}

/// The service's request handling without a socket or threads: a request
/// in, its response out, as `seatmap serve` answers it (the fuzz target over
/// whole requests drives this; holds last `holdSeconds`, the store is not
/// watched).
package struct RequestHandler: Sendable {
    private let controller: Controller
    private let router: Router

    package init(halls folder: String, inventory: (any InventoryStore)?, adminKey: String? = nil, holdSeconds: TimeInterval = HoldTime.defaultSeconds,
                 maxImagePixels: Int = SeatMapHTTPService.defaultMaxImagePixels) {
        var c = Controller(halls: HallFolder(folder), shows: inventory.map { ShowService(store: $0, defaultTTL: holdSeconds) },
                           adminKey: adminKey, health: StoreHealth(), changes: ShowChanges())
        c.maxImagePixels = maxImagePixels
        controller = c
        router = controller.routes()
    }

    /// Query and header values as the server reads them (decoded, with
    /// their lengths); header names in any case.
    package func answer(method: String, path: String, query: [(String, String)], headers: [(String, String)], body: [UInt8])
        -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        let request = HTTPRequest(method: method, path: path, query: query,
                                  headers: Dictionary(headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a }), body: body)
        let response = controller.answer(request, router)
        return (response.status, response.headers, response.body)
    }
}
