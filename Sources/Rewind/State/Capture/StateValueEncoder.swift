import OrderedCollections

/// An `Encoder` that builds a ``StateValue`` tree directly, without going through JSON text.
///
/// Nested values are routed through ``CaptureSession`` rules (leaves, secrets, cycles, stable order)
/// before their own `encode(to:)` runs, so a Date inside a struct is captured the same way as a Date
/// at the root.
struct StateValueEncoder {
    let session: CaptureSession
    let depth: Int

    init(session: CaptureSession, depth: Int) {
        self.session = session
        self.depth = depth
    }

    /// Encodes a value whose leaf, secret and cycle checks the caller has already made.
    func encodeRoot(_ value: any Encodable) throws -> StateValue {
        let node = EncodingNode()
        try value.encode(to: NodeEncoder(node: node, session: session, depth: depth, codingPath: []))
        let tree = node.build()
        if let unordered = value as? any UnorderedCollection {
            return session.ordered(tree, isDictionary: Self.isDictionary(unordered))
        }
        return tree
    }

    private static func isDictionary(_ collection: any UnorderedCollection) -> Bool {
        String(describing: type(of: collection)).hasPrefix("Dictionary<")
    }
}

/// A value under construction: a finished leaf, a keyed container or an unkeyed container.
final class EncodingNode {
    enum Child {
        case leaf(StateValue)
        case node(EncodingNode)

        func build() -> StateValue {
            switch self {
            case .leaf(let value): value
            case .node(let node): node.build()
            }
        }
    }

    var single: StateValue?
    var fields: OrderedDictionary<String, Child>?
    var elements: [Child]?

    func build() -> StateValue {
        if let fields { return .object(fields.mapValues { $0.build() }) }
        if let elements { return .array(elements.map { $0.build() }) }
        return single ?? .object([:])
    }
}

/// The `Encoder` handed to a value's `encode(to:)`.
struct NodeEncoder: Encoder {
    let node: EncodingNode
    let session: CaptureSession
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [.rewindStateCapture: true] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.fields == nil { node.fields = [:] }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedNodeContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(encoder: self)
    }

    /// Captures a nested value one level down, applying the capture rules first.
    func child<T: Encodable>(_ value: T, key: any CodingKey) throws -> EncodingNode.Child {
        if let special = session.specialCase(value, depth: depth + 1) { return .leaf(special) }
        if let lists = session.lists, let path = namedPath(key), value is any LiveElements {
            let tree = try lists.reusedTree(of: value, at: path, options: session.options) ?? encodedChild(value, key: key)
            lists.remember(value, tree: tree, at: path)
            return .leaf(tree)
        }
        return .leaf(try encodedChild(value, key: key))
    }

    /// The coding path down to `key` as text (`board.columns`), when every step is a named field:
    /// lists inside lists are not remembered.
    private func namedPath(_ key: any CodingKey) -> String? {
        guard key.intValue == nil, codingPath.allSatisfy({ $0.intValue == nil }) else { return nil }
        return (codingPath + [key]).map(\.stringValue).joined(separator: ".")
    }

    private func encodedChild<T: Encodable>(_ value: T, key: any CodingKey) throws -> StateValue {
        try session.withCycleCheck(value) {
            let nested = NodeEncoder(node: EncodingNode(), session: session, depth: depth + 1, codingPath: codingPath + [key])
            try value.encode(to: nested)
            let tree = nested.node.build()
            if value is any UnorderedCollection {
                return session.ordered(tree, isDictionary: String(describing: T.self).hasPrefix("Dictionary<"))
            }
            return tree
        }
    }

    func nestedEncoder(key: any CodingKey) -> NodeEncoder {
        NodeEncoder(node: EncodingNode(), session: session, depth: depth + 1, codingPath: codingPath + [key])
    }
}

extension CodingUserInfoKey {
    /// Present in `Encoder.userInfo` while Rewind captures state, so that a type can tell a capture
    /// from persistence (``Secret`` uses it to redact itself only in captures).
    public static let rewindStateCapture = CodingUserInfoKey(rawValue: "rewind.stateCapture")!
}

struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func store(_ child: EncodingNode.Child, for key: Key) {
        encoder.node.fields![key.stringValue] = child
    }

    private func storeLeaf(_ value: StateValue, for key: Key) {
        if encoder.session.options.redaction.redacts(key: key.stringValue) {
            store(.leaf(.opaque(encoder.session.options.redactedLeaf(typeName: value.shapeName, of: value))), for: key)
        } else {
            store(.leaf(value), for: key)
        }
    }

    mutating func encodeNil(forKey key: Key) throws { storeLeaf(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { storeLeaf(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { storeLeaf(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { storeLeaf(.floatingPoint(value), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { storeLeaf(.floatingPoint(Double(value)), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { storeLeaf(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { storeLeaf(CaptureSession.unsigned(UInt64(value)), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { storeLeaf(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { storeLeaf(CaptureSession.unsigned(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if encoder.session.options.redaction.redacts(key: key.stringValue) {
            store(.leaf(.opaque(encoder.session.options.redactedLeaf(typeName: String(describing: T.self), of: value))), for: key)
            return
        }
        store(try encoder.child(value, key: key), for: key)
    }

    /// Stores a nested container's node, or a redacted leaf in its place when the key is secret:
    /// an enum case named like a secret (`case setToken(String)`) is encoded by Codable as a
    /// nested container under the case's name.
    private func storeNested(_ node: EncodingNode, shape: String, for key: Key) {
        if encoder.session.options.redaction.redacts(key: key.stringValue) {
            store(.leaf(.opaque(Redaction.redactedLeaf(typeName: shape))), for: key)
        } else {
            store(.node(node), for: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nestedEncoder(key: key)
        storeNested(nested.node, shape: "object", for: key)
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder.nestedEncoder(key: key)
        storeNested(nested.node, shape: "array", for: key)
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let nested = encoder.nestedEncoder(key: key)
        storeNested(nested.node, shape: "object", for: key)
        return nested
    }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements!.count }

    private func append(_ child: EncodingNode.Child) {
        encoder.node.elements!.append(child)
    }

    mutating func encodeNil() throws { append(.leaf(.null)) }
    mutating func encode(_ value: Bool) throws { append(.leaf(.bool(value))) }
    mutating func encode(_ value: String) throws { append(.leaf(.string(value))) }
    mutating func encode(_ value: Double) throws { append(.leaf(.floatingPoint(value))) }
    mutating func encode(_ value: Float) throws { append(.leaf(.floatingPoint(Double(value)))) }
    mutating func encode(_ value: Int) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: Int8) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: Int16) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: Int32) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: Int64) throws { append(.leaf(.integer(value))) }
    mutating func encode(_ value: UInt) throws { append(.leaf(CaptureSession.unsigned(UInt64(value)))) }
    mutating func encode(_ value: UInt8) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt16) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt32) throws { append(.leaf(.integer(Int64(value)))) }
    mutating func encode(_ value: UInt64) throws { append(.leaf(CaptureSession.unsigned(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.child(value, key: IndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nestedEncoder(key: IndexKey(count))
        append(.node(nested.node))
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoder.nestedEncoder(key: IndexKey(count))
        append(.node(nested.node))
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoder.nestedEncoder(key: IndexKey(count))
        append(.node(nested.node))
        return nested
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: StateValue) {
        encoder.node.single = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.floatingPoint(value)) }
    mutating func encode(_ value: Float) throws { set(.floatingPoint(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(CaptureSession.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(CaptureSession.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // A single-value container keeps the depth: a wrapper (RawRepresentable, a property wrapper)
        // is not a level of the tree.
        if let special = encoder.session.specialCase(value, depth: encoder.depth) {
            set(special)
            return
        }
        let nested = NodeEncoder(node: EncodingNode(), session: encoder.session, depth: encoder.depth, codingPath: codingPath)
        try value.encode(to: nested)
        set(nested.node.build())
    }
}
