/// What a recorded input looked like and what today's input type looks like, so that an input that
/// no longer decodes is reported as the change that broke it:
/// `Action.setQuantity(Int) → setQuantity(Int, reason: String)`.
///
/// The recorded side is read from the recorded value (its case, labels and kinds of value); today's
/// from the type's own `Decodable` conformance, run against a probe that answers every question and
/// notes what was asked.
enum InputShape {
    /// The problem with re-sending `input` as a `type`, or `nil` when it decodes.
    static func problem(_ input: RecordedInput, as type: any Decodable.Type) -> SchemaProblem? {
        if type == Void.self { return nil }
        do {
            _ = try StateCapture.decode(type, from: input.value ?? .null)
            return nil
        } catch {
            let caseName = enumCase(of: input.value)
            let recorded = recordedShape(of: input.value, caseName: caseName)
            let today = todayShape(of: type, caseName: caseName)
            let typeName = EventSource.shortTypeName(type)
            let change = today.map { "\(recorded) → \($0)" } ?? "\(recorded): no such case today"
            return SchemaProblem(
                path: caseName ?? "", reason: "\(change) (recorded input '\(input.name)' at step \(input.step) no longer decodes: \(SchemaProblem.from(error).description))",
                typeName: typeName
            )
        }
    }

    /// The case a recorded enum value is in: its one key, holding an object of payload fields.
    static func enumCase(of value: StateValue?) -> String? {
        guard case .object(let fields)? = value, fields.count == 1, let only = fields.elements.first,
              case .object = only.value else { return nil }
        return only.key
    }

    /// `setQuantity(Int)`, `add(sku: String)`, `Int`: the recorded value's shape, kinds as the Swift
    /// types they most likely were.
    static func recordedShape(of value: StateValue?, caseName: String?) -> String {
        guard let value else { return "()" }
        if let caseName, case .object(let fields) = value, case .object(let payload)? = fields[caseName] {
            return caseName + "(" + payload.map { label($0.key) + kind(of: $0.value) }.joined(separator: ", ") + ")"
        }
        return kind(of: value)
    }

    /// `sku: ` for a labelled payload field; nothing for a positional one (`_0`).
    static func label(_ key: String) -> String {
        key.hasPrefix("_") && key.dropFirst().allSatisfy(\.isNumber) ? "" : key + ": "
    }

    private static func kind(of value: StateValue) -> String {
        switch value {
        case .null: "nil"
        case .bool: "Bool"
        case .integer: "Int"
        case .unsignedInteger: "UInt"
        case .floatingPoint: "Double"
        case .string: "String"
        case .array: "Array"
        case .object(let fields): "{" + fields.keys.joined(separator: ", ") + "}"
        case .opaque: "opaque"
        }
    }

    /// Today's shape of `caseName` in `type` (or of the type itself): `setQuantity(Int, reason:
    /// String)`; `nil` when the type has no such case.
    static func todayShape(of type: any Decodable.Type, caseName: String?) -> String? {
        let probe = ShapeProbe(caseName: caseName)
        _ = try? type.init(from: probe)
        if let caseName {
            guard probe.caseWasOpened else { return nil }
            return caseName + "(" + probe.asked.map { label($0.key) + $0.type }.joined(separator: ", ") + ")"
        }
        if let single = probe.single { return single }
        return EventSource.shortTypeName(type) + "(" + probe.asked.map { label($0.key) + $0.type }.joined(separator: ", ") + ")"
    }
}

/// A decoder that answers every question with a default value and notes what was asked: which keys,
/// as which types. Run through an enum's synthesized `init(from:)` with the case to look at, it lists
/// that case's payload.
private final class ShapeProbe: Decoder {
    let caseName: String?
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    /// The keys asked for at the level that holds the fields (a struct's, or an enum case's payload).
    var asked: [(key: String, type: String)] = []
    /// The type asked for by a single-value container at the top.
    var single: String?
    /// Whether the enum case's payload container was opened: the case exists today.
    var caseWasOpened = false
    /// How deep the containers go: fields are noted at the first level that holds them.
    var depth = 0

    init(caseName: String?) {
        self.caseName = caseName
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(probe: self, level: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a probe"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(probe: self)
    }

    func note(_ key: String, _ type: Any.Type, level: Int) {
        let fieldsLevel = caseName == nil ? 0 : 1
        if level == fieldsLevel { asked.append((key, EventSource.shortTypeName(type))) }
    }

    /// A default for `type`, or a throw that stops the probe where no default can be made.
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = Self.primitiveDefault(of: type) { return primitive }
        // A nested type is built from a fresh probe below every level that notes fields.
        let nested = ShapeProbe(caseName: nil)
        nested.depth = 2
        return try T(from: nested)
    }

    private static func primitiveDefault<T>(of type: T.Type) -> T? {
        let zero: Any? = switch type {
        case is Int.Type: 0
        case is Int8.Type: Int8(0)
        case is Int16.Type: Int16(0)
        case is Int32.Type: Int32(0)
        case is Int64.Type: Int64(0)
        case is UInt.Type: UInt(0)
        case is UInt8.Type: UInt8(0)
        case is UInt16.Type: UInt16(0)
        case is UInt32.Type: UInt32(0)
        case is UInt64.Type: UInt64(0)
        case is Double.Type: 0.0
        case is Float.Type: Float(0)
        case is Bool.Type: false
        case is String.Type: ""
        default: nil
        }
        return zero as? T
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let probe: ShapeProbe
        let level: Int
        var codingPath: [any CodingKey] { probe.codingPath }
        var allKeys: [Key] {
            // An enum's top level: the one case being looked at.
            guard level == 0, let caseName = probe.caseName else { return [] }
            return Key(stringValue: caseName).map { [$0] } ?? []
        }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            probe.note(key.stringValue, type, level: level)
            return try probe.value(type)
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            if level == 0, key.stringValue == probe.caseName { probe.caseWasOpened = true }
            return KeyedDecodingContainer(Keyed<NestedKey>(probe: probe, level: level + 1))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try probe.unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { probe }
        func superDecoder(forKey key: Key) throws -> any Decoder { probe }
    }

    struct Single: SingleValueDecodingContainer {
        let probe: ShapeProbe
        var codingPath: [any CodingKey] { probe.codingPath }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if probe.depth == 0, probe.single == nil { probe.single = EventSource.shortTypeName(type) }
            return try probe.value(type)
        }
    }
}
