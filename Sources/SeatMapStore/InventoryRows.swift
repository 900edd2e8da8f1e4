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
protocol SQLRunner {
    func rows(_ sql: String, _ args: [SQLValue]) throws -> [[SQLValue]]
}

extension SQLRunner {
    @discardableResult
    func q(_ sql: String, _ args: [SQLValue] = []) throws -> [[SQLValue]] { try rows(sql, args) }
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
    ]

    /// A show's rules as its `rules` column holds them (every member that
    /// differs from the defaults), and back.
    static func rulesText(_ rules: SalesRules?) -> SQLValue {
        rules.map { .text(JSONWriter.write($0.json(), pretty: false)) } ?? .null
    }
    static func rules(_ value: SQLValue) -> SalesRules? {
        guard let text = value.text, let node = try? JSONParser.parse(Array(text.utf8)) else { return nil }
        return SalesRules().reading(node, path: "rules").rules
    }

    /// Ticket types by seat as one column's JSON object, and back.
    static func typesText(_ types: [SeatID: String]) -> String {
        types.isEmpty ? "" : JSONWriter.write(.object(types.keys.sorted().map { ($0.description, .string(types[$0] ?? "")) }), pretty: false)
    }
    static func types(_ text: String) -> [SeatID: String] {
        guard !text.isEmpty, let node = try? JSONParser.parse(Array(text.utf8)), case .object(let members) = node.value else { return [:] }
        var out: [SeatID: String] = [:]
        for m in members { if let id = SeatID(m.key), case .string(let t) = m.node.value { out[id] = t } }
        return out
    }
}

/// A show read from and written back to its rows (`InventorySchema`'s
/// tables), the same SQL for both SQL stores. Runs
/// inside a transaction the store opened; `lockShow` adds `FOR UPDATE` to
/// the read of the show's row (PostgreSQL: writers of one show queue on
/// that row lock; SQLite's `BEGIN IMMEDIATE` has already locked the file).
struct InventoryRows<DB: SQLRunner> {
    let db: DB
    var lockShow = false

