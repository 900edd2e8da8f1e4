import SeatMapCore
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

    /// A JSON body as its route's decoder reads it: one member per option
    /// of the table the decoder is given (`Arguments(json:spec:)`), named
    /// and shaped as it reads them, closed as it is (an unknown member is
    /// refused). `refine` narrows a member's schema with the limits the
    /// typed request checks.
    static func body(_ options: [CommandSpec.Option], required: [String] = [], refine: [String: JSONNode] = [:]) -> JSONNode {
        let members: [(String, JSONNode)] = options.map { o in
            let name = o.memberName
            if let schema = refine[name] { return (name, schema) }
            if o.arity == .flag { return (name, S.boolean) }
            let described = { (schema: JSONNode) -> JSONNode in
                guard case .object(var m) = schema.value else { return schema }
                if !m.contains(where: { $0.key == "description" }) { m.append(JSONMember("description", JSONNode(.string(o.help)))) }
                return JSONNode(.object(m))
            }
            switch o.shape {
            case .text: return (name, described(S.anyOf([S.string(), S.number()])))
            case .list: return (name, described(S.array(S.string(nil, pattern: ".")))) 
            case .pair: return (name, described(S.anyOf([S.point, S.string()])))
            case .map: return (name, described(S.map(S.anyOf([S.string(), S.number()]))))
            case .object: return (name, described(S.anyObject))
            case .pairs: return (name, described(S.array(S.point, min: 1, max: 10_000)))
            }
        }
        return S.object(members, required: required, closed: true)
    }

    static let selectBody = body(ShowRequests.select + [Controller.hallCheck], refine: [
        "toggle": S.array(S.seatID, max: ShowService.maxNamedSeats),
        "area": S.map(S.integer(0...ShowService.maxPlaces), max: 1000),
        "types": S.map(S.string(nil, pattern: ".", maxLength: 200), max: ShowService.maxNamedSeats),
        "holdSeconds": holdSeconds, "locale": locale,
    ])

    static let bestBody = body(ShowRequests.best, required: ["count"], refine: [
        "count": S.integer(BestAvailableOptions.countRange), "holdSeconds": holdSeconds, "locale": locale,
    ])

    static let orderBody = body(ShowRequests.order, required: ["token", "orderId"], refine: ["seats": S.array(S.seatID)])

    static let channelBody = body(ShowRequests.channel, refine: ["seats": S.array(S.seatID, max: 100_000), "holdSeconds": holdSeconds])

    static let createBody = body(ShowRequests.create, required: ["hall"], refine: [
        "hall": S.string("the hall's name in the halls folder"),
        "rules": .object([("type", .string("object")), ("description", .string("sales rules (docs/rules.md)"))]),
    ])

    /// A hit request: points and the geometry and view options.
    static func hitBody(token: Bool) -> JSONNode {
        body(Controller.hitOptions + (token ? [ShowRequests.token] : []), required: ["points"])
    }

    static let batch = S.object([
        ("batchId", S.string(nil, maxLength: 128)),
        ("sequence", S.integer()),
        ("changes", S.array(S.object([("id", text), ("status", S.integer()), ("available", S.integer())], required: ["id"], closed: true))),
    ], required: ["batchId", "sequence", "changes"], closed: true)

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
    static let delta = S.object([("show", text), ("sequence", count), ("changes", S.map(text)), ("areas", areas),
                                 ("orders", S.array(S.object([("orderId", text), ("seats", texts)], required: ["orderId", "seats"])))],
                                required: ["show", "sequence", "changes"])
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
