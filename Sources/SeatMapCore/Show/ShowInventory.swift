import Foundation

/// One performance of a hall: the hall file is the plan (what is drawn, and
/// the statuses seats start with); the show owns what happens to them
/// afterwards — holds by token, sales by order, locks and status batches.
///
/// A value: an inventory store reads it, the rules here change it, and the
/// store writes the difference back inside one transaction. Seats not
/// listed in `seats` are available.
public struct ShowInventory: Sendable, Equatable {
    /// What one seat of the show is, when it is not available.
    public enum SeatState: Sendable, Equatable {
        /// Not for sale (the plan's status 1, or a status batch).
        case locked
        /// Sold by the order with this id (empty: sold before the show
        /// existed, or by a status batch).
        case sold(order: String)
        /// Held by this token until the token's expiry.
        case held(token: String)
    }

    /// An order as recorded: what it sold, so a repeated `orderId` answers
    /// the same without selling anything more.
    public struct Order: Sendable, Equatable {
        public var token: String
        public var seats: [SeatID]
        /// Standing places sold, by area id.
        public var areas: [String: Int]
        /// The ticket type each seat was sold as, where it was not its
        /// category's first.
        public var ticketTypes: [SeatID: String]
        public init(token: String, seats: [SeatID], areas: [String: Int], ticketTypes: [SeatID: String] = [:]) {
            self.token = token
            self.seats = seats
            self.areas = areas
            self.ticketTypes = ticketTypes
        }

        /// What the order costs in `plan`: each seat at its ticket type's
        /// price (else its own), each standing place at its area's.
        public func total(in plan: Hall) -> Decimal {
            Selection(restoring: seats, standing: areas, ticketTypes: ticketTypes).total(in: plan)
        }

        /// The seats and places as `Selection` describes them ("Row 3, Seat 5 (Child)", "Floor × 2").
        public func descriptions(in plan: Hall, locale: SeatMapLocale) -> [String] {
            let s = Selection(restoring: seats, standing: areas, ticketTypes: ticketTypes)
            return s.descriptions(in: plan, locale: locale) + s.standingDescriptions(in: plan)
        }
    }

    public var show: String
    /// The hall's name (its file name without `.json`).
    public var hall: String
    /// Every seat that is not available.
    public var seats: [SeatID: SeatState] = [:]
    /// Live tokens and when their holds expire.
    public var tokens: [String: Date] = [:]
    /// Places of each standing area still for sale (neither sold nor taken
    /// away by a status batch); holds come out of these.
    public var areaAvailable: [String: Int] = [:]
    /// Standing places held, by area, then token.
    public var areaHolds: [String: [String: Int]] = [:]
    /// Orders by id.
    public var orders: [String: Order] = [:]
    /// Status batches applied, and the last sequence.
    public var batchIds: Set<String> = []
    public var lastSequence: Int? = nil
    /// The show's sales rules when they differ from its hall's (set when
    /// the show was created with an override); nil: the hall file's.
    public var rules: SalesRules? = nil
    /// The ticket type of each held seat, where it is not its category's first.
    public var ticketTypes: [SeatID: String] = [:]
    /// Seats reserved for a sales channel (sponsors, press, box office), by
    /// seat: only that channel's tokens may hold them.
    public var channels: [SeatID: String] = [:]
    /// The channel each channel token was opened for (by the back office).
    public var tokenChannels: [String: String] = [:]
    /// Where the CLI read the hall when it created the show (so `order`
    /// can check the rules without being given the file again); nil when
    /// the show was created over HTTP.
    public var hallFile: String? = nil
    /// The seats an inventory store read when a request needed only part of
    /// the show (the seats it names, their rows, the token's holds); nil
    /// when it holds the whole show. Rules look only at these seats' rows.
    public var scope: Set<SeatID>? = nil
    /// The show's change sequence as read: every commit that changes the
    /// show appends its seats to the change log under the next sequence.
    public var changeSequence: Int = 0

    public init(show: String, hall: String) {
        self.show = show
        self.hall = hall
    }

