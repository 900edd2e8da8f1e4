/// What an imported plan wrote on one of its objects (a seat, row, zone,
/// area, category or the plan itself) that SeatMap does not draw or sell by:
/// pretix `uuid`s, `seat_label`/`row_label` templates and the numbers they
/// apply to, `displayed`, `start_direction`, keys pretix's schema does not
/// know. Kept exactly as written (numbers as their text), in their order,
/// so that `export pretix` gives the plan back; the hall file holds them as
/// `"pretix": {…}` on the object.
public struct PlanMembers: Sendable, Equatable {
    public private(set) var members: [JSONMember]

    /// Nil when there is nothing to keep.
    public init?(_ members: [JSONMember]) {
        guard !members.isEmpty else { return nil }
        self.members = members.map { JSONMember($0.key, PlanMembers.detached($0.node)) }
    }

    public subscript(key: String) -> JSONNode? { members.first(where: { $0.key == key })?.node }

    /// A string member as written, or nil.
    public func string(_ key: String) -> String? {
        if case .string(let s)? = self[key]?.value { return s }
        return nil
    }

    /// The members whose keys are not in `written` (those an export has
    /// already written from the hall) nor in `dropping` (no longer true).
    public func members(besides written: [(String, JSONNode)], dropping: Set<String> = []) -> [(String, JSONNode)] {
        let taken = Set(written.map(\.0)).union(dropping)
        return members.filter { !taken.contains($0.key) }.map { ($0.key, $0.node) }
    }

    /// A value with no trace of where it stood in its source.
    static func detached(_ n: JSONNode) -> JSONNode {
        switch n.value {
        case .array(let items): return JSONNode(.array(items.map(detached)))
        case .object(let ms): return JSONNode(.object(ms.map { JSONMember($0.key, detached($0.node)) }))
        default: return JSONNode(n.value)
        }
    }
}
