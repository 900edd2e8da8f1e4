import CMicroHTTPD
import Dispatch
import Foundation
import SeatMapCore
import SeatMapService

/// The HTTP/1.1 server under `seatmap serve`: libmicrohttpd parses HTTP and
/// polls the connections on a few I/O threads; every request's work runs
/// on a bounded pool of workers while its connection is suspended, so a
/// slow render never holds up another connection, and a slow or silent
/// client only ever holds its own connection (closed after `timeout`).
package final class HTTPServer: @unchecked Sendable {
    struct Limits: Sendable {
        /// Largest request body accepted (413 beyond it).
        var maxBody = 1 << 20
        /// Bytes per connection for the request line, headers and parsed query (libmicrohttpd answers 414/431 beyond it).
        var headerMemory = 256 << 10
        /// Seconds a connection may stay idle once it has sent a request header.
        var timeout: UInt32 = 30
        /// Seconds a new connection may stay idle before its first request
        /// header is complete (a connection that sends nothing is closed soon).
        var headerTimeout: UInt32 = 10
        /// Connections open at once.
        var connections: UInt32 = 4096
        /// Connections open at once from one client address (an idle flood
        /// from one address leaves the others answered).
        var perAddress: UInt32 = 128
        /// Requests waiting for a worker before new ones get 503.
        var queue = 512
    }

    typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private var daemon: OpaquePointer?
    private let handler: Handler
    private let limits: Limits
    /// Renders on one pool, everything else on another: a queue of slow
    /// renders never delays a selection or a hit test.
    private let workers: WorkerPool
    private let light: WorkerPool
    /// Long polls (a client waiting for a show to change) on threads of
    /// their own, so waiting never takes a worker from other requests.
    private let waiting: WorkerPool
    /// Where a request's work runs, and the request as the service will
    /// handle it (its route resolved once, here).
    private let lane: @Sendable (HTTPRequest) -> (Router.Pool, HTTPRequest)
    private let log: @Sendable (String) -> Void
    private let pending = Counter()
    /// Connections suspended while their work runs.
    private let suspended = Counter()
    /// The port listened on.
    private(set) var port: UInt16 = 0

    /// Starts listening at once; throws when the address is not an IP
    /// literal or the port cannot be bound.
    /// `lane` says where each request runs: `instant` ones are answered on
    /// the I/O thread at once (a health check), `render` ones go to the
    /// render pool, `wait` ones (long polls) to threads of their own, the
    /// rest to the request pool.
    init(host: String, port: UInt16, workers: Int, requestThreads: Int? = nil, limits: Limits = Limits(), log: @escaping @Sendable (String) -> Void,
         lane: @escaping @Sendable (HTTPRequest) -> (Router.Pool, HTTPRequest) = { (.render, $0) }, waitThreads: Int = 64,
         handler: @escaping Handler) throws(SeatMapError) {
        self.handler = handler
        self.limits = limits
        self.log = log
        self.lane = lane
        self.workers = WorkerPool(threads: max(1, workers), name: "seatmap-render")
        self.light = WorkerPool(threads: max(1, requestThreads ?? workers), name: "seatmap-request")
        self.waiting = WorkerPool(threads: max(1, waitThreads), name: "seatmap-wait")
        let me = Unmanaged.passUnretained(self).toOpaque()
        HTTPServer.raiseFileLimit(to: Int(limits.connections) + 256)
        let daemon = seatmap_mhd_start(host, port, 2, min(limits.headerTimeout, limits.timeout), limits.connections, limits.perAddress, limits.headerMemory,
                                       HTTPServer.access, me, HTTPServer.completed, me, HTTPServer.unescape)
        guard let daemon else {
            throw SeatMapError("cannot listen on \(host):\(port): the address must be an IP literal (127.0.0.1, ::1, 0.0.0.0) and the port free")
        }
        self.daemon = daemon
        self.port = seatmap_mhd_port(daemon)
    }

    /// Stops listening, lets the requests being worked on finish, then
    /// closes every connection. (libmicrohttpd aborts the process when
    /// stopped with a connection still suspended, so the work is waited for
    /// and the resumed connections are answered first.)
    func stop() {
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon)
        workers.stop()
        light.stop()
        waiting.stop()
        // Resumed connections are answered on the I/O threads; wait for them.
        let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
        while suspended.value > 0 && DispatchTime.now().uptimeNanoseconds < deadline { usleep(2000) }
        MHD_stop_daemon(daemon)
        if listener >= 0 { close(listener) }
        self.daemon = nil
    }

    deinit { stop() }

    /// Raises this process's open-file limit towards `wanted` (within the
    /// hard limit), so the connection limit, not the file limit, is what
    /// a flood meets.
    static func raiseFileLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// One request's state across libmicrohttpd's calls, kept in its
    /// connection's `con_cls`.
    final class Exchange: @unchecked Sendable {
        var request: HTTPRequest
        let started = DispatchTime.now().uptimeNanoseconds
        var tooLarge = false
        var dispatched = false
        /// Counted as no longer suspended (answered, or ended).
        var settled = false
        var response: HTTPResponse?
        var status = 0
        init(_ request: HTTPRequest) { self.request = request }
    }

    private static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
        guard let cls, let connection, let conCls, let uploadSize else { return seatmap_mhd_no }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        return server.handle(connection, url: url, method: method, upload: uploadData, size: uploadSize, state: conCls)
    }

    private static let completed: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
        guard let cls, let conCls, let raw = conCls.pointee else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
        conCls.pointee = nil
        server.settle(exchange)
        server.logLine(exchange)
    }

    /// The IP address at the other end of a connected socket, as text
    /// (`127.0.0.1`, `::1`), or nil.
    static func peerAddress(_ fd: Int32) -> String? {
        guard fd >= 0 else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family), peer = storage
        let written: UnsafePointer<CChar>? = withUnsafePointer(to: peer) { address in
            switch family {
            case AF_INET:
                return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    withUnsafePointer(to: v4.pointee.sin_addr) { inet_ntop(AF_INET, $0, &text, socklen_t(text.count)) }
                }
            case AF_INET6:
                return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    withUnsafePointer(to: v6.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, &text, socklen_t(text.count)) }
                }
            default:
                return nil
            }
        }
        guard written != nil else { return nil }
        return String(cString: text)
    }

    private func handle(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                        upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        // First call: the request line and headers are in.
        guard let raw = state.pointee else {
            let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "/",
                                      query: HTTPServer.values(connection, headers: false).map { ($0.0, $0.1) },
                                      headers: Dictionary(HTTPServer.values(connection, headers: true).map { ($0.0.lowercased(), $0.1) },
                                                          uniquingKeysWith: { a, _ in a }),
                                      body: [], peer: HTTPServer.peerAddress(seatmap_mhd_socket(connection)))
            let exchange = Exchange(request)
            seatmap_mhd_set_timeout(connection, limits.timeout)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            // A body announced over the limit is refused before it is sent
            // (no "100 Continue"; libmicrohttpd drops what arrives anyway).
            if let length = request.headers["content-length"], Int(length).map({ $0 > limits.maxBody }) ?? true {
                exchange.tooLarge = true
                return send(connection, exchange, .error(413, "the request body is over \(limits.maxBody) bytes"))
            }
            return seatmap_mhd_yes
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        // Body data: kept up to the limit, the rest read and dropped.
        if size.pointee > 0 {
            if !exchange.tooLarge, let upload {
                if exchange.request.body.count + size.pointee > limits.maxBody {
                    exchange.tooLarge = true
                    exchange.request.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: size.pointee) {
                        exchange.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size.pointee))
                    }
                }
            }
            size.pointee = 0
            return seatmap_mhd_yes
        }
        if let response = exchange.response {
            settle(exchange)
            return send(connection, exchange, response)
        }
        if exchange.tooLarge {
            return send(connection, exchange, .error(413, "the request body is over \(limits.maxBody) bytes"))
        }
        if exchange.dispatched { return seatmap_mhd_yes }
        let (pool, request) = lane(exchange.request)
        if pool == .instant { return send(connection, exchange, handler(request)) }
        guard pending.increment(limit: limits.queue) else {
            return send(connection, exchange, .error(503, "the server is busy (\(limits.queue) requests waiting); try again"))
        }
        exchange.dispatched = true
        // The work runs on a worker while libmicrohttpd polls the others;
        // resuming calls this handler again, which sends the response.
        _ = suspended.increment(limit: Int.max)
        MHD_suspend_connection(connection)
        let handler = self.handler, pending = self.pending
        let ticket = ConnectionTicket(connection: connection, exchange: exchange, socket: seatmap_mhd_socket(connection))
        (pool == .wait ? waiting : pool == .render ? workers : light).submit {
            // A client that has gone while its request waited is not worked for.
            let response = ticket.clientGone() ? HTTPResponse.error(499, "the client closed the connection") : handler(request)
            ticket.exchange.response = response
            pending.decrement()
            MHD_resume_connection(ticket.connection)
        }
        return seatmap_mhd_yes
    }

    /// A dispatched request leaves the suspended count once.
    private func settle(_ exchange: Exchange) {
        guard exchange.dispatched, !exchange.settled else { return }
        exchange.settled = true
        suspended.decrement()
    }

    private func send(_ connection: OpaquePointer, _ exchange: Exchange, _ response: HTTPResponse) -> MHD_Result {
        exchange.status = response.status
        var names: [UnsafeMutablePointer<CChar>?] = []
        for (name, value) in response.headers {
            names.append(strdup(name))
            names.append(strdup(value))
        }
        defer { names.forEach { free($0) } }
        let headers = names.map { UnsafePointer($0) }
        return response.body.withUnsafeBytes { body in
            // Queued with the body copied, each header added; any refusal answers MHD_NO.
            guard let reply = MHD_create_response_from_buffer(body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), seatmap_mhd_copy) else {
                return seatmap_mhd_no
            }
            defer { MHD_destroy_response(reply) }
            for i in 0..<response.headers.count where MHD_add_response_header(reply, headers[2 * i], headers[2 * i + 1]) != seatmap_mhd_yes {
                return seatmap_mhd_no
            }
            return MHD_queue_response(connection, UInt32(response.status), reply)
        }
    }

    /// Percent-decoding for the path and query (libmicrohttpd's unescape
    /// callback): a %XX escape becomes its byte; a '%' not followed by two
    /// hex digits becomes byte 1, a control character the service refuses
    /// with the parameter's name (libmicrohttpd's own decoder keeps it as
    /// text, so a bad escape could not be told from an escaped '%'). A
    /// decoded NUL becomes byte 1 too, so the path (a C string) is never cut
    /// short by one. Decodes in place; returns the new length.
    package static let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
        guard let text else { return 0 }
        func hex(_ c: CChar) -> Int? {
            switch UInt8(bitPattern: c) {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c) - 55
            default: return nil
            }
        }
        var r = 0, w = 0
        while text[r] != 0 {
            if text[r] == 37 /* % */ {
                if let hi = hex(text[r + 1]), let lo = hex(text[r + 2]) {
                    let b = hi * 16 + lo
                    text[w] = CChar(bitPattern: UInt8(b == 0 ? 1 : b))
                    r += 3
                } else {
                    text[w] = 1
                    r += 1
                }
            } else {
                text[w] = text[r]
                r += 1
            }
            w += 1
        }
        text[w] = 0
        return w
    }

    /// One line per request: time, method, path, status, duration, bytes.
    private func logLine(_ exchange: Exchange) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - exchange.started) / 1e6
        let bytes = exchange.response?.body.count ?? 0
        let stamp = ShowJSON.time(Date())
        let status = exchange.status == 0 ? "-" : String(exchange.status)
        log("\(stamp) \(exchange.request.method) \(exchange.request.path) \(status) \(String(format: "%.1f", ms)) ms \(bytes) B")
    }

    /// A connection's values of one kind (query arguments, headers), read
    /// with their lengths: a NUL or a byte sequence that is not UTF-8 stays
    /// visible (as U+0000 / U+0001) for the service to refuse, never cuts
    /// a value short.
    private static func values(_ connection: OpaquePointer, headers: Bool) -> [(String, String)] {
        let box = PairBox()
        let iterator: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return seatmap_mhd_yes }
            let box = Unmanaged<PairBox>.fromOpaque(cls).takeUnretainedValue()
            func text(_ p: UnsafePointer<CChar>, _ n: Int) -> String {
                let bytes = UnsafeRawBufferPointer(start: p, count: n)
                return String(validating: bytes, as: UTF8.self) ?? "\u{1}"
            }
            box.pairs.append((text(key, keySize), value.map { text($0, valueSize) } ?? ""))
            return seatmap_mhd_yes
        }
        let cls = Unmanaged.passUnretained(box).toOpaque()
        _ = MHD_get_connection_values_n(connection, headers ? seatmap_mhd_headers : seatmap_mhd_query, iterator, cls)
        return box.pairs
    }
}

private final class PairBox {
    var pairs: [(String, String)] = []
}

/// A suspended connection and its exchange, handed to a worker (which
/// resumes the connection once the response is set).
private struct ConnectionTicket: @unchecked Sendable {
    let connection: OpaquePointer
    let exchange: HTTPServer.Exchange
    /// The connection's socket (-1 when unknown).
    let socket: Int32

    /// Whether the client closed its end (a read would give end-of-file);
    /// pipelined bytes waiting to be read mean it is still there.
    func clientGone() -> Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let n = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n == 0
    }
}

/// Requests waiting for or on a worker.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment(limit: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard count < limit else { return false }
        count += 1
        return true
    }
    func decrement() {
        lock.lock()
        count -= 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