    /// A new show of `plan`: the plan's locked and sold seats and its
    /// standing areas' places carried over.
    public init(show: String, hallName: String, plan: Hall) {
        self.init(show: show, hall: hallName)
        for cell in plan.cells {
            switch cell.seat.status {
            case .locked?: seats[cell.id] = .locked
            case .sold?: seats[cell.id] = .sold(order: "")
            default: break
            }
        }
        for area in plan.areas where area.isStanding { areaAvailable[area.id] = area.remaining }
    }

    // MARK: Who holds what

    /// The token holding a seat, if any.
    public func holder(of id: SeatID) -> String? {
        if case .held(let t)? = seats[id] { return t }
        return nil
    }

    /// A token's held seats, sorted.
    public func heldSeats(of token: String) -> [SeatID] {
        seats.compactMap { $0.value == .held(token: token) ? $0.key : nil }.sorted()
    }

    /// A token's held standing places, by area.
    public func heldPlaces(of token: String) -> [String: Int] {
        var out: [String: Int] = [:]
        for (area, holds) in areaHolds { if let n = holds[token], n > 0 { out[area] = n } }
        return out
    }

    /// Places of an area held by tokens other than `token`.
    func placesHeld(in area: String, except token: String?) -> Int {
        (areaHolds[area] ?? [:]).reduce(0) { $0 + ($1.key == token ? 0 : $1.value) }
    }

    /// Releases every hold whose token expired at or before `now`; returns
    /// the tokens released.
    @discardableResult
    public mutating func releaseExpired(now: Date) -> [String] {
        let expired = tokens.filter { $0.value <= now }.map(\.key).sorted()
        for token in expired { release(token: token) }
        return expired
    }

    /// Forgets a token and gives back everything it held.
    public mutating func release(token: String) {
        tokens[token] = nil
        tokenChannels[token] = nil
        for (id, state) in seats where state == .held(token: token) {
            seats[id] = nil
            ticketTypes[id] = nil
        }
        for area in areaHolds.keys {
            areaHolds[area]?[token] = nil
            if areaHolds[area]?.isEmpty ?? false { areaHolds[area] = nil }
        }
    }

    // MARK: The hall as one buyer sees it

    /// The plan with the show's statuses and rules: sold seats sold,
    /// locked seats and seats held by anyone but `token` locked (a hold
    /// blocks everyone else), seats reserved for a channel locked to every
    /// token not of that channel, standing areas with the places others
    /// hold taken away.
    public func hall(_ plan: Hall, for token: String?) -> Hall {
        var hall = plan
        if let rules { hall.setRules(rules) }
        let channel = token.flatMap { tokenChannels[$0] }
        // Part of the show read: only its seats are set (the rules look at their rows only).
        let cells = scope.map { $0.sorted().compactMap { plan.cell(id: $0) } } ?? plan.cells
        for cell in cells where cell.seat.isSeat {
            var status: SeatStatus
            switch seats[cell.id] {
            case nil: status = .available
            case .locked?: status = .locked
            case .sold?: status = .sold
            case .held(let t)?: status = t == token ? .available : .locked
            }
            // A seat reserved for another channel is locked, unless this
            // token already holds it (a hold made before the reservation).
            let heldByThisToken = token != nil && holder(of: cell.id) == token
            if status == .available, let reserved = channels[cell.id], reserved != channel, !heldByThisToken {
                status = .locked
            }
            if cell.seat.status != status { hall.setStatus(status, of: cell.id) }
        }
        for area in plan.areas where area.isStanding {
            let left = max(0, (areaAvailable[area.id] ?? area.remaining) - placesHeld(in: area.id, except: token))
            hall.setAvailable(min(left, area.capacity ?? left), ofArea: area.id)
        }
        return hall
    }

    /// A token's holds as a selection, exactly as held.
    public func selection(_ plan: Hall, for token: String) -> Selection {
        Selection(restoring: heldSeats(of: token), standing: heldPlaces(of: token), ticketTypes: ticketTypes)
    }

