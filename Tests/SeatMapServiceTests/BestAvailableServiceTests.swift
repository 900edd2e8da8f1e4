import Foundation
import Testing
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

/// Best available as a use case: held under the buyer's token, over HTTP
/// and from the CLI on a show, with real processes racing.
@Suite("Best available: held under a token", .serialized)
struct BestAvailableServiceTests {
    static func post(_ http: TestHTTP, _ path: String, _ json: String) throws -> TestHTTP.Answer {
        try http.request("POST", path, body: Array(json.utf8))
    }

    @Test("POST /shows/SHOW/best holds the best seats under a token; another buyer gets others; asking again replaces them")
    func overHTTP() throws {
        let (service, http, _) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try Self.post(http, "/shows/gala", #"{"hall": "cinema-12x18"}"#).status == 201)
        let first = try Self.post(http, "/shows/gala/best", #"{"count": 3}"#)
        #expect(first.status == 200, "\(first.text)")
        let a = try first.json()
        let seatsA = TestJSON.strings(a["seats"])
        #expect(seatsA.count == 3 && TestJSON.string(a["fallback"]) == "none")
        #expect(TestJSON.string(a["total"]) == "135" && TestJSON.strings(a["descriptions"]).count == 3)
        let token = try #require(TestJSON.string(a["token"]))
        #expect(TestJSON.string(a["expiresAt"]) != nil)
        // The seats are held: another buyer is offered other seats, and sees these held.
        let b = try Self.post(http, "/shows/gala/best", #"{"count": 3}"#).json()
        let seatsB = TestJSON.strings(b["seats"])
        #expect(seatsB.count == 3 && Set(seatsA).isDisjoint(with: seatsB), "\(seatsA) and \(seatsB)")
        let other = try #require(TestJSON.string(b["token"]))
        let held = try Self.post(http, "/shows/gala/select", #"{"token": "\#(other)", "toggle": ["\#(seatsA[0])"]}"#)
        #expect(held.text.contains(#"{"id":"\#(seatsA[0])","result":"held"}"#), "\(held.text)")
        // The first buyer asks again, for two in category-free row terms: the holds are replaced.
        let again = try Self.post(http, "/shows/gala/best", #"{"count": 2, "token": "\#(token)", "together": true}"#).json()
        let seatsC = TestJSON.strings(again["seats"])
        #expect(seatsC.count == 2 && TestJSON.string(again["token"]) == token)
        let readBack = try Self.post(http, "/shows/gala/select", #"{"token": "\#(token)", "toggle": []}"#).json()
        #expect(TestJSON.strings(readBack["selected"]) == seatsC)
        // Bad requests name the member; nothing fits is a conflict with the reason.
        let unknown = try Self.post(http, "/shows/gala/best", #"{"count": 2, "category": "VIP"}"#)
        #expect(unknown.status == 400 && unknown.text.contains("no category \\\"VIP\\\": the hall has no categories"), "\(unknown.text)")
        #expect(try Self.post(http, "/shows/gala/best", #"{"count": 0}"#).status == 400)
        // The recommender's words name the member, as the service calls it.
        let accessible = try Self.post(http, "/shows/gala/best", #"{"count": 2, "accessible": 5}"#)
        #expect(accessible.status == 400 && accessible.text.contains("accessible 5 is outside 0…2 (the count)") && !accessible.text.contains("--"),
                "\(accessible.text)")
        #expect(try Self.post(http, "/shows/gala/best", #"{"section": "1"}"#).text.contains("missing count: how many seats"))
        #expect(try Self.post(http, "/shows/gala/best", #"{"count": 2, "colour": "red"}"#).text.contains(#"unknown member \"colour\""#))
        #expect(try Self.post(http, "/shows/gala/best", #"{"count": 2, "priceMax": "cheap"}"#).status == 400)
        let none = try Self.post(http, "/shows/gala/best", #"{"count": 2, "priceMax": 1}"#)
        #expect(none.status == 409 && none.text.contains("no seat is available costing at most 1 each"), "\(none.text)")
        #expect(try Self.post(http, "/shows/nosuch/best", #"{"count": 2}"#).status == 404)
    }

    @Test("near sell-out the service still answers: the fallback says which step")
    func nearSellOut() throws {
        let (service, http, _) = try TestServer.startWithStore()
        defer { service.stop() }
        #expect(try Self.post(http, "/shows/late", #"{"hall": "seed"}"#).status == 201)
        let together = try Self.post(http, "/shows/late/best", #"{"count": 3, "together": true}"#)
        #expect(together.status == 409 && together.text.contains("no 3 adjacent seats are available in one row"))
        let split = try Self.post(http, "/shows/late/best", #"{"count": 3}"#).json()
        #expect(TestJSON.string(split["fallback"]) == "split")
        #expect(TestJSON.strings(split["seats"]).count == 3)
    }

    @Test("recommend --store --show holds for a token; eight processes racing get eight disjoint blocks")
    func racingProcesses() throws {
        let dir = try Fixtures.tempFolder()
        let hall = try TestHalls.wideRow(dir)
        let db = dir.appendingPathComponent("s.db").path
        #expect(seatmap("show", "create", "--store", db, "--show", "race", "--hall", hall).code == 0)
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let processes = (0..<8).map { _ -> (Process, Pipe) in
            let p = Process()
            p.executableURL = exe
            p.arguments = ["recommend", hall, "--count", "2", "--store", db, "--show", "race", "--json"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            return (p, out)
        }
        for (p, _) in processes { try p.run() }
        var taken: [String] = []
        var tokens = Set<String>()
        for (p, out) in processes {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            let json = try JSONParser.parse(Array(data))
            taken += TestJSON.strings(json["seats"])
            if let t = TestJSON.string(json["token"]) { tokens.insert(t) }
        }
        #expect(taken.count == 16 && Set(taken).count == 16, "a seat was recommended twice: \(taken.sorted())")
        #expect(tokens.count == 8)
        // A 20-seat row with 16 held: the last 4 seats go to a ninth buyer, then nothing.
        let ninth = seatmap("recommend", hall, "--count", "4", "--store", db, "--show", "race", "--json")
        #expect(ninth.code == 0)
        let last = TestJSON.strings(try parseJSON(ninth.out)["seats"])
        #expect(last.count == 4 && Set(last).isDisjoint(with: taken))
        let tenth = seatmap("recommend", hall, "--count", "1", "--store", db, "--show", "race")
        #expect(tenth.code == 1 && tenth.err.contains("no seat is available"), "\(tenth.err)")
    }
}
