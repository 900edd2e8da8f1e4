import Foundation
import SeatMapCore

/// A value in a row.
enum SQLValue: Equatable {
    case int(Int64)
    case text(String)
    case null

    var text: String? {
        switch self {
        case .text(let s): return s
        case .int(let v): return String(v)
        case .null: return nil
        }
    }
    /// A whole number (PostgreSQL answers every value as text).
    var int: Int64? {
        switch self {
        case .int(let v): return v
        case .text(let s): return Int64(s)
        case .null: return nil
        }
    }
}

/// A database connection the inventory's rows are read and written
/// through: one statement with `$1`, `$2`… arguments, its rows back.
///
/// A statement whose rows are not read may wait (`later`) to go to the
/// server with the next one whose rows are (PostgreSQL: one round trip for
/// all of them); its failure is then thrown by that statement, or by
/// `flush`. Independent reads may go together (`batch`). SQLite runs each
/// at once: it has no trip to save.
protocol SQLRunner {
    func rows(_ sql: String, _ args: [SQLValue]) throws -> [[SQLValue]]
    /// Runs `sql` before the next statement whose rows are read.
    func later(_ sql: String, _ args: [SQLValue]) throws
    /// Runs every statement still waiting.
    func flush() throws
    /// Runs independent statements in order; each one's rows.
    func batch(_ statements: [(String, [SQLValue])]) throws -> [[[SQLValue]]]
    /// Lets the statements waiting now (an update's writes) go with the
    /// next trip: if one of them fails then, `undo` runs and `onFailure` is
    /// told, and what was queued after them runs as if they had not been.
    /// False when the runner cannot (the caller then flushes them).
    func confirmLater(undo: String, onFailure: @escaping (any Error) -> Void) throws -> Bool
}

extension SQLRunner {
    @discardableResult
    func q(_ sql: String, _ args: [SQLValue] = []) throws -> [[SQLValue]] { try rows(sql, args) }
    func later(_ sql: String, _ args: [SQLValue]) throws { _ = try rows(sql, args) }
    func flush() throws {}
    func batch(_ statements: [(String, [SQLValue])]) throws -> [[[SQLValue]]] { try statements.map { try rows($0.0, $0.1) } }
    func confirmLater(undo: String, onFailure: @escaping (any Error) -> Void) throws -> Bool { false }
}

/// The inventory's schema, as named migrations both SQL stores apply in
/// order, once each, recorded in `schema_migrations`.
enum InventorySchema {
    /// The schema, as named steps, in the SQL both SQLite and PostgreSQL
    /// read. Never edit a step that has shipped: add one.
    static let migrations: [(name: String, sql: String)] = [
        // Rounds 1–2: a pending selection per show (no buyer), applied batches.
        ("1-selections", """
        CREATE TABLE IF NOT EXISTS holds(show TEXT NOT NULL, seat TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY(show, seat));
        CREATE TABLE IF NOT EXISTS hold_expiry(show TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
        CREATE TABLE IF NOT EXISTS applied_batches(show TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY(show, batch_id));
        CREATE TABLE IF NOT EXISTS last_sequence(show TEXT PRIMARY KEY, sequence BIGINT NOT NULL);
        """),
        // Round 3: shows own their inventory; holds belong to tokens.
        ("2-shows", """
        CREATE TABLE shows(show TEXT PRIMARY KEY, hall TEXT NOT NULL, last_sequence BIGINT, created_at BIGINT NOT NULL);
        CREATE TABLE show_seats(show TEXT NOT NULL, seat TEXT NOT NULL,
            state TEXT NOT NULL CHECK(state IN ('locked', 'sold', 'held')), ref TEXT NOT NULL DEFAULT '', PRIMARY KEY(show, seat));
        CREATE INDEX show_seats_ref ON show_seats(show, ref);
        CREATE TABLE show_tokens(show TEXT NOT NULL, token TEXT NOT NULL, expires_ms BIGINT NOT NULL, PRIMARY KEY(show, token));
        CREATE TABLE show_areas(show TEXT NOT NULL, area TEXT NOT NULL, available INTEGER NOT NULL CHECK(available >= 0), PRIMARY KEY(show, area));
        CREATE TABLE area_holds(show TEXT NOT NULL, area TEXT NOT NULL, token TEXT NOT NULL, places INTEGER NOT NULL CHECK(places > 0),
            PRIMARY KEY(show, area, token));
        CREATE TABLE orders(show TEXT NOT NULL, order_id TEXT NOT NULL, token TEXT NOT NULL, seats TEXT NOT NULL, PRIMARY KEY(show, order_id));
        CREATE TABLE order_areas(show TEXT NOT NULL, order_id TEXT NOT NULL, area TEXT NOT NULL, places INTEGER NOT NULL,
            PRIMARY KEY(show, order_id, area));
        CREATE TABLE show_batches(show TEXT NOT NULL, batch_id TEXT NOT NULL, PRIMARY KEY(show, batch_id));
        """),
        // Round 4: sales rules per show, ticket types, sales channels.
        ("3-rules-types-channels", """
        ALTER TABLE shows ADD COLUMN rules TEXT;
        ALTER TABLE shows ADD COLUMN hall_file TEXT;
        ALTER TABLE show_seats ADD COLUMN ticket TEXT NOT NULL DEFAULT '';
        ALTER TABLE show_tokens ADD COLUMN channel TEXT NOT NULL DEFAULT '';
        ALTER TABLE orders ADD COLUMN tickets TEXT NOT NULL DEFAULT '';
        CREATE TABLE show_channels(show TEXT NOT NULL, seat TEXT NOT NULL, channel TEXT NOT NULL, PRIMARY KEY(show, seat));
        """),
        // Round 5: requests read and write only their rows. A held seat
        // carries its token's expiry (compared where it is read, swept in
        // bounded batches); every commit appends its seats to the change
        // log under the show's next sequence; an order's seats are rows.
        ("4-targeted", """
        ALTER TABLE show_seats ADD COLUMN expires_ms BIGINT NOT NULL DEFAULT 0;
        UPDATE show_seats SET expires_ms = COALESCE((SELECT t.expires_ms FROM show_tokens t WHERE t.show = show_seats.show AND t.token = show_seats.ref), 0)
            WHERE state = 'held';
        CREATE INDEX show_seats_expiry ON show_seats(show, state, expires_ms);
        CREATE INDEX show_tokens_expiry ON show_tokens(show, expires_ms);
        CREATE INDEX area_holds_token ON area_holds(show, token);
        ALTER TABLE shows ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE shows ADD COLUMN log_floor BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE show_changes(show TEXT NOT NULL, sequence BIGINT NOT NULL, seat TEXT NOT NULL, status TEXT NOT NULL,
            PRIMARY KEY(show, sequence, seat));
        CREATE TABLE order_seats(show TEXT NOT NULL, order_id TEXT NOT NULL, seat TEXT NOT NULL, ticket TEXT NOT NULL DEFAULT '',
            PRIMARY KEY(show, order_id, seat));
        """),
        // Round 4: tokens bounded per show (a count kept on the show's row)
        // and per client address (the address a token was given to).
        ("5-token-limits", """
        ALTER TABLE shows ADD COLUMN token_rows BIGINT NOT NULL DEFAULT 0;
        UPDATE shows SET token_rows = (SELECT COUNT(*) FROM show_tokens t WHERE t.show = shows.show);
        ALTER TABLE show_tokens ADD COLUMN address TEXT NOT NULL DEFAULT '';
        CREATE INDEX show_tokens_address ON show_tokens(show, address, expires_ms);
        """),
    ]

