import Dispatch
import Foundation
import SeatMapCore
import SeatMapRender
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

    /// - Parameters:
    ///   - store: the inventory store's SQLite file (nil: the show
    ///     endpoints answer 409), or `inventory` for another store.
    ///   - adminKey: the key back-office requests must send as
    ///     `Authorization: Bearer KEY`; nil runs the open development mode.
    public init(halls folder: String, store: String? = nil, inventory: (any InventoryStore)? = nil, adminKey: String? = nil,
                holdSeconds: TimeInterval = HoldTime.defaultSeconds, storeConnections: Int? = nil,
                allowedOrigins: [String] = [], allowedHosts: [String] = [], connectionsPerAddress: Int = 128, headerSeconds: Int = 10,
                maxImagePixels: Int = SeatMapHTTPService.defaultMaxImagePixels,
                host: String = "127.0.0.1", port: UInt16 = 0, workers: Int = 2,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws(SeatMapError) {
        var shows: ShowService? = nil
        if let inventory {
            shows = ShowService(store: inventory, defaultTTL: holdSeconds)
        } else if let store {
            let opened = try InventoryStores.open(store, connections: storeConnections ?? max(4, 2 * workers))  // reached (or its problem reported) at start
            for note in opened.notes { log(note) }
            shows = ShowService(store: opened, defaultTTL: holdSeconds)
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
        configured.maxImagePixels = maxImagePixels
        let controller = configured
        var limits = HTTPServer.Limits()
        limits.perAddress = UInt32(max(1, min(connectionsPerAddress, 4096)))
        limits.headerTimeout = UInt32(max(1, min(headerSeconds, Int(limits.timeout))))
        let router = controller.routes()
        server = try HTTPServer(host: host, port: port, workers: workers, limits: limits, log: log,
                                instant: { request in
                                    if case .success(let (route, _)) = router.resolve(request) { return route.pool == .instant }
                                    return true  // 404 and 405 read no file
                                },
                                heavy: { request in
                                    if case .success(let (route, _)) = router.resolve(request) { return route.pool == .render }
                                    return false
                                },
                                waits: { request in
                                    if case .success(let (route, _)) = router.resolve(request), route.pool == .wait {
                                        return request.query.contains { $0.0 == "wait" }
                                    }
                                    return false
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

/// Whether the store answers, asked every two seconds off the request
/// threads, so `/healthz` can say so at once.
final class StoreHealth: @unchecked Sendable {
    private let lock = NSLock()
    private var problem: String? = nil
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private var watching = false

    /// Nil while the store answers, else the last failure.
    var storeProblem: String? {
        lock.lock()
        defer { lock.unlock() }
        return problem
    }

    func watch(_ store: any InventoryStore) {
        watching = true
        let thread = Thread { [self] in
            while true {
                let p = store.probe()
                lock.lock()
                problem = p
                let stop = stopped
                lock.unlock()
                if stop { break }
                if done.wait(timeout: .now() + 2) == .success { break }
            }
        }
        thread.name = "seatmap-store-health"
        thread.start()
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        if watching { done.signal() }
    }
}

/// The halls folder: a hall name is `NAME.json` in it, and nothing else.
/// Parsed plans are kept by the file's identity (a replaced file is read again).
struct HallFolder: Sendable {
    let folder: String
    let plans = PlanCache()

    init(_ folder: String) { self.folder = folder }

    func path(_ name: String) -> String { URL(fileURLWithPath: folder).appendingPathComponent(name + ".json").path }

    /// The plan of hall `name`, or the 404 / 422 answer.
    func plan(_ name: String) -> Result<(plan: HallPlan, path: String), HTTPResponseError> {
        guard HallPlan.isName(name) else { return .failure(HTTPResponseError(.error(404, "no such hall: \(name)"))) }
        let path = self.path(name)
        guard FileManager.default.isReadableFile(atPath: path) else {
            return .failure(HTTPResponseError(.error(404, "no such hall: \(name) (no \(name).json in the halls folder)")))
        }
        do {
            let key = RenderCache.key(path: path, parts: [])
            if let key, let hall = plans.get(key) { return .success((HallPlan(name: name, hall: hall), path)) }
            let hall = try Files.readHall(path, regularOnly: true)
            if let key { plans.put(key, hall) }
            return .success((HallPlan(name: name, hall: hall), path))
        } catch {
            return .failure(HTTPResponseError(.error(422, clean(error.message))))
        }
    }

    /// Every hall name in the folder, sorted.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(HallPlan.isName).sorted()
    }

    /// A message as a client sees it: hall files by name, not by the
    /// service's paths.
    func clean(_ message: String) -> String {
        let dir = URL(fileURLWithPath: folder).standardizedFileURL.path
        return message.replacingOccurrences(of: dir + "/", with: "").replacingOccurrences(of: folder + "/", with: "")
    }
}

/// Recent renders, keyed by the hall file's identity (device, inode, size,
/// modification time in nanoseconds), the show's state and the render's
/// options; at most 64 entries and 256 MB, the oldest dropped first.
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

/// Parsed hall files by file identity (at most 32, the oldest dropped first).
final class PlanCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Hall] = [:]
    private var order: [String] = []

    func get(_ key: String) -> Hall? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func put(_ key: String, _ hall: Hall) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil else { return }
        entries[key] = hall
        order.append(key)
        while order.count > 32 { entries[order.removeFirst()] = nil }
    }
}

/// Each show's hall name, which never changes once the show exists.
final class ShowHalls: @unchecked Sendable {
    private let lock = NSLock()
    private var halls: [String: String] = [:]

    func get(_ show: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return halls[show]
    }

    func put(_ show: String, _ hall: String) {
        lock.lock()
        defer { lock.unlock() }
        if halls.count > 100_000 { halls.removeAll() }
        halls[show] = hall
    }
}

/// A counter per show that commits bump (this instance's own, and every
/// instance's through the store's change feed), and long polls wait on.
final class ShowChanges: @unchecked Sendable {
    private let condition = NSCondition()
    private var versions: [String: UInt64] = [:]
    private var all: UInt64 = 0
    private var closed = false
    /// Whether the store tells of other instances' commits; if not, a
    /// waiter looks again every second.
    var notified = false

    func version(_ show: String) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return (versions[show] ?? 0) &+ all
    }

    func bump(_ show: String) {
        condition.lock()
        versions[show, default: 0] &+= 1
        if versions.count > 100_000 { versions.removeAll(); all &+= 1 }
        condition.broadcast()
        condition.unlock()
    }

    func bumpAll() {
        condition.lock()
        all &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the show's version is no longer `seen`, or `deadline`
    /// (at most a second without a change feed); true when it changed.
    func wait(_ show: String, seen: UInt64, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let limit = notified ? deadline : min(deadline, Date().addingTimeInterval(1))
        while !closed && (versions[show] ?? 0) &+ all == seen {
            if !condition.wait(until: limit) { break }
        }
        return (versions[show] ?? 0) &+ all != seen
    }

    /// Wakes every waiter for good (the service is stopping).
    func shutdown() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
