import Foundation
import SeatMapCore
import SeatMapLayout
import SeatMapInventory

/// A hall as the service knows it: its name (the file name without
/// `.json`, what a show records) and the plan read from it.
public struct HallPlan: Sendable {
    public var name: String
    public var hall: Hall
    public init(name: String, hall: Hall) {
        self.name = name
        self.hall = hall
    }

    /// The hall name a file gives: its base name without `.json`.
    public static func name(ofFile path: String) -> String {
        let base = (path as NSString).lastPathComponent
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    /// Whether text may name a hall or a show: letters, digits, `-`, `_`
    /// and `.` (not leading), at most 128 characters.
    public static func isName(_ s: String) -> Bool {
        guard let first = s.utf8.first, first != UInt8(ascii: "."), s.utf8.count <= 128 else { return false }
        return s.utf8.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".")
        }
    }
}

/// The show use cases every face shares: create a show, select (hold) and
/// order seats with a token, apply status batches, and see a show as one
/// buyer does. Each use case is one store transaction.
public final class ShowService: Sendable {
    public let store: any InventoryStore
    /// How long holds last without activity unless a request says otherwise.
    public let defaultTTL: TimeInterval
    /// Each show's hall as the public sees it, kept current from its change log.
    let views = PublicViews()
    /// How many tokens a show, and one client address, may have.
    public let tokenLimits: TokenLimits
    /// The seats each token held after its last request here: what its
    /// next one is expected to read (see `expected`).
    let heldHints = HeldHints()

    public init(store: any InventoryStore, defaultTTL: TimeInterval = HoldTime.defaultSeconds, tokenLimits: TokenLimits = TokenLimits()) {
        self.store = store
        self.defaultTTL = defaultTTL
        self.tokenLimits = tokenLimits
    }

    /// The bounds on buyers' tokens, checked when a request makes one (a
    /// select or best available without a token). 0 is no limit.
    public struct TokenLimits: Sendable, Equatable {
        /// Tokens a show keeps at most (expired ones count until swept).
        public var perShow: Int
        /// Live tokens one client address may have for a show (a request
        /// without an address, such as the command line's, has no such limit).
        public var perAddress: Int
        public static let defaultPerShow = 200_000
        public static let defaultPerAddress = 50
        public init(perShow: Int = TokenLimits.defaultPerShow, perAddress: Int = TokenLimits.defaultPerAddress) {
            self.perShow = perShow
            self.perAddress = perAddress
        }
    }

    /// Refuses (`tooMany`) to make one more token when the show, or the
    /// transaction's client address, has as many as the limits allow.
    private func admitNewToken(_ tx: ShowTransaction, show: String, ttl: TimeInterval) throws {
        let perAddress = tx.address == nil ? 0 : tokenLimits.perAddress
        guard tokenLimits.perShow > 0 || perAddress > 0 else { return }
        let counts = try tx.tokenCounts()
        if tokenLimits.perShow > 0 && counts.show >= tokenLimits.perShow {
            throw ServiceError(.tooMany, "show \(show) has \(counts.show) buyers' tokens, the most it keeps (\(tokenLimits.perShow)); try again when holds have expired")
        }
        if perAddress > 0 && counts.address >= perAddress, let address = tx.address {
            throw ServiceError(.tooMany, "\(address) has \(counts.address) live tokens for show \(show), the most one address may have (\(perAddress)); send one of them as \"token\", or try again when their holds expire (\(Int(ttl)) s after their last select)")
        }
    }

    /// Runs a store call, its failures as `unavailable`.
    private func storeCall<T>(_ body: () throws -> T) throws(ServiceError) -> T {
        do { return try body() } catch let e as ServiceError { throw e } catch let e as SeatMapError {
            throw ServiceError(.unavailable, e.message)
        } catch {
            throw ServiceError(.unavailable, "\(store.location): \(error)")
        }
    }

    static func checkShowID(_ show: String) throws(ServiceError) {
        guard HallPlan.isName(show) else {
            throw ServiceError(.usage, "a show id is 1 to 128 letters, digits, -, _ and . (not leading): \"\(show)\"")
        }
    }

    static func checkToken(_ token: String) throws(ServiceError) {
        guard HoldToken.isValid(token) else { throw ServiceError(.usage, "a token is 32 lowercase hex digits, as select gave it") }
    }

