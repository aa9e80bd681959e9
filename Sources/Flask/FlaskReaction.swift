import Rewind

/// What a reactor receives after a mix changed a substance: which keys changed, with their old and
/// new values, and the lock the mix ran under, if any.
///
/// Keys are dotted paths into the state: `"counter"`, `"info"`, `"info.nest.foo"` (a changed nested
/// value changes every key above it). Internal (`_`-prefixed) properties never appear.
public final class FlaskReaction: @unchecked Sendable {
    // Unchecked: immutable.
    /// The substance that changed.
    public let substance: SubstanceConcrete
    /// The lock the mix ran under (`Flask.lock(withMixer:payload:)`), for the reaction to release.
    public let onLock: FluxLock?
    private let changes: [String: (old: StateValue?, new: StateValue?)]

    init(substance: SubstanceConcrete, changes: [String: (old: StateValue?, new: StateValue?)], lock: FluxLock?) {
        self.substance = substance
        self.changes = changes
        self.onLock = lock
    }

    /// Whether anything changed.
    public func changed() -> Bool { !changes.isEmpty }

    /// The keys that changed, sorted.
    public var changedKeys: [String] { changes.keys.sorted() }

    /// Calls `closure` if `key` changed.
    public func on(_ key: String, _ closure: (FlaskChange) -> Void) {
        guard let change = changes[key] else { return }
        closure(FlaskChange(key: key, old: change.old, new: change.new, substance: substance))
    }

    /// Calls `closure` if the key named by a state's key enum changed: `reaction.on(AppState.prop.counter)`.
    public func on<Key: RawRepresentable>(_ key: Key, _ closure: (FlaskChange) -> Void) where Key.RawValue == String {
        on(key.rawValue, closure)
    }

    /// This reaction if it is about `substance`, otherwise `nil`: for reactors that mix several.
    public func at(_ substance: SubstanceConcrete) -> FlaskReaction? {
        self.substance === substance ? self : nil
    }
}

/// One changed key: its old and new values as plain Swift values (strings, numbers, booleans,
/// arrays, `[String: Any]`), `nil` where there was none.
public struct FlaskChange: @unchecked Sendable {
    // Unchecked: immutable value trees.
    private let changedKey: String
    private let old: StateValue?
    private let new: StateValue?
    private weak var changedSubstance: SubstanceConcrete?

    init(key: String, old: StateValue?, new: StateValue?, substance: SubstanceConcrete?) {
        self.changedKey = key
        self.old = old
        self.new = new
        self.changedSubstance = substance
    }

    /// The key that changed.
    public func key() -> String { changedKey }
    /// The value before the mix, whatever its type.
    public func oldValue() -> Any? { StateKeys.plainValue(old) }
    /// The value after the mix, whatever its type.
    public func newValue() -> Any? { StateKeys.plainValue(new) }

    /// The value before the mix as `Value`; `nil` if there was none or it is of another type. Name
    /// the type: with `change.oldValue() ?? "none"` the fallback's type is the one asked for.
    ///
    /// ```swift
    /// let old: Int? = change.oldValue()
    /// let new: Any? = change.newValue()
    /// ```
    public func oldValue<Value>() -> Value? { StateKeys.plainValue(old) as? Value }
    /// The value after the mix as `Value`; `nil` if there is none or it is of another type.
    public func newValue<Value>() -> Value? { StateKeys.plainValue(new) as? Value }

    /// The substance that changed, while it is alive.
    public func substance() -> SubstanceConcrete? { changedSubstance }
}
