import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapService

/// What the OpenAPI document says of one route: its summary, query
/// parameters, body and successful answer. Every route also answers the
/// error form (`{"error", "status"}`) for any other status.
struct RouteDoc: Sendable {
    /// How a successful answer is sent.
    enum Answer: Sendable {
        case json(JSONNode)
        /// An image or page in the format the path's extension names.
        case image
        case html
    }

    var summary: String
    var description: String = ""
    var query: [QueryParameter] = []
    /// The JSON body's schema (POST routes).
    var body: JSONNode? = nil
    var answer: Answer
    /// The success statuses besides 200 (201 created, 304 not modified…).
    var statuses: [Int: String] = [:]

    /// A query parameter: its name, schema and meaning.
    struct QueryParameter: Sendable {
        var name: String
        var schema: JSONNode
        var description: String
    }

    /// Query parameters read from an option table: the same names and help
    /// the CLI's flags have (flags are given bare, `=1`/`=true` or `=0`/`=false`).
    static func parameters(_ options: [CommandSpec.Option]) -> [QueryParameter] {
        options.map { o in
            switch o.arity {
            case .flag: return QueryParameter(name: o.name, schema: APISchema.enumeration(["", "1", "true", "0", "false"]), description: o.help)
            case .value: return QueryParameter(name: o.name, schema: APISchema.string(), description: "\(o.valueName): \(o.help)")
            case .values: return QueryParameter(name: o.name, schema: APISchema.array(APISchema.string()), description: "\(o.valueName) (repeatable): \(o.help)")
            }
        }
    }
}

/// JSON Schema (2020-12, as OpenAPI 3.1 reads it) built as `JSONNode`s.
enum APISchema {
    static func string(_ description: String? = nil, pattern: String? = nil, maxLength: Int? = nil) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("string"))]
        if let pattern { m.append(("pattern", .string(pattern))) }
        if let maxLength { m.append(("maxLength", .int(maxLength))) }
        if let description { m.append(("description", .string(description))) }
        return .object(m)
    }
    static func integer(_ range: ClosedRange<Int>? = nil, _ description: String? = nil) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("integer"))]
        if let range { m += [("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound))] }
        if let description { m.append(("description", .string(description))) }
        return .object(m)
    }
    static func number(_ description: String? = nil) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("number"))]
        if let description { m.append(("description", .string(description))) }
        return .object(m)
    }
    static let boolean: JSONNode = .object([("type", .string("boolean"))])
    /// Any JSON object.
    static let anyObject: JSONNode = .object([("type", .string("object"))])
    static func enumeration(_ values: [String]) -> JSONNode {
        .object([("type", .string("string")), ("enum", .array(values.map { .string($0) }))])
    }
    static func array(_ items: JSONNode, min: Int? = nil, max: Int? = nil) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("array")), ("items", items)]
        if let min { m.append(("minItems", .int(min))) }
        if let max { m.append(("maxItems", .int(max))) }
        return .object(m)
    }
    /// An object with these members; `closed`: no others (what the routes
    /// refuse as an unknown member).
    static func object(_ members: [(String, JSONNode)], required: [String] = [], closed: Bool = false) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("object")), ("properties", .object(members))]
        if !required.isEmpty { m.append(("required", .array(required.map { .string($0) }))) }
        if closed { m.append(("additionalProperties", .bool(false))) }
        return .object(m)
    }
    /// An object whose every member's value has this schema.
    static func map(_ values: JSONNode, max: Int? = nil) -> JSONNode {
        var m: [(String, JSONNode)] = [("type", .string("object")), ("additionalProperties", values)]
        if let max { m.append(("maxProperties", .int(max))) }
        return .object(m)
    }
    static func oneOf(_ schemas: [JSONNode]) -> JSONNode { .object([("oneOf", .array(schemas))]) }
    static func anyOf(_ schemas: [JSONNode]) -> JSONNode { .object([("anyOf", .array(schemas))]) }
    static func ref(_ name: String) -> JSONNode { .object([("$ref", .string("#/components/schemas/\(name)"))]) }
    /// A seat id as the service writes it (`1-3-5`, or an external id).
    static let seatID = string("a seat id such as \"1-3-5\"", maxLength: 200)
    /// An `[x, y]` pair of numbers.
    static let point = array(number(), min: 2, max: 2)
}

/// The OpenAPI 3.1 document of the HTTP service, made from its route table:
/// every route with its path and query parameters, body, answers and the
/// error form. Served at `GET /openapi.json`; `docs/openapi.json` is a copy.
enum OpenAPI {
    /// The error every route answers for a status it does not document.
    static let errorSchema = APISchema.object([("error", APISchema.string("what went wrong, naming the input")),
                                               ("status", APISchema.integer(nil, "the HTTP status"))],
                                              required: ["error", "status"])

