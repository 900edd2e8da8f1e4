import Foundation
import SeatMapCore

/// Where a transaction reads a show's rows from: the SQL stores' rows, or
/// the memory store's values. Each call reads only what it names.
package protocol ShowRowSource {
    /// The show's own row (no seat), or nil.
    func head(_ id: String) throws -> ShowInventory?
    /// These seats' states, channels and their holders' tokens.
    func seats(_ ids: [SeatID], of id: String, into show: inout ShowInventory, now: Date) throws
    /// A live token's row, its held seats (with channels) and its places.
    func token(_ token: String, of id: String, into show: inout ShowInventory, now: Date) throws
    /// The standing areas' places and the places live tokens hold.
    func areas(of id: String, into show: inout ShowInventory, now: Date) throws
    /// One order by id.
    func order(_ orderId: String, of id: String, into show: inout ShowInventory) throws
    /// Which of these batch ids were applied.
    func batches(_ ids: [String], of id: String, into show: inout ShowInventory) throws
    /// The whole show (live holds only), or nil.
    func all(_ id: String, now: Date) throws -> ShowInventory?
    /// The show's tokens (expired ones not yet swept included) and, for an
    /// address, its live tokens.
    func tokenCounts(_ id: String, address: String?, now: Date) throws -> (show: Int, address: Int)
}

/// One request's view of a show inside its store transaction.
///
/// It starts with the show's own row and nothing else; the use case reads
/// the rows it needs (`read(seats:)`, `read(token:)`…) before it changes
/// them, and the store writes back only what differs from what was read,
/// appending the seats whose status changed to the show's change log. So a
/// request costs what it names, whatever the size of the show or its history.
public final class ShowTransaction {
    /// Expired holds swept per commit, the oldest first (every store).
    package static let sweepBatch = 64

    /// The rows a use case is expected to read (see `InventoryStore.update(show:now:expecting:_:)`).
    public struct Expected: Sendable {
        public var token: String?
        public var seats: [SeatID]
        public init(token: String?, seats: [SeatID]) {
            self.token = token
            self.seats = seats
        }
    }

    /// The show as read so far, changed by the use case.
    public var inventory: ShowInventory
    /// The rows as read (what `inventory` is compared with on commit).
    package private(set) var before: ShowInventory
    /// The time the transaction reads holds' expiry against.
    public let now: Date
    /// The client address tokens made in this transaction are given to
    /// (counted against the per-address limit), or nil.
    public var address: String?
    private let source: any ShowRowSource
    private var seatsRead = Set<SeatID>(), tokensRead = Set<String>(), ordersRead = Set<String>(), batchesRead = Set<String>()
    private var areasRead = false
    package private(set) var wholeShow = false

    package init(head: ShowInventory, source: any ShowRowSource, now: Date) {
        inventory = head
        before = head
        self.now = now
        self.source = source
    }

    /// Reads a fragment into both the baseline and the working value;
    /// what the use case already changed is kept.
    private func merge(_ body: (inout ShowInventory) throws -> Void) throws {
        var fragment = ShowInventory(show: before.show, hall: before.hall)
        try body(&fragment)
        before.absorb(fragment)
        inventory.absorb(fragment)
    }

    /// How many tokens the show has (expired ones not yet swept included)
    /// and how many live ones `address` was given.
    public func tokenCounts() throws -> (show: Int, address: Int) {
        try source.tokenCounts(before.show, address: address, now: now)
    }

    /// Reads these seats (not read yet): their states, channels, holders.
    public func read(seats ids: some Sequence<SeatID>) throws {
        guard !wholeShow else { return }
        let new = Set(ids).subtracting(seatsRead).sorted()
        guard !new.isEmpty else { return }
        seatsRead.formUnion(new)
        try merge { try source.seats(new, of: before.show, into: &$0, now: now) }
        before.scope?.formUnion(new)
        inventory.scope?.formUnion(new)
    }

    /// Reads a token's row and every hold it has (nothing when it expired or never was).
    public func read(token: String) throws {
        guard !wholeShow, tokensRead.insert(token).inserted else { return }
        var held: [SeatID] = []
        try merge { fragment in
            try source.token(token, of: before.show, into: &fragment, now: now)
            held = Array(fragment.seats.keys)
        }
        seatsRead.formUnion(held)
        before.scope?.formUnion(held)
        inventory.scope?.formUnion(held)
    }

    /// Reads the standing areas' places (shows with standing areas).
    public func readAreas() throws {
        guard !wholeShow, !areasRead else { return }
        areasRead = true
        try merge { try source.areas(of: before.show, into: &$0, now: now) }
    }