    // MARK: Shows

    /// Creates a show of a hall; the same hall again is no change (created
    /// false); a show of another hall is a conflict. `rules` (a `rules`
    /// object: any of `SalesRules.keys`) overrides the hall's sales rules
    /// for this show, fixed from then on; a show that exists keeps its own
    /// (`conflict` when an override differs from them). `hallFile`: where
    /// the CLI read the hall (recorded for `order`).
    public func create(show: String, plan: HallPlan, rules override: JSONNode? = nil,
                       hallFile: String? = nil) throws(ServiceError) -> (show: ShowInventory, created: Bool) {
        try ShowService.checkShowID(show)
        var inventory = ShowInventory(show: show, hallName: plan.name, plan: plan.hall)
        inventory.hallFile = hallFile
        if let override {
            let read = plan.hall.rules.reading(override, path: "rules")
            if let first = read.problems.first {
                throw ServiceError(.usage, read.problems.count == 1 ? first.description : read.problems.map(\.description).joined(separator: "; "))
            }
            inventory.rules = read.rules
        }
        let result = try storeCall { try store.createShow(inventory) }
        guard result.show.hall == plan.name else {
            throw ServiceError(.conflict, "show \(show) exists for the hall \(result.show.hall), not \(plan.name)")
        }
        if override != nil, !result.created, (result.show.rules ?? plan.hall.rules) != inventory.rules {
            throw ServiceError(.conflict, "show \(show) exists with other sales rules; a show's rules are fixed when it is created")
        }
        return result
    }

    /// The sales rules a show sells under: its override, else its hall's.
    public func rules(of inventory: ShowInventory, plan: HallPlan) -> SalesRules { inventory.rules ?? plan.hall.rules }

    /// The whole show's inventory, checked to be of `plan` when one is given.
    public func inventory(_ show: String, plan: HallPlan? = nil, now: Date = Date()) throws(ServiceError) -> ShowInventory {
        try ShowService.checkShowID(show)
        guard let inv = try storeCall({ try store.show(show, now: now) }) else { throw ShowService.noSuchShow(show) }
        if let plan, inv.hall != plan.name { throw ServiceError(.conflict, "show \(show) is of the hall \(inv.hall), not \(plan.name)") }
        return inv
    }

    /// The name of the hall a show is of (its own row only).
    public func hallName(of show: String) throws(ServiceError) -> String {
        try ShowService.checkShowID(show)
        guard let name = try storeCall({ try store.read(show: show, now: Date()) { $0.inventory.hall } }) else { throw ShowService.noSuchShow(show) }
        return name
    }

    static func noSuchShow(_ show: String) -> ServiceError {
        ServiceError(.notFound, "no such show: \(show) (create it with `show create` or POST /shows/\(show))")
    }

    /// Changes a show in one transaction (checked to be of `plan`); `body`
    /// reads the rows it needs first (`expecting` says which it will
    /// likely read: the store may read them with the show's row).
    private func update<T>(_ show: String, plan: HallPlan?, now: Date, expecting: ShowTransaction.Expected? = nil,
                           _ body: (ShowTransaction) throws -> T) throws(ServiceError) -> T {
        try ShowService.checkShowID(show)
        let result: T? = try storeCall {
            try store.update(show: show, now: now, expecting: expecting ?? ShowTransaction.Expected(token: nil, seats: [])) { tx in
                if let plan, tx.inventory.hall != plan.name { throw ServiceError(.conflict, "show \(show) is of the hall \(tx.inventory.hall), not \(plan.name)") }
                return try body(tx)
            }
        }
        guard let result else { throw ShowService.noSuchShow(show) }
        return result
    }

    /// Reads what a selection of `token` touches: its holds, the seats
    /// named and the seats booked with them, and the neighbours the rules
    /// look at (two places either side in the row: an empty seat beside a
    /// selected one and its other neighbour; the whole row when the show
    /// allows unavoidable single seats, which needs the run of free seats),
    /// and standing places when the hall has standing areas.
    static func readAround(_ tx: ShowTransaction, token: String?, seats named: [SeatID], plan: HallPlan) throws {
        if let token { try tx.read(token: token) }
        var hall = plan.hall
        if let rules = tx.inventory.rules { hall.setRules(rules) }
        try tx.read(seats: around(named, held: token.map { tx.inventory.heldSeats(of: $0) } ?? [], in: hall))
        if plan.hall.areas.contains(where: \.isStanding) { try tx.readAreas() }
    }

