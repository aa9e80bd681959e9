import Foundation

/// A `Decoder` that rebuilds a Decodable value from a ``StateValue`` tree made by ``StateCapture``.
/// Its errors carry the coding path, which replay turns into "which field no longer fits".
struct StateValueDecoder {
    func decode<T: Decodable>(_ type: T.Type, from tree: StateValue) throws -> T {
        try TreeDecoder(value: tree, codingPath: []).decodeValue(T.self)
    }
}

struct TreeDecoder: Decoder {
    let value: StateValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [.rewindStateCapture: true] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else { throw mismatch(expected: "an object") }
        return KeyedDecodingContainer(KeyedTreeContainer<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array") }
        return UnkeyedTreeContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleTreeContainer(decoder: self)
    }

    func mismatch(expected: String) -> DecodingError {
        if case .opaque(let leaf) = value {
            let reason = leaf.isRedacted ? "the recorded value was redacted" : "the recorded value is opaque (\(leaf.text))"
            return .dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(reason), so it cannot become \(expected)"))
        }
        return .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.shapeName)"))
    }

    /// Decodes one value, handling the types capture writes in a text form.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Date.Type:
            guard case .string(let text) = value, let date = TimestampText.parse(text) else { throw mismatch(expected: "an ISO 8601 date") }
            return date as! T
        case is URL.Type:
            guard case .string(let text) = value, let url = URL(string: text) else { throw mismatch(expected: "a URL") }
            return url as! T
        case is UUID.Type:
            guard case .string(let text) = value, let uuid = UUID(uuidString: text) else { throw mismatch(expected: "a UUID") }
            return uuid as! T
        case is Data.Type:
            guard case .string(let text) = value, let data = Data(base64Encoded: text) else { throw mismatch(expected: "base64 data") }
            return data as! T
        case is Decimal.Type:
            return Decimal(try SingleTreeContainer(decoder: self).decode(Double.self)) as! T
        default:
            return try T(from: self)
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .integer(let number):
            if let exact = T(exactly: number) { return exact }
        case .unsignedInteger(let number):
            if let exact = T(exactly: number) { return exact }
        case .floatingPoint(let number):
            if let exact = T(exactly: number) { return exact }
        default:
            throw mismatch(expected: "an integer")
        }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the recorded number does not fit in \(T.self)"))
    }

    func floatingPoint() throws -> Double {
        switch value {
        case .floatingPoint(let number): return number
        case .integer(let number): return Double(number)
        case .unsignedInteger(let number): return Double(number)
        default: throw mismatch(expected: "a number")
        }
    }
}

struct TreeKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: StateObjectFields
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no field '\(key.stringValue)' in the recorded state"))
        }
        return TreeDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try child(key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: fields["super"] ?? .null, codingPath: codingPath + [TreeKey(stringValue: "super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
    let elements: [StateValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(elements: [StateValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    private mutating func next() throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath + [TreeKey(intValue: currentIndex)], debugDescription: "the recorded array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(value: elements[currentIndex], codingPath: codingPath + [TreeKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleTreeContainer: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = decoder.value else { throw decoder.mismatch(expected: "a Boolean") }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let value) = decoder.value else { throw decoder.mismatch(expected: "a string") }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double { try decoder.floatingPoint() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.floatingPoint()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
}
