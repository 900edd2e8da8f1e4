// libFuzzer target: the service's query decoding — a raw query string cut
// at & and =, each piece percent-decoded by the callback libmicrohttpd runs
// (HTTPServer.unescape), values with control characters refused as the
// service refuses them, the rest read by the render and hit option tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // A request line holds no NUL byte.
    let raw = Array(UnsafeBufferPointer(start: data, count: size)).map { $0 == 0 ? UInt8(ascii: "x") : $0 }
    func decode(_ piece: ArraySlice<UInt8>) -> String {
        var c = Array(piece.map { CChar(bitPattern: $0) }) + [0]
        let n = c.withUnsafeMutableBufferPointer { HTTPServer.unescape(nil, nil, $0.baseAddress) }
        if n > piece.count { fatalError("decoding lengthened a value") }
        let bytes = c[0..<n].map { UInt8(bitPattern: $0) }
        if bytes.contains(0) { fatalError("a decoded value holds a NUL") }
        return String(validating: bytes, as: UTF8.self) ?? "\u{1}"
    }
    var pairs: [(String, String)] = []
    for piece in raw.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
        if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
            pairs.append((decode(piece[piece.startIndex..<eq]), decode(piece[(eq + 1)...])))
        } else {
            pairs.append((decode(piece), ""))
        }
    }
    let control = pairs.contains { ($0.0 + $0.1).unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
    // The service refuses these with 400 before any option is read; and a
    // theme is one of its own names, never a path.
    let names = Set(Theme.available().map(\.name))
    guard !control, pairs.count <= 64, pairs.allSatisfy({ $0.0 != "theme" || names.contains($0.1) }) else { return 0 }
    let render = CommandSpec(name: "", usage: "", summary: "", options: GeometryOptions.table + ImageOptions.table)
    if let args = try? Arguments(named: pairs, spec: render) { _ = try? ImageOptions.settings(args) }
    let hit = CommandSpec(name: "", usage: "", summary: "", options: GeometryOptions.table + HitQuery.options)
    if let args = try? Arguments(named: pairs, spec: hit) { _ = try? GeometryOptions(args) }
    return 0
}
