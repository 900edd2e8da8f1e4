import Foundation

/// Pending selections kept per show while the buyer leaves the page and
/// comes back, cleared when the order succeeds (as the seed app does).
///
/// The file is `{"shows": {"SHOW": ["1-3-5", …]}}`, written atomically. A
/// file that cannot be read is never silently dropped or overwritten: it is
/// moved aside to `PATH.corrupt-<timestamp>` and reported.
public struct SelectionStore: Sendable {
    public let path: String
    public private(set) var shows: [String: [String]]
    /// Set when a corrupt file was moved aside on load: where it went and why.
    public private(set) var recovered: String?

    /// Loads the store, or starts an empty one when the file does not exist.
    public init(path: String, now: Date = Date()) throws(SeatMapError) {
        self.path = path
        shows = [:]
        recovered = nil
        guard FileManager.default.fileExists(atPath: path) else { return }
        let source = try Files.read(path)
        var ctx = DecodeContext(source: source)
        if let root = ctx.parse(), let m = ctx.object(root, "", known: ["shows"]),
           let showsNode = ctx.required(m, "shows", in: root, ""),
           let entries = ctx.object(showsNode, "shows", known: []) {
            for (show, node) in entries {
                guard let items = ctx.array(node, "shows.\(show)") else { continue }
                shows[show] = items.enumerated().compactMap { ctx.string($0.element, "shows.\(show)[\($0.offset)]") }
            }
        }
        guard !ctx.errors.isEmpty else { return }
        shows = [:]
        let stamp = Int(now.timeIntervalSince1970)
        let aside = "\(path).corrupt-\(stamp)"
        guard rename(path, aside) == 0 else {
            throw SeatMapError(file: path, "the selection store is corrupt and could not be moved aside: \(String(cString: strerror(errno)))")
        }
        let first = ctx.errors.first?.description ?? "unreadable"
        recovered = "\(path): the selection store was corrupt (\(first)); moved it to \(aside) and started empty"
    }

    public func selection(for show: String) -> [String] { shows[show] ?? [] }

    public mutating func set(_ ids: [String], for show: String) {
        if ids.isEmpty { shows[show] = nil } else { shows[show] = ids }
    }

    /// Forgets a show's selection (the order succeeded).
    public mutating func clear(_ show: String) { shows[show] = nil }

    /// Writes the store through a temporary file and a rename.
    public func save() throws(SeatMapError) {
        let members = shows.keys.sorted().map { ($0, JSONNode.array((shows[$0] ?? []).map { .string($0) })) }
        try Files.writeAtomically(JSONWriter.write(.object([("shows", .object(members))])), to: path)
    }
}
