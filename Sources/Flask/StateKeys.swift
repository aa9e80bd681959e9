@_spi(Tooling) import Rewind

/// A substance state as Flask compares it: a tree with internal (`_`-prefixed) properties removed,
/// and the dotted keys (`info`, `info.nest.foo`) that changed between two such trees.
enum StateKeys {
    /// `state` captured, without internal properties at any depth.
    static func tree<T: State>(of state: T) -> StateValue {
        withoutInternal(StateCapture.capture(state))
    }

    static func withoutInternal(_ tree: StateValue) -> StateValue {
        switch tree {
        case .object(let fields):
            var kept = fields.filter { !$0.key.hasPrefix("_") }
            for key in kept.keys { kept[key] = withoutInternal(kept[key]!) }
            return .object(kept)
        case .array(let elements):
            return .array(elements.map(withoutInternal))
        default:
            return tree
        }
    }

    /// Every dotted key whose value differs between `old` and `new`, with both values: a changed
    /// nested field also changes each key above it (`info.counter` changes `info`).
    static func changes(from old: StateValue, to new: StateValue) -> [String: KeyChange] {
        var changes: [String: KeyChange] = [:]
        collect(old, new, prefix: "", into: &changes)
        return changes
    }

    /// ``changes(from:to:)`` between two states, each change with the live values at its key (the
    /// objects a tree cannot hold: a ``FlaskRef``, an object inside a ``FlaskDictRef``).
    static func changes<T: State>(from old: T, to new: T) -> [String: KeyChange] {
        var changes = changes(from: tree(of: old), to: tree(of: new))
        for key in changes.keys {
            changes[key]?.oldLive = liveValue(at: key, in: old)
            changes[key]?.newLive = liveValue(at: key, in: new)
        }
        return changes
    }

    private static func collect(_ old: StateValue?, _ new: StateValue?, prefix: String, into changes: inout [String: KeyChange]) {
        guard old != new else { return }
        if !prefix.isEmpty { changes[prefix] = KeyChange(old: old, new: new) }
        guard case .object(let oldFields)? = old ?? .object([:]), case .object(let newFields)? = new ?? .object([:]) else { return }
        for key in Set(oldFields.keys).union(newFields.keys) {
            collect(oldFields[key], newFields[key], prefix: prefix.isEmpty ? key : "\(prefix).\(key)", into: &changes)
        }
    }

    /// The live value at a dotted key of a state: through stored properties (by reflection),
    /// optionals and ``FlaskDictRef``s.
    static func liveValue(at key: String, in state: Any) -> Any? {
        var current: Any? = state
        for name in key.split(separator: ".").map(String.init) {
            guard let value = current.flatMap(unwrapped) else { return nil }
            if let dictionary = value as? FlaskDictRef {
                current = dictionary.dictionary[name]
            } else {
                current = Mirror(reflecting: value).children.first { $0.label == name || $0.label == "_" + name }?.value
            }
        }
        return current.flatMap(unwrapped)
    }

    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }

    /// What a reaction hands out for a changed key: the reference itself for a ``FlaskRef`` (so
    /// that `newValue()` is what was set), an object where the tree could not hold it (inside a
    /// ``FlaskDictRef``), and otherwise the tree as a plain value.
    static func reactionValue(_ tree: StateValue?, live: Any?) -> Any? {
        if let live {
            if live is any ObjectReference { return live }
            switch tree {
            case nil, .null?, .opaque?: if type(of: live) is AnyClass, !(live is FlaskDictRef) { return live }
            default: break
            }
        }
        return plainValue(tree)
    }

    /// A tree value as a plain Swift value for reaction callbacks: strings, numbers, booleans,
    /// arrays, `[String: Any]` dictionaries; `nil` for null or absent.
    static func plainValue(_ tree: StateValue?) -> Any? {
        switch tree {
        case nil, .null?: nil
        case .bool(let value)?: value
        case .integer(let value)?: Int(value)
        case .unsignedInteger(let value)?: value
        case .floatingPoint(let value)?: value
        case .string(let value)?: value
        case .array(let elements)?: elements.map { plainValue($0) as Any }
        case .object(let fields)?: Dictionary(uniqueKeysWithValues: fields.map { ($0.key, plainValue($0.value) as Any) })
        case .opaque(let opaque)?: opaque.text
        }
    }
}

/// One changed key: its old and new values as trees, and as the live values where the state has
/// them (see ``StateKeys/changes(from:to:)-(T,T)``).
struct KeyChange: @unchecked Sendable {
    // Unchecked: immutable once made; live values are only handed back to reactions.
    var old: StateValue?
    var new: StateValue?
    var oldLive: Any?
    var newLive: Any?
}