    static func document(_ router: Router) -> JSONNode {
        var paths: [(String, [(String, JSONNode)])] = []
        for route in router.routes {
            let path = "/" + route.pattern.map { segment -> String in
                guard segment.hasPrefix(":") else { return segment }
                return segment.split(separator: ".").map { "{" + $0.dropFirst() + "}" }.joined(separator: ".")
            }.joined(separator: "/")
            let operation = self.operation(route, path: path)
            if let i = paths.firstIndex(where: { $0.0 == path }) {
                paths[i].1.append((route.method.lowercased(), operation))
            } else {
                paths.append((path, [(route.method.lowercased(), operation)]))
            }
        }
        return .object([
            ("openapi", .string("3.1.0")),
            ("info", .object([
                ("title", .string("SeatMap service")),
                ("version", .string(SeatMap.version)),
                ("description", .string("seatmap serve: hall images, pickers and hit-tests; shows with holds, orders, channels and a change log. "
                                        + "Every error is {\"error\", \"status\"}. Routes marked with the admin key need "
                                        + "`Authorization: Bearer KEY` when the service was started with --admin-key.")),
            ])),
            ("paths", .object(paths.map { ($0.0, .object($0.1)) })),
            ("components", .object([
                ("schemas", .object([("Error", errorSchema)])),
                ("securitySchemes", .object([("adminKey", .object([("type", .string("http")), ("scheme", .string("bearer"))]))])),
            ])),
        ])
    }

    static func operation(_ route: Router.Route, path: String) -> JSONNode {
        let doc = route.doc
        var parameters: [JSONNode] = []
        for name in path.split(whereSeparator: { $0 == "{" || $0 == "}" }).enumerated().filter({ $0.offset % 2 == 1 }).map({ String($0.element) }) {
            let schema = name == "ext" ? APISchema.enumeration(OutputFormat.allCases.map(\.name)) : APISchema.string(nil, pattern: "^[^/]+$")
            var p: [(String, JSONNode)] = [("name", .string(name)), ("in", .string("path")), ("required", .bool(true)), ("schema", schema)]
            if let example = examples[name] { p.append(("example", .string(example))) }
            parameters.append(.object(p))
        }
        for q in doc.query {
            parameters.append(.object([("name", .string(q.name)), ("in", .string("query")), ("required", .bool(false)),
                                       ("description", .string(q.description)), ("schema", q.schema)]))
        }
        var responses: [(String, JSONNode)] = []
        switch doc.answer {
        case .json(let schema):
            responses.append(("200", content("application/json", schema, "the answer")))
        case .image:
            responses.append(("200", .object([("description", .string("the image in the format the extension names")),
                                              ("content", .object(OutputFormat.allCases.map { ($0.mimeType, .object([])) }))])))
        case .html:
            responses.append(("200", content("text/html", nil, "the page")))
            // To a browser (Accept: text/html) a link that cannot be opened is a page saying so.
            for status in ["400", "404"] {
                responses.append((status, .object([
                    ("description", .string("the error; to a client accepting text/html, a page saying it in the buyer's language")),
                    ("content", .object([("application/json", .object([("schema", APISchema.ref("Error"))])), ("text/html", .object([]))])),
                ])))
            }
        }
        for (status, description) in doc.statuses.sorted(by: { $0.key < $1.key }) {
            if case .json(let schema) = doc.answer, status < 300 {
                responses.append((String(status), content("application/json", schema, description)))
            } else {
                responses.append((String(status), .object([("description", .string(description))])))
            }
        }
        responses.append(("default", content("application/json", APISchema.ref("Error"), "an error: the status says which")))
        var op: [(String, JSONNode)] = [("summary", .string(doc.summary))]
        if !doc.description.isEmpty { op.append(("description", .string(doc.description))) }
        op.append(("operationId", .string(operationID(route.method, path))))
        if !parameters.isEmpty { op.append(("parameters", .array(parameters))) }
        if let body = doc.body {
            op.append(("requestBody", .object([("required", .bool(true)), ("content", .object([("application/json", .object([("schema", body)]))]))])))
        }
        op.append(("responses", .object(responses)))
        if route.admin { op.append(("security", .array([.object([("adminKey", .array([]))])]))) }
        return .object(op)
    }

    static func content(_ type: String, _ schema: JSONNode?, _ description: String) -> JSONNode {
        .object([("description", .string(description)), ("content", .object([(type, .object(schema.map { [("schema", $0)] } ?? []))]))])
    }

    /// `POST /shows/{show}/select` → `postShowsShowSelect`.
    static func operationID(_ method: String, _ path: String) -> String {
        let words = path.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return method.lowercased() + words.joined()
    }

    /// Path parameters' examples: the shipped examples' names.
    static let examples = ["hall": "cinema-12x18", "show": "tonight", "channel": "partner", "ext": "png"]
}