    /// Each seat's state as a word: available, held (by someone else),
    /// selected (by `token`), sold or locked.
    public func statusWords(_ plan: Hall, for token: String?) -> [(SeatID, String)] {
        plan.cells.filter(\.seat.isSeat).map { ($0.id, statusWord(of: $0.id, for: token)) }
    }

    /// One seat's state as a word, as `token`'s buyer sees it (see `statusWords`).
    public func statusWord(of id: SeatID, for token: String?) -> String {
        switch seats[id] {
        case nil:
            let channel = token.flatMap { tokenChannels[$0] }
            return channels[id].map { $0 == channel ? "available" : "locked" } ?? "available"
        case .locked?: return "locked"
        case .sold?: return "sold"
        case .held(let t)?: return t == token ? "selected" : "held"
        }
    }

    // MARK: Selecting

    /// What a select did: each toggle's result, the token's selection after.
    public struct SelectOutcome: Sendable {
        public var results: [(String, Selection.ToggleResult)]
        public var selection: Selection
        /// When the token's holds expire unless it selects again.
        public var expiresAt: Date
        /// The hall as the token sees it (`hall(_:for:)`), the same before
        /// and after its own toggles: its own holds are available to it.
        public var view: Hall
    }

    /// Toggles seats and sets standing quantities for `token`, in order,
    /// under the hall's rules (couples and groups together,
    /// `maxSelectCount` per token); a seat another token holds answers
    /// `held`. The token's holds then last until `now + ttl`.
    /// A token the show never issued, or one whose holds expired.
    public struct UnknownToken: Error, Sendable {}

    /// Issues a new token to this show (unguessable; it holds nothing yet),
    /// for a sales channel when one is named (the back office's: it may
    /// hold that channel's seats).
    public mutating func issueToken(now: Date, ttl: TimeInterval, channel: String? = nil) -> String {
        var token = HoldToken.make()
        while tokens[token] != nil { token = HoldToken.make() }
        tokens[token] = now.addingTimeInterval(ttl)
        if let channel { tokenChannels[token] = channel }
        return token
    }

    /// Toggles seats (a `table:GROUP` toggles a whole group), sets
    /// standing quantities and picks ticket types (`types`: seat, type
    /// name) for `token`, in that order.
    public mutating func select(token: String, toggles: [String], areas: [(String, Int)], types: [(String, String)] = [], plan: Hall, now: Date,
                                ttl: TimeInterval) throws(UnknownToken) -> SelectOutcome {
        releaseExpired(now: now)
        // Only tokens this show issued (and that have not expired) hold seats.
        guard tokens[token] != nil else { throw UnknownToken() }
        // A standing area the show has no count for yet (added to the plan
        // later) starts with the plan's places.
        for area in plan.areas where area.isStanding && areaAvailable[area.id] == nil { areaAvailable[area.id] = area.remaining }
        let view = hall(plan, for: token)
        var selection = self.selection(plan, for: token)
        var results: [(String, Selection.ToggleResult)] = []
        for text in toggles {
            if text.hasPrefix(Selection.groupPrefix) {
                let name = String(text.dropFirst(Selection.groupPrefix.count))
                let seats = view.groups.first(where: { $0.id == name })?.seats ?? []
                if seats.contains(where: { !selection.contains($0) && holder(of: $0).map { $0 != token } ?? false }) {
                    results.append((text, .held))
                } else {
                    results.append((text, selection.toggle(named: text, in: view)))
                }
                continue
            }
            guard let id = view.seatID(named: text), let cell = view.cell(id: id) else {
                results.append((text, .noSuchSeat))
                continue
            }
            if !selection.contains(id), view.members(of: cell.id).contains(where: { holder(of: $0).map { $0 != token } ?? false }) {
                results.append((text, .held))
                continue
            }
            results.append((text, selection.toggle(id, in: view)))
        }
        for (area, n) in areas {
            var result = selection.setQuantity(n, ofArea: area, in: view)
            if result == .notAvailable, let a = plan.area(id: area),
               n <= (areaAvailable[area] ?? a.remaining), placesHeld(in: area, except: token) > 0 {
                result = .held
            }
            results.append(("area:\(area)=\(n)", result))
        }
        for (text, name) in types {
            guard let id = view.seatID(named: text) else {
                results.append(("type:\(text)=\(name)", .noSuchSeat))
                continue
            }
            results.append(("type:\(text)=\(name)", selection.setTicketType(name, of: id, in: view)))
        }
        // Write the selection back as holds.
        for id in heldSeats(of: token) where !selection.contains(id) {
            seats[id] = nil
            ticketTypes[id] = nil
        }
        for id in selection.ids {
            seats[id] = .held(token: token)
            ticketTypes[id] = selection.ticketTypes[id]
        }
        for area in Set(areaHolds.keys).union(selection.standing.keys) {
            areaHolds[area, default: [:]][token] = selection.standing[area]
            if areaHolds[area]?.isEmpty ?? false { areaHolds[area] = nil }
        }
        let expiry = now.addingTimeInterval(ttl)
        tokens[token] = expiry
        return SelectOutcome(results: results, selection: selection, expiresAt: expiry, view: view)
    }