    /// The seats `readAround` reads for these named seats and a token's holds.
    static func around(_ named: [SeatID], held: [SeatID], in hall: Hall) -> [SeatID] {
        let ids = Set(named.flatMap { hall.members(of: $0) }).union(held)
        let rules = hall.rules
        let neighbours = rules.noOrphans != .off && rules.allowUnavoidable
            ? RowNeighbours.rowMates(of: ids, in: hall) : RowNeighbours.around(ids, in: hall, reach: 2)
        return neighbours + ids
    }

    /// What a request of `token` naming these seats is expected to read:
    /// the token, and the seats `readAround` would read with the seats the
    /// token held after its last request here (the hall's own rules; a
    /// show's rules that reach further read the rest when they are known).
    func expected(token: String?, seats named: [SeatID], plan: HallPlan) -> ShowTransaction.Expected {
        ShowTransaction.Expected(token: token, seats: ShowService.around(named, held: token.map { heldHints[$0] } ?? [], in: plan.hall))
    }

    /// The seats a select's toggles name (a `table:GROUP`, all of its seats).
    static func named(_ toggles: [String], in hall: Hall) -> [SeatID] {
        toggles.flatMap { text -> [SeatID] in
            if text.hasPrefix(Selection.groupPrefix) {
                let name = String(text.dropFirst(Selection.groupPrefix.count))
                return hall.groups.first(where: { $0.id == name })?.seats ?? []
            }
            return hall.seatID(named: text).map { [$0] } ?? []
        }
    }

    // MARK: Selecting and ordering

    public struct SelectRequest: Sendable {
        public var show: String
        /// The buyer's token; nil gives a new one.
        public var token: String?
        public var toggles: [String]
        public var areas: [(String, Int)]
        /// Ticket types to pick: seat, type name (after the toggles).
        public var types: [(String, String)]
        public var ttl: TimeInterval?
        public var singleSeatRule: Bool
        /// The client's address (the HTTP face's), for the per-address token limit.
        public var address: String?
        public init(show: String, token: String? = nil, toggles: [String], areas: [(String, Int)] = [], types: [(String, String)] = [],
                    ttl: TimeInterval? = nil, singleSeatRule: Bool = true, address: String? = nil) {
            self.address = address
            self.show = show
            self.token = token
            self.toggles = toggles
            self.areas = areas
            self.types = types
            self.ttl = ttl
            self.singleSeatRule = singleSeatRule
        }
    }

    /// The most seats one select may name (toggles, and ticket types), and
    /// the most places of an area it may ask for: the same on every face.
    package static let maxNamedSeats = 1_000
    package static let maxPlaces = 1_000_000

    /// Checks a select's sizes before anything is read; `say` names a field
    /// as the face does (`--toggle` on the command line, `toggle` in JSON).
    package static func checkSelectSizes(toggles: Int, types: Int, places: [Int], say: (String) -> String) throws(UsageError) {
        if toggles > maxNamedSeats { throw UsageError(message: "\(say("toggle")): expected at most \(maxNamedSeats) seat ids, got \(toggles)") }
        if types > maxNamedSeats { throw UsageError(message: "\(say("type")): expected at most \(maxNamedSeats) seats, got \(types)") }
        if let n = places.first(where: { $0 < 0 || $0 > maxPlaces }) {
            throw UsageError(message: "\(say("area")): expected a whole number of places from 0 to \(maxPlaces), got \(n)")
        }
    }

    public struct SelectAnswer: Sendable {
        public var token: String
        public var expiresAt: Date
        public var results: [(String, Selection.ToggleResult)]
        public var selection: Selection
        /// The hall as this token sees it after the select: the seats the
        /// select read (its rows, the token's holds); the rest as the plan has them.
        public var hall: Hall
        /// Single empty seats the selection leaves (the `noOrphans` rule's seats).
        public var violations: [SeatID]
        /// Every sales rule the selection breaks (`order` refuses the enforced ones).
        public var breaks: [RuleBreak]
        /// Whether the store keeps the token: it holds something after the
        /// select, was given by the request, or is a channel's. A select
        /// without a token that holds nothing makes none (faces leave it
        /// out of the answer).
        public var kept: Bool
    }

