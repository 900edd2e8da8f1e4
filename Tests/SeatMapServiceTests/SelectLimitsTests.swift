import Foundation
import Testing
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

/// One select's limits are the service's, said by each face its own way.
@Suite("Select: the same limits on every face", .serialized)
struct SelectLimitsTests {
    @Test("1,001 seats named in one select are refused by the command line (--toggle, exit 2) and over HTTP (toggle, 400); 1,000 are read")
    func toggles() throws {
        let (service, http, dir) = try TestServer.startWithStore()
        defer { service.stop() }
        let hall = dir.appendingPathComponent("cinema-12x18.json").path
        let many = (1...1_001).map { "1-1-\($0)" }
        let cli = seatmap(["select", hall, "--toggle", many.joined(separator: ","), "--json"])
        #expect(cli.code == 2 && cli.err.contains("--toggle: expected at most 1000 seat ids, got 1001"), "\(cli.code) \(cli.err)")
        #expect(try http.request("POST", "/shows/lim", body: Array(#"{"hall": "cinema-12x18"}"#.utf8)).status == 201)
        let body = try JSONWriter.write(.object([("toggle", .array(many.map { .string($0) }))]), pretty: false)
        let answer = try http.request("POST", "/shows/lim/select", body: Array(body.utf8))
        #expect(answer.status == 400 && answer.text.contains("toggle: expected at most 1000 seat ids, got 1001"), "\(answer.text)")
        // At the limit both read the request (the seats past the hall's are answered one by one, not refused whole).
        let atLimit = seatmap(["select", hall, "--toggle", many.dropLast().joined(separator: ","), "--json"])
        #expect(atLimit.code != 2 && !atLimit.err.contains("expected at most"), "\(atLimit.err)")
        let type = seatmap(["select", hall, "--type", (1...1_001).map { "1-1-\($0)=Adult" }.joined(separator: ",")])
        #expect(type.code == 2 && type.err.contains("--type: expected at most 1000 seats"), "\(type.err)")
        let area = seatmap(["select", hall, "--area", "floor=1000001"])
        #expect(area.code == 2 && area.err.contains("--area: expected a whole number of places from 0 to 1000000"), "\(area.err)")
    }
}
