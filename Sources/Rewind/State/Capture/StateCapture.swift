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
        // A leaf (most changed values) needs no session, which is an object to allocate.
        if let leaf = CaptureSession.captureLeaf(value) { return leaf }
        return CaptureSession(options: options).capture(value, depth: 0)
    }

    /// Captures a state as a tree, taking the trees of list elements that did not change from the
    /// last capture of the same state (see ``ListMemory``).
    package static func capture(_ value: Any, options: CaptureOptions, reusing lists: ListMemory) -> StateValue {
        defer { lists.captureEnded() }
        return CaptureSession(options: options, lists: lists).capture(value, depth: 0)
    }

    /// Rebuilds a Decodable value from a tree made by ``capture(_:options:)``.
    ///
    /// - Throws: `DecodingError` naming the path that no longer fits the type (a renamed field, a
    ///   changed type, a redacted secret).
    public static func decode<T: Decodable>(_ type: T.Type, from tree: StateValue) throws -> T {
        try StateValueDecoder().decode(type, from: tree)
    }

    /// Rebuilds a value from a recorded state to put back into a live unit whose value is `live`:
    /// where the recording hid a secret, the live value's own is kept — a recording never holds
    /// it, and a restore must not fail on it or write the placeholder.
    ///
    /// - Throws: `DecodingError` when the tree does not fit `type`.
    public static func decode<T: Decodable>(_ type: T.Type, restoring tree: StateValue, over live: Any) throws -> T {
        try decode(type, from: tree.keepingSecrets(of: live))
    }
}

extension StateValue {
    /// This recorded tree with what the recording hid taken from `live`, captured without hiding
    /// names (a value wrapped in `Secret` stays hidden).
    func keepingSecrets(of live: Any) -> StateValue {
        guard containsRedaction else { return self }
        return fillingRedactions(from: StateCapture.capture(live, options: CaptureOptions(redaction: .secretsOnly)))
    }
}

/// What one capture keeps while it walks a value: the options, and the objects on the current path
/// so that a reference cycle is cut where it closes. One session serves one capture on one thread.
final class CaptureSession {
    let options: CaptureOptions
    private var objectsOnPath: Set<ObjectIdentifier> = []
    /// The lists of the last capture of the same state, when the caller keeps them (the journal's
    /// writer does, per source).
    let lists: ListMemory?

    init(options: CaptureOptions, lists: ListMemory? = nil) {
        self.options = options
        self.lists = lists
    }

    /// Captures any value, choosing the Encodable path where it applies and Mirror otherwise.
    /// `field` is the name of the field that holds it, when it has one.
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
        if let secret = value as? any SecretValue {
            if options.revealsSecrets { return capture(secret.content, depth: depth) }
            return .opaque(options.redactedLeaf(typeName: secret.valueTypeName, of: secret.content))
        }
        if let stateFields = value as? StateFields { return capture(stateFields, depth: depth) }
        // A value already captured (a framework that compares trees logs them as they are).
        if let tree = value as? StateValue { return tree }
        guard depth < options.maximumDepth else {
            return .opaque(OpaqueValue(typeName: Self.typeName(of: value), text: "<too deep>"))
        }
        return nil
    }

    /// Runs `body` with `value` marked as on the current path if it is an object; a value already on
    /// the path closes a cycle and becomes a marked opaque leaf instead.
    func withCycleCheck(_ value: Any, _ body: () throws -> StateValue) rethrows -> StateValue {
        guard let object = Self.objectIdentity(of: value) else { return try body() }
        guard objectsOnPath.insert(object).inserted else {
            return .opaque(OpaqueValue(typeName: Self.typeName(of: value), text: OpaqueValue.cycleText))
        }
        defer { objectsOnPath.remove(object) }
        return try body()
    }

    /// Values that are leaves whichever path captures them. The type is looked up first, so that a
    /// struct (the common case) costs one dictionary lookup instead of a cast per leaf type.
    static func captureLeaf(_ value: Any) -> StateValue? {
        guard let convert = leafConverters[ObjectIdentifier(type(of: value))] else { return nil }
        return convert(value)
    }

    private static let leafConverters: [ObjectIdentifier: @Sendable (Any) -> StateValue] = {
        var table: [ObjectIdentifier: @Sendable (Any) -> StateValue] = [:]
        func add<T>(_ type: T.Type, _ convert: @escaping @Sendable (T) -> StateValue) {
            table[ObjectIdentifier(type)] = { convert($0 as! T) }
        }
        add(String.self) { .string($0) }
        add(Bool.self) { .bool($0) }
        add(Int.self) { .integer(Int64($0)) }
        add(Double.self) { .floatingPoint($0) }
        add(Int64.self) { .integer($0) }
        add(Int32.self) { .integer(Int64($0)) }
        add(Int16.self) { .integer(Int64($0)) }
        add(Int8.self) { .integer(Int64($0)) }
        add(UInt.self) { unsigned(UInt64($0)) }
        add(UInt64.self) { unsigned($0) }
        add(UInt32.self) { .integer(Int64($0)) }
        add(UInt16.self) { .integer(Int64($0)) }
        add(UInt8.self) { .integer(Int64($0)) }
        add(Float.self) { .floatingPoint(Double($0)) }
        add(Substring.self) { .string(String($0)) }
        add(Character.self) { .string(String($0)) }
        add(Date.self) { .string(TimestampText.format($0)) }
        add(URL.self) { .string($0.absoluteString) }
        add(UUID.self) { .string($0.uuidString) }
        add(Data.self) { .string($0.base64EncodedString()) }
        add(Decimal.self) { .floatingPoint(NSDecimalNumber(decimal: $0).doubleValue) }
        return table
    }()

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
