import Foundation
import Testing
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

/// The service's side of the buyer's picker: one cacheable page for every
/// buyer, gzip on the wire, sentences and a cart in the buyer's words.
@Suite("HTTP service: the picker's service side", .serialized)
struct PickerServiceTests {
    static func post(_ http: TestHTTP, _ path: String, _ json: String) throws -> TestHTTP.Answer {
        try http.request("POST", path, body: Array(json.utf8))
    }

    /// `gzip -dc` of the bytes (Foundation has no gunzip on Linux).
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let dir = try Fixtures.tempFolder()
        let file = dir.appendingPathComponent("body.gz")
        try Data(bytes).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-dc", file.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "gzip -dc failed: not a gzip stream")
        return Array(data)
    }

    @Test("a show's picker page is the same bytes for every buyer (tokens stay in the address), with an ETag, 304 and gzip")
    func onePageForEveryBuyer() throws {
        let (service, http, _) = try TestServer.startWithStore(allowedOrigins: ["https://shop.example"])
        defer { service.stop() }
        #expect(try Self.post(http, "/shows/tonight", #"{"hall": "cinema-12x18"}"#).status == 201)
        let a = try http.request("GET", "/shows/tonight/picker")
        let b = try http.request("GET", "/shows/tonight/picker?token=0123456789abcdef0123456789abcdef")
        #expect(a.status == 200 && b.status == 200)
        #expect(a.body == b.body, "two buyers got different pages")
        let etag = try #require(a.headers["etag"])
        #expect(a.headers["cache-control"] == "no-cache")
        #expect(try http.request("GET", "/shows/tonight/picker", headers: ["If-None-Match": etag]).status == 304)
        // Light on the wire: gzip when accepted, the same page inside, its own ETag (also revalidated).
        let packed = try http.request("GET", "/shows/tonight/picker", headers: ["Accept-Encoding": "gzip, deflate, br"])
        #expect(packed.headers["content-encoding"] == "gzip" && packed.body.count * 3 < a.body.count,
                "\(packed.body.count) gzipped bytes for a \(a.body.count)-byte page")
        #expect(try Self.gunzip(packed.body) == a.body)
        let packedTag = try #require(packed.headers["etag"])
        #expect(packedTag != etag && packedTag.hasSuffix("-gz\""))
        #expect(try http.request("GET", "/shows/tonight/picker", headers: ["Accept-Encoding": "gzip", "If-None-Match": packedTag]).status == 304)
        #expect(try http.request("GET", "/shows/tonight/picker", headers: ["Accept-Encoding": "gzip;q=0"]).headers["content-encoding"] == nil)
        // Statuses come apart from the drawing, also gzipped.
        let seats = try http.request("GET", "/shows/tonight/seats", headers: ["Accept-Encoding": "gzip"])
        #expect(seats.headers["content-encoding"] == "gzip")
        #expect(try JSONParser.parse(try Self.gunzip(seats.body))["show"].flatMap(TestJSON.string) == "tonight")
        // Framed only by its own and the listed origins; it fetches nothing from elsewhere.
        let csp = a.headers["content-security-policy"] ?? ""
        #expect(csp.contains("frame-ancestors 'self' https://shop.example") && csp.contains("connect-src 'self'"), "\(csp)")
    }

    @Test("the page carries the hooks, its endpoints and scoped styles; it orders itself only in open mode")
    func pageHooks() throws {
        for key in [nil, "an-admin-key-of-16+chars"] {
            let (service, http, _) = try TestServer.startWithStore(adminKey: key)
            defer { service.stop() }
            let create = try http.request("POST", "/shows/s1", headers: key.map { ["Authorization": "Bearer \($0)"] } ?? [:],
                                          body: Array(#"{"hall": "seed"}"#.utf8))
            #expect(create.status == 201)
            let page = try http.request("GET", "/shows/s1/picker?locale=en").text
            for hook in ["data-seatmap-action=\"zoom-in\"", "data-seatmap-action=\"zoom-out\"", "data-seatmap-action=\"fit\"",
                         "data-seatmap-action=\"checkout\"", "data-seatmap-cart", "data-seatmap-message", "<g id=\"seat-1-1-1\"",
                         "\"select\":\"/shows/s1/select\"", "\"seats\":\"/shows/s1/seats\"", "aria-label=\"Zoom in\""] {
                #expect(page.contains(hook), "the page lacks \(hook)")
            }
            #expect(page.contains("\"order\":\"/shows/s1/order\"") == (key == nil), "order endpoint with admin key \(key ?? "none")")
            // Styles never reach the host's html or body.
            let css = page.components(separatedBy: "<style>")[1].components(separatedBy: "</style>")[0]
            // Each rule's selector is what comes just before its declarations (inside an @media block too).
            let selectors = css.split(separator: "}").compactMap { $0.split(separator: "{").dropLast().last?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            #expect(selectors.count > 10 && selectors.allSatisfy { $0.split(separator: ",").allSatisfy { $0.hasPrefix(".seatmap-picker") } }, "\(selectors.filter { !$0.hasPrefix(".seatmap-picker") })")
        }
    }

    @Test("a select's answer speaks to the buyer in their locale: the limit, a sold seat, a gap; and lists the cart")
    func sentencesAndCart() throws {
        let (service, http, _) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try Self.post(http, "/shows/w", #"{"hall": "cinema-12x18"}"#).status == 201)
        // cinema-12x18: at most 4 seats; in row 1, seat 2 is sold, 3 to 5 free, 6 locked, 7 and 8 free.
        let first = try Self.post(http, "/shows/w/select", #"{"toggle": ["1-1-2", "1-1-3", "1-1-5"], "locale": "en"}"#).json()
        let messages = TestJSON.strings(first["messages"])
        #expect(messages.contains("Row 1, Seat 2 is already sold"), "\(messages)")
        #expect(messages.contains("This would leave Row 1, Seat 4 empty on its own"), "\(messages)")
        let token = try #require(TestJSON.string(first["token"]))
        let more = try Self.post(http, "/shows/w/select", #"{"toggle": ["1-1-4", "1-1-7", "1-1-8"], "token": "\#(token)", "locale": "zh-Hans"}"#).json()
        #expect(TestJSON.strings(more["messages"]).first == "最多可选4个座位", "\(TestJSON.strings(more["messages"]))")
        guard case .array(let cart)? = more["cart"]?.value else { Issue.record("no cart"); return }
        #expect(cart.compactMap { TestJSON.string($0["id"]) } == ["1-1-3", "1-1-4", "1-1-5", "1-1-7"])
        #expect(cart.first.flatMap { TestJSON.string($0["label"]) } == "1排3座" && cart.first.flatMap { TestJSON.string($0["priceText"]) } == "¥35.00")
        // An empty toggle with the token reads the holds back; without a token it is a bad request.
        let back = try Self.post(http, "/shows/w/select", #"{"toggle": [], "token": "\#(token)"}"#)
        let backJSON = try back.json()
        #expect(back.status == 200 && TestJSON.strings(backJSON["selected"]) == ["1-1-3", "1-1-4", "1-1-5", "1-1-7"])
        #expect(try Self.post(http, "/shows/w/select", #"{"toggle": []}"#).status == 400)
    }

    @Test("over HTTP a pretix seat_guid names its seat: select, status batches and hit take or answer it; the cart carries it")
    func externalIDs() throws {
        let (service, http, dir) = try TestServer.startWithStore()
        defer { service.stop() }
        let plan = Fixtures.root.appendingPathComponent("Tests/Fixtures/pretix/pretix-test-sample-plan.json").path
        #expect(seatmap(["import", "pretix", plan, "-o", dir.appendingPathComponent("sample.json").path, "--price", "10"]).0 == 0)
        #expect(try Self.post(http, "/shows/s", #"{"hall": "sample"}"#).status == 201)
        // The guids "0-0" and "0-1" are the seats 1-1-1 and 1-1-2.
        let picked = try Self.post(http, "/shows/s/select", #"{"toggle": ["0-1"]}"#).json()
        #expect(TestJSON.strings(picked["selected"]) == ["1-1-2"], "\(picked)")
        guard case .array(let cart)? = picked["cart"]?.value, case .array(let results)? = picked["results"]?.value else { Issue.record("\(picked)"); return }
        #expect(cart.compactMap { TestJSON.string($0["externalId"]) } == ["0-1"])
        #expect(results.first.flatMap { TestJSON.string($0["seat"]) } == "1-1-2")
        // A status batch by guid sells the other seat.
        let batch = #"{"batchId": "g-1", "sequence": 1, "changes": [{"id": "0-0", "status": 2}]}"#
        #expect(try Self.post(http, "/shows/s/status", batch).status == 200)
        let seats = try http.request("GET", "/shows/s/seats").json()
        guard case .object(let statuses)? = seats["seats"]?.value else { Issue.record("\(seats)"); return }
        #expect(statuses.first { $0.key == "1-1-1" }.flatMap { TestJSON.string($0.node) } == "sold", "\(statuses)")
        // A tap on a seat answers its guid.
        let layout = try JSONParser.parse(Array(seatmap(["layout", dir.appendingPathComponent("sample.json").path, "--json"]).1.utf8))
        guard case .array(let laid)? = layout["seats"]?.value, let second = laid.last,
              case .number(let x)? = second["x"]?.value, case .number(let y)? = second["y"]?.value,
              case .number(let w)? = second["w"]?.value, case .number(let h)? = second["h"]?.value,
              let px = Double(x), let py = Double(y), let pw = Double(w), let ph = Double(h) else { Issue.record("\(layout)"); return }
        // Its centre, in points at the default scale 2.
        let hit = try Self.post(http, "/shows/s/hit", #"{"points": [[\#((px + pw / 2) / 2), \#((py + ph / 2) / 2)]]}"#).json()
        guard case .array(let hits) = hit.value else { Issue.record("\(hit)"); return }
        #expect(hits.first.flatMap { TestJSON.string($0["externalId"]) } == "0-1", "\(hit)")
    }
}