    /// Creates the show unless it exists (the insert waits for a
    /// concurrent creator and then does nothing); returns the stored show.
    func create(_ inventory: ShowInventory, now: Date) throws -> (show: ShowInventory, created: Bool) {
        if let existing = try read(inventory.show) { return (existing, false) }
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
            return (try read(inventory.show) ?? inventory, false)
        }
        var empty = ShowInventory(show: show.show, hall: show.hall)
        empty.rules = show.rules
        empty.hallFile = show.hallFile
        try write(empty, show)
        return (show, true)
    }

    func showIDs() throws -> [String] {
        try db.q("SELECT show FROM shows ORDER BY show").compactMap { $0.first?.text }
    }

    /// The show `id` as its rows hold it, or nil.
    func read(_ id: String) throws -> ShowInventory? {
        let key: [SQLValue] = [.text(id)]
        let headSQL = "SELECT hall, last_sequence, rules, hall_file FROM shows WHERE show = $1"
        guard let head = try db.q(lockShow ? headSQL + " FOR UPDATE" : headSQL, key).first, let hall = head[0].text else { return nil }
        var show = ShowInventory(show: id, hall: hall)
        show.lastSequence = head[1].int.map { Int($0) }
        show.rules = InventorySchema.rules(head[2])
        show.hallFile = head[3].text
        for row in try db.q("SELECT seat, state, ref, ticket FROM show_seats WHERE show = $1", key) {
            guard let text = row[0].text, let seat = SeatID(text), let state = row[1].text, let ref = row[2].text else { continue }
            switch state {
            case "locked": show.seats[seat] = .locked
            case "sold": show.seats[seat] = .sold(order: ref)
            default:
                show.seats[seat] = .held(token: ref)
                if let t = row[3].text, !t.isEmpty { show.ticketTypes[seat] = t }
            }
        }
        for row in try db.q("SELECT token, expires_ms, channel FROM show_tokens WHERE show = $1", key) {
            if let token = row[0].text, let ms = row[1].int {
                show.tokens[token] = Date(timeIntervalSince1970: Double(ms) / 1000)
                if let c = row[2].text, !c.isEmpty { show.tokenChannels[token] = c }
            }
        }
        for row in try db.q("SELECT seat, channel FROM show_channels WHERE show = $1", key) {
            if let text = row[0].text, let seat = SeatID(text), let c = row[1].text { show.channels[seat] = c }
        }
        for row in try db.q("SELECT area, available FROM show_areas WHERE show = $1", key) {
            if let area = row[0].text, let n = row[1].int { show.areaAvailable[area] = Int(n) }
        }
        for row in try db.q("SELECT area, token, places FROM area_holds WHERE show = $1", key) {
            if let area = row[0].text, let token = row[1].text, let n = row[2].int { show.areaHolds[area, default: [:]][token] = Int(n) }
        }
        for row in try db.q("SELECT order_id, token, seats, tickets FROM orders WHERE show = $1", key) {
            guard let oid = row[0].text, let token = row[1].text, let seats = row[2].text else { continue }
            show.orders[oid] = ShowInventory.Order(token: token, seats: seats.split(separator: ",").compactMap { SeatID(String($0)) }, areas: [:],
                                                   ticketTypes: InventorySchema.types(row[3].text ?? ""))
        }
        for row in try db.q("SELECT order_id, area, places FROM order_areas WHERE show = $1", key) {
            if let oid = row[0].text, let area = row[1].text, let n = row[2].int { show.orders[oid]?.areas[area] = Int(n) }
        }
        for row in try db.q("SELECT batch_id FROM show_batches WHERE show = $1", key) {
            if let b = row[0].text { show.batchIds.insert(b) }
        }
        return show
    }

    /// Writes the rows that differ between two states of one show.
    func write(_ before: ShowInventory, _ after: ShowInventory) throws {
        let show = SQLValue.text(after.show)
        for id in Set(before.seats.keys).union(after.seats.keys)
        where before.seats[id] != after.seats[id] || before.ticketTypes[id] != after.ticketTypes[id] {
            let seat = SQLValue.text(id.description)
            switch after.seats[id] {
            case nil: try db.q("DELETE FROM show_seats WHERE show = $1 AND seat = $2", [show, seat])
            case let state?:
                let (word, ref): (String, String)
                switch state {
                case .locked: (word, ref) = ("locked", "")
                case .sold(let order): (word, ref) = ("sold", order)
                case .held(let token): (word, ref) = ("held", token)
                }
                let ticket = state == .held(token: ref) ? after.ticketTypes[id] ?? "" : ""
                try db.q("INSERT INTO show_seats(show, seat, state, ref, ticket) VALUES ($1, $2, $3, $4, $5) ON CONFLICT(show, seat) DO UPDATE SET state = excluded.state, ref = excluded.ref, ticket = excluded.ticket",
                      [show, seat, .text(word), .text(ref), .text(ticket)])
            }
        }
        for token in Set(before.tokens.keys).union(after.tokens.keys) where before.tokens[token] != after.tokens[token] {
            if let expiry = after.tokens[token] {
                try db.q("INSERT INTO show_tokens(show, token, expires_ms, channel) VALUES ($1, $2, $3, $4) ON CONFLICT(show, token) DO UPDATE SET expires_ms = excluded.expires_ms",
                      [show, .text(token), .int(Int64((expiry.timeIntervalSince1970 * 1000).rounded(.up))), .text(after.tokenChannels[token] ?? "")])
            } else {
                try db.q("DELETE FROM show_tokens WHERE show = $1 AND token = $2", [show, .text(token)])
            }
        }
        for area in Set(before.areaAvailable.keys).union(after.areaAvailable.keys) where before.areaAvailable[area] != after.areaAvailable[area] {
            if let n = after.areaAvailable[area] {
                try db.q("INSERT INTO show_areas(show, area, available) VALUES ($1, $2, $3) ON CONFLICT(show, area) DO UPDATE SET available = excluded.available",
                      [show, .text(area), .int(Int64(n))])
            } else {
                try db.q("DELETE FROM show_areas WHERE show = $1 AND area = $2", [show, .text(area)])
            }
        }
        for area in Set(before.areaHolds.keys).union(after.areaHolds.keys) {
            let old = before.areaHolds[area] ?? [:], new = after.areaHolds[area] ?? [:]
            for token in Set(old.keys).union(new.keys) where old[token] != new[token] {
                if let n = new[token], n > 0 {
                    try db.q("INSERT INTO area_holds(show, area, token, places) VALUES ($1, $2, $3, $4) ON CONFLICT(show, area, token) DO UPDATE SET places = excluded.places",
                          [show, .text(area), .text(token), .int(Int64(n))])
                } else {
                    try db.q("DELETE FROM area_holds WHERE show = $1 AND area = $2 AND token = $3", [show, .text(area), .text(token)])
                }
            }
        }
        for (oid, order) in after.orders where before.orders[oid] == nil {
            try db.q("INSERT INTO orders(show, order_id, token, seats, tickets) VALUES ($1, $2, $3, $4, $5)",
                  [show, .text(oid), .text(order.token), .text(order.seats.map(\.description).joined(separator: ",")),
                   .text(InventorySchema.typesText(order.ticketTypes))])
            for (area, n) in order.areas {
                try db.q("INSERT INTO order_areas(show, order_id, area, places) VALUES ($1, $2, $3, $4)", [show, .text(oid), .text(area), .int(Int64(n))])
            }
        }
        for id in Set(before.channels.keys).union(after.channels.keys) where before.channels[id] != after.channels[id] {
            if let c = after.channels[id] {
                try db.q("INSERT INTO show_channels(show, seat, channel) VALUES ($1, $2, $3) ON CONFLICT(show, seat) DO UPDATE SET channel = excluded.channel",
                      [show, .text(id.description), .text(c)])
            } else {
                try db.q("DELETE FROM show_channels WHERE show = $1 AND seat = $2", [show, .text(id.description)])
            }
        }
        for b in after.batchIds.subtracting(before.batchIds) {
            try db.q("INSERT INTO show_batches(show, batch_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [show, .text(b)])
        }
        if before.lastSequence != after.lastSequence {
            try db.q("UPDATE shows SET last_sequence = $1 WHERE show = $2", [after.lastSequence.map { .int(Int64($0)) } ?? .null, show])
        }
    }

}
