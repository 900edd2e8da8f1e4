import Dispatch
import Foundation
import SeatMapCLI
import SeatMapCore
import SeatMapServer
import SeatMapService

extension ServeCLI {
    /// `seatmap serve`: the HTTP service until SIGINT or SIGTERM (the command's
    /// options and help are SeatMapCLI's `serveCommand`).
    static func serve(_ args: Arguments, _ console: Console) throws -> Int32 {
        _ = try SeatMapCLI.positionals(args, [])
        guard let dir = args.value("halls") else { throw UsageError(message: "missing --halls DIR") }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw SeatMapError(file: dir, "is not a folder")
        }
        let host = args.value("host") ?? "127.0.0.1"
        let port = try args.int("port", in: 0...65535) ?? 8080
        let workers = try args.int("workers", in: 1...256) ?? SeatMapHTTPService.defaultWorkers
        let ttl = try StoreOptions.holdSeconds(args)
        let connections = try args.int("store-connections", in: 1...1000)
        let perAddress = try args.int("max-connections-per-address", in: 1...4096) ?? 128
        let tokenLimits = ShowService.TokenLimits(
            perShow: try args.int("max-tokens-per-show", in: 0...100_000_000) ?? ShowService.TokenLimits.defaultPerShow,
            perAddress: try args.int("max-tokens-per-address", in: 0...1_000_000) ?? ShowService.TokenLimits.defaultPerAddress)
        let proxies = args.values["trusted-proxy"] ?? []
        for p in proxies where !SeatMapHTTPService.isIPLiteral(p) {
            throw UsageError(message: "--trusted-proxy expects an IP address such as 127.0.0.1 or ::1, got \"\(p)\"")
        }
        let headerSeconds = try args.int("header-timeout", in: 1...30) ?? 10
        let megapixels = try args.int("max-image-megapixels", in: 1...(ImageLimits.maxPixels / 1_000_000)) ?? SeatMapHTTPService.defaultMaxImagePixels / 1_000_000
        let origins = args.values["allowed-origin"] ?? []
        for o in origins where !(o.hasPrefix("http://") || o.hasPrefix("https://")) || o.dropFirst(8).contains("/") {
            throw UsageError(message: "--allowed-origin expects an origin such as https://shop.example (scheme, host, optional port), got \"\(o)\"")
        }
        var key: String? = nil
        if let file = args.value("admin-key-file") {
            let text = String(decoding: try Files.read(file).bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.count >= 16, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw SeatMapError(file: file, "the admin key must be at least 16 visible ASCII characters on one line")
            }
            key = text
        }
        let service = try SeatMapHTTPService(halls: dir, store: args.value("store"), adminKey: key, holdSeconds: ttl, storeConnections: connections,
                                             allowedOrigins: origins, allowedHosts: args.values["allowed-host"] ?? [],
                                             connectionsPerAddress: perAddress, headerSeconds: headerSeconds,
                                             tokenLimits: tokenLimits, trustedProxies: proxies,
                                             maxImagePixels: megapixels * 1_000_000, host: host,
                                             port: UInt16(port), workers: workers, log: { console.err($0) })
        console.out("seatmap serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(service.port) (halls in \(dir), \(workers) workers)")
        if key == nil {
            console.err("seatmap serve: open development mode: anyone can create shows, order and apply status batches (give --admin-key-file F)")
        }
        // Serve until SIGINT or SIGTERM (main's handlers end the process).
        let forever = DispatchSemaphore(value: 0)
        forever.wait()
        service.stop()
        return 0
    }
}