    // MARK: Ordering

    /// Why an order sold nothing.
    public enum OrderFailure: Error, Sendable, Equatable {
        /// The token holds nothing (never did, expired, or already ordered).
        case nothingHeld
        /// Seats the order expected that the token no longer holds.
        case notHeld([String])
        /// Seats the token holds that the order did not expect (the cart
        /// and the holds differ).
        case notInCart([String])
        /// The order id was used by another token.
        case orderIDTaken
        /// The token's holds break rules set to be enforced.
        case rulesBroken([RuleBreak])
    }

    /// Sells the token's held seats and places, all or nothing. With
    /// `expecting`, exactly those seats must be the ones held (a buyer's
    /// cart): any of them no longer held, or any held seat not in it, sells
    /// nothing. A repeated order id
    /// answers its first order again and sells nothing more. The holds
    /// must keep the sales rules set to be enforced (`SalesRules.breaks`,
    /// checked on the hall as this token sees it).
    public mutating func order(id orderId: String, token: String, expecting: [SeatID]? = nil, plan: Hall,
                               now: Date) -> Result<(order: Order, repeated: Bool), OrderFailure> {
        if let done = orders[orderId] {
            return done.token == token ? .success((done, true)) : .failure(.orderIDTaken)
        }
        releaseExpired(now: now)
        let held = heldSeats(of: token)
        let places = heldPlaces(of: token)
        if let expecting {
            let missing = expecting.filter { holder(of: $0) != token }.map(\.description)
            if !missing.isEmpty { return .failure(.notHeld(missing)) }
            let extra = held.filter { !expecting.contains($0) }.map(\.description)
            if !extra.isEmpty { return .failure(.notInCart(extra)) }
        }
        guard !held.isEmpty || !places.isEmpty else { return .failure(.nothingHeld) }
        let view = hall(plan, for: token)
        let broken = view.rules.breaks(selection(plan, for: token), in: view).filter(\.enforced)
        if !broken.isEmpty { return .failure(.rulesBroken(broken)) }
        let types = ticketTypes.filter { held.contains($0.key) }
        for id in held {
            seats[id] = .sold(order: orderId)
            channels[id] = nil
        }
        for (area, n) in places { areaAvailable[area] = max(0, (areaAvailable[area] ?? n) - n) }
        release(token: token)
        let order = Order(token: token, seats: held, areas: places, ticketTypes: types)
        orders[orderId] = order
        return .success((order, false))
    }

    // MARK: Channels

    /// Reserves seats for a channel: only its tokens may hold them from now on.
    /// Returns the seats that could not be reserved: sold or locked ones,
    /// and ids that name no seat of `plan`.
    /// A seat held by a token of another channel (or a public token) is
    /// refused too: reserving it would let that token buy a seat the
    /// channel was promised. Nothing is reserved unless every seat can be.
    public mutating func reserve(_ ids: [SeatID], for channel: String, plan: Hall) -> [SeatID] {
        var refused: [SeatID] = []
        for id in ids {
            guard plan.cell(id: id)?.seat.isSeat == true else {
                refused.append(id)
                continue
            }
            switch seats[id] {
            case .locked?, .sold?: refused.append(id)
            case .held(let t)? where tokenChannels[t] != channel: refused.append(id)
            default: break
            }
        }
        if refused.isEmpty { for id in ids { channels[id] = channel } }
        return refused
    }

