import OrderedCollections

/// The fields of a captured object, in order.
public typealias StateObjectFields = OrderedDictionary<String, StateValue>

/// A structured, inspectable copy of a piece of view-model state.
///
/// Every state Rewind records becomes a `StateValue` tree: the journal stores it, the diff compares
/// two of them, and the viewer walks it. The shapes mirror JSON, plus an ``OpaqueValue`` leaf for
/// values that cannot be looked into (closures, file handles, cut reference cycles, redacted secrets),
/// which keeps the original type name so the viewer can still say what was there.
///
/// ```swift
/// let tree = StateCapture.capture(Counter(count: 3, title: "Clicks"))
/// // .object(["count": .integer(3), "title": .string("Clicks")])
/// ```
///
/// Two trees are equal when they record the same thing: numbers of one kind compare by their bits,
/// so `-0.0` differs from `0.0` (a change between them is recorded, and read back) and a NaN
/// equals a NaN (a state holding one equals itself). Conditions compare numbers by value instead
/// (``Condition``: `3 == 3.0`, `-0.0 == 0`).
public enum StateValue: Hashable, Sendable {
    /// `nil`, or a value with no content.
    case null
    /// A Boolean.
    case bool(Bool)
    /// A signed integer (every fixed-width integer type up to 64 bits that fits).
    case integer(Int64)
    /// An unsigned integer larger than `Int64.max`; smaller ones are ``integer(_:)``.
    case unsignedInteger(UInt64)
    /// A floating-point number.
    case floatingPoint(Double)
    /// A string (also dates, URLs and UUIDs, in their standard text forms).
    case string(String)
    /// An ordered list.
    case array([StateValue])
    /// Named fields in declaration order (struct and class properties, dictionary entries sorted by key).
    case object(StateObjectFields)
    /// A leaf that cannot be inspected further; it keeps the type name and a short text.
    case opaque(OpaqueValue)
}

/// A leaf of a ``StateValue`` tree that stands for something that cannot be captured as data.
public struct OpaqueValue: Hashable, Sendable {
    /// The Swift type name of the value this leaf stands for, e.g. `"Secret<String>"`.
    public var typeName: String
    /// Why the value is opaque, or a short description of it (`<redacted>`, `<cycle>`, `<too deep>`).
    public var text: String

    /// The name ``text`` had ("summary" now means a block's summary only): for one release.
    @available(*, deprecated, renamed: "text")
    public var summary: String {
        get { text }
        set { text = newValue }
    }

    /// Creates an opaque leaf.
    package init(typeName: String, text: String) {
        self.typeName = typeName
        self.text = text
    }

    /// The text of values replaced by redaction.
    package static let redactedText = "<redacted>"
    /// The text where a reference cycle was cut.
    package static let cycleText = "<cycle>"

    /// Which of a secret's values this leaf replaced, counted from 1 as a recording tells them
    /// apart (`<redacted>` is 1, `<redacted 2>` is 2); `nil` when it is no secret, or one past the
    /// values an older journal told apart (`<redacted ?>`: journals now forget the values least
    /// recently seen instead, and number again).
    public var redactedOrdinal: Int? {
        redactedVersion.flatMap { $0 }
    }

    /// Whether this leaf replaced a secret: `<redacted>`, or `<redacted 2>` for the second value
    /// the secret took in a recording (`<redacted ?>` past the values an older journal told apart).
    public var isRedacted: Bool { redactedVersion != nil }

    /// The text's one reading as a secret's leaf: `nil` when it is none, `.some(nil)` for
    /// `<redacted ?>`, else which of the secret's values it was.
    private var redactedVersion: Int?? {
        guard text != Self.redactedText else { return .some(1) }
        guard text.hasPrefix("<redacted "), text.hasSuffix(">") else { return nil }
        let version = text.dropFirst("<redacted ".count).dropLast()
        if version == "?" { return .some(nil) }
        guard !version.isEmpty, version.allSatisfy(\.isASCII), version.allSatisfy(\.isNumber), let number = Int(version) else { return nil }
        return .some(number)
    }
}

extension StateValue {
    /// A short name of the value's shape, used in messages (`"object"`, `"array"`, `"string"` …).
    package var shapeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .integer, .unsignedInteger: "integer"
        case .floatingPoint: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        case .opaque: "opaque"
        }
    }

    /// Whether the value is an array or an object, i.e. has children.
    package var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The child at one path component, if there is one.
    public subscript(component: StatePath.Component) -> StateValue? {
        switch (self, component) {
        case (.object(let fields), .key(let key)): fields[key]
        case (.array(let elements), .index(let index)):
            elements.indices.contains(index) ? elements[index] : nil
        default: nil
        }
    }

    /// The value at a path below this one, if every step of the path exists.
    public subscript(path: StatePath) -> StateValue? {
        var current = self
        for component in path.components {
            guard let next = current[component] else { return nil }
            current = next
        }
        return current
    }
}

extension StateValue {
    public static func == (lhs: StateValue, rhs: StateValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
        case (.floatingPoint(let a), .floatingPoint(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.opaque(let a), .opaque(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let flag): hasher.combine(1 as UInt8); hasher.combine(flag)
        case .integer(let number): hasher.combine(2 as UInt8); hasher.combine(number)
        case .unsignedInteger(let number): hasher.combine(3 as UInt8); hasher.combine(number)
        case .floatingPoint(let number):
            // Every NaN is one value (see ``==``).
            hasher.combine(4 as UInt8)
            hasher.combine(number.isNaN ? Double.nan.bitPattern : number.bitPattern)
        case .string(let text): hasher.combine(5 as UInt8); hasher.combine(text)
        case .array(let elements): hasher.combine(6 as UInt8); hasher.combine(elements)
        case .object(let fields): hasher.combine(7 as UInt8); hasher.combine(fields)
        case .opaque(let leaf): hasher.combine(8 as UInt8); hasher.combine(leaf)
        }
    }
}
