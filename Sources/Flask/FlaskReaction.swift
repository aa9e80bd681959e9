@_spi(Tooling) import Rewind

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
    private let changes: [String: KeyChange]

    init(substance: SubstanceConcrete, changes: [String: KeyChange], lock: FluxLock?) {
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
        closure(FlaskChange(key: key, change: change, substance: substance))
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
/// arrays, `[String: Any]`), `nil` where there was none — and, as in the original, the reference
/// itself for a ``FlaskRef`` and the object itself for an object inside a ``FlaskDictRef``.
public struct FlaskChange: @unchecked Sendable {
    // Unchecked: immutable value trees; live values are only handed back.
    private let changedKey: String
    private let change: KeyChange
    private weak var changedSubstance: SubstanceConcrete?

    init(key: String, change: KeyChange, substance: SubstanceConcrete?) {
        self.changedKey = key
        self.change = change
        self.changedSubstance = substance
    }

    /// The key that changed.
    public func key() -> String { changedKey }
    /// The value before the mix, whatever its type.
    public func oldValue() -> Any? { oldReactionValue }
    /// The value after the mix, whatever its type.
    public func newValue() -> Any? { newReactionValue }

    private var oldReactionValue: Any? { StateKeys.reactionValue(change.old, live: change.oldLive) }
    private var newReactionValue: Any? { StateKeys.reactionValue(change.new, live: change.newLive) }

    /// The value before the mix as `Value`; `nil` if there was none or it is of another type. Name
    /// the type: with `change.oldValue() ?? "none"` the fallback's type is the one asked for.
    ///
    /// ```swift
    /// let old: Int? = change.oldValue()
    /// let new: Any? = change.newValue()
    /// ```
    public func oldValue<Value>() -> Value? { oldReactionValue as? Value }
    /// The value after the mix as `Value`; `nil` if there is none or it is of another type.
    public func newValue<Value>() -> Value? { newReactionValue as? Value }

    /// The substance that changed, while it is alive.
    public func substance() -> SubstanceConcrete? { changedSubstance }
}
