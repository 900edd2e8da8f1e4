import Foundation
import Testing
import SeatMapCLI
import SeatMapCore
import SeatMapTestSupport

/// A plain HTTP/1.1 client over a socket (the test side only): one request
/// per connection, `Connection: close`, the whole answer read.
struct TestHTTP {
    let port: UInt16

    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func json() throws -> JSONNode { try JSONParser.parse(body) }
    }

    /// A connected socket (closed by the caller).
    func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SeatMapError("socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Long enough for a large render queued behind two others on a
        // loaded machine in a debug build; a hang still ends the test.
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let ok = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { close(fd); throw SeatMapError("cannot connect to 127.0.0.1:\(port)") }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Answer {
        let fd = try connect()
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if (!body.isEmpty || method == "POST") && headers["Content-Length"] == nil { head += "Content-Length: \(body.count)\r\n" }
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
        return Answer(status: status, headers: fields, body: Array(data[split.upperBound...]))
    }
}

@Suite("HTTP service (seatmap serve)", .serialized)
struct ServeTests {
    static func start() throws -> (SeatMapService, TestHTTP) {
        let service = try SeatMapService(halls: Fixtures.examplesFolder.path, port: 0, workers: 2)
        return (service, TestHTTP(port: service.port))
    }

    /// Runs the CLI; its standard output and exit code.
    static func cli(_ args: [String]) -> (Int32, String) {
        let c = CapturedConsole()
        let code = SeatMapCLI.run(args, console: c.console)
        return (code, c.stdout)
    }

