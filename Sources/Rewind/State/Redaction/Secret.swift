/// Marks a property as secret: Rewind never records, prints or shows its value.
///
/// The wrapper is invisible to your own code and to your own `Codable` persistence (it encodes and
/// decodes as the wrapped value); only Rewind's state capture, `description`, `debugDescription` and
/// reflection see `<redacted>`.
///
/// ```swift
/// struct LoginState: Codable {
///     var user: String
///     @Secret var password: String
/// }
/// ```
@propertyWrapper
public struct Secret<Value> {
    /// The real value, for your code only.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

/// What capture needs from a ``Secret`` without knowing its generic parameter.
protocol SecretValue {
    /// The wrapped value's type, which the redacted leaf names.
    var valueTypeName: String { get }
    /// The wrapped value, for telling its versions apart (``SecretVersions``), never for showing.
    var content: Any { get }
}

extension Secret: SecretValue, PropertyWrapperStorage {
    var valueTypeName: String { String(describing: Value.self) }
    var content: Any { wrappedValue }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Always `<redacted>`.
    public var description: String { OpaqueValue.redactedText }
    /// Always `<redacted>`.
    public var debugDescription: String { OpaqueValue.redactedText }
    /// A mirror with no children, so reflection-based printing cannot reach the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Secret: Sendable where Value: Sendable {}
extension Secret: Equatable where Value: Equatable {}
extension Secret: Hashable where Value: Hashable {}

extension Secret: Encodable where Value: Encodable {
    /// Encodes the wrapped value, so persistence is unaffected. Rewind's own capture never calls
    /// this: it replaces the whole wrapper before encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Secret: Decodable where Value: Decodable {
    /// Decodes the wrapped value.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}