    /// Toggles seats for a token, holding what it selects (see
    /// `ShowInventory.select`).
    public func select(_ r: SelectRequest, plan: HallPlan, now: Date? = nil) throws(ServiceError) -> SelectAnswer {
        if let t = r.token { try ShowService.checkToken(t) }
        let ttl = r.ttl ?? defaultTTL
        // The view after, from the same transaction: the token's seats available to it, others' held.
        let t = now ?? Date()
        let named = ShowService.named(r.toggles + r.types.map(\.0), in: plan.hall)
        let (token, outcome, view, channel) = try update(r.show, plan: plan, now: t, expecting: expected(token: r.token, seats: named, plan: plan)) { tx in
            try ShowService.readAround(tx, token: r.token, seats: named, plan: plan)
            tx.address = r.address
            if r.token == nil { try admitNewToken(tx, show: r.show, ttl: ttl) }
            let token = r.token ?? tx.inventory.issueToken(now: t, ttl: ttl)
            do {
                let outcome = try tx.inventory.select(token: token, toggles: r.toggles, areas: r.areas, types: r.types, plan: plan.hall, now: t, ttl: ttl)
                return (token, outcome, outcome.view, tx.inventory.tokenChannels[token])
            } catch {
                throw ServiceError(.conflict, "this token is unknown to show \(r.show): its holds expired (they last \(Int(ttl)) s after the last select) or it is another show's; select without a token to get a new one")
            }
        }
        heldHints[token] = outcome.selection.ids
        let breaks = view.rules.breaks(outcome.selection, in: view, reportOrphans: r.singleSeatRule)
        return SelectAnswer(token: token, expiresAt: outcome.expiresAt, results: outcome.results, selection: outcome.selection,
                            hall: view, violations: RuleBreak.orphans(breaks), breaks: breaks, kept: !outcome.selection.isEmpty || channel != nil || r.token != nil)
    }

    public struct BestAnswer: Sendable {
        public var token: String
        public var expiresAt: Date
        public var recommendation: Recommender.Recommendation
        /// The token's holds after: the recommended seats (and any standing places it held).
        public var selection: Selection
        /// The hall as this token sees it after.
        public var hall: Hall
        /// Whether any hold changed (not when the token already held the answer).
        public var changed: Bool
    }

