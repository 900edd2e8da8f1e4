import SeatMapCore
import SeatMapRender
import SeatMapService

/// The bodies the routes read and the answers they write, as JSON Schema
/// for the OpenAPI document. Each body lists the members its route's
/// decoder takes (`ShowRoutes.swift`, `Controller.swift`), with their
/// limits; an unknown member is refused there, so each is closed here.
enum HTTPAPI {
    typealias S = APISchema

    static let text = S.string()
    static let texts = S.array(S.string())
    static let count = S.integer()
    static let places = S.map(S.integer())
    static let holdSeconds = S.number("how long the hold lasts, up to the service's --hold-ttl")
    static let locale = S.string("a locale of the catalogues (en, de, fr, es, it, ja, ko, zh-Hans, ar, he)")

    // MARK: Bodies

    static let selectBody = S.object([
        ("toggle", S.array(S.seatID, max: ShowService.maxNamedSeats)),
        ("area", S.map(S.integer(0...ShowService.maxPlaces), max: 1000)),
        ("types", S.map(S.string(nil, maxLength: 200), max: ShowService.maxNamedSeats)),
        ("token", S.string("the buyer's hold token (omitted: a new one when something is held)")),
        ("holdSeconds", holdSeconds),
        ("locale", locale),
        ("singleSeatRule", S.boolean),
        ("hall", S.string("the show's hall, checked when given")),
    ], closed: true)

    /// Best available's members: the option table `recommend` reads as
    /// flags, camel-cased, with the token's.
    static let bestBody: JSONNode = {
        var members: [(String, JSONNode)] = BestAvailableOptions.table.map { o in
            let name = InputNames.member(o.name)
            switch o.arity {
            case .flag: return (name, S.boolean)
            case .value, .values:
                return (name, .object([("anyOf", .array([S.number(), S.string()])), ("description", .string(o.help))]))
            }
        }
        members += [("token", S.string("the buyer's hold token")), ("holdSeconds", holdSeconds), ("locale", locale)]
        return S.object(members, required: ["count"], closed: true)
    }()

    static let orderBody = S.object([
        ("token", S.string("the buyer's hold token")),
        ("orderId", S.string("the order's id: repeating it sells nothing more")),
        ("seats", S.array(S.seatID)),
    ], required: ["token", "orderId"], closed: true)

    static let channelBody = S.object([
        ("seats", S.array(S.seatID, max: 100_000)),
        ("release", S.boolean),
        ("token", S.boolean),
        ("holdSeconds", holdSeconds),
    ], closed: true)

    static let createBody = S.object([
        ("hall", S.string("the hall's name in the halls folder")),
        ("rules", .object([("type", .string("object")), ("description", .string("sales rules (docs/rules.md)"))])),
    ], required: ["hall"], closed: true)

    static let batch = S.object([
        ("batchId", S.string(nil, maxLength: 128)),
        ("sequence", S.integer()),
        ("changes", S.array(S.object([("id", text), ("status", S.integer()), ("available", S.integer())], required: ["id"], closed: true))),
    ], required: ["batchId", "sequence", "changes"], closed: true)

    /// A hit request: points and the geometry and view options, by their
    /// CLI names (a value as a number, a string, true or an [x, y] pair).
    static func hitBody(token: Bool) -> JSONNode {
        let value = S.anyOf([S.number(), S.string(), S.boolean, S.point])
        var members: [(String, JSONNode)] = [("points", S.array(S.point, min: 1, max: 10_000))]
        members += (GeometryOptions.table + HitQuery.options).map { ($0.name, value) }
        if token { members.append(("token", S.string("the buyer's hold token"))) }
        return S.object(members, required: ["points"], closed: true)
    }

    // MARK: Answers

    static let health = S.object([("status", S.enumeration(["ok", "degraded"])), ("mode", S.enumeration(["open", "admin-key"])),
                                  ("store", S.boolean), ("storeError", text)], required: ["status"])
    static let hallSummary = S.object([("hall", text), ("error", text)], required: ["hall"])
    static let hit = S.object([("x", S.number()), ("y", S.number()), ("kind", text)], required: ["x", "y", "kind"])
    static let created = S.object([("show", text), ("hall", text), ("created", S.boolean), ("rules", S.anyObject)],
                                  required: ["show", "hall", "created"])
    static let areas = S.map(S.object([("capacity", count), ("available", count)]))
    static let seats = S.object([("show", text), ("hall", text), ("sequence", count), ("seats", S.map(text)), ("areas", areas),
                                 ("full", S.boolean)], required: ["show", "sequence", "seats"])
    static let delta = S.object([("show", text), ("sequence", count), ("changes", S.map(text)), ("areas", areas)],
                                required: ["show", "sequence", "changes"])
    static let seatsQuery: [RouteDoc.QueryParameter] = [
        .init(name: "token", schema: S.string(), description: "the buyer's hold token: its own seats read \"selected\""),
        .init(name: "since", schema: S.integer(0...Int(Int64.max)), description: "only the changes after this sequence"),
        .init(name: "wait", schema: S.number(), description: "wait up to this many seconds (1 to 30) for a change"),
    ]
    static let selection = S.object([
        ("results", S.array(S.object([("id", text), ("result", text), ("seat", text)], required: ["id", "result"]))),
        ("selected", texts), ("total", text), ("currency", text), ("totalText", text), ("descriptions", texts),
        ("violations", texts), ("breaks", S.array(S.anyObject)), ("cart", S.array(S.anyObject)),
        ("messages", texts), ("standing", places), ("token", text), ("expiresAt", text),
    ], required: ["results", "selected", "total", "currency"])
    static let best = S.object([("seats", texts), ("fallback", text), ("total", text), ("currency", text), ("totalText", text),
                                ("descriptions", texts), ("cart", S.array(S.anyObject)), ("token", text),
                                ("expiresAt", text)], required: ["seats", "fallback", "total", "currency"])
    static let order = S.object([("show", text), ("orderId", text), ("sold", texts), ("areas", places), ("ticketTypes", S.map(text)),
                                 ("total", text), ("currency", text), ("repeated", S.boolean)],
                                required: ["show", "orderId", "sold", "total", "currency", "repeated"])
    static let channel = S.object([("show", text), ("channel", text), ("token", text), ("expiresAt", text), ("reserved", texts),
                                   ("released", texts)], required: ["show", "channel"])
    static let status = S.object([("show", text), ("hall", text), ("seats", S.anyObject),
                                  ("holds", S.array(S.anyObject)), ("orders", S.array(S.anyObject)),
                                  ("areas", S.anyObject), ("channels", S.map(texts)), ("batches", count),
                                  ("changeSequence", count)], required: ["show", "hall", "seats", "holds", "orders"])
}
