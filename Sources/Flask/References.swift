import Foundation
import Rewind

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
public struct FlaskRef<Object: AnyObject>: Codable, @unchecked Sendable {
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
/// Values may be strings, numbers, booleans, arrays and nested dictionaries; they are archived as
/// JSON.
///
/// ```swift
/// substance.prop.info = FlaskDictRef(["foo": "bar", "nest": ["data": "some"]])
/// reaction.on("info.nest.data") { change in print(change.newValue() ?? "nil") }
/// ```
public final class FlaskDictRef: Codable, @unchecked Sendable {
    // Unchecked: immutable after creation (assign a new FlaskDictRef to change it).
    /// The dictionary, as given.
    public let dictionary: [String: Any]

    /// Wraps `dictionary`.
    public init(_ dictionary: [String: Any]) {
        self.dictionary = dictionary
    }

    /// Wraps a Foundation dictionary with string keys.
    public convenience init(_ dictionary: NSDictionary) {
        var converted: [String: Any] = [:]
        for (key, value) in dictionary { converted["\(key)"] = value }
        self.init(converted)
    }

    /// The value at a dotted path (`"nest.data"`), if there is one.
    public subscript(path: String) -> Any? {
        var current: Any? = dictionary
        for key in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(key)] ?? (current as? NSDictionary)?[String(key)]
        }
        return current
    }

    public required init(from decoder: any Decoder) throws {
        let tree = try decoder.singleValueContainer().decode(JSONValue.self)
        dictionary = (tree.plainValue as? [String: Any]) ?? [:]
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
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues(JSONValue.init))
        case let dictionary as NSDictionary:
            var converted: [String: JSONValue] = [:]
            for (key, value) in dictionary { converted["\(key)"] = JSONValue(value) }
            self = .object(converted)
        case let other?: self = .string("\(other)")
        }
    }

    var plainValue: Any? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .integer(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let values): values.map { $0.plainValue as Any }
        case .object(let fields): fields.mapValues { $0.plainValue as Any }
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
