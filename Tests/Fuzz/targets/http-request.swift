// libFuzzer target: whole requests through the service's handling — the
// screen (host, decoding, origin, content type), the route table, the
// admin check, every endpoint's JSON body and query, the shows' use cases
// on an in-memory store. An input is one or more requests separated by a
// line "===": each a line "METHOD TARGET", header lines "Name: value", an
// empty line and the body. TARGET's path and query are percent-decoded by
// the callback libmicrohttpd runs (HTTPServer.unescape). Requests in one
// input share a store, so a show created by the first is sold by the next.
import Foundation

nonisolated(unsafe) private var hallsFolder: String? = nil

private func halls() -> String {
    if let hallsFolder { return hallsFolder }
    let dir = NSTemporaryDirectory() + "seatmap-fuzz-halls-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    for name in ["seed.json", "cinema-12x18.json"] {
        _ = try? FileManager.default.copyItem(atPath: "Examples/\(name)", toPath: "\(dir)/\(name)")
    }
    hallsFolder = dir
    return dir
}

private func decode(_ piece: ArraySlice<UInt8>) -> String {
    var c = Array(piece.map { CChar(bitPattern: $0) }) + [0]
    let n = c.withUnsafeMutableBufferPointer { HTTPServer.unescape(nil, nil, $0.baseAddress) }
    return String(decoding: c[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    // Images of at most 4 megapixels (--max-image-megapixels 4): an input is one request's work, not a big render under ASan.
    let handler = RequestHandler(halls: halls(), inventory: MemoryInventoryStore(), adminKey: raw.first == UInt8(ascii: "K") ? "fuzz-admin-key-0123456789" : nil,
                                 maxImagePixels: 4_000_000)
    var requests: [ArraySlice<UInt8>] = []
    var rest = raw[...]
    let separator = Array("\n===\n".utf8)
    while let r = rest.firstRange(of: separator) {
        requests.append(rest[..<r.lowerBound])
        rest = rest[r.upperBound...]
    }
    requests.append(rest)
    for text in requests.prefix(8) {
        let crlf = Array("\n\n".utf8)
        let headEnd = text.firstRange(of: crlf)
        let head = headEnd.map { text[..<$0.lowerBound] } ?? text
        let body = headEnd.map { Array(text[$0.upperBound...]) } ?? []
        let lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, let space = first.firstIndex(of: UInt8(ascii: " ")) else { continue }
        // libmicrohttpd hands over the method, path and header values as C
        // strings: no NUL survives in them (a decoded %00 becomes byte 1).
        let method = String(decoding: first[..<space].filter { $0 != 0 }, as: UTF8.self)
        let target = first[(space + 1)...].filter { $0 != 0 }[...]
        let q = target.firstIndex(of: UInt8(ascii: "?"))
        let path = decode(target[..<(q ?? target.endIndex)])
        var query: [(String, String)] = []
        if let q {
            for piece in target[(q + 1)...].split(separator: UInt8(ascii: "&")) {
                if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
                    query.append((decode(piece[..<eq]), decode(piece[(eq + 1)...])))
                } else {
                    query.append((decode(piece), ""))
                }
            }
        }
        // A long poll would wait out the fuzzer's time limit: not asked for.
        query.removeAll { $0.0 == "wait" }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") }.filter { $0 != 0 }
            headers.append((String(decoding: line[..<colon].filter { $0 != 0 }, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        let answer = handler.answer(method: method, path: path, query: query, headers: headers, body: body)
        // Every answer is a status the service documents, and an error's body is JSON.
        guard [200, 201, 204, 304, 400, 401, 403, 404, 405, 409, 410, 413, 415, 421, 422, 503].contains(answer.status) else {
            fatalError("undocumented status \(answer.status) for \(method) \(path)")
        }
        if answer.status >= 400, (try? JSONParser.parse(answer.body)) == nil {
            fatalError("a \(answer.status) answer whose body is not JSON")
        }
    }
    return 0
}
