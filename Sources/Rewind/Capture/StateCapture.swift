import Foundation

/// Turns any Swift value into a ``StateValue`` tree, and Decodable types back from one.
///
/// Encodable values go through a purpose-built `Encoder` (no JSON text in between), so a type's own
/// `CodingKeys` and custom `encode(to:)` are honoured and the tree decodes back into the same type.
/// Values that are not Encodable are read through `Mirror`. Both paths apply the same rules:
/// secrets are redacted, sets and dictionaries come out in a stable order, dates, URLs and UUIDs
/// become their standard text forms, and reference cycles are cut and marked.
///
/// ```swift
/// let tree = StateCapture.capture(state)
/// let restored = try StateCapture.decode(AppState.self, from: tree)
/// ```
public enum StateCapture {
    /// Captures a value as a tree.
    public static func capture(_ value: Any, options: CaptureOptions = .current) -> StateValue {
        CaptureSession(options: options).capture(value, depth: 0)
    }

    /// Rebuilds a Decodable value from a tree made by ``capture(_:options:)``.
    ///
    /// - Throws: `DecodingError` naming the path that no longer fits the type (a renamed field, a
    ///   changed type, a redacted secret).
    public static func decode<T: Decodable>(_ type: T.Type, from tree: StateValue) throws -> T {
        try StateValueDecoder().decode(type, from: tree)
    }
}

/// What one capture keeps while it walks a value: the options, and the objects on the current path
/// so that a reference cycle is cut where it closes. One session serves one capture on one thread.
final class CaptureSession {
    let options: CaptureOptions
    private var objectsOnPath: Set<ObjectIdentifier> = []

    init(options: CaptureOptions) {
        self.options = options
    }

    /// Captures any value, choosing the Encodable path where it applies and Mirror otherwise.
    func capture(_ value: Any, depth: Int) -> StateValue {
        if let special = specialCase(value, depth: depth) { return special }
        return withCycleCheck(value) {
            if let encodable = value as? any Encodable,
               let tree = try? StateValueEncoder(session: self, depth: depth).encodeRoot(encodable) {
                return tree
            }
            return captureByMirror(value, depth: depth)
        }
    }

    /// The cases both paths treat alike: leaves, secrets and the depth limit.
    func specialCase(_ value: Any, depth: Int) -> StateValue? {
        if let leaf = Self.captureLeaf(value) { return leaf }
        if let secret = value as? any SecretValue { return .opaque(secret.redactedLeaf) }
        guard depth < options.maximumDepth else {
            return .opaque(OpaqueValue(typeName: Self.typeName(of: value), summary: "<too deep>"))
        }
        return nil
    }

    /// Runs `body` with `value` marked as on the current path if it is an object; a value already on
    /// the path closes a cycle and becomes a marked opaque leaf instead.
    func withCycleCheck(_ value: Any, _ body: () throws -> StateValue) rethrows -> StateValue {
        guard let object = Self.objectIdentity(of: value) else { return try body() }
        guard objectsOnPath.insert(object).inserted else {
            return .opaque(OpaqueValue(typeName: Self.typeName(of: value), summary: OpaqueValue.cycleSummary))
        }
        defer { objectsOnPath.remove(object) }
        return try body()
    }

    /// Values that are leaves whichever path captures them.
    static func captureLeaf(_ value: Any) -> StateValue? {
        switch value {
        case let value as String: .string(value)
        case let value as Bool: .bool(value)
        case let value as Int: .integer(Int64(value))
        case let value as Double: .floatingPoint(value)
        case let value as Int64: .integer(value)
        case let value as Int32: .integer(Int64(value))
        case let value as Int16: .integer(Int64(value))
        case let value as Int8: .integer(Int64(value))
        case let value as UInt: unsigned(UInt64(value))
        case let value as UInt64: unsigned(value)
        case let value as UInt32: .integer(Int64(value))
        case let value as UInt16: .integer(Int64(value))
        case let value as UInt8: .integer(Int64(value))
        case let value as Float: .floatingPoint(Double(value))
        case let value as Substring: .string(String(value))
        case let value as Character: .string(String(value))
        case let value as Date: .string(TimestampText.format(value))
        case let value as URL: .string(value.absoluteString)
        case let value as UUID: .string(value.uuidString)
        case let value as Data: .string(value.base64EncodedString())
        case let value as Decimal: .floatingPoint(NSDecimalNumber(decimal: value).doubleValue)
        default: nil
        }
    }

    static func unsigned(_ value: UInt64) -> StateValue {
        value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsignedInteger(value)
    }

    static func typeName(of value: Any) -> String {
        String(describing: type(of: value))
    }

    static func objectIdentity(of value: Any) -> ObjectIdentifier? {
        guard type(of: value) is AnyClass else { return nil }
        return ObjectIdentifier(value as AnyObject)
    }
}
