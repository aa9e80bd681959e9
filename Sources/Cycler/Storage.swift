@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// Identifies a subscriber of a ``Storage`` so it can be removed (`Storage<Value>.Token`). Not nested
/// in the generic class: a commit would then look up its generic metadata every time it tells the
/// subscribers.
public struct StorageToken: Hashable, Sendable {
    let id: Int
}

/// The current state of a view model, readable and observable but not writable: writing goes
/// through a commit, which hands the commit's closure a ``MutableStorage``.
///
/// It can be used on its own, without a cycler:
///
/// ```swift
/// let storage = MutableStorage(Counter())
/// let token = storage.add { print("count is now", $0.count) }
/// storage.update(3, \.count)      // prints "count is now 3"
/// storage.remove(subscriber: token)
/// ```
///
/// Thread safety: reading, subscribing and writing are safe from any thread. Subscribers are called
/// on the writing thread, in the order the writes happened, once per commit or batch.
public class Storage<Value>: @unchecked Sendable {
    // Unchecked: all state lives in `StorageCore`, which guards it with a lock.

    /// Identifies a subscriber so it can be removed.
    public typealias Token = StorageToken

    let core: StorageCore<Value>

    /// Creates a storage holding `value`.
    public init(_ value: Value) {
        core = StorageCore(value)
    }

    init(core: StorageCore<Value>) {
        self.core = core
    }

    /// The current state.
    public var value: Value {
        core.lock.withLock { core.value }
    }

    /// Calls `subscriber` with the new state after every commit, batch or update.
    public func add(subscriber: @escaping (Value) -> Void) -> Token {
        core.add(subscriber: subscriber)
    }

    /// Stops calling the subscriber registered with `token`.
    public func remove(subscriber token: Token) {
        core.remove(subscriber: token)
    }

    private var cachedMutableView: MutableStorage<Value>?

    /// The writable view used by commits; made once and shared, since it holds nothing of its own.
    var mutableView: MutableStorage<Value> {
        // Locked by hand: `withLock` is generic over its result, and an unspecialised commit would
        // look up `MutableStorage<Value>`'s metadata to call it, every time.
        core.lock.lock()
        defer { core.lock.unlock() }
        if let cachedMutableView { return cachedMutableView }
        let created = MutableStorage(core: core)
        cachedMutableView = created
        return created
    }

    /// Sends this storage's events to `logger` — for a storage used without a cycler. A cycler's
    /// `set(logger:)` does this for its own state.
    public func set(logger: (any CycleLogging)?) {
        core.channel(for: Self.self).set(logger: logger)
    }
}

extension Storage {
    /// The state now and after every change.
    public func asObservable() -> AnyPublisher<Value, Never> {
        core.publisher()
    }

    /// One property of the state now and after every change (it repeats unchanged values; use
    /// ``changed(_:)`` to skip them).
    public func asObservable<Property>(keyPath: KeyPath<Value, Property>) -> AnyPublisher<Property, Never> {
        core.publisher().map { $0[keyPath: keyPath] }.eraseToAnyPublisher()
    }

    /// One property of the state now and whenever it changes, without repeats.
    public func changed<Property: Equatable>(_ keyPath: KeyPath<Value, Property>) -> AnyPublisher<Property, Never> {
        core.publisher().map { $0[keyPath: keyPath] }.removeDuplicates().eraseToAnyPublisher()
    }

    /// One property of the state now and whenever `comparer` says it changed (`true`: the same).
    public func changed<Property>(_ keyPath: KeyPath<Value, Property>, _ comparer: @escaping (Property, Property) -> Bool) -> AnyPublisher<Property, Never> {
        core.publisher().map { $0[keyPath: keyPath] }.removeDuplicates(by: comparer).eraseToAnyPublisher()
    }

    /// The state now and after every change, as RxCocoa's `Driver` (it never fails; values arrive on
    /// the committing thread, at once).
    public func asDriver() -> AnyPublisher<Value, Never> {
        asObservable()
    }

    /// One property of the state now and after every change, as a `Driver`.
    public func asDriver<Property>(keyPath: KeyPath<Value, Property>) -> AnyPublisher<Property, Never> {
        asObservable(keyPath: keyPath)
    }

    /// One property of the state now and whenever it changes, as a `Driver`.
    public func changedDriver<Property: Equatable>(_ keyPath: KeyPath<Value, Property>) -> AnyPublisher<Property, Never> {
        changed(keyPath)
    }
}
