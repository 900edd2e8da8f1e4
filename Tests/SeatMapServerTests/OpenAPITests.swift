import Foundation
import Testing
import SeatMapCore
import SeatMapTestClients
import SeatMapTestSupport

/// The service describes itself: `GET /openapi.json`, kept in
/// `docs/openapi.json`; every answer the suites read is checked against it
/// (`APIConformance`, in `TestHTTP`).
@Suite("HTTP service: the OpenAPI document", .serialized)
struct OpenAPITests {
    @Test("GET /openapi.json is OpenAPI 3.1 with every route, its path parameters spelled as in the path, and docs/openapi.json is that document")
    func document() throws {
        let (service, http) = try TestServer.start()
        defer { service.stop() }
        let answer = try http.request("GET", "/openapi.json")
        #expect(answer.status == 200 && answer.headers["content-type"]?.hasPrefix("application/json") == true)
        let doc = try answer.json()
        #expect(TestJSON.string(doc["openapi"])?.hasPrefix("3.1") == true)
        for (path, method, parameters) in [("/shows/{show}/select", "post", ["show"]), ("/shows/{show}/order", "post", ["show"]),
                                           ("/shows/{show}/seats", "get", ["show", "token", "since", "wait"]),
                                           ("/halls/{hall}/hit", "post", ["hall"]), ("/halls/{hall}.{ext}", "get", ["hall", "ext", "zoom", "theme"]),
                                           ("/shows/{show}/channels/{channel}", "post", ["show", "channel"])] {
            let operation = try #require(doc["paths"]?[path]?[method], "\(method) \(path) is not documented")
            guard case .array(let items)? = operation["parameters"]?.value else { Issue.record("\(path): no parameters"); continue }
            let names = items.compactMap { TestJSON.string($0["name"]) }
            #expect(Set(parameters).isSubset(of: names), "\(path): \(names)")
            #expect(operation["responses"]?["default"] != nil, "\(path) documents the error form")
        }
        #expect(doc["paths"]?["/shows/{show}/order"]?["post"]?["security"] != nil, "the order needs the admin key")
        #expect(doc["paths"]?["/shows/{show}/select"]?["post"]?["security"] == nil, "a buyer's select does not")
        // The copy in docs/ is the served document (SEATMAP_RECORD=1 rewrites it).
        let file = Fixtures.root.appendingPathComponent("docs/openapi.json")
        let served = JSONWriter.write(doc, pretty: true) + "\n"
        let kept = try? String(contentsOf: file, encoding: .utf8)
        if kept != served, (ProcessInfo.processInfo.environment["SEATMAP_RECORD"] ?? "").isEmpty == false {
            try served.write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(kept == served, "docs/openapi.json differs from GET /openapi.json: run the test with SEATMAP_RECORD=1 and look at the change")
    }

    @Test("answers are checked against the document: a made-up extra member or status is caught")
    func conformanceCatches() throws {
        let ok = APIConformance.problems(method: "GET", path: "/healthz", status: 200, contentType: "application/json",
                                         body: Array(#"{"status":"ok","mode":"open","store":false}"#.utf8))
        #expect(ok.isEmpty, "\(ok)")
        let wrongType = APIConformance.problems(method: "GET", path: "/healthz", status: 200, contentType: "application/json",
                                                body: Array(#"{"status":"fine"}"#.utf8))
        #expect(!wrongType.isEmpty, "a status outside the enum")
        let extra = APIConformance.problems(method: "POST", path: "/shows/S/order", status: 200, contentType: "application/json",
                                            body: Array(#"{"show":"S","orderId":"o","sold":[],"total":"0","currency":"EUR"}"#.utf8))
        #expect(extra.contains { $0.contains("repeated") }, "\(extra)")
        let error = APIConformance.problems(method: "POST", path: "/shows/S/select", status: 409, contentType: "application/json",
                                            body: Array(#"{"message":"no"}"#.utf8))
        #expect(error.contains { $0.contains("error") }, "an error not in the error form: \(error)")
        let media = APIConformance.problems(method: "GET", path: "/halls/seed.png", status: 200, contentType: "text/plain", body: [1])
        #expect(!media.isEmpty, "an image route answering text")
    }
}