    /// How many sequences of a show's change log are kept: a reader further
    /// behind gets the whole show again.
    static let keptSequences = 10_000

    /// A show's rules as its `rules` column holds them (every member that
    /// differs from the defaults), and back.
    static func rulesText(_ rules: SalesRules?) -> SQLValue {
        rules.map { .text(JSONWriter.write($0.json(), pretty: false)) } ?? .null
    }
    static func rules(_ value: SQLValue) -> SalesRules? {
        guard let text = value.text, let node = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        return SalesRules().reading(node, path: "rules").rules
    }

    /// Ticket types by seat from an order's `tickets` column (orders before
    /// `4-targeted` kept them there as one JSON object; newer ones keep
    /// them in `order_seats`).
    static func types(_ text: String) -> [SeatID: String] {
        guard !text.isEmpty, let node = try? JSONParser.parse(Array(text.utf8)), case .object(let members) = node.value else { return [:] }
        var out: [SeatID: String] = [:]
        for m in members { if let id = SeatID(m.key), case .string(let t) = m.node.value { out[id] = t } }
        return out
    }
}

/// A show's rows read and written by the SQL both SQL stores share. Runs
/// inside a transaction the store opened; `lockShow` adds `FOR UPDATE` to
/// the read of the show's row (PostgreSQL: writers of one show queue on
/// that row lock; SQLite's `BEGIN IMMEDIATE` has already locked the file).
///
/// Every read names its rows (the show's row, seats by id, a token's
/// holds, an order, batch ids): none scans the show but `all`, which the
/// whole-show uses (renders, the back office's status, status batches) call.
struct InventoryRows<DB: SQLRunner>: ShowRowSource {
    let db: DB
    var lockShow = false