    @Test("a render is the same bytes as `seatmap render` with the same options, in every format")
    func renderBytes() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        let dir = try Fixtures.tempFolder()
        let cases: [(String, String, [String])] = [
            ("cinema-12x18", "zoom=1.5&theme=dark", ["--zoom", "1.5", "--theme", "dark"]),
            ("imax-3-sections", "viewport=375,667&offset=200,100&minimap&select=2-5-13", ["--viewport", "375,667", "--offset", "200,100", "--minimap", "--select", "2-5-13"]),
            ("theatre-curved", "scale=2&no-legend=1&locale=en", ["--scale", "2", "--no-legend", "--locale", "en"]),
        ]
        for (hall, query, flags) in cases {
            for format in ["png", "svg", "pdf"] {
                let answer = try http.request("GET", "/halls/\(hall).\(format)?\(query)")
                #expect(answer.status == 200, "\(hall).\(format)?\(query): \(answer.text.prefix(200))")
                let out = dir.appendingPathComponent("\(hall).\(format)").path
                let (code, _) = Self.cli(["render", Fixtures.examplePath(hall + ".json"), "-o", out] + flags)
                #expect(code == 0)
                let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
                #expect(answer.body == expected, "\(hall).\(format)?\(query) differs from seatmap render")
                #expect(answer.headers["content-type"] == ["png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"][format])
            }
        }
    }

    @Test("ETag from the content: If-None-Match answers 304 without a body; other options, another tag")
    func etags() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        let first = try http.request("GET", "/halls/seed.png?zoom=2")
        let tag = try #require(first.headers["etag"])
        #expect(first.headers["cache-control"] == "no-cache")
        let again = try http.request("GET", "/halls/seed.png?zoom=2")
        #expect(again.headers["etag"] == tag && again.body == first.body, "deterministic")
        let cached = try http.request("GET", "/halls/seed.png?zoom=2", headers: ["If-None-Match": tag])
        #expect(cached.status == 304 && cached.body.isEmpty)
        #expect(try http.request("GET", "/halls/seed.png?zoom=2", headers: ["If-None-Match": "\"other\", W/" + tag]).status == 304)
        let other = try http.request("GET", "/halls/seed.png?zoom=3", headers: ["If-None-Match": tag])
        #expect(other.status == 200 && other.headers["etag"] != tag && !other.body.isEmpty)
    }

    @Test("POST /halls/NAME/hit answers the JSON of `seatmap hit --json`")
    func hit() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        let body = #"{"points": [[100, 200], [5, 5], [420.5, 330]], "zoom": 1.37, "scale": 2, "offset": [30, 40], "viewport": [375, 667], "theme": "print"}"#
        let answer = try http.request("POST", "/halls/cinema-12x18/hit", body: Array(body.utf8))
        #expect(answer.status == 200, "\(answer.text)")
        let (code, expected) = Self.cli(["hit", Fixtures.examplePath("cinema-12x18.json"), "--json", "--point", "100,200", "--point", "5,5",
                                         "--point", "420.5,330", "--zoom", "1.37", "--scale", "2", "--offset", "30,40",
                                         "--viewport", "375,667", "--theme", "print"])
        #expect(code == 0)
        #expect(answer.text == expected)
    }

    @Test("GET /halls lists every hall with the summary `info --json` gives; /healthz answers")
    func halls() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        #expect(try http.request("GET", "/healthz").json()["status"]?.value == .string("ok"))
        let list = try http.request("GET", "/halls")
        guard case .array(let items) = try list.json().value else { Issue.record("not an array: \(list.text)"); return }
        let names = items.compactMap { item -> String? in if case .string(let s) = item["hall"]?.value { return s } else { return nil } }
        #expect(names == Fixtures.exampleNames.map { String($0.dropLast(5)) })
        for item in items {
            guard case .string(let name) = item["hall"]?.value else { continue }
            let (_, info) = Self.cli(["info", Fixtures.examplePath(name + ".json"), "--json"])
            let expected = try JSONParser.parse(Array(info.utf8))
            #expect(item["seats"] == expected["seats"] && item["available"] == expected["available"] && item["hallName"] == expected["hallName"])
        }
    }

    @Test("bad requests: 4xx with a JSON error naming the problem, in the CLI's words")
    func errors() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        func expectError(_ answer: TestHTTP.Answer, _ status: Int, _ words: String) throws {
            #expect(answer.status == status, "\(answer.text)")
            let json = try answer.json()
            guard case .string(let message) = json["error"]?.value else { Issue.record("no error member: \(answer.text)"); return }
            #expect(message.contains(words), "\(message)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        }
        try expectError(http.request("GET", "/halls/nope.png"), 404, "no such hall: nope")
        try expectError(http.request("GET", "/halls/..%2F..%2Fetc%2Fpasswd.png"), 404, "no such")
        try expectError(http.request("GET", "/halls/seed.gif"), 404, ".png, .svg, .pdf or .html")
        try expectError(http.request("GET", "/halls/seed.png?zoom=abc"), 400, "zoom expects a number")
        try expectError(http.request("GET", "/halls/seed.png?zoom=99"), 400, "zoom")
        try expectError(http.request("GET", "/halls/seed.png?bogus=1"), 400, "unknown parameter \"bogus\"")
        try expectError(http.request("GET", "/halls/seed.png?minimap=maybe"), 400, "minimap is a flag")
        try expectError(http.request("GET", "/halls/seed.png?select=9-9-9"), 422, "no such seat")
        try expectError(http.request("POST", "/halls/seed.png"), 405, "answers GET")
        try expectError(http.request("GET", "/halls/seed/hit"), 405, "answers POST")
        try expectError(http.request("GET", "/nothing"), 404, "no such endpoint")
        try expectError(http.request("POST", "/halls/seed/hit", body: Array("{not json".utf8)), 400, "not JSON")
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"zoom": 2}"#.utf8)), 400, "missing \"points\"")
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "colour": 1}"#.utf8)), 400, "unknown member \"colour\"")
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "zoom": 99}"#.utf8)), 400, "zoom 99 is outside")
        try expectError(http.request("POST", "/halls/seed/hit", body: [UInt8](repeating: 32, count: (1 << 20) + 1)), 413, "over 1048576 bytes")
        // Announced too large: refused before the body is sent (no 100 Continue).
        try expectError(http.request("POST", "/halls/seed/hit", headers: ["Expect": "100-continue", "Content-Length": "4000000"]), 413, "over 1048576 bytes")
        // Only the service's own themes, by name: never a file a client names.
        try expectError(http.request("GET", "/halls/seed.svg?theme=/etc/passwd"), 400, "theme: one of")
        try expectError(http.request("GET", "/halls/seed.png?theme=../Themes/dark.json"), 400, "theme: one of")
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "theme": "/dev/zero"}"#.utf8)), 400, "theme: one of")
        #expect(try http.request("GET", "/halls/seed.svg?theme=dark").status == 200)
        // Nothing that looks like an option; negative numbers are fine.
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "zoom": "--help"}"#.utf8)), 400, "cannot start with")
        try expectError(http.request("GET", "/halls/seed.png?locale=--help"), 400, "cannot start with")
        #expect(try http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "offset": "-5,3"}"#.utf8)).status == 200)
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "zoom": 2, "zoom": 3}"#.utf8)), 400, "\"zoom\" is given twice")
        let notAllowed = try http.request("DELETE", "/halls/seed.png")
        #expect(notAllowed.status == 405 && notAllowed.headers["allow"] == "GET, HEAD")
        #expect(try http.request("HEAD", "/halls").status == 200)
        // The service still answers after all of that.
        #expect(try http.request("GET", "/healthz").status == 200)
    }

    @Test("slow renders hold up neither the health check nor a hit test or selection")
    func renderQueue() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        // Four large renders (each about 1-2 s on one core in a debug build,
        // 300 MB at most), more than the two workers, left running. No clock
        // is read (the machine is shared): the answers must come while the
        // renders are still running. Queued behind them, as they were on one
        // pool, the hit test came only after two renders had finished.
        let group = DispatchGroup()
        let finished = OutputBuffer(), rendered = OutputBuffer()
        for z in ["2.9", "3", "3.1", "3.2"] {
            DispatchQueue.global().async(group: group) {
                let answer = try? http.request("GET", "/halls/arena-blocks.png?zoom=\(z)&scale=2")
                finished.append(z)
                if answer?.status == 200 { rendered.append(z) }
            }
        }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try http.request("GET", "/healthz").status == 200)
        #expect(finished.parts.isEmpty, "the health check waited for a render")
        #expect(try http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]]}"#.utf8)).status == 200)
        #expect(finished.parts.count < 2, "the hit test waited for the renders ahead of it")
        group.wait()
        #expect(rendered.parts.count == 4, "every render was answered")
    }

    @Test("a client that stops half-way through its request holds up no one else")
    func slowClient() throws {
        let (service, http) = try Self.start()
        defer { service.stop() }
        var stalled: [Int32] = []
        defer { stalled.forEach { close($0) } }
        for _ in 0..<8 {
            let fd = try http.connect()
            TestHTTP.send(fd, Array("POST /halls/seed/hit HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"poi".utf8))
            stalled.append(fd)
        }
        let answer = try http.request("GET", "/halls/seed.svg")
        #expect(answer.status == 200)
        // Answered while the 8 half-sent requests are still open and
        // unanswered (not after the server's 30 s timeout closed them).
        for fd in stalled {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, Int32(MSG_PEEK)), e = errno
            #expect(n < 0 && (e == EAGAIN || e == EWOULDBLOCK), "a half-sent request was closed or answered first (\(n), errno \(e))")
        }
    }

    /// A service over a copy of the examples with a store.
    static func startWithStore() throws -> (SeatMapService, TestHTTP, URL) {
        let dir = try Fixtures.tempFolder()
        for name in Fixtures.exampleNames {
            try FileManager.default.copyItem(at: Fixtures.examplesFolder.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let service = try SeatMapService(halls: dir.path, store: dir.appendingPathComponent("store.db").path, port: 0, workers: 2)
        return (service, TestHTTP(port: service.port), dir)
    }

    static func strings(_ node: JSONNode?) -> [String] {
        guard case .array(let items)? = node?.value else { return [] }
        return items.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
    }

    @Test("select holds seats in the store, order sells them in the hall, status batches apply once; a sold seat cannot be ordered")
    func selectOrderStatus() throws {
        let (service, http, dir) = try Self.startWithStore()
        defer { service.stop() }
        func post(_ path: String, _ json: String) throws -> TestHTTP.Answer { try http.request("POST", path, body: Array(json.utf8)) }
        let first = try post("/shows/evening/select", #"{"hall": "cinema-12x18", "toggle": ["1-5-4", "1-5-5"]}"#)
        #expect(first.status == 200, "\(first.text)")
        #expect(Self.strings(try first.json()["selected"]) == ["1-5-4", "1-5-5"])
        // The same JSON as the CLI gives for the same toggles on the same store.
        let (_, cli) = Self.cli(["select", dir.appendingPathComponent("cinema-12x18.json").path, "--store", dir.appendingPathComponent("store.db").path,
                                 "--show", "cli-show", "--toggle", "1-5-4,1-5-5", "--json"])
        #expect(first.text == cli)
        // A second request adds to the held selection.
        let second = try post("/shows/evening/select", #"{"hall": "cinema-12x18", "toggle": ["1-5-7"]}"#)
        #expect(Self.strings(try second.json()["selected"]) == ["1-5-4", "1-5-5", "1-5-7"])
        let other = try post("/shows/late/select", #"{"hall": "cinema-12x18", "toggle": ["1-5-8"]}"#)
        #expect(other.status == 200)
        // A status batch sells 1-5-8 under the other show's hold; sent twice, it applies once.
        let batch = #"{"batchId": "feed-1", "sequence": 1, "changes": [{"id": "1-5-8", "status": 2}]}"#
        let applied = try post("/halls/cinema-12x18/status", batch)
        #expect(applied.status == 200 && applied.text.contains("\"applied\""), "\(applied.text)")
        #expect(try post("/halls/cinema-12x18/status", batch).text.contains("\"duplicate\""))
        let late = try post("/shows/late/order", #"{"hall": "cinema-12x18"}"#)
        #expect(late.status == 409 && late.text.contains("seat just sold: 1-5-8"), "\(late.text)")
        // The order sells the held seats in the hall file and clears the hold.
        let order = try post("/shows/evening/order", #"{"hall": "cinema-12x18"}"#)
        #expect(try order.status == 200 && Self.strings(order.json()["sold"]) == ["1-5-4", "1-5-5", "1-5-7"], "\(order.text)")
        let hall = try Files.readHall(dir.appendingPathComponent("cinema-12x18.json").path)
        for id in ["1-5-4", "1-5-5", "1-5-7", "1-5-8"] {
            #expect(hall.cell(id: SeatID(id) ?? "")?.seat.status == .sold, "\(id)")
        }
        #expect(try post("/shows/evening/order", #"{"hall": "cinema-12x18"}"#).status == 409)
        // A hold belongs to its hall: an order naming another hall sells nothing.
        #expect(try post("/shows/matinee/select", #"{"hall": "cinema-12x18", "toggle": ["1-1-1"]}"#).status == 200)
        let elsewhere = try post("/shows/matinee/order", #"{"hall": "imax-3-sections"}"#)
        #expect(elsewhere.status == 409 && elsewhere.text.contains("holds no seats in imax-3-sections"), "\(elsewhere.text)")
        let imax = try Files.readHall(dir.appendingPathComponent("imax-3-sections.json").path)
        #expect(imax == (try Fixtures.example("imax-3-sections.json")), "the other hall is untouched")
        #expect(try post("/shows/matinee/select", #"{"hall": "cinema-12x18", "hall": "seed", "toggle": ["1-1-1"]}"#).status == 400)
        #expect(try post("/shows/matinee/select", #"{"hall": "cinema-12x18", "toggle": ["1-1-2"], "holdSeconds": 86400}"#).status == 400)
        // Renders show the new statuses.
        let svg = try http.request("GET", "/halls/cinema-12x18.svg").text
        #expect(svg.contains(#"id="seat-1-5-4" class="seat sold"#))
        // Bad bodies.
        #expect(try post("/shows/evening/select", #"{"hall": "cinema-12x18", "toggle": [5]}"#).status == 400)
        #expect(try post("/shows/evening/select", #"{"toggle": ["1-1-1"]}"#).status == 400)
        #expect(try post("/shows/bad%20id/select", #"{"hall": "cinema-12x18", "toggle": ["1-1-1"]}"#).status == 400)
        #expect(try post("/halls/cinema-12x18/status", #"{"batchId": "x"}"#).status == 422)
    }

    @Test("concurrent selections on many shows lose nothing")
    func concurrentSelections() throws {
        let (service, http, _) = try Self.startWithStore()
        defer { service.stop() }
        // 40 shows, each toggling two seats of its own row position, all at once, twice over.
        let errors = OutputBuffer()
        DispatchQueue.concurrentPerform(iterations: 40) { k in
            let row = k % 12 + 1
            for seat in [k / 12 * 2 + 1, k / 12 * 2 + 2] {
                let body = #"{"hall": "cinema-12x18", "toggle": ["1-\#(row)-\#(seat)"], "singleSeatRule": false}"#
                guard let answer = try? http.request("POST", "/shows/show\(k)/select", body: Array(body.utf8)), answer.status == 200 else {
                    errors.append("show\(k) 1-\(row)-\(seat)")
                    continue
                }
            }
        }
        #expect(errors.parts.isEmpty, "\(errors.parts.prefix(5))")
        for k in 0..<40 {
            let row = k % 12 + 1
            // The rules' answer for the same toggles without a store (couple seats bring their partner).
            let (_, alone) = Self.cli(["select", Fixtures.examplePath("cinema-12x18.json"), "--no-single-seat-rule", "--json",
                                       "--toggle", [k / 12 * 2 + 1, k / 12 * 2 + 2].map { "1-\(row)-\($0)" }.joined(separator: ",")])
            let wanted = Self.strings(try JSONParser.parse(Array(alone.utf8))["selected"])
            // Toggling an unavailable seat reads the held selection back unchanged.
            let probe = #"{"hall": "cinema-12x18", "toggle": ["9-9-9"]}"#
            let answer = try http.request("POST", "/shows/show\(k)/select", body: Array(probe.utf8))
            #expect(Self.strings(try answer.json()["selected"]).sorted() == wanted.sorted(), "show\(k)")
        }
    }
}