    /// Gives a channel's seats to the public in one go; returns them, sorted.
    @discardableResult
    public mutating func releaseChannel(_ channel: String) -> [SeatID] {
        let freed = channels.filter { $0.value == channel }.map(\.key).sorted()
        for id in freed { channels[id] = nil }
        return freed
    }

    /// The channels with seats reserved, and how many each still has.
    public var channelCounts: [(channel: String, seats: Int)] {
        var n: [String: Int] = [:]
        for c in channels.values { n[c, default: 0] += 1 }
        return n.keys.sorted().map { ($0, n[$0] ?? 0) }
    }

    // MARK: Status batches

    /// The plan as the show's statuses make it, holds not counted: what a
    /// status batch is applied to.
    public func statusHall(_ plan: Hall) -> Hall {
        var hall = self.hall(plan, for: nil)
        for (id, state) in seats { if case .held = state { hall.setStatus(.available, of: id) } }
        for id in channels.keys where seats[id] == nil { hall.setStatus(.available, of: id) }
        for area in plan.areas where area.isStanding {
            hall.setAvailable(areaAvailable[area.id] ?? area.remaining, ofArea: area.id)
        }
        return hall
    }

    /// The seats of `changed` that an order sold and that `after` (a
    /// status hall a batch changed) would make available or locked: a batch
    /// may not take a seat back from its order (it would be sold twice).
    public func ordersUndone(by after: Hall, changed: [SeatID]) -> [(seat: SeatID, order: String)] {
        changed.compactMap { id in
            guard case .sold(let order)? = seats[id], !order.isEmpty, let status = after.cell(id: id)?.seat.status, status != .sold else { return nil }
            return (id, order)
        }
    }

    /// A hold a status batch took away: the seat (or `area:ID`) and its token.
    public struct Dropped: Sendable, Equatable {
        public var id: String
        public var token: String
    }

    /// Takes the statuses of `after` (a status hall a batch changed) into
    /// the show: seats a batch sold or locked lose their holds (returned,
    /// with their tokens); areas keep at most the places left.
    public mutating func take(statuses after: Hall, changed: [SeatID], areas changedAreas: [String]) -> [Dropped] {
        var dropped: [Dropped] = []
        for id in changed {
            guard let status = after.cell(id: id)?.seat.status else { continue }
            let token = holder(of: id)
            switch status {
            case .available: seats[id] = token.map { .held(token: $0) }
            case .locked: seats[id] = .locked
            case .sold:
                if case .sold? = seats[id] {} else { seats[id] = .sold(order: "") }
            }
            if let token, status != .available { dropped.append(Dropped(id: id.description, token: token)) }
        }
        for area in changedAreas {
            guard let left = after.area(id: area)?.remaining else { continue }
            areaAvailable[area] = left
            // Holds shrink, token by token in token order, until they fit.
            var over = placesHeld(in: area, except: nil) - left
            for token in (areaHolds[area] ?? [:]).keys.sorted() where over > 0 {
                let n = areaHolds[area]?[token] ?? 0
                let cut = min(n, over)
                areaHolds[area]?[token] = n - cut > 0 ? n - cut : nil
                over -= cut
                dropped.append(Dropped(id: "area:\(area)", token: token))
            }
            if areaHolds[area]?.isEmpty ?? false { areaHolds[area] = nil }
        }
        return dropped
    }
}

/// A buyer's hold token: 128 random bits as 32 lowercase hex digits.
public enum HoldToken {
    /// A new unguessable token (the system's cryptographic generator).
    public static func make() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let v = g.next() as UInt64
            let hex = String(v, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether text is a token's form (32 lowercase hex digits).
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
