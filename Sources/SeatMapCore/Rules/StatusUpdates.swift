import Foundation

/// A batch of live seat-status changes, as a lock callback or a sync
/// delivers them: `{"batchId": "…", "sequence": N, "changes": [{"id": "1-3-5", "status": 2}]}`.
public struct StatusBatch: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        /// The id as written (kept as text so an unknown or malformed one
        /// can be named in the error); see `seat`.
        public var id: String
        public var status: SeatStatus
        /// For a standing area (`{"id": AREA_ID, "available": N}`): its places
        /// still for sale; `status` is then unused.
        public var available: Int?
        /// The seat id, when `id` is well-formed.
        public var seat: SeatID? { SeatID(id) }
        public init(seat: SeatID, status: SeatStatus) {
            self.init(id: seat.description, status: status)
        }
        public init(id: String, status: SeatStatus) {
            self.id = id
            self.status = status
        }
        /// A standing area's remaining places.
        public init(area: String, available: Int) {
            id = area
            status = .available
            self.available = available
        }
    }
    public var batchId: String
    public var sequence: Int
    public var changes: [Change]

    public init(batchId: String, sequence: Int, changes: [Change]) {
        self.batchId = batchId
        self.sequence = sequence
        self.changes = changes
    }

    /// Reads one batch object or an array of batches. Statuses must be 0–2:
    /// an update cannot turn a seat into an aisle (that would change the
    /// geometry), so 3 is refused here with the other bad values.
    public static func decode(_ source: SourceText) throws(SeatMapError) -> [StatusBatch] {
        var ctx = DecodeContext(source: source)
        guard let root = ctx.parse() else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        var batches: [StatusBatch] = []
        if case .array(let items) = root.value {
            for (i, item) in items.enumerated() {
                if let b = decodeBatch(item, "[\(i)]", &ctx) { batches.append(b) }
            }
        } else if let b = decodeBatch(root, "", &ctx) {
            batches.append(b)
        }
        guard ctx.errors.isEmpty else { throw SeatMapError(file: source.name, diagnostics: ctx.errors) }
        return batches
    }

    static func decodeBatch(_ node: JSONNode, _ path: String, _ ctx: inout DecodeContext) -> StatusBatch? {
        guard let m = ctx.object(node, path, known: ["batchId", "sequence", "changes"]) else { return nil }
        var batchId = ctx.required(m, "batchId", in: node, path).flatMap { ctx.string($0, DecodeContext.join(path, "batchId")) }
        if let id = batchId, id.isEmpty || id.unicodeScalars.count > 128 || id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
           let n = m["batchId"] {
            ctx.error(n, DecodeContext.join(path, "batchId"), "a batch id is 1 to 128 characters without control characters")
            batchId = nil
        }
        let sequence = ctx.required(m, "sequence", in: node, path).flatMap { ctx.int($0, DecodeContext.join(path, "sequence")) }
        var changes: [Change] = []
        if let n = ctx.required(m, "changes", in: node, path), let items = ctx.array(n, DecodeContext.join(path, "changes")) {
            for (j, item) in items.enumerated() {
                let p = DecodeContext.join(path, "changes[\(j)]")
                guard let c = ctx.object(item, p, known: ["id", "status", "available"]) else { continue }
                let id = ctx.required(c, "id", in: item, p).flatMap { ctx.string($0, p + ".id") }
                if let n = c["available"] {
                    if c["status"] != nil { ctx.error(n, p, "a change sets a seat's \"status\" or an area's \"available\", not both") }
                    if let v = ctx.int(n, p + ".available", in: 0...1_000_000, what: "available"), let id { changes.append(Change(area: id, available: v)) }
                    continue
                }
                var status: SeatStatus? = nil
                if let s = ctx.required(c, "status", in: item, p), let code = ctx.int(s, p + ".status") {
                    if let st = SeatStatus(rawValue: code) {
                        status = st
                    } else {
                        ctx.error(s, p + ".status", "invalid status \(code) for an update (expected 0 available, 1 locked, 2 sold)")
                    }
                }
                if let id, let status { changes.append(Change(id: id, status: status)) }
            }
        }
        guard let batchId, let sequence else { return nil }
        return StatusBatch(batchId: batchId, sequence: sequence, changes: changes)
    }
}

/// Applies status batches to a hall: all or nothing, idempotent by batch
/// id, and in order by sequence number.
public struct StatusSync: Sendable {
    public private(set) var hall: Hall
    public private(set) var appliedBatchIds: Set<String> = []
    public private(set) var lastSequence: Int? = nil
    /// The standing areas whose remaining places the last applied batch changed.
    public private(set) var changedAreas: [String] = []
    /// The language of the messages for seats that left the selection.
    public var locale: SeatMapLocale

    /// A sync that has already applied `appliedBatchIds`, the last with
    /// `lastSequence` (as a store remembers them between runs).
    public init(hall: Hall, appliedBatchIds: Set<String> = [], lastSequence: Int? = nil, locale: SeatMapLocale = .standard) {
        self.hall = hall
        self.locale = locale
        self.appliedBatchIds = appliedBatchIds
        self.lastSequence = lastSequence
    }

