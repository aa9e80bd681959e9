@_spi(Tooling) import Rewind

/// A ``Storage`` that can be written: commits receive one, and it can be used on its own.
///
/// Every write reaches the loggers: a key-path update as a change event with its path and new
/// value, a `replace` or closure `update` as a replacement of the whole state.
public final class MutableStorage<Value>: Storage<Value>, @unchecked Sendable {
    // Unchecked: as `Storage`.

    /// A mutable storage is its own writable view (overridden rather than found by a cast, which
    /// would look up generic metadata on every commit).
    override var mutableView: MutableStorage<Value> { self }

    /// Replaces the whole state.
    public func replace(_ value: Value, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        core.replace(with: { $0 = value }, name: "replace", callSite: CallSite(file: file, function: function, line: line))
    }

    /// Changes the state in place; logged as a replacement of the whole state, since the closure's
    /// individual writes cannot be seen.
    public func update(_ change: (inout Value) -> Void, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        core.replace(with: change, name: "update", callSite: CallSite(file: file, function: function, line: line))
    }

    /// Runs several updates and tells subscribers once, at the end.
    public func batchUpdate(_ update: (MutableStorage<Value>) -> Void) {
        core.batch { update(self) }
    }

    /// Sets one property.
    public func update<Field>(_ value: Field, _ keyPath: WritableKeyPath<Value, Field>, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        core.update(value, at: keyPath, callSite: CallSite(file: file, function: function, line: line)) { _ in true }
    }

    /// Sets one property unless `comparer` says the new value equals the current one, so that
    /// subscribers and loggers only hear of real changes.
    public func updateIfChanged<Field>(
        _ value: Field, _ keyPath: WritableKeyPath<Value, Field>, comparer: (Field, Field) -> Bool,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        core.update(value, at: keyPath, callSite: CallSite(file: file, function: function, line: line)) { !comparer($0, value) }
    }

    /// Sets one property unless it already equals `value`.
    public func updateIfChanged<Field: Equatable>(
        _ value: Field, _ keyPath: WritableKeyPath<Value, Field>,
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) {
        core.update(value, at: keyPath, callSite: CallSite(file: file, function: function, line: line)) { $0 != value }
    }

    /// A read-only view of the same state.
    public func asStorage() -> Storage<Value> {
        Storage(core: core)
    }
}
