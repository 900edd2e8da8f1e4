import Foundation
import SeatMapCore

/// One keep-alive HTTP/1.1 connection to a service on 127.0.0.1, as a
/// buyer's browser holds one: requests one after another, answers read
/// by their `Content-Length`. For the sale benchmark's clients.
final class BenchHTTP {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// What one `recv` reads into (kept: the clients share the machine with the service).
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SeatMapError("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw SeatMapError("connect to port \(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// A request and its answer: the status and the body.
    func request(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, body: [UInt8]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw SeatMapError("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        // The head, up to its blank line.
        var found = BenchHTTP.blankLine(buffer)
        while found == nil {
            try fill()
            found = BenchHTTP.blankLine(buffer)
        }
        let end = found ?? 0
        let headText = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        let lines = headText.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw SeatMapError("no status line: \(headText.prefix(80))")
        }
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        while buffer.count < length { try fill() }
        let answer = Array(buffer[..<length])
        buffer.removeFirst(length)
        return (status, answer)
    }

    private func fill() throws {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw SeatMapError("the service closed the connection (\(n < 0 ? String(cString: strerror(errno)) : "end of stream"))") }
        buffer += chunk[..<n]
    }

    private static func blankLine(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 { return i }
        return nil
    }

    /// The answer's JSON, or nil.
    static func json(_ body: [UInt8]) -> JSONNode? { try? JSONParser.parse(body) }

    /// A string member of an answer.
    static func string(_ node: JSONNode?, _ key: String) -> String? {
        if case .string(let s)? = node?[key]?.value { return s }
        return nil
    }
}