    /// Creates the show unless it exists (the insert waits for a
    /// concurrent creator and then does nothing); returns the stored show.
    /// (An existing show is answered with its own row: the caller checks its hall and rules.)
    func create(_ inventory: ShowInventory, now: Date) throws -> (show: ShowInventory, created: Bool) {
        if let existing = try head(inventory.show) { return (existing, false) }
        var show = inventory
        // Batch ids a round-2 store applied under this show's id stay applied.
        for row in try db.q("SELECT batch_id FROM applied_batches WHERE show = $1", [.text(show.show)]) {
            if let id = row.first?.text { show.batchIds.insert(id) }
        }
        if let last = try db.q("SELECT sequence FROM last_sequence WHERE show = $1", [.text(show.show)]).first?.first?.int {
            show.lastSequence = max(show.lastSequence ?? Int.min, Int(last))
        }
        let inserted = try db.q("INSERT INTO shows(show, hall, last_sequence, created_at, rules, hall_file) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (show) DO NOTHING RETURNING show",
                                [.text(show.show), .text(show.hall), show.lastSequence.map { .int(Int64($0)) } ?? .null,
                                 .int(Int64(now.timeIntervalSince1970)), InventorySchema.rulesText(show.rules), show.hallFile.map { .text($0) } ?? .null])
        guard !inserted.isEmpty else {
            // Created meanwhile by another instance.
            return (try head(inventory.show) ?? inventory, false)
        }
        var empty = ShowInventory(show: show.show, hall: show.hall)
        empty.rules = show.rules
        empty.hallFile = show.hallFile
        try write(empty, show, logging: false)
        return (show, true)
    }

    func showIDs() throws -> [String] {
        try db.q("SELECT show FROM shows ORDER BY show").compactMap { $0.first?.text }
    }

    // MARK: Reading

    /// The show's own row (hall, rules, sequences), no seat: nil when there is no such show.
    func head(_ id: String) throws -> ShowInventory? {
        let (sql, args) = headQuery(id)
        return InventoryRows.head(id, try db.q(sql, args))
    }

    private func headQuery(_ id: String) -> (String, [SQLValue]) {
        let sql = "SELECT hall, last_sequence, rules, hall_file, change_seq FROM shows WHERE show = $1"
        return (lockShow ? sql + " FOR UPDATE" : sql, [.text(id)])
    }

    private static func head(_ id: String, _ rows: [[SQLValue]]) -> ShowInventory? {
        guard let head = rows.first, let hall = head[0].text else { return nil }
        var show = ShowInventory(show: id, hall: hall)
        show.lastSequence = head[1].int.map { Int($0) }
        show.rules = InventorySchema.rules(head[2])
        show.hallFile = head[3].text
        show.changeSequence = Int(head[4].int ?? 0)
        show.scope = []
        return show
    }

    /// The show's token rows (live ones, and expired ones not swept yet)
    /// and, for an address, its live tokens: one read of the show's row,
    /// one of the address's index range.
    func tokenCounts(_ id: String, address: String?, now: Date) throws -> (show: Int, address: Int) {
        var reads: [(String, [SQLValue])] = [("SELECT token_rows FROM shows WHERE show = $1", [.text(id)])]
        if let address {
            reads.append(("SELECT COUNT(*) FROM show_tokens WHERE show = $1 AND address = $2 AND expires_ms > $3",
                          [.text(id), .text(address), .int(InventoryRows.millis(now))]))
        }
        let counts = try db.batch(reads).map { Int($0.first?.first?.int ?? 0) }
        return (counts[0], counts.count > 1 ? counts[1] : 0)
    }

    /// Runs one update of a shared transaction in a savepoint of its own:
    /// kept when it succeeds, undone alone when it throws (its error the
    /// result). Throws when the savepoint itself cannot be set, released or
    /// rolled back to: the transaction is broken (a lost connection).
    /// The savepoint's own statements wait for the next trip. The update's
    /// writes are sent before it counts as kept (a failing write undoes
    /// this update alone): at once, or with `undone`, with the next trip
    /// (the next update's first read, or the commit), `undone` then told
    /// if they fail there (its update is undone alone, and what came after
    /// runs as if it had not been).
    static func savepoint<T>(_ rows: InventoryRows, undone: ((any Error) -> Void)? = nil, _ body: () throws -> T) throws -> Result<T, any Error> {
        try rows.db.later("SAVEPOINT one_update", [])
        do {
            let value = try body()
            try rows.db.later("RELEASE SAVEPOINT one_update", [])
            if let undone, try rows.db.confirmLater(undo: "ROLLBACK TO SAVEPOINT one_update; RELEASE SAVEPOINT one_update", onFailure: undone) {
                return .success(value)
            }
            try rows.db.flush()
            return .success(value)
        } catch {
            // What is still waiting belongs to the update being undone (a
            // failure there leaves the transaction to this rollback).
            try? rows.db.flush()
            try rows.db.q("ROLLBACK TO SAVEPOINT one_update")
            try rows.db.later("RELEASE SAVEPOINT one_update", [])
            return .failure(error)
        }
    }

    /// `$first`, `$first+1`… for `n` arguments.
    private static func list(_ n: Int, from first: Int) -> String {
        (first..<(first + n)).map { "$\($0)" }.joined(separator: ", ")
    }

    /// Takes seat rows (`seat, state, ref, ticket, expires_ms`) into a
    /// fragment: holds whose expiry passed are free.
    private func take(_ rows: [[SQLValue]], into show: inout ShowInventory, now: Int64) {
        for row in rows {
            guard let text = row[0].text, let seat = SeatID(text), let state = row[1].text, let ref = row[2].text else { continue }
            switch state {
            case "locked": show.seats[seat] = .locked
            case "sold": show.seats[seat] = .sold(order: ref)
            default:
                guard (row[4].int ?? 0) > now else { continue }
                show.seats[seat] = .held(token: ref)
                if let t = row[3].text, !t.isEmpty { show.ticketTypes[seat] = t }
            }
        }
    }