    /// Best available for a token, held: the token's seats become the
    /// recommended ones (its earlier seats are released first and may be
    /// recommended again; its standing places stay). Seats other tokens
    /// hold are not offered. One transaction: nothing changes when no seats
    /// are found (`conflict`) or the request names what the hall lacks (`usage`).
    public func best(show: String, token: String?, request: Recommender.Request, plan: HallPlan, ttl: TimeInterval? = nil,
                     now: Date? = nil, address: String? = nil) throws(ServiceError) -> BestAnswer {
        if let token { try ShowService.checkToken(token) }
        try ShowService.checkShowID(show)
        let ttl = ttl ?? defaultTTL
        let t = now ?? Date()
        var attempt = 0
        while true {
            attempt += 1
            // The token's holds and channel: its own rows.
            let mine = try storeCall {
                try store.read(show: show, now: t) { tx -> (live: Bool, held: [SeatID], places: Int, channel: String?) in
                    guard let token else { return (true, [], 0, nil) }
                    try tx.read(token: token)
                    let inv = tx.inventory
                    return (inv.tokens[token] != nil, inv.heldSeats(of: token), inv.heldPlaces(of: token).values.reduce(0, +), inv.tokenChannels[token])
                }
            }
            guard let mine else { throw ShowService.noSuchShow(show) }
            if !mine.live {
                throw ServiceError(.conflict, "this token is unknown to show \(show): its holds expired or it is another show's; ask without a token to get a new one")
            }
            // The show as this buyer sees it: the public view (kept per
            // sequence), its own seats free (the answer replaces them). A
            // channel's token sees its channel's seats too: the whole show.
            var free: Hall
            if mine.channel != nil {
                free = try inventory(show, plan: plan, now: t).hall(plan.hall, for: token)
            } else {
                guard let view = try storeCall({ try views.view(of: show, plan: plan, store: store, now: t) }) else { throw ShowService.noSuchShow(show) }
                if view.planName != plan.name { throw ServiceError(.conflict, "show \(show) is of another hall, not \(plan.name)") }
                free = view.hall
                for id in mine.held { free.setStatus(.available, of: id) }
            }
            let found: Recommender.Recommendation
            do throws(Recommender.Failure) { found = try Recommender.best(request, in: free) } catch {
                throw ServiceError(error.kind == .invalid ? .usage : .conflict, error.message)
            }
            // Its standing places count towards maxSelectCount.
            guard request.count + mine.places <= free.maxSelectCount else {
                throw ServiceError(.conflict, "this token already holds \(mine.places) standing places; \(request.count) more seats would pass the hall's maxSelectCount of \(free.maxSelectCount)")
            }
            do {
                let answer = try update(show, plan: plan, now: t, expecting: expected(token: token, seats: found.seats, plan: plan)) { tx in
                    try ShowService.readAround(tx, token: token, seats: found.seats, plan: plan)
                    if let token, tx.inventory.tokens[token] == nil {
                        throw ServiceError(.conflict, "this token is unknown to show \(show): its holds expired or it is another show's; ask without a token to get a new one")
                    }
                    tx.address = address
                    if token == nil { try admitNewToken(tx, show: show, ttl: ttl) }
                    let token = token ?? tx.inventory.issueToken(now: t, ttl: ttl)
                    // Toggle one seat per couple or group: its partners follow.
                    var toggles: [String] = [], covered = Set<SeatID>()
                    let old = tx.inventory.heldSeats(of: token), new = Set(found.seats)
                    for id in old where !new.contains(id) && covered.insert(id).inserted {
                        covered.formUnion(free.members(of: id))
                        toggles.append(id.description)
                    }
                    for id in found.seats where !old.contains(id) && covered.insert(id).inserted {
                        covered.formUnion(free.members(of: id))
                        toggles.append(id.description)
                    }
                    let outcome: ShowInventory.SelectOutcome
                    do {
                        outcome = try tx.inventory.select(token: token, toggles: toggles, areas: [], plan: plan.hall, now: t, ttl: ttl)
                    } catch {
                        throw ServiceError(.conflict, "show \(show): the token \(token) vanished while holding its recommendation")
                    }
                    // Another buyer took one of them since the view was read: nothing is kept, and the search runs again.
                    guard Set(outcome.selection.ids) == new else {
                        var raced = ServiceError(.conflict, "show \(show): the recommended seats \(found.seats.map(\.description).joined(separator: ",")) were taken meanwhile; ask again")
                        raced.raced = true
                        throw raced
                    }
                    return BestAnswer(token: token, expiresAt: outcome.expiresAt, recommendation: found, selection: outcome.selection,
                                      hall: outcome.view, changed: !toggles.isEmpty)
                }
                heldHints[answer.token] = answer.selection.ids
                return answer
            } catch where error.raced && attempt < ShowService.bestAttempts {
                continue
            }
        }
    }

    /// How often best available searches again when other buyers took its
    /// seats between its search and its hold. Under a rush the searches of
    /// one moment find the same seats and one of them gets them; the others
    /// search again, seeing them taken: enough rounds for the searches of
    /// every instance selling the show at once (a core each).
    static let bestAttempts = 24

    public struct OrderAnswer: Sendable {
        public var orderId: String
        public var order: ShowInventory.Order
        /// What it costs (ticket types' prices), in the hall's currency.
        public var total: Decimal = 0
        public var currency: String = Currency.defaultCode
        /// A repeated order id: the first answer again, nothing sold.
        public var repeated: Bool
    }

