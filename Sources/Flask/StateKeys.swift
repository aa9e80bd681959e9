import Rewind

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
    static func changes(from old: StateValue, to new: StateValue) -> [String: (old: StateValue?, new: StateValue?)] {
        var changes: [String: (old: StateValue?, new: StateValue?)] = [:]
        collect(old, new, prefix: "", into: &changes)
        return changes
    }

    private static func collect(_ old: StateValue?, _ new: StateValue?, prefix: String, into changes: inout [String: (old: StateValue?, new: StateValue?)]) {
        guard old != new else { return }
        if !prefix.isEmpty { changes[prefix] = (old, new) }
        guard case .object(let oldFields)? = old ?? .object([:]), case .object(let newFields)? = new ?? .object([:]) else { return }
        for key in Set(oldFields.keys).union(newFields.keys) {
            collect(oldFields[key], newFields[key], prefix: prefix.isEmpty ? key : "\(prefix).\(key)", into: &changes)
        }
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
        case .opaque(let opaque)?: opaque.summary
        }
    }
}