    /// Live tokens' rows (`token, expires_ms, channel`) into a fragment.
    private func takeTokens(_ rows: [[SQLValue]], into show: inout ShowInventory, now: Int64) {
        for row in rows {
            guard let token = row[0].text, let ms = row[1].int, ms > now else { continue }
            show.tokens[token] = Date(timeIntervalSince1970: Double(ms) / 1000)
            if let c = row[2].text, !c.isEmpty { show.tokenChannels[token] = c }
        }
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.up)) }

    /// These seats' rows, their channels and their holders' tokens: one
    /// statement (one trip to a server) for every 500 seats. A holder's
    /// token is looked up by its key for each held seat (a join let
    /// PostgreSQL's planner read every token of the show: a cost that grew
    /// with the buyers).
    func seats(_ ids: [SeatID], of id: String, into show: inout ShowInventory, now: Date) throws {
        takeSeats(try db.batch(InventoryRows.seatQueries(ids, of: id)), into: &show, now: now)
    }

    private static func seatQueries(_ ids: [SeatID], of id: String) -> [(String, [SQLValue])] {
        stride(from: 0, to: ids.count, by: 500).map { start in
            let chunk = ids[start..<min(ids.count, start + 500)]
            let marks = InventoryRows.list(chunk.count, from: 2)
            return ("SELECT s.seat, s.state, s.ref, s.ticket, s.expires_ms, NULL, CASE WHEN s.state = 'held' THEN (SELECT t.expires_ms FROM show_tokens t WHERE t.show = s.show AND t.token = s.ref) END, CASE WHEN s.state = 'held' THEN (SELECT t.channel FROM show_tokens t WHERE t.show = s.show AND t.token = s.ref) END FROM show_seats s WHERE s.show = $1 AND s.seat IN (\(marks)) UNION ALL SELECT seat, NULL, NULL, NULL, NULL, channel, NULL, NULL FROM show_channels WHERE show = $1 AND seat IN (\(marks))",
                    [.text(id)] + chunk.map { .text($0.description) })
        }
    }

    private func takeSeats(_ results: [[[SQLValue]]], into show: inout ShowInventory, now: Date) {
        let ms = InventoryRows.millis(now)
        for rows in results {
            var fragment = ShowInventory(show: show.show, hall: show.hall)
            let seatRows = rows.filter { $0[1] != .null }
            take(seatRows, into: &fragment, now: ms)
            show.seats.merge(fragment.seats) { _, new in new }
            show.ticketTypes.merge(fragment.ticketTypes) { a, _ in a }
            for row in rows where row[1] == .null {
                if let text = row[0].text, let seat = SeatID(text), let c = row[5].text { show.channels[seat] = c }
            }
            // The holders' own rows, as the join found them.
            takeTokens(seatRows.filter { $0[6] != .null }.map { [$0[2], $0[6], $0[7]] }, into: &show, now: ms)
        }
    }

    /// A token's row, its held seats (with their channels) and its standing
    /// places, in one statement (the last two dropped when the token is not live).
    func token(_ token: String, of id: String, into show: inout ShowInventory, now: Date) throws {
        let (sql, args) = InventoryRows.tokenQuery(token, of: id)
        takeToken(token, try db.q(sql, args), into: &show, now: now)
    }

    private static func tokenQuery(_ token: String, of id: String) -> (String, [SQLValue]) {
        ("SELECT 't', token, expires_ms, channel, NULL, NULL, NULL FROM show_tokens WHERE show = $1 AND token = $2 UNION ALL SELECT 's', s.seat, s.expires_ms, (SELECT c.channel FROM show_channels c WHERE c.show = s.show AND c.seat = s.seat), s.state, s.ref, s.ticket FROM show_seats s WHERE s.show = $1 AND s.ref = $2 AND s.state = 'held' UNION ALL SELECT 'a', area, places, NULL, NULL, NULL, NULL FROM area_holds WHERE show = $1 AND token = $2",
         [.text(id), .text(token)])
    }

    private func takeToken(_ token: String, _ rows: [[SQLValue]], into show: inout ShowInventory, now: Date) {
        let ms = InventoryRows.millis(now)
        takeTokens(rows.filter { $0[0].text == "t" }.map { Array($0[1...3]) }, into: &show, now: ms)
        guard show.tokens[token] != nil else { return }
        // As `take` reads seat rows: seat, state, ref, ticket, expires_ms (and the channel).
        let held = rows.filter { $0[0].text == "s" }.map { [$0[1], $0[4], $0[5], $0[6], $0[2], $0[3]] }
        take(held, into: &show, now: ms)
        for row in held {
            if let text = row[0].text, let seat = SeatID(text), show.seats[seat] != nil, let c = row[5].text { show.channels[seat] = c }
        }
        for row in rows where row[0].text == "a" {
            if let area = row[1].text, let n = row[2].int { show.areaHolds[area, default: [:]][token] = Int(n) }
        }
    }

    /// The standing areas' places, and the places live tokens hold.
    func areas(of id: String, into show: inout ShowInventory, now: Date) throws {
        let key: [SQLValue] = [.text(id)]
        for row in try db.q("SELECT area, available FROM show_areas WHERE show = $1", key) {
            if let area = row[0].text, let n = row[1].int { show.areaAvailable[area] = Int(n) }
        }
        for row in try db.q("SELECT h.area, h.token, h.places FROM area_holds h JOIN show_tokens t ON t.show = h.show AND t.token = h.token WHERE h.show = $1 AND t.expires_ms > $2",
                            key + [.int(InventoryRows.millis(now))]) {
            if let area = row[0].text, let token = row[1].text, let n = row[2].int { show.areaHolds[area, default: [:]][token] = Int(n) }
        }
    }

    /// One order, if it exists.
    func order(_ orderId: String, of id: String, into show: inout ShowInventory) throws {
        InventoryRows.takeOrder(orderId, try db.batch(InventoryRows.orderQueries(orderId, of: id)), into: &show)
    }

    private static func orderQueries(_ orderId: String, of id: String) -> [(String, [SQLValue])] {
        let key: [SQLValue] = [.text(id), .text(orderId)]
        return [("SELECT token, seats, tickets FROM orders WHERE show = $1 AND order_id = $2", key),
                ("SELECT seat, ticket FROM order_seats WHERE show = $1 AND order_id = $2", key),
                ("SELECT area, places FROM order_areas WHERE show = $1 AND order_id = $2", key)]
    }

    private static func takeOrder(_ orderId: String, _ found: [[[SQLValue]]], into show: inout ShowInventory) {
        guard let row = found[0].first, let token = row[0].text else { return }
        // Orders before `4-targeted` listed their seats as text.
        var seats = (row[1].text ?? "").split(separator: ",").compactMap { SeatID(String($0)) }
        var types = InventorySchema.types(row[2].text ?? "")
        for r in found[1] {
            guard let text = r[0].text, let seat = SeatID(text) else { continue }
            seats.append(seat)
            if let t = r[1].text, !t.isEmpty { types[seat] = t }
        }
        var areas: [String: Int] = [:]
        for r in found[2] {
            if let area = r[0].text, let n = r[1].int { areas[area] = Int(n) }
        }
        show.orders[orderId] = ShowInventory.Order(token: token, seats: seats.sorted(), areas: areas, ticketTypes: types)
    }

    /// Which of these batch ids the show applied.
    func batches(_ ids: [String], of id: String, into show: inout ShowInventory) throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(ids.count, start + 500)]
            for row in try db.q("SELECT batch_id FROM show_batches WHERE show = $1 AND batch_id IN (\(InventoryRows.list(chunk.count, from: 2)))",
                                [.text(id)] + chunk.map { .text($0) }) {
                if let b = row[0].text { show.batchIds.insert(b) }
            }
        }
    }

    /// The whole show as its rows hold it (live holds only), or nil.
    func all(_ id: String, now: Date) throws -> ShowInventory? {
        guard var show = try head(id) else { return nil }
        show.scope = nil
        let key: [SQLValue] = [.text(id)]
        let ms = InventoryRows.millis(now)
        take(try db.q("SELECT seat, state, ref, ticket, expires_ms FROM show_seats WHERE show = $1", key), into: &show, now: ms)
        takeTokens(try db.q("SELECT token, expires_ms, channel FROM show_tokens WHERE show = $1", key), into: &show, now: ms)
        for row in try db.q("SELECT seat, channel FROM show_channels WHERE show = $1", key) {
            if let text = row[0].text, let seat = SeatID(text), let c = row[1].text { show.channels[seat] = c }
        }
        try areas(of: id, into: &show, now: now)
        // Every order in three statements (not three an order).
        var seatsOf: [String: [SeatID]] = [:], typesOf: [String: [SeatID: String]] = [:], areasOf: [String: [String: Int]] = [:]
        for r in try db.q("SELECT order_id, seat, ticket FROM order_seats WHERE show = $1", key) {
            guard let oid = r[0].text, let text = r[1].text, let seat = SeatID(text) else { continue }
            seatsOf[oid, default: []].append(seat)
            if let t = r[2].text, !t.isEmpty { typesOf[oid, default: [:]][seat] = t }
        }
        for r in try db.q("SELECT order_id, area, places FROM order_areas WHERE show = $1", key) {
            if let oid = r[0].text, let area = r[1].text, let n = r[2].int { areasOf[oid, default: [:]][area] = Int(n) }
        }
        for row in try db.q("SELECT order_id, token, seats, tickets FROM orders WHERE show = $1", key) {
            guard let oid = row[0].text, let token = row[1].text else { continue }
            // Orders before `4-targeted` listed their seats as text.
            let seats = (row[2].text ?? "").split(separator: ",").compactMap { SeatID(String($0)) } + (seatsOf[oid] ?? [])
            let types = InventorySchema.types(row[3].text ?? "").merging(typesOf[oid] ?? [:]) { a, _ in a }
            show.orders[oid] = ShowInventory.Order(token: token, seats: seats.sorted(), areas: areasOf[oid] ?? [:], ticketTypes: types)
        }
        for row in try db.q("SELECT batch_id FROM show_batches WHERE show = $1", key) {
            if let b = row[0].text { show.batchIds.insert(b) }
        }
        return show
    }

    // MARK: The change log

    /// The seats changed after `sequence`, and the show's sequence now; nil
    /// seats when `sequence` is older than the kept log (or more seats
    /// changed than `limit`): the reader needs the whole show.
    func changes(of id: String, since sequence: Int, limit: Int) throws -> (sequence: Int, seats: [SeatID]?)? {
        guard let head = try db.q("SELECT change_seq, log_floor FROM shows WHERE show = $1", [.text(id)]).first,
              let now = head[0].int, let floor = head[1].int else { return nil }
        guard sequence >= Int(floor), sequence <= Int(now) else { return (Int(now), nil) }
        let rows = try db.q("SELECT DISTINCT seat FROM show_changes WHERE show = $1 AND sequence > $2 LIMIT \(limit + 1)",
                            [.text(id), .int(Int64(sequence))])
        guard rows.count <= limit else { return (Int(now), nil) }
        return (Int(now), rows.compactMap { $0.first?.text.flatMap(SeatID.init) }.sorted())
    }

    /// Whether the show has a hold that expired at `now` (one index probe).
    func hasExpired(_ id: String, now: Date) throws -> Bool {
        !(try db.q("SELECT 1 FROM show_seats WHERE show = $1 AND state = 'held' AND expires_ms <= $2 LIMIT 1",
                   [.text(id), .int(InventoryRows.millis(now))])).isEmpty
    }

    /// The show's own row (see `head`), the sweep of its expired holds (up
    /// to `ShowTransaction.sweepBatch` holds that expired at `now`, and as
    /// many expired tokens) and the rows the use case is expected to read,
    /// in one trip; nil when there is no such show. The answer's `source`
    /// serves what was read ahead without asking again. `sweeping` false:
    /// no sweep (the transaction's first update made it).
    func open(_ id: String, now: Date, expecting: ShowTransaction.Expected, sweeping: Bool = true) throws -> (head: ShowInventory, swept: [SeatID], source: ReadAhead<DB>)? {
        let find = sweepQuery(id, now: now)
        let seatQueries = InventoryRows.seatQueries(expecting.seats, of: id)
        var statements = [headQuery(id)] + (sweeping ? [find] : []) + seatQueries
        if let t = expecting.token { statements.append(InventoryRows.tokenQuery(t, of: id)) }
        let found = try db.batch(statements)
        guard let head = InventoryRows.head(id, found[0]) else { return nil }
        let first = sweeping ? 2 : 1
        var ahead = ReadAhead(rows: self, seats: Set(expecting.seats), seatRows: ShowInventory(show: id, hall: head.hall))
        takeSeats(Array(found[first..<first + seatQueries.count]), into: &ahead.seatRows, now: now)
        if let t = expecting.token {
            var fragment = ShowInventory(show: id, hall: head.hall)
            takeToken(t, found[first + seatQueries.count], into: &fragment, now: now)
            ahead.token = (t, fragment)
        }
        return (head, sweeping ? try sweep(id, found: found[1], key: find.1) : [], ahead)
    }

    /// Expired holds and expired tokens found in one statement.
    private func sweepQuery(_ id: String, now: Date) -> (String, [SQLValue]) {
        let n = ShowTransaction.sweepBatch
        return ("SELECT 's', seat FROM (SELECT seat FROM show_seats WHERE show = $1 AND state = 'held' AND expires_ms <= $2 ORDER BY expires_ms LIMIT \(n)) a UNION ALL SELECT 't', token FROM (SELECT token FROM show_tokens WHERE show = $1 AND expires_ms <= $2 ORDER BY expires_ms LIMIT \(n)) b",
                [.text(id), .int(InventoryRows.millis(now))])
    }

    /// Releases what `sweepQuery` found.
    private func sweep(_ id: String, found: [[SQLValue]], key: [SQLValue]) throws -> [SeatID] {
        let seats = found.filter { $0[0].text == "s" }.compactMap { $0[1].text }
        let tokens = found.filter { $0[0].text == "t" }.compactMap { $0[1].text }
        if !seats.isEmpty {
            try db.later("DELETE FROM show_seats WHERE show = $1 AND state = 'held' AND expires_ms <= $2 AND seat IN (\(InventoryRows.list(seats.count, from: 3)))",
                         key + seats.map { .text($0) })
        }
        if !tokens.isEmpty {
            let marks = InventoryRows.list(tokens.count, from: 2)
            let args: [SQLValue] = [.text(id)] + tokens.map { .text($0) }
            try db.later("DELETE FROM area_holds WHERE show = $1 AND token IN (\(marks))", args)
            try db.later("DELETE FROM show_tokens WHERE show = $1 AND token IN (\(marks))", args)
            try db.later("UPDATE shows SET token_rows = token_rows - $2 WHERE show = $1", [.text(id), .int(Int64(tokens.count))])
        }
        return seats.compactMap(SeatID.init)
    }

    /// Appends seats to the change log under the show's next sequence
    /// (`current`, read with the show's row in this transaction, plus one),
    /// and every 256 sequences forgets those past the kept length.
    func log(_ id: String, _ changes: [(SeatID, String)], after current: Int) throws {
        let seq = Int64(current) + 1
        try db.later("UPDATE shows SET change_seq = $2 WHERE show = $1", [.text(id), .int(seq)])
        // Every seat in one statement (500 a statement at most).
        for start in stride(from: 0, to: changes.count, by: 500) {
            let chunk = changes[start..<min(changes.count, start + 500)]
            let values = (0..<chunk.count).map { "($1, $2, $\(3 + 2 * $0), $\(4 + 2 * $0))" }.joined(separator: ", ")
            try db.later("INSERT INTO show_changes(show, sequence, seat, status) VALUES \(values) ON CONFLICT DO NOTHING",
                         [.text(id), .int(seq)] + chunk.flatMap { [SQLValue.text($0.0.description), .text($0.1)] })
        }
        let floor = seq - Int64(InventorySchema.keptSequences)
        if floor > 0 && seq % 256 == 0 {
            try db.later("DELETE FROM show_changes WHERE show = $1 AND sequence <= $2", [.text(id), .int(floor)])
            try db.later("UPDATE shows SET log_floor = $2 WHERE show = $1 AND log_floor < $2", [.text(id), .int(floor)])
        }
    }

    // MARK: Writing

    /// Writes the rows that differ between two states of one show (a whole
    /// show or the part a request read) and, with `logging`, appends the
    /// seats whose status changed to the change log.
    /// `swept`: seats whose expired holds the commit's sweep released;
    /// `address`: the client address tokens new in this write were given to.
    func write(_ before: ShowInventory, _ after: ShowInventory, swept: [SeatID] = [], logging: Bool = true, address: String? = nil) throws {
        let show = SQLValue.text(after.show)
        let diff = ShowDiff(before, after)
        var tokenRows: Int64 = 0
        for id in diff.seats {
            let seat = SQLValue.text(id.description)
            switch after.seats[id] {
            case nil: try db.later("DELETE FROM show_seats WHERE show = $1 AND seat = $2", [show, seat])
            case let state?:
                let (word, ref): (String, String)
                var expires: Int64 = 0
                switch state {
                case .locked: (word, ref) = ("locked", "")
                case .sold(let order): (word, ref) = ("sold", order)
                case .held(let token):
                    (word, ref) = ("held", token)
                    expires = after.tokens[token].map(InventoryRows.millis) ?? 0
                }
                let ticket = word == "held" ? after.ticketTypes[id] ?? "" : ""
                try db.later("INSERT INTO show_seats(show, seat, state, ref, ticket, expires_ms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT(show, seat) DO UPDATE SET state = excluded.state, ref = excluded.ref, ticket = excluded.ticket, expires_ms = excluded.expires_ms",
                      [show, seat, .text(word), .text(ref), .text(ticket), .int(expires)])
            }
        }
        for token in diff.tokens {
            if let expiry = after.tokens[token] {
                let ms = InventoryRows.millis(expiry)
                try db.later("INSERT INTO show_tokens(show, token, expires_ms, channel, address) VALUES ($1, $2, $3, $4, $5) ON CONFLICT(show, token) DO UPDATE SET expires_ms = excluded.expires_ms",
                      [show, .text(token), .int(ms), .text(after.tokenChannels[token] ?? ""), .text(address ?? "")])
                // A token not read before is new: tokens are made at random, never reused.
                if before.tokens[token] == nil { tokenRows += 1 }
                // Every seat the token holds lasts as long as it does (those
                // written above already do: not written again).
                if before.tokens[token] != nil {
                    try db.later("UPDATE show_seats SET expires_ms = $3 WHERE show = $1 AND ref = $2 AND state = 'held' AND expires_ms <> $3", [show, .text(token), .int(ms)])
                }
            } else {
                try db.later("DELETE FROM show_tokens WHERE show = $1 AND token = $2", [show, .text(token)])
                try db.later("DELETE FROM area_holds WHERE show = $1 AND token = $2", [show, .text(token)])
                if before.tokens[token] != nil { tokenRows -= 1 }
            }
        }
        if tokenRows != 0 {
            try db.later("UPDATE shows SET token_rows = token_rows + $2 WHERE show = $1", [show, .int(tokenRows)])
        }
        for area in Set(before.areaAvailable.keys).union(after.areaAvailable.keys) where before.areaAvailable[area] != after.areaAvailable[area] {
            if let n = after.areaAvailable[area] {
                try db.later("INSERT INTO show_areas(show, area, available) VALUES ($1, $2, $3) ON CONFLICT(show, area) DO UPDATE SET available = excluded.available",
                      [show, .text(area), .int(Int64(n))])
            } else {
                try db.later("DELETE FROM show_areas WHERE show = $1 AND area = $2", [show, .text(area)])
            }
        }
        for area in Set(before.areaHolds.keys).union(after.areaHolds.keys) {
            let old = before.areaHolds[area] ?? [:], new = after.areaHolds[area] ?? [:]
            for token in Set(old.keys).union(new.keys) where old[token] != new[token] && (after.tokens[token] != nil || new[token] == nil) {
                if let n = new[token], n > 0 {
                    try db.later("INSERT INTO area_holds(show, area, token, places) VALUES ($1, $2, $3, $4) ON CONFLICT(show, area, token) DO UPDATE SET places = excluded.places",
                          [show, .text(area), .text(token), .int(Int64(n))])
                } else {
                    try db.later("DELETE FROM area_holds WHERE show = $1 AND area = $2 AND token = $3", [show, .text(area), .text(token)])
                }
            }
        }
        for (oid, order) in after.orders.sorted(by: { $0.key < $1.key }) where before.orders[oid] == nil {
            try db.later("INSERT INTO orders(show, order_id, token, seats, tickets) VALUES ($1, $2, $3, '', '')", [show, .text(oid), .text(order.token)])
            for seat in order.seats {
                try db.later("INSERT INTO order_seats(show, order_id, seat, ticket) VALUES ($1, $2, $3, $4)",
                         [show, .text(oid), .text(seat.description), .text(order.ticketTypes[seat] ?? "")])
            }
            for (area, n) in order.areas.sorted(by: { $0.key < $1.key }) {
                try db.later("INSERT INTO order_areas(show, order_id, area, places) VALUES ($1, $2, $3, $4)", [show, .text(oid), .text(area), .int(Int64(n))])
            }
        }
        for id in diff.channels {
            if let c = after.channels[id] {
                try db.later("INSERT INTO show_channels(show, seat, channel) VALUES ($1, $2, $3) ON CONFLICT(show, seat) DO UPDATE SET channel = excluded.channel",
                      [show, .text(id.description), .text(c)])
            } else {
                try db.later("DELETE FROM show_channels WHERE show = $1 AND seat = $2", [show, .text(id.description)])
            }
        }
        for b in after.batchIds.subtracting(before.batchIds).sorted() {
            try db.later("INSERT INTO show_batches(show, batch_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [show, .text(b)])
        }
        if before.lastSequence != after.lastSequence {
            try db.later("UPDATE shows SET last_sequence = $1 WHERE show = $2", [after.lastSequence.map { .int(Int64($0)) } ?? .null, show])
        }
        guard logging else { return }
        let logged = diff.logged(after, swept: swept)
        if diff.areas || !logged.isEmpty { try log(after.show, logged, after: before.changeSequence) }
    }
}