    public enum Outcome: Sendable, Equatable {
        /// Applied: the seats whose status changed (sorted by row, then
        /// column), and messages for seats that left the selection.
        case applied(changed: [SeatID], dropped: [String])
        /// This batch id was applied before: nothing done.
        case duplicate
        /// The sequence number is not after the last applied one: ignored.
        case stale(last: Int)
    }

    /// Applies a batch. An unknown seat id, or a change aimed at an aisle,
    /// rejects the whole batch (thrown, naming each problem) and changes
    /// nothing. Seats that became unavailable leave `selection`.
    public mutating func apply(_ batch: StatusBatch, selection: inout Selection) throws(SeatMapError) -> Outcome {
        // A batch naming seats the hall does not have is an error even when
        // it would be skipped as a duplicate or stale one.
        var problems: [Diagnostic] = []
        var updates: [(id: SeatID, status: SeatStatus)] = []
        var areaUpdates: [(id: String, available: Int)] = []
        for (j, change) in batch.changes.enumerated() {
            if let n = change.available {
                guard let area = hall.area(id: change.id), let cap = area.capacity else {
                    problems.append(Diagnostic(path: "changes[\(j)].id", message: "no such standing area \"\(change.id)\""))
                    continue
                }
                if n > cap {
                    problems.append(Diagnostic(path: "changes[\(j)].available", message: "\(n) places left in \"\(change.id)\", which holds \(cap)"))
                }
                areaUpdates.append((change.id, n))
                continue
            }
            guard let id = hall.seatID(named: change.id), let cell = hall.cell(id: id) else {
                problems.append(Diagnostic(path: "changes[\(j)].id", message: "no such seat \"\(change.id)\""))
                continue
            }
            if !cell.seat.isSeat {
                problems.append(Diagnostic(path: "changes[\(j)].id", message: "\(change.id) is an aisle, not a seat"))
            }
            updates.append((id, change.status))
        }
        // A batch may not split a couple or group between two statuses.
        var given: [SeatID: SeatStatus] = [:]
        for (id, status) in updates { given[id] = status }
        var reported = Set<SeatID>()
        for (id, status) in updates {
            let members = hall.members(of: id)
            guard members.count > 1, let first = members.first, !reported.contains(first),
                  members.contains(where: { given[$0] != nil && given[$0] != status }) else { continue }
            reported.insert(first)
            let name = hall.group(of: id).map { "group \"\($0.id)\"" } ?? "the couple \(members.map(\.description).joined(separator: "+"))"
            problems.append(Diagnostic(path: "changes", message: "\(name) is booked together: its seats cannot get different statuses in one batch"))
        }
        // Couple halves and groups are sold together: a change to one seat
        // applies to the others too, unless the batch sets them itself.
        var named = Set(updates.map(\.id))
        for (id, status) in updates {
            for other in hall.members(of: id) where !named.contains(other) {
                updates.append((other, status))
                named.insert(other)
            }
        }
        guard problems.isEmpty else {
            throw SeatMapError(diagnostics: problems.map {
                Diagnostic(path: $0.path, message: "batch \"\(batch.batchId)\" rejected: \($0.message)")
            })
        }
        if appliedBatchIds.contains(batch.batchId) { return .duplicate }
        if let last = lastSequence, batch.sequence <= last { return .stale(last: last) }
        var next = hall
        var changed = Set<SeatID>()
        for (id, status) in updates {
            if next.cell(id: id)?.seat.status != status {
                next.setStatus(status, of: id)
                changed.insert(id)
            }
        }
        // A seat that went back to its original status within the batch did not change.
        changed = changed.filter { next.cell(id: $0)?.seat.status != hall.cell(id: $0)?.seat.status }
        var changedAreas: [String] = []
        for (id, n) in areaUpdates where next.area(id: id)?.remaining != n {
            next.setAvailable(n, ofArea: id)
            changedAreas.append(id)
        }
        var dropped: [String] = []
        var leaving = Set<SeatID>()
        for id in selection.ids {
            guard let cell = next.cell(id: id), cell.seat.status != .available else { continue }
            leaving.insert(id)
            dropped.append(locale.text(cell.seat.status == .sold ? "justSold" : "justLocked", ["seat": next.describe(cell, in: locale)]))
        }
        // A seat leaving takes its couple partner or group with it.
        for id in leaving {
            for other in next.members(of: id) where selection.contains(other) { leaving.insert(other) }
        }
        selection.remove(leaving)
        for id in selection.fit(to: next) {
            let left = next.area(id: id)?.remaining ?? 0
            dropped.append("\(next.area(id: id)?.label ?? id) has \(left) place\(left == 1 ? "" : "s") left; the selection now takes \(left)")
        }
        self.changedAreas = changedAreas.sorted()
        hall = next
        appliedBatchIds.insert(batch.batchId)
        lastSequence = batch.sequence
        return .applied(changed: changed.sorted(), dropped: dropped)
    }
}
