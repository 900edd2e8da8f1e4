import CMicroHTTPD
import Dispatch
import Foundation
import SeatMapCore

/// A response: status, headers and body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The response with one more header.
    func adding(_ header: (String, String)) -> HTTPResponse {
        var r = self
        r.headers.append(header)
        return r
    }

    /// JSON text with its content type.
    static func json(_ status: Int, _ node: JSONNode) -> HTTPResponse {
        let text = JSONWriter.write(node, pretty: true)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
                            body: Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// `{"error": message, "status": code}`; a message is cut at 500
    /// characters (it may quote what the client sent).
    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        let text = message.count > 500 ? String(message.prefix(500)) + "…" : message
        return json(status, JSONNode(.object([JSONMember("error", JSONNode(.string(text))),
                                       JSONMember("status", JSONNode(.number(String(status))))])))
    }
}