/// A show's rows with some read ahead (`InventoryRows.open(_:now:expecting:)`):
/// what was read ahead is answered from memory, the rest from the rows.
struct ReadAhead<DB: SQLRunner>: ShowRowSource {
    let rows: InventoryRows<DB>
    /// The seats read ahead, and their rows, channels and holders.
    let seats: Set<SeatID>
    var seatRows: ShowInventory
    /// The token read ahead, and its row, holds and places.
    var token: (String, ShowInventory)?

    init(rows: InventoryRows<DB>, seats: Set<SeatID>, seatRows: ShowInventory) {
        self.rows = rows
        self.seats = seats
        self.seatRows = seatRows
    }

    func head(_ id: String) throws -> ShowInventory? { try rows.head(id) }

    func seats(_ ids: [SeatID], of id: String, into show: inout ShowInventory, now: Date) throws {
        var rest: [SeatID] = []
        for seat in ids {
            guard seats.contains(seat) else { rest.append(seat); continue }
            if let state = seatRows.seats[seat] {
                show.seats[seat] = state
                if case .held(let t) = state, let expiry = seatRows.tokens[t] {
                    show.tokens[t] = expiry
                    show.tokenChannels[t] = seatRows.tokenChannels[t]
                }
            }
            if let type = seatRows.ticketTypes[seat] { show.ticketTypes[seat] = type }
            if let channel = seatRows.channels[seat] { show.channels[seat] = channel }
        }
        if !rest.isEmpty { try rows.seats(rest, of: id, into: &show, now: now) }
    }

    func token(_ token: String, of id: String, into show: inout ShowInventory, now: Date) throws {
        guard let (t, fragment) = self.token, t == token else { return try rows.token(token, of: id, into: &show, now: now) }
        show.absorb(fragment)
    }

    func areas(of id: String, into show: inout ShowInventory, now: Date) throws { try rows.areas(of: id, into: &show, now: now) }
    func order(_ orderId: String, of id: String, into show: inout ShowInventory) throws { try rows.order(orderId, of: id, into: &show) }
    func batches(_ ids: [String], of id: String, into show: inout ShowInventory) throws { try rows.batches(ids, of: id, into: &show) }
    func all(_ id: String, now: Date) throws -> ShowInventory? { try rows.all(id, now: now) }
    func tokenCounts(_ id: String, address: String?, now: Date) throws -> (show: Int, address: Int) {
        try rows.tokenCounts(id, address: address, now: now)
    }
}