    /// Sells a token's holds in one transaction, all or nothing, when they
    /// keep the show's enforced sales rules.
    public func order(show: String, token: String, orderId: String, expecting: [SeatID]? = nil, plan: HallPlan,
                      now: Date? = nil) throws(ServiceError) -> OrderAnswer {
        try ShowService.checkToken(token)
        guard !orderId.isEmpty, orderId.unicodeScalars.count <= 128,
              orderId.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0.value < 0x10000 }) else {
            throw ServiceError(.usage, "an order id is 1 to 128 visible characters without spaces")
        }
        let t = now ?? Date()
        let result = try update(show, plan: plan, now: t, expecting: expected(token: token, seats: expecting ?? [], plan: plan)) { tx in
            // The order id (a repeat answers the first), the token's holds and their rows.
            try tx.read(order: orderId)
            try ShowService.readAround(tx, token: token, seats: expecting ?? [], plan: plan)
            return tx.inventory.order(id: orderId, token: token, expecting: expecting, plan: plan.hall, now: t)
        }
        if case .success(let (_, repeated)) = result, !repeated { heldHints[token] = [] }
        switch result {
        case .success(let (order, repeated)):
            return OrderAnswer(orderId: orderId, order: order, total: order.total(in: plan.hall), currency: plan.hall.currency, repeated: repeated)
        case .failure(.nothingHeld):
            throw ServiceError(.conflict, "token holds nothing in show \(show) (never selected, expired, or already ordered)")
        case .failure(.notHeld(let ids)):
            throw ServiceError(.conflict, "no longer held by this token: \(ids.joined(separator: ", ")); nothing was sold, select again")
        case .failure(.notInCart(let ids)):
            throw ServiceError(.conflict, "held by this token but not in the order's seats: \(ids.joined(separator: ", ")); nothing was sold")
        case .failure(.orderIDTaken):
            throw ServiceError(.conflict, "order id \(orderId) was used by another token in show \(show)")
        case .failure(.rulesBroken(let breaks)):
            throw ServiceError(.conflict, "the held seats break the show's sales rules: \(breaks.map(\.summary).joined(separator: "; ")); nothing was sold")
        }
    }

    // MARK: Channels

    /// Opens a token for a sales channel (the back office's): it may hold
    /// the seats reserved for that channel, and any public seat.
    public func openChannelToken(show: String, channel: String, plan: HallPlan, ttl: TimeInterval? = nil,
                                 now: Date? = nil) throws(ServiceError) -> (token: String, expiresAt: Date) {
        try ShowService.checkChannel(channel)
        let ttl = ttl ?? defaultTTL
        let t = now ?? Date()
        return try update(show, plan: plan, now: t) { tx in
            let token = tx.inventory.issueToken(now: t, ttl: ttl, channel: channel)
            return (token, t.addingTimeInterval(ttl))
        }
    }

    /// Reserves seats of a show for a channel; every id must name a seat of
    /// the hall that is neither sold nor locked, else nothing is reserved
    /// (`conflict` naming them). Returns the channel's seats after.
    public func reserve(show: String, channel: String, seats: [String], plan: HallPlan) throws(ServiceError) -> [SeatID] {
        try ShowService.checkChannel(channel)
        var ids: [SeatID] = [], unknown: [String] = []
        for text in seats {
            if let id = plan.hall.seatID(named: text), plan.hall.cell(id: id)?.seat.isSeat == true { ids.append(id) } else { unknown.append(text) }
        }
        if !unknown.isEmpty { throw ServiceError(.usage, "no such seat in hall \(plan.name): \(unknown.joined(separator: ", "))") }
        if ids.isEmpty { throw ServiceError(.usage, "name the seats to reserve for channel \(channel)") }
        return try update(show, plan: plan, now: Date()) { tx in
            // The back office's answer lists every seat of the channel.
            try tx.readAll()
            let refused = tx.inventory.reserve(ids, for: channel, plan: plan.hall)
            if !refused.isEmpty {
                throw ServiceError(.conflict, "sold, locked or held by a buyer of another channel, not reserved: \(refused.map(\.description).joined(separator: ", ")); nothing was reserved")
            }
            return tx.inventory.channels.filter { $0.value == channel }.map(\.key).sorted()
        }
    }

    /// Gives every seat of a channel to the public in one transaction;
    /// returns the seats released (empty when the channel had none).
    public func releaseChannel(show: String, channel: String, plan: HallPlan) throws(ServiceError) -> [SeatID] {
        try ShowService.checkChannel(channel)
        return try update(show, plan: plan, now: Date()) { tx in
            try tx.readAll()
            return tx.inventory.releaseChannel(channel)
        }
    }

    /// Whether text may name a channel: as a show id may.
    static func checkChannel(_ channel: String) throws(ServiceError) {
        guard HallPlan.isName(channel) else {
            throw ServiceError(.usage, "a channel is 1 to 128 letters, digits, -, _ and . (not leading): \"\(channel)\"")
        }
    }

    // MARK: Views

    /// A show as one buyer sees it: the hall with the show's statuses, the
    /// token's seats (drawn selected), each seat's word for hit tests.
    public struct View: Sendable {
        public var hall: Hall
        public var selected: [SeatID]
        public var statuses: [SeatID: String]
        public var inventory: ShowInventory
        public init(hall: Hall, selected: [SeatID], statuses: [SeatID: String], inventory: ShowInventory) {
            self.hall = hall
            self.selected = selected
            self.statuses = statuses
            self.inventory = inventory
        }
    }

    public func view(show: String, token: String?, plan: HallPlan, now: Date = Date()) throws(ServiceError) -> View {
        if let token { try ShowService.checkToken(token) }
        let inv = try inventory(show, plan: plan, now: now)
        var statuses: [SeatID: String] = [:]
        for (id, state) in inv.seats {
            if case .held(let t) = state { statuses[id] = t == token ? "selected" : "held" }
        }
        return View(hall: inv.hall(plan.hall, for: token), selected: token.map { inv.heldSeats(of: $0) } ?? [], statuses: statuses,
                    inventory: inv)
    }

    /// The show's seats as one buyer sees them, for the whole `seats`
    /// answer: the public view kept per sequence (shared by every reader,
    /// brought up to date from the change log) with the buyer's own holds
    /// drawn selected, not a read of the whole show. A channel's token, and
    /// a hall with standing areas, get the whole show read (`view`).
    public func seatsView(show: String, token: String?, plan: HallPlan, now: Date = Date()) throws(ServiceError) -> View {
        if let token { try ShowService.checkToken(token) }
        try ShowService.checkShowID(show)
        guard !plan.hall.areas.contains(where: \.isStanding) else { return try view(show: show, token: token, plan: plan, now: now) }
        // The shared view first, then the token's holds (as of that sequence
        // or later: whatever changed meanwhile comes again in the next delta).
        guard let shared = try storeCall({ try views.view(of: show, plan: plan, store: store, now: now) }) else { throw ShowService.noSuchShow(show) }
        let mine = try storeCall {
            try store.read(show: show, now: now) { tx -> (held: [SeatID], channel: String?) in
                guard let token else { return ([], nil) }
                try tx.read(token: token)
                return (tx.inventory.heldSeats(of: token), tx.inventory.tokenChannels[token])
            }
        }
        guard let mine else { throw ShowService.noSuchShow(show) }
        if mine.channel != nil { return try view(show: show, token: token, plan: plan, now: now) }
        if shared.planName != plan.name { throw ServiceError(.conflict, "show \(show) is of another hall, not \(plan.name)") }
        var hall = shared.hall
        var statuses: [SeatID: String] = [:]
        for id in shared.held { statuses[id] = "held" }
        for id in mine.held {
            hall.setStatus(.available, of: id)
            statuses[id] = "selected"
        }
        var inventory = ShowInventory(show: show, hall: plan.name)
        inventory.changeSequence = shared.sequence
        return View(hall: hall, selected: mine.held, statuses: statuses, inventory: inventory)
    }

    /// What changed in a show after a sequence, as one buyer sees it.
    public struct SeatChanges: Sendable {
        public var show: String
        /// The show's change sequence the answer is as of.
        public var sequence: Int
        /// Each seat changed after the sequence asked for, with its status
        /// word now (`available`, `held`, `selected`, `sold`, `locked`).
        public var changes: [(SeatID, String)]
        /// Each standing area's capacity and places left for that buyer.
        public var areas: [(id: String, capacity: Int, available: Int)]
        /// The buyer's own orders among the changes (with a token): each
        /// order placed with that token that sold a changed seat, with its
        /// seats, so a picker tells a buyer who paid that the seats are
        /// theirs rather than gone.
        public var orders: [(orderId: String, seats: [SeatID])] = []
    }

    /// The most seats a delta names; more changed seats get the whole show.
    public static let deltaLimit = 5_000

    /// The seats changed after `sequence` as `token`'s buyer sees them now:
    /// one range read of the change log and the rows of the seats it
    /// names. Nil when `sequence` is older than the kept log (or in the
    /// future, or more than `deltaLimit` seats changed): the reader needs
    /// the whole show (`view`). Holds that expired are released first (a
    /// bounded sweep), so their seats are among the changes.
    public func changes(show: String, since sequence: Int, token: String?, plan: HallPlan,
                        now: Date = Date()) throws(ServiceError) -> SeatChanges? {
        try ShowService.checkShowID(show)
        if let token { try ShowService.checkToken(token) }
        _ = try storeCall { try store.sweep(show: show, now: now) }
        guard let log = try storeCall({ try store.changes(show: show, since: sequence, limit: ShowService.deltaLimit) }) else {
            throw ShowService.noSuchShow(show)
        }
        guard let seats = log.seats else { return nil }
        let standing = plan.hall.areas.contains(where: \.isStanding)
        let answer: SeatChanges? = try storeCall {
            try store.read(show: show, now: now) { tx in
                if tx.inventory.hall != plan.name { throw ServiceError(.conflict, "show \(show) is of the hall \(tx.inventory.hall), not \(plan.name)") }
                if let token { try tx.read(token: token) }
                try tx.read(seats: seats)
                if standing { try tx.readAreas() }
                // The orders that sold changed seats: one read each, of those orders only.
                var orderIds: [String] = []
                if token != nil {
                    for id in seats {
                        if case .sold(let o)? = tx.inventory.seats[id], !o.isEmpty, !orderIds.contains(o) { orderIds.append(o) }
                    }
                    for o in orderIds { try tx.read(order: o) }
                }
                let inv = tx.inventory
                let hall = standing ? inv.hall(plan.hall, for: token) : plan.hall
                let mine = orderIds.compactMap { o in inv.orders[o].flatMap { $0.token == token ? (orderId: o, seats: $0.seats.sorted()) : nil } }
                return SeatChanges(show: show, sequence: log.sequence, changes: seats.map { ($0, inv.statusWord(of: $0, for: token)) },
                                   areas: hall.areas.filter(\.isStanding).map { ($0.id, $0.capacity ?? 0, $0.remaining) }, orders: mine)
            }
        }
        guard let answer else { throw ShowService.noSuchShow(show) }
        return answer
    }

    // MARK: Status batches

    /// Applies status batches to a show in one transaction (see
    /// `BatchRun`; its `hall` is the show as a render without a token draws
    /// it); `beforeCommit` stages outputs from the result and may throw to
    /// roll the whole run back.
    public func apply(show: String, plan: HallPlan, batches: [StatusBatch], layout: Layout, updatesFile: String,
                      beforeCommit: (BatchRun) throws -> Void = { _ in }) throws(ServiceError) -> BatchRun {
        try update(show, plan: plan, now: Date()) { tx in
            try tx.readAll()
            var inv: ShowInventory {
                get { tx.inventory }
                set { tx.inventory = newValue }
            }
            var sync = StatusSync(hall: inv.statusHall(plan.hall), appliedBatchIds: inv.batchIds, lastSequence: inv.lastSequence,
                                  locale: layout.locale)
            var run: BatchRun
            do {
                run = try BatchRun(batches, sync: &sync, layout: layout, updatesFile: updatesFile) { changed, areas, after in
                    // A batch may not take a seat back from its order (it would be sold twice).
                    let undone = inv.ordersUndone(by: after, changed: changed)
                    if !undone.isEmpty {
                        throw ServiceError(.conflict, "sold by an order, not changed: \(undone.map { "\($0.seat) (order \($0.order))" }.joined(separator: ", ")); nothing was applied (void the order first)")
                    }
                    return inv.take(statuses: after, changed: changed, areas: areas)
                }
            } catch let e as SeatMapError {
                throw ServiceError(.input, e.message)  // the batches' fault, not the store's
            }
            inv.batchIds = sync.appliedBatchIds
            inv.lastSequence = sync.lastSequence
            // What a render of the show draws (holds drawn locked for everyone).
            run.hall = inv.hall(plan.hall, for: nil)
            try beforeCommit(run)
            return run
        }
    }
}

/// The seats each token held after its last request to this service: a
/// guess at what its next request reads (another instance may have
/// changed them since; the transaction reads what it needs either way).
/// Bounded: forgotten all at once past `most` tokens.
final class HeldHints: @unchecked Sendable {
    private let lock = NSLock()
    private var seats: [String: [SeatID]] = [:]
    static let most = 65_536

    subscript(token: String) -> [SeatID] {
        get { lock.withLock { seats[token] ?? [] } }
        set {
            lock.withLock {
                if seats.count >= HeldHints.most { seats.removeAll() }
                seats[token] = newValue.isEmpty ? nil : newValue
            }
        }
    }
}
