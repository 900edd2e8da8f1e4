import Foundation
import Testing
import SeatMapCore
import SeatMapServer
import SeatMapTestClients
import SeatMapTestSupport

/// The service's edges: cross-site requests, hosts, decoding, floods, FIFOs.
@Suite("HTTP service: hardening", .serialized)
struct HardeningTests {
    @Test("cross-site POSTs are refused (403, 415); listed origins get CORS; a foreign Host gets 421")
    func crossSite() throws {
        let (service, http, _) = try TestServer.startWithStore(allowedOrigins: ["https://shop.example"])
        defer { service.stop() }
        let body = Array(#"{"hall": "seed"}"#.utf8)
        // A form or text/plain post from any page: refused before it reaches the show.
        let plain = try http.request("POST", "/shows/victim", headers: ["Content-Type": "text/plain"], body: body)
        #expect(plain.status == 415, "\(plain.text)")
        let evil = try http.request("POST", "/shows/victim", headers: ["Origin": "http://evil.example"], body: body)
        #expect(evil.status == 403 && evil.text.contains("evil.example"), "\(evil.text)")
        #expect(try http.request("POST", "/shows/victim", headers: ["Sec-Fetch-Site": "cross-site"], body: body).status == 403)
        #expect(try http.request("GET", "/shows/victim/seats").status == 404, "nothing was created")
        // The service's own pages and listed origins may.
        #expect(try http.request("POST", "/shows/victim", headers: ["Origin": "http://127.0.0.1"], body: body).status == 201)
        let shop = try http.request("POST", "/shows/victim/select", headers: ["Origin": "https://shop.example"], body: Array(#"{"toggle": ["1-1-1"]}"#.utf8))
        #expect(shop.status == 200 && shop.headers["access-control-allow-origin"] == "https://shop.example")
        let preflight = try http.request("OPTIONS", "/shows/victim/select", headers: [
            "Origin": "https://shop.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"])
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
        #expect(try http.request("OPTIONS", "/shows/victim/select", headers: ["Origin": "http://evil.example",
                                                                             "Access-Control-Request-Method": "POST"]).status == 403)
        // DNS rebinding: a name the service was not given.
        let rebound = try http.request("GET", "/healthz", headers: ["Host": "evil.example:8080"])
        #expect(rebound.status == 421, "\(rebound.text)")
        #expect(try http.request("GET", "/healthz", headers: ["Host": "localhost:8080"]).status == 200)
        #expect(try http.request("GET", "/healthz", headers: ["Host": "[::1]:8080"]).status == 200)
    }

    @Test("a NUL, control character or bad %-escape in a query value or the path is a 400 naming the parameter",
          arguments: ["zoom=1%00abc", "theme=dark%00/../../etc/passwd", "locale=en%00xx", "select=1-1-1%00,9-9-9", "zoom=%zz", "zo%00om=1", "zoom=1%0A"])
    func nulInQuery(_ query: String) throws {
        let (service, http) = try TestServer.start()
        defer { service.stop() }
        let answer = try http.request("GET", "/halls/seed.png?\(query)")
        #expect(answer.status == 400 && answer.text.contains("query parameter"), "\(query): \(answer.status) \(answer.text)")
        #expect(try http.request("GET", "/halls/se%zzed.png").status == 400, "a malformed escape in the path")
        #expect(try http.request("GET", "/halls/seed.png?zoom=1%2E5").status == 200, "an escaped dot is fine")
    }

    @Test("one request may not have an image drawn over the service's cap (--max-image-megapixels): 422 naming the size; under it, 200")
    func imageCap() throws {
        let service = try SeatMapHTTPService(halls: Fixtures.examplesFolder.path, maxImagePixels: 2_000_000, port: 0, workers: 2)
        defer { service.stop() }
        let http = TestHTTP(port: service.port)
        #expect(try http.request("GET", "/halls/seed.png?zoom=1").status == 200)
        let big = try http.request("GET", "/halls/seed.png?zoom=5.5")
        #expect(big.status == 422 && String(decoding: big.body, as: UTF8.self).contains("3520×2640 px, over 2 megapixels"),
                "\(big.status) \(String(decoding: big.body, as: UTF8.self))")
        // The SVG of the same view allocates no pixels and is drawn.
        #expect(try http.request("GET", "/halls/seed.svg?zoom=5.5").status == 200)
        // The command line keeps its own 400-megapixel limit.
        let dir = try Fixtures.tempFolder()
        #expect(seatmap("render", Fixtures.examplePath("seed.json"), "--zoom", "5.5", "-o", dir.appendingPathComponent("s.png").path).code == 0)
        #expect(seatmap("serve", "--halls", dir.path, "--max-image-megapixels", "401").code == 2)
    }

    @Test("1,100 idle connections from one address leave another client's health check and render answered")
    func idleFlood() throws {
        let (service, http) = try TestServer.start()
        defer { service.stop() }
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<1100 {
            guard let fd = try? http.connect() else { break }
            idle.append(fd)
        }
        #expect(idle.count == 1100, "the test could open only \(idle.count) connections")
        // Another address (127.0.0.2 is this machine too); an answer within the client's 5 s wait, not the 30 s idle timeout.
        var other = TestHTTP(port: http.port, source: "127.0.0.2")
        other.timeoutSeconds = 5
        #expect(try other.request("GET", "/healthz").status == 200)
        #expect(try other.request("GET", "/halls/seed.png").status == 200)
    }

    @Test("a connection that sends no complete request header is closed after the header timeout; one that did stays open")
    func headerTimeout() throws {
        let service = try SeatMapHTTPService(halls: Fixtures.examplesFolder.path, headerSeconds: 1, port: 0, workers: 2)
        defer { service.stop() }
        let http = TestHTTP(port: service.port)
        let silent = try http.connect(), partial = try http.connect(), answered = try http.connect()
        defer { [silent, partial, answered].forEach { close($0) } }
        TestHTTP.send(partial, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))  // the header never ends
        TestHTTP.send(answered, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let first = buffer.withUnsafeMutableBytes { recv(answered, $0.baseAddress, $0.count, 0) }
        #expect(first > 0 && String(decoding: buffer[..<max(0, first)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        usleep(3_000_000)
        // Closed by the service: a read gets end of file (0) or a reset, not the client's 120 s wait.
        for fd in [silent, partial] {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            #expect(n <= 0, "a connection without a complete header was still open after 3 s")
        }
        // The kept-alive connection answers a second request.
        TestHTTP.send(answered, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let second = buffer.withUnsafeMutableBytes { recv(answered, $0.baseAddress, $0.count, 0) }
        #expect(second > 0 && String(decoding: buffer[..<max(0, second)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test("a FIFO in the halls folder is listed as unreadable and never waited on; everything else answers")
    func fifoInHalls() throws {
        let (service, http, dir) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(mkfifo(dir.appendingPathComponent("pipe.json").path, 0o644) == 0)
        var slow = http
        slow.timeoutSeconds = 10
        let list = try slow.request("GET", "/halls")
        #expect(list.status == 200)
        guard case .array(let items) = try list.json().value else { Issue.record("not an array"); return }
        let pipe = items.first { TestJSON.string($0["hall"]) == "pipe" }
        #expect(TestJSON.string(pipe?["error"])?.contains("not a regular file") == true, "\(list.text.prefix(300))")
        #expect(try slow.request("GET", "/halls/pipe.svg").status == 422)
        #expect(try slow.request("GET", "/halls/seed.svg").status == 200)
        #expect(try slow.request("GET", "/halls").status == 200, "and again")
    }
}
