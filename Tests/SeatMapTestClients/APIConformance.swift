import Foundation
import SeatMapCore
import SeatMapTestSupport

/// Checks an HTTP answer against `docs/openapi.json`: the route it reached
/// is documented, its status is one the route documents (or the error
/// form's `default`), its media type is listed, and a JSON body matches the
/// schema. Every answer `TestHTTP` reads is checked (a test that expects a
/// route to be missing gets its 404 checked against nothing).
public enum APIConformance {
    /// The document, read once.
    public static let document: JSONNode? = {
        guard let bytes = FileManager.default.contents(atPath: Fixtures.root.appendingPathComponent("docs/openapi.json").path) else { return nil }
        return try? JSONParser.parse([UInt8](bytes))
    }()

    /// Path templates with their regular expressions, in the document's order.
    static let templates: [(String, NSRegularExpression)] = {
        guard case .object(let paths)? = document?["paths"]?.value else { return [] }
        return paths.compactMap { m in
            var pattern = NSRegularExpression.escapedPattern(for: m.key)
            pattern = pattern.replacingOccurrences(of: "\\{ext\\}", with: "[^/.]+")
            pattern = pattern.replacingOccurrences(of: #"\\\{[A-Za-z]+\\\}"#, with: "[^/]+", options: .regularExpression)
            return (try? NSRegularExpression(pattern: "^" + pattern + "$")).map { (m.key, $0) }
        }
    }()

    /// The problems of one answer (empty: it is as documented).
    public static func problems(method: String, path: String, status: Int, contentType: String?, body: [UInt8]) -> [String] {
        guard let document else { return ["docs/openapi.json is missing or not JSON"] }
        // A CORS preflight is the browser's machinery, not an operation.
        guard method != "OPTIONS" else { return [] }
        let bare = String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let range = NSRange(bare.startIndex..., in: bare)
        let verb = method == "HEAD" ? "get" : method.lowercased()
        // As the router: the first template that matches and takes the method, else the first that matches.
        let matching = templates.filter { $0.1.firstMatch(in: bare, range: range) != nil }.map(\.0)
        guard let template = matching.first(where: { document["paths"]?[$0]?[verb] != nil }) ?? matching.first else {
            return status == 404 || status == 405 || status == 421 || status == 400 ? [] : ["\(method) \(bare): no documented path"]
        }
        guard let operation = document["paths"]?[template]?[verb] else {
            return status == 405 || status == 421 || status == 403 || status == 400 ? [] : ["\(method) \(template): not documented (status \(status))"]
        }
        guard let response = operation["responses"]?[String(status)] ?? operation["responses"]?["default"] else {
            return ["\(method) \(template): status \(status) not documented"]
        }
        guard status != 304, method != "HEAD", !body.isEmpty else { return [] }
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard case .object(let media)? = response["content"]?.value else { return ["\(method) \(template) \(status): a body where none is documented"] }
        guard let entry = media.first(where: { $0.key == type }) else {
            return ["\(method) \(template) \(status): media type \(type) is not one of \(media.map(\.key))"]
        }
        guard type == "application/json", let schema = entry.node["schema"] else { return [] }
        guard let value = try? JSONParser.parse(body) else { return ["\(method) \(template) \(status): the body is not JSON"] }
        return validate(value, schema, at: "\(method) \(template) \(status): body")
    }

    /// JSON Schema's keywords the document uses: type, properties,
    /// required, additionalProperties, items, min/maxItems, maxProperties,
    /// enum, anyOf, oneOf, minimum, maximum, maxLength, $ref.
    static func validate(_ value: JSONNode, _ schema: JSONNode, at where_: String) -> [String] {
        if case .string(let ref)? = schema["$ref"]?.value {
            let name = ref.replacingOccurrences(of: "#/components/schemas/", with: "")
            guard let target = document?["components"]?["schemas"]?[name] else { return ["\(where_): unknown \(ref)"] }
            return validate(value, target, at: where_)
        }
        if case .array(let options)? = schema["anyOf"]?.value ?? schema["oneOf"]?.value {
            let fits = options.filter { validate(value, $0, at: where_).isEmpty }.count
            let isOne = schema["oneOf"] != nil
            if fits == 0 || (isOne && fits > 1) { return ["\(where_): matches \(fits) of its \(isOne ? "oneOf" : "anyOf") schemas"] }
        }
        var out: [String] = []
        if case .string(let type)? = schema["type"]?.value {
            let ok: Bool
            switch (type, value.value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("number", .number), ("null", .null): ok = true
            case ("integer", .number(let n)): ok = Int64(n) != nil
            default: ok = false
            }
            if !ok { return ["\(where_): expected \(type), got \(JSONWriter.write(value, pretty: false).prefix(80))"] }
        }
        if case .array(let allowed)? = schema["enum"]?.value, !allowed.contains(where: { $0 == value }) {
            out.append("\(where_): \(JSONWriter.write(value, pretty: false)) is not one of the enum")
        }
        if case .number(let n) = value.value, let v = Double(n) {
            if case .number(let lo)? = schema["minimum"]?.value, let l = Double(lo), v < l { out.append("\(where_): \(n) < \(lo)") }
            if case .number(let hi)? = schema["maximum"]?.value, let h = Double(hi), v > h { out.append("\(where_): \(n) > \(hi)") }
        }
        switch value.value {
        case .object(let members):
            let properties: [JSONMember]
            if case .object(let p)? = schema["properties"]?.value { properties = p } else { properties = [] }
            if case .array(let required)? = schema["required"]?.value {
                for case .string(let name) in required.map(\.value) where !members.contains(where: { $0.key == name }) {
                    out.append("\(where_): missing \"\(name)\"")
                }
            }
            for m in members {
                if let p = properties.first(where: { $0.key == m.key }) {
                    out += validate(m.node, p.node, at: "\(where_).\(m.key)")
                } else if let extra = schema["additionalProperties"] {
                    if case .bool(false) = extra.value { out.append("\(where_): \"\(m.key)\" is not documented") }
                    else if case .object = extra.value { out += validate(m.node, extra, at: "\(where_).\(m.key)") }
                }
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { out += validate(item, itemSchema, at: "\(where_)[\(i)]") }
            }
            if case .number(let n)? = schema["maxItems"]?.value, let v = Int(n), items.count > v { out.append("\(where_): \(items.count) items > \(n)") }
            if case .number(let n)? = schema["minItems"]?.value, let v = Int(n), items.count < v { out.append("\(where_): \(items.count) items < \(n)") }
        default: break
        }
        return out
    }
}