    /// Reads an order by id.
    public func read(order id: String) throws {
        guard !wholeShow, ordersRead.insert(id).inserted else { return }
        try merge { try source.order(id, of: before.show, into: &$0) }
    }

    /// Reads which of these batch ids the show applied.
    public func read(batches ids: [String]) throws {
        guard !wholeShow else { return }
        let new = ids.filter { batchesRead.insert($0).inserted }
        guard !new.isEmpty else { return }
        try merge { try source.batches(new, of: before.show, into: &$0) }
    }

    /// Reads the whole show (renders, the back office's status, status
    /// batches); must come before any change.
    public func readAll() throws {
        guard !wholeShow else { return }
        guard inventory == before else { throw SeatMapError("a use case read the whole show after changing it (its changes would be lost)") }
        guard let all = try source.all(before.show, now: now) else { return }
        before = all
        inventory = all
        wholeShow = true
    }

    /// The state to write: a token made by this transaction that holds
    /// nothing is not kept (a select that held nothing makes no token; a
    /// channel's token is kept). A token that gives back its last seat
    /// stays until its hold time ends, so its buyer can pick again.
    package func finished() -> ShowInventory {
        var after = inventory
        let candidates = Set(after.tokens.keys).subtracting(before.tokens.keys)
        var holding = Set<String>()
        for state in after.seats.values { if case .held(let t) = state { holding.insert(t) } }
        for holds in after.areaHolds.values { for (t, n) in holds where n > 0 { holding.insert(t) } }
        for t in candidates where after.tokens[t] != nil && !holding.contains(t) && after.tokenChannels[t] == nil {
            after.tokens[t] = nil
        }
        return after
    }
}

extension ShowInventory {
    /// Takes a fragment's rows in; what this value has already is kept.
    package mutating func absorb(_ fragment: ShowInventory) {
        seats.merge(fragment.seats) { old, _ in old }
        ticketTypes.merge(fragment.ticketTypes) { old, _ in old }
        channels.merge(fragment.channels) { old, _ in old }
        tokens.merge(fragment.tokens) { old, _ in old }
        tokenChannels.merge(fragment.tokenChannels) { old, _ in old }
        orders.merge(fragment.orders) { old, _ in old }
        batchIds.formUnion(fragment.batchIds)
        areaAvailable.merge(fragment.areaAvailable) { old, _ in old }
        for (area, holds) in fragment.areaHolds {
            areaHolds[area, default: [:]].merge(holds) { old, _ in old }
        }
    }
}

/// What differs between two states of a show: the rows a commit writes.
package struct ShowDiff {
    /// Seats whose state or ticket type changed, sorted.
    package var seats: [SeatID]
    /// Tokens whose expiry changed (or that came or went), sorted.
    package var tokens: [String]
    /// Seats whose channel changed, sorted.
    package var channels: [SeatID]
    /// Whether standing places changed.
    package var areas: Bool

    package init(_ before: ShowInventory, _ after: ShowInventory) {
        seats = Set(before.seats.keys).union(after.seats.keys)
            .filter { before.seats[$0] != after.seats[$0] || before.ticketTypes[$0] != after.ticketTypes[$0] }.sorted()
        tokens = Set(before.tokens.keys).union(after.tokens.keys).filter { before.tokens[$0] != after.tokens[$0] }.sorted()
        channels = Set(before.channels.keys).union(after.channels.keys).filter { before.channels[$0] != after.channels[$0] }.sorted()
        areas = before.areaAvailable != after.areaAvailable || before.areaHolds != after.areaHolds
        self.before = before
    }
    private let before: ShowInventory

    /// The seats buyers see change (status or channel, and those whose
    /// expired holds the commit's sweep released), each with the word the
    /// public sees now: what the change log records, sorted.
    package func logged(_ after: ShowInventory, swept: [SeatID]) -> [(SeatID, String)] {
        let moved = Set(seats.filter { before.seats[$0] != after.seats[$0] }).union(channels).union(swept)
        return moved.sorted().map { ($0, ShowDiff.publicWord(after, $0)) }
    }

    /// A seat's status as the public sees it.
    package static func publicWord(_ show: ShowInventory, _ id: SeatID) -> String {
        switch show.seats[id] {
        case nil: return show.channels[id] == nil ? "available" : "locked"
        case .locked?: return "locked"
        case .sold?: return "sold"
        case .held?: return "held"
        }
    }
}
