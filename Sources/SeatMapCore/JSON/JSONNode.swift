/// A parsed JSON value that remembers where it stood in the source.
///
/// Numbers keep their source text so that prices become `Decimal` without
/// ever passing through `Double`, and objects keep their members in source
/// order so that errors and re-encoding follow the file.
public struct JSONNode: Sendable, Equatable {
    /// The shape of a JSON value.
    public indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number exactly as written (already checked against the JSON grammar).
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public var value: Value
    /// Byte offset of the value's first character in the source (0 for built values).
    public var offset: Int

    public init(_ value: Value, offset: Int = 0) {
        self.value = value
        self.offset = offset
    }

    /// Equal when the values are equal, wherever they stood in a source.
    public static func == (a: JSONNode, b: JSONNode) -> Bool { a.value == b.value }

    /// A short name of the value's type, as used in "expected X, found Y" messages.
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var node: JSONNode
    public init(_ key: String, _ node: JSONNode) {
        self.key = key
        self.node = node
    }
}

extension JSONNode {
    public static func string(_ s: String) -> JSONNode { JSONNode(.string(s)) }
    public static func int(_ i: Int) -> JSONNode { JSONNode(.number(String(i))) }
    public static func number(_ text: String) -> JSONNode { JSONNode(.number(text)) }
    public static func bool(_ b: Bool) -> JSONNode { JSONNode(.bool(b)) }
    public static var null: JSONNode { JSONNode(.null) }
    public static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items)) }
    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(members.map { JSONMember($0.0, $0.1) }))
    }

    /// The member named `key` of an object (the first one), or nil.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first(where: { $0.key == key })?.node
    }
}
