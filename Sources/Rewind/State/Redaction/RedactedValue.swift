/// What a hook method (`didChange(value:for:root:)`, `didReplace(root:)`, `didEmit(activity:…)`)
/// receives in place of a value that holds a secret, so that a logger that prints what it is given
/// prints the redacted form. Values without secrets are handed over as they are.
///
/// Loggers that implement `log(_:)` receive ``LoggedValue``s instead: their ``LoggedValue/tree(options:)``
/// is redacted, while ``LoggedValue/value`` stays the live value (replay needs it to restore state).
public struct RedactedValue: Sendable, Hashable, CustomStringConvertible {
    /// The redacted form of the value, when it has parts that may be shown.
    public let tree: StateValue?

    /// A placeholder, optionally showing the redacted form of the value.
    public init(tree: StateValue? = nil) {
        self.tree = tree
    }

    /// The redacted form, or `<redacted>`.
    public var description: String { tree?.description ?? OpaqueValue.redactedText }

    /// `value` itself if it holds no secret, otherwise its redacted stand-in.
    static func shown(_ value: LoggedValue) -> Any {
        let tree = value.tree()
        return tree.containsRedaction ? RedactedValue(tree: tree) : value.value
    }

    /// The changed value itself unless redaction hides it (see ``LoggedValue/tree(options:)``).
    static func shownChange(_ value: LoggedValue, at path: ChangedPath, in state: LoggedValue?) -> Any {
        shown(value.changed(at: path, in: state))
    }
}

extension StateValue {
    /// Whether any leaf of the tree was redacted.
    package var containsRedaction: Bool {
        switch self {
        case .opaque(let leaf): leaf.isRedacted
        case .array(let elements): elements.contains { $0.containsRedaction }
        case .object(let fields): fields.values.contains { $0.containsRedaction }
        default: false
        }
    }

    /// Whether `subtree` is this tree or appears anywhere inside it.
    package func contains(subtree: StateValue) -> Bool {
        if self == subtree { return true }
        switch self {
        case .array(let elements): return elements.contains { $0.contains(subtree: subtree) }
        case .object(let fields): return fields.values.contains { $0.contains(subtree: subtree) }
        default: return false
        }
    }
}
