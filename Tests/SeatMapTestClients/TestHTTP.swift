import Foundation
import Testing
import SeatMapCore
import SeatMapServer
import SeatMapTestSupport

/// A plain HTTP/1.1 client over a socket (the test side only): one request
/// per connection, `Connection: close`, the whole answer read.
public struct TestHTTP: Sendable {
    public init(port: UInt16, source: String? = nil, timeoutSeconds: Int = 120) {
        self.port = port
        self.source = source
        self.timeoutSeconds = timeoutSeconds
    }

    public let port: UInt16
    /// The client address to connect from (any 127.x.y.z is this machine).
    public var source: String? = nil
    /// How long a read may wait.
    public var timeoutSeconds = 120

    public struct Answer: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func json() throws -> JSONNode { try JSONParser.parse(body) }
    }

    /// A connected socket (closed by the caller).
    public func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SeatMapError("socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Long enough for a large render queued behind two others on a
        // loaded machine in a debug build; a hang still ends the test.
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var from = sockaddr_in()
            from.sin_family = sa_family_t(AF_INET)
            from.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(fd); throw SeatMapError("cannot bind to \(source)") }
        }
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw SeatMapError("cannot connect to 127.0.0.1:\(port)") }
        return fd
    }

    public static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    public func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Answer {
        let fd = try connect()
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\n" + (headers["Host"] == nil ? "Host: 127.0.0.1\r\n" : "") + "Connection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if (!body.isEmpty || method == "POST") && headers["Content-Length"] == nil { head += "Content-Length: \(body.count)\r\n" }
        if method == "POST" && headers["Content-Type"] == nil { head += "Content-Type: application/json\r\n" }
        head += "\r\n"
        TestHTTP.send(fd, Array(head.utf8) + body)
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        guard let split = data.firstRange(of: Array("\r\n\r\n".utf8)) else { throw SeatMapError("no HTTP answer from \(method) \(path)") }
        let lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "), let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw SeatMapError("bad status line from \(method) \(path)")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let answer = Answer(status: status, headers: fields, body: Array(data[split.upperBound...]))
        // Every answer a test sees is as the OpenAPI document says.
        for problem in APIConformance.problems(method: method, path: path, status: status, contentType: fields["content-type"],
                                               body: fields["content-encoding"] == nil ? answer.body : []) {
            Issue.record("not as docs/openapi.json says: \(problem)")
        }
        return answer
    }
}

/// A long poll's answer, set by its thread.
public final class LockedAnswer: @unchecked Sendable {
    private let lock = NSLock()
    public init() {}
    private var answer: TestHTTP.Answer?
    public var value: TestHTTP.Answer? {
        lock.lock()
        defer { lock.unlock() }
        return answer
    }
    public func set(_ a: TestHTTP.Answer?) {
        lock.lock()
        answer = a
        lock.unlock()
    }
}

/// A `seatmap serve` in this process for one test.
public enum TestServer {
    /// A service over the examples, no store.
    public static func start() throws -> (SeatMapHTTPService, TestHTTP) {
        let service = try SeatMapHTTPService(halls: Fixtures.examplesFolder.path, port: 0, workers: 2)
        return (service, TestHTTP(port: service.port))
    }

    /// A service over a copy of the examples with a store (and an admin key when given).
    public static func startWithStore(adminKey: String? = nil, allowedOrigins: [String] = []) throws -> (SeatMapHTTPService, TestHTTP, URL) {
        let dir = try Fixtures.tempFolder()
        for name in Fixtures.exampleNames {
            try FileManager.default.copyItem(at: Fixtures.examplesFolder.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let service = try SeatMapHTTPService(halls: dir.path, store: dir.appendingPathComponent("store.db").path, adminKey: adminKey,
                                             allowedOrigins: allowedOrigins, port: 0, workers: 2)
        return (service, TestHTTP(port: service.port), dir)
    }
}
