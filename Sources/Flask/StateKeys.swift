@_spi(Tooling) import Rewind

/// A substance state as Flask compares it: a tree with internal (`_`-prefixed) properties removed,
/// and the dotted keys (`info`, `info.nest.foo`) that changed between two such trees.
enum StateKeys {
    static func withoutInternal(_ tree: StateValue) -> StateValue {
        switch tree {
        case .object(let fields):
            var kept = fields.filter { !isInternal($0.key) }
            for key in kept.keys { kept[key] = withoutInternal(kept[key]!) }
            return .object(kept)
        case .array(let elements):
            return .array(elements.map(withoutInternal))
        default:
            return tree
        }
    }

    /// Whether a property is internal to the substance (`_`-prefixed): reactions never see it.
    static func isInternal(_ key: String) -> Bool { key.hasPrefix("_") }

    /// Every dotted key whose value differs between two captured states, internal properties left
    /// out at any depth, each with both trees and the live values at its key (the objects a tree
    /// cannot hold: a ``FlaskRef``, an object inside a ``FlaskDictRef``). A changed nested field
    /// also changes each key above it (`info.counter` changes `info`).
    ///
    /// The trees are the captures a mix already has (see `Substance.commitMix`), compared in one
    /// pass: nothing is captured or copied here but the changed keys' live values.
    static func changes<T: State>(from old: T, _ oldTree: StateValue, to new: T, _ newTree: StateValue) -> [String: KeyChange] {
        var changes: [String: KeyChange] = [:]
        collect(oldTree, newTree, prefix: "", into: &changes)
        for key in changes.keys {
            changes[key]?.oldLive = liveValue(at: key, in: old)
            changes[key]?.newLive = liveValue(at: key, in: new)
        }
        return changes
    }

    /// Records each key under `prefix` whose visible value differs; returns whether `old` and `new`
    /// differ once internal properties are left out.
    @discardableResult
    private static func collect(_ old: StateValue?, _ new: StateValue?, prefix: String, into changes: inout [String: KeyChange]) -> Bool {
        let differs: Bool
        if case .object(let oldFields) = old ?? .object([:]), case .object(let newFields) = new ?? .object([:]) {
            var childDiffers = false
            for key in Set(oldFields.keys).union(newFields.keys) where !isInternal(key) {
                if collect(oldFields[key], newFields[key], prefix: prefix.isEmpty ? key : "\(prefix).\(key)", into: &changes) {
                    childDiffers = true
                }
            }
            differs = childDiffers || (old == nil) != (new == nil)
        } else {
            differs = differsVisibly(old, new)
        }
        if differs && !prefix.isEmpty { changes[prefix] = KeyChange(capturedOld: old, capturedNew: new) }
        return differs
    }

    /// Whether two trees differ once internal properties are left out, at any depth.
    private static func differsVisibly(_ old: StateValue?, _ new: StateValue?) -> Bool {
        switch (old, new) {
        case (.object(let oldFields)?, .object(let newFields)?):
            for (key, value) in oldFields where !isInternal(key) {
                if differsVisibly(value, newFields[key]) { return true }
            }
            return newFields.keys.contains { !isInternal($0) && oldFields[$0] == nil }
        case (.array(let oldElements)?, .array(let newElements)?):
            guard oldElements.count == newElements.count else { return true }
            return zip(oldElements, newElements).contains { differsVisibly($0, $1) }
        default:
            return old != new
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
/// them (see ``StateKeys/changes(from:_:to:_:)``).
struct KeyChange: @unchecked Sendable {
    // Unchecked: immutable once made; live values are only handed back to reactions.
    /// The trees at the key as the mix captured them, internal properties included: they are left
    /// out when a reaction asks (``old``, ``new``), since most changed keys are never asked for.
    var capturedOld: StateValue?
    var capturedNew: StateValue?
    /// The old value at the key, without internal properties.
    var old: StateValue? { capturedOld.map(StateKeys.withoutInternal) }
    /// The new value at the key, without internal properties.
    var new: StateValue? { capturedNew.map(StateKeys.withoutInternal) }
    var oldLive: Any?
    var newLive: Any?
}
