import Foundation
import Testing
import SeatMapCLI
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

@Suite("HTTP service (seatmap serve)", .serialized)
struct ServeTests {


    @Test("a render is the same bytes as `seatmap render` with the same options, in every format")
    func renderBytes() throws {
        let (service, http) = try TestServer.start()
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
                let (code, _, _) = seatmap(["render", Fixtures.examplePath(hall + ".json"), "-o", out] + flags)
                #expect(code == 0)
                let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
                #expect(answer.body == expected, "\(hall).\(format)?\(query) differs from seatmap render")
                #expect(answer.headers["content-type"] == ["png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf"][format])
            }
        }
    }

    @Test("ETag from the content: If-None-Match answers 304 without a body; other options, another tag")
    func etags() throws {
        let (service, http) = try TestServer.start()
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
        let (service, http) = try TestServer.start()
        defer { service.stop() }
        let body = #"{"points": [[100, 200], [5, 5], [420.5, 330]], "zoom": 1.37, "scale": 2, "offset": [30, 40], "viewport": [375, 667], "theme": "print"}"#
        let answer = try http.request("POST", "/halls/cinema-12x18/hit", body: Array(body.utf8))
        #expect(answer.status == 200, "\(answer.text)")
        let (code, expected, _) = seatmap(["hit", Fixtures.examplePath("cinema-12x18.json"), "--json", "--point", "100,200", "--point", "5,5",
                                         "--point", "420.5,330", "--zoom", "1.37", "--scale", "2", "--offset", "30,40",
                                         "--viewport", "375,667", "--theme", "print"])
        #expect(code == 0)
        #expect(answer.text == expected)
    }

    @Test("GET /halls lists every hall with the summary `info --json` gives; /healthz answers")
    func halls() throws {
        let (service, http) = try TestServer.start()
        defer { service.stop() }
        #expect(try http.request("GET", "/healthz").json()["status"]?.value == .string("ok"))
        let list = try http.request("GET", "/halls")
        guard case .array(let items) = try list.json().value else { Issue.record("not an array: \(list.text)"); return }
        let names = items.compactMap { item -> String? in if case .string(let s) = item["hall"]?.value { return s } else { return nil } }
        #expect(names == Fixtures.exampleNames.map { String($0.dropLast(5)) })
        for item in items {
            guard case .string(let name) = item["hall"]?.value else { continue }
            let (_, info, _) = seatmap(["info", Fixtures.examplePath(name + ".json"), "--json"])
            let expected = try JSONParser.parse(Array(info.utf8))
            #expect(item["seats"] == expected["seats"] && item["available"] == expected["available"] && item["hallName"] == expected["hallName"])
        }
    }

    @Test("bad requests: 4xx with a JSON error naming the problem, in the CLI's words")
    func errors() throws {
        let (service, http) = try TestServer.start()
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
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"zoom": 2}"#.utf8)), 400, "missing points")
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
        // Values are values, never options; negative numbers are fine.
        try expectError(http.request("POST", "/halls/seed/hit", body: Array(#"{"points": [[1, 2]], "zoom": "--help"}"#.utf8)), 400, "zoom expects a number")
        try expectError(http.request("GET", "/halls/seed.png?locale=--help"), 400, "locale")
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
        let (service, http) = try TestServer.start()
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
        let (service, http) = try TestServer.start()
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




    @Test("shows over HTTP: create, hold with a token, others see it held, order once, status batches once; the halls folder is never written")
    func showsOverHTTP() throws {
        let (service, http, dir) = try TestServer.startWithStore()
        defer { service.stop() }
        func post(_ path: String, _ json: String) throws -> TestHTTP.Answer { try http.request("POST", path, body: Array(json.utf8)) }
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted().map {
            try Data(contentsOf: dir.appendingPathComponent($0))
        }
        #expect(try post("/shows/evening", #"{"hall": "cinema-12x18"}"#).status == 201)
        #expect(try post("/shows/evening", #"{"hall": "cinema-12x18"}"#).status == 200)
        #expect(try post("/shows/evening", #"{"hall": "seed"}"#).status == 409)
        #expect(try post("/shows/matinee", #"{"hall": "cinema-12x18"}"#).status == 201)
        #expect(try post("/shows/x", #"{"hall": "nope"}"#).status == 404)
        let first = try post("/shows/evening/select", #"{"toggle": ["1-5-4", "1-5-5"]}"#)
        #expect(first.status == 200, "\(first.text)")
        let json = try first.json()
        #expect(TestJSON.strings(json["selected"]) == ["1-5-4", "1-5-5"])
        let token = try #require(TestJSON.string(json["token"]))
        #expect(TestJSON.string(json["expiresAt"])?.hasSuffix("Z") == true)
        // Another buyer: held. The same seat in the other show: free.
        let rival = try post("/shows/evening/select", #"{"toggle": ["1-5-5"]}"#)
        #expect(rival.text.contains(#"{"id":"1-5-5","result":"held"}"#), "\(rival.text)")
        #expect(TestJSON.strings(try post("/shows/matinee/select", #"{"toggle": ["1-5-5"]}"#).json()["selected"]) == ["1-5-5"])
        // The seats endpoint: held for others, selected for the token.
        let seatsOther = try http.request("GET", "/shows/evening/seats")
        #expect(try TestJSON.string(seatsOther.json()["seats"]?["1-5-5"]) == "held")
        #expect(try TestJSON.string(http.request("GET", "/shows/evening/seats?token=\(token)").json()["seats"]?["1-5-5"]) == "selected")
        let tag = try #require(seatsOther.headers["etag"])
        #expect(try http.request("GET", "/shows/evening/seats", headers: ["If-None-Match": tag]).status == 304)
        // Renders: locked for everyone else, selected for the token.
        #expect(try http.request("GET", "/shows/evening.svg").text.contains(#"id="seat-1-5-5" class="locked""#))
        let own = try http.request("GET", "/shows/evening.svg?token=\(token)").text
        #expect(own.contains(#"id="seat-1-5-5" class="selected""#))
        // Order: once; again answers the same and sells nothing more.
        let order = try post("/shows/evening/order", #"{"token": "\#(token)", "orderId": "web-1"}"#)
        let soldIDs = TestJSON.strings(try order.json()["sold"])
        #expect(order.status == 200 && soldIDs == ["1-5-4", "1-5-5"], "\(order.text)")
        let repeatOrder = try post("/shows/evening/order", #"{"token": "\#(token)", "orderId": "web-1"}"#)
        #expect(repeatOrder.status == 200 && repeatOrder.text.contains("\"repeated\":true"))
        #expect(try post("/shows/evening/order", #"{"token": "\#(token)", "orderId": "web-2"}"#).status == 409)
        // Status batches: applied once, holds a batch sells dropped.
        let batch = #"{"batchId": "feed-1", "sequence": 1, "changes": [{"id": "1-5-8", "status": 2}]}"#
        #expect(try post("/shows/evening/status", batch).text.contains("\"applied\""))
        #expect(try post("/shows/evening/status", batch).text.contains("\"duplicate\""))
        #expect(try post("/shows/evening/status", #"{"batchId": "x"}"#).status == 422)
        #expect(try post("/shows/evening/status", #"{"batchId": "b2", "sequence": 2, "changes": [{"id": "9-9-9", "status": 2}]}"#).status == 422,
                "a batch naming no seat of the hall is the batch's fault")
        #expect(try post("/shows/evening/status", #"{"batchId": "evt\#u{0}junk", "sequence": 3, "changes": []}"#).status == 422)
        #expect(try post("/shows/evening/select", #"{"toggle": ["1-1-1"], "token": "00000000000000000000000000000000"}"#).status == 409,
                "a token the show never issued holds nothing")
        #expect(try post("/halls/cinema-12x18/status", batch).status == 410)
        let status = try http.request("GET", "/shows/evening/status").json()
        let soldNow = TestJSON.strings(status["seats"]?["sold"])
        #expect(soldNow.contains("1-5-8"))
        // Bad bodies.
        #expect(try post("/shows/evening/select", #"{"toggle": [5]}"#).status == 400)
        #expect(try post("/shows/evening/select", #"{"toggle": ["1-1-1"], "token": "short"}"#).status == 400)
        #expect(try post("/shows/bad%20id/select", #"{"toggle": ["1-1-1"]}"#).status == 400)
        #expect(try post("/shows/nope/select", #"{"toggle": ["1-1-1"]}"#).status == 404)
        #expect(try post("/shows/evening/select", #"{"toggle": ["1-1-2"], "holdSeconds": 86400}"#).status == 400)
        // A buyer may shorten the service's hold time (600 s here), never lengthen it.
        let longer = try post("/shows/evening/select", #"{"toggle": ["1-1-2"], "holdSeconds": 601}"#)
        #expect(longer.status == 400 && longer.text.contains("holdSeconds: expected 1 to 600 seconds"), "\(longer.text)")
        #expect(try post("/shows/evening/select", #"{"toggle": ["1-1-2"], "holdSeconds": 30}"#).status == 200)
        let after = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted().map {
            try Data(contentsOf: dir.appendingPathComponent($0))
        }
        #expect(after == before, "no hall file was written")
    }

    @Test("GET /shows/SHOW/seats?wait=N answers when another buyer changes the show, 304 when nothing changed")
    func longPoll() throws {
        let (service, http, _) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try http.request("POST", "/shows/lp", body: Array(#"{"hall": "cinema-12x18"}"#.utf8)).status == 201)
        let first = try http.request("GET", "/shows/lp/seats")
        let tag = try #require(first.headers["etag"])
        // Nothing changes: 304 after the wait.
        #expect(try http.request("GET", "/shows/lp/seats?wait=1", headers: ["If-None-Match": tag]).status == 304)
        // A waiter, then a hold by another buyer: the waiter is answered with it.
        let answered = OutputBuffer()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            if let a = try? http.request("GET", "/shows/lp/seats?wait=20", headers: ["If-None-Match": tag]) {
                answered.append("\(a.status) " + (TestJSON.string((try? a.json())?["seats"]?["1-5-5"]) ?? "-"))
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(answered.parts.isEmpty, "the waiter answered before anything changed")
        #expect(try http.request("POST", "/shows/lp/select", body: Array(#"{"toggle": ["1-5-5"]}"#.utf8)).status == 200)
        group.wait()
        #expect(answered.parts == ["200 held"])
        #expect(try http.request("GET", "/shows/lp/seats?wait=99").status == 400)
    }

    @Test("with --admin-key-file, creating shows, orders and status batches need the key (401 without or with a wrong one)")
    func adminKey() throws {
        let key = "k3y-" + String(repeating: "x", count: 20)
        let (service, http, _) = try TestServer.startWithStore(adminKey: key)
        defer { service.stop() }
        func post(_ path: String, _ json: String, key: String? = nil) throws -> TestHTTP.Answer {
            try http.request("POST", path, headers: key.map { ["Authorization": "Bearer " + $0] } ?? [:], body: Array(json.utf8))
        }
        #expect(try http.request("GET", "/healthz").json()["mode"]?.value == .string("admin-key"))
        let none = try post("/shows/S", #"{"hall": "seed"}"#)
        #expect(none.status == 401 && none.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try post("/shows/S", #"{"hall": "seed"}"#, key: "wrong").status == 401)
        #expect(try post("/shows/S", #"{"hall": "seed"}"#, key: key + "x").status == 401)
        #expect(try post("/shows/S", #"{"hall": "seed"}"#, key: key).status == 201)
        // Buyers need no key to hold; the back office needs it to sell.
        let held = try post("/shows/S/select", #"{"toggle": ["1-1-1"]}"#)
        let token = try #require(TestJSON.string(try held.json()["token"]))
        #expect(try post("/shows/S/order", #"{"token": "\#(token)", "orderId": "o"}"#).status == 401)
        #expect(try post("/shows/S/status", #"{"batchId": "b", "sequence": 1, "changes": []}"#).status == 401)
        #expect(try http.request("GET", "/shows/S/status").status == 401)
        #expect(try post("/shows/S/order", #"{"token": "\#(token)", "orderId": "o"}"#, key: key).status == 200)
        #expect(try post("/shows/S/status", #"{"batchId": "b", "sequence": 1, "changes": []}"#, key: key).status == 200)
        // Without a key the service says it runs open.
        let (open, openHTTP, _) = try TestServer.startWithStore()
        defer { open.stop() }
        #expect(try openHTTP.request("GET", "/healthz").json()["mode"]?.value == .string("open"))
    }

    @Test("40 tokens racing over HTTP for 10 seats of one show: each seat sold at most once, every answered order stored")
    func raceOverHTTP() throws {
        let (service, http, dir) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try http.request("POST", "/shows/race", body: Array(#"{"hall": "cinema-12x18"}"#.utf8)).status == 201)
        let hall = try Files.readHall(dir.appendingPathComponent("cinema-12x18.json").path)
        let seats = hall.cells.filter { $0.seat.status == .available && $0.seat.type == .standard }.prefix(10).map(\.id.description)
        let sold = OutputBuffer()
        DispatchQueue.concurrentPerform(iterations: 40) { k in
            let body = #"{"toggle": ["\#(seats[k % 10])"], "singleSeatRule": false}"#
            guard let a = try? http.request("POST", "/shows/race/select", body: Array(body.utf8)), let json = try? a.json(),
                  let token = TestJSON.string(json["token"]), TestJSON.strings(json["selected"]) == [seats[k % 10]] else { return }
            let order = #"{"token": "\#(token)", "orderId": "o\#(k)"}"#
            if let o = try? http.request("POST", "/shows/race/order", body: Array(order.utf8)), o.status == 200 {
                sold.append(seats[k % 10] + "|o\(k)")
            }
        }
        #expect(sold.parts.count == 10 && Set(sold.parts.map { $0.split(separator: "|")[0] }).count == 10, "\(sold.parts.sorted())")
        let status = try http.request("GET", "/shows/race/status").json()
        guard case .array(let orders)? = status["orders"]?.value else { Issue.record("no orders"); return }
        let stored = Set(orders.compactMap { o -> String? in
            guard let id = TestJSON.string(o["orderId"]), let seat = TestJSON.strings(o["seats"]).first else { return nil }
            return seat + "|" + id
        })
        #expect(stored == Set(sold.parts), "every answered order is in the store")
    }
}
