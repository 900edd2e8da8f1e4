import CMicroHTTPD
import Dispatch
import SeatMapCore

/// An HTTP request as `seatmap serve` handles it: everything is copied out
/// of libmicrohttpd's buffers while its callbacks run.
struct HTTPRequest: Sendable {
    var method: String
    /// The path without the query, percent-decoded by libmicrohttpd.
    var path: String
    /// Query parameters in the order given (a key may repeat).
    var query: [(String, String)]
    /// Request headers, names in lower case.
    var headers: [String: String]
    var body: [UInt8]
    /// The connection's peer address (an IP literal), or nil (a request
    /// answered in process).
    var peer: String? = nil
    /// Its route and parameters, once the server has resolved them (it
    /// does so once, to choose the pool the request runs on).
    var route: Result<(Router.Route, Router.Parameters), HTTPResponseError>? = nil
}
