import Foundation
@_spi(Tooling) import Rewind

/// A weak reference to an object, stored in a state: the seed's `FlaskNSRef`, without requiring
/// `NSObject`. Reactions see a change when the reference points to another object (or the object
/// goes); archiving stores nothing for it (an object cannot be archived) and restores an empty
/// reference.
///
/// ```swift
/// struct ScreenState: State {
///     var presented = FlaskRef<ViewModel>(nil)
/// }
/// ```
public struct FlaskRef<Object: AnyObject>: Codable, @unchecked Sendable, ObjectReference {
    // Unchecked: the reference is weak and only compared or handed back; the object's own thread
    // safety is its business.
    /// The object, while it lives.
    public private(set) weak var object: Object?

    /// A reference to `object`.
    public init(_ object: Object?) {
        self.object = object
    }

    /// The identity reactions compare: which object this points to, or `nil`.
    var identity: String? {
        object.map { "\(type(of: $0))@\(UInt(bitPattern: ObjectIdentifier($0).hashValue))" }
    }

    public init(from decoder: any Decoder) throws {
        object = nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identity)
    }
}

/// The seed's name for a weak object reference.
public typealias FlaskNSRef = FlaskRef<AnyObject>

/// A dictionary held by reference in a state, whose nested keys reactions can observe with dotted
/// paths (`"info.nest.data"`): the seed's `FlaskDictRef`.
///
/// Nested dictionaries become `FlaskDictRef`s themselves, so `ref["nest"] as? FlaskDictRef` reads
/// one level and `ref["nest.data"]` reads through. Values may be strings, numbers, booleans, arrays,
/// nested dictionaries and `Flask.Null`; they are archived as JSON, where anything else (an object)
/// becomes `null`.
///
/// ```swift
/// substance.prop.info = FlaskDictRef(["foo": "bar", "nest": ["data": "some"]])
/// reaction.on("info.nest.data") { change in let new: Any? = change.newValue(); print(new ?? "nil") }
/// ```
public final class FlaskDictRef: Codable, @unchecked Sendable {
    // Unchecked: immutable after creation (assign a new FlaskDictRef to change it).
    /// The dictionary, nested dictionaries as `FlaskDictRef`s.
    public let dictionary: [String: Any]

    /// Wraps `dictionary`.
    public init(_ dictionary: [String: Any]) {
        self.dictionary = dictionary.mapValues(Self.normalized)
    }

    /// Wraps a Foundation dictionary with string keys.
    public convenience init(_ dictionary: NSDictionary) {
        var converted: [String: Any] = [:]
        for (key, value) in dictionary { converted["\(key)"] = value }
        self.init(converted)
    }

    /// A nested dictionary as a `FlaskDictRef`; any other value as it is.
    private static func normalized(_ value: Any) -> Any {
        switch value {
        case let nested as FlaskDictRef: nested
        case let nested as [String: Any]: FlaskDictRef(nested)
        case let nested as NSDictionary: FlaskDictRef(nested)
        default: value
        }
    }

    /// The value at a key, or at a dotted path through nested dictionaries (`"nest.data"`).
    public subscript(path: String) -> Any? {
        if let value = dictionary[path] { return value }
        var current: Any? = self
        for key in path.split(separator: ".") {
            current = (current as? FlaskDictRef)?.dictionary[String(key)]
        }
        return current
    }

    /// The number of keys at the top level.
    public func count() -> Int { dictionary.count }

    /// The keys at the top level.
    public func keys() -> [String] { Array(dictionary.keys) }

    public required init(from decoder: any Decoder) throws {
        let tree = try decoder.singleValueContainer().decode(JSONValue.self)
        dictionary = ((tree.plainValue as? [String: Any]) ?? [:]).mapValues(Self.normalized)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue(dictionary))
    }
}

/// Any JSON-shaped value, Codable: how a ``FlaskDictRef``'s dictionary is encoded.
enum JSONValue: Codable {
    case null, bool(Bool), integer(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(_ value: Any?) {
        switch value {
        case nil, is NSNull: self = .null
        case let bool as Bool: self = .bool(bool)
        case let integer as Int: self = .integer(integer)
        case let double as Double: self = .double(double)
        case let string as String: self = .string(string)
        case let integer as any BinaryInteger: self = Int(exactly: integer).map(JSONValue.integer) ?? .double(Double(integer))
        case let double as any BinaryFloatingPoint: self = .double(Double(double))
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let reference as FlaskDictRef: self = JSONValue(reference.dictionary)
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues(JSONValue.init))
        case let dictionary as NSDictionary:
            var converted: [String: JSONValue] = [:]
            for (key, value) in dictionary { converted["\(key)"] = JSONValue(value) }
            self = .object(converted)
        // What JSON cannot hold (an object) is archived as nil, as the seed's SubstanceSerializer
        // did.
        case _?: self = .null
        }
    }

    /// The value as a dictionary holds it: `null` as `Flask.Null`, so that a key stays present.
    var plainValue: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.plainValue)
        case .object(let fields): fields.mapValues(\.plainValue)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let fields):
            // Sorted keys: the same dictionary always encodes (and is captured) the same way.
            var keyed = encoder.container(keyedBy: JSONKey.self)
            for key in fields.keys.sorted() { try keyed.encode(fields[key]!, forKey: JSONKey(key)) }
        }
    }

    private struct JSONKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// A ``FlaskRef`` whatever its object type: reactions hand such a value out as it is.
protocol ObjectReference {}
