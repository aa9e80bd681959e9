import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// What a running commit gives the change events it causes. Declared outside the generic
/// `StorageCore` so that using it needs no generic metadata at run time: this is the hottest path.
///
/// Kept whole in the storage, not as an `Optional`: copying an optional struct of this shape goes
/// through a generic value witness (measured: ~130 instructions a copy, five copies a commit).
struct RunningCommit {
    /// Whether a commit is running: the fields below are its.
    var isRunning = false
    var name = ""
    var logger: LoggerHandle?
    var parent: UInt64?
    /// When the commit started: its changes carry this time rather than reading the clock again
    /// (one reading serves the commit; the clock is a measurable part of an event's cost).
    var time = EventTime(wallNanoseconds: 0, monotonicNanoseconds: 0)
}

/// The shared inside of a ``Storage`` and its ``MutableStorage`` view: the value, the subscribers,
/// the commit lock, and — because `CyclerType` only requires a `state` property — the cycler's
/// logging channel and activity stream.
///
/// Thread safety: every field is read and written with `lock` held — which is also why the fields
/// opt out of Swift's dynamic exclusivity checks, a measurable cost on the commit path. The lock is
/// recursive because a commit's closure reads `state.value`, and subscribers may read the state or
/// commit again from the thread that notifies them.
final class StorageCore<Value>: @unchecked Sendable {
    // Unchecked: all mutable state below is guarded by `lock`.
    let lock = NSRecursiveLock()
    @exclusivity(unchecked) var value: Value
    @exclusivity(unchecked) private var subscribers: [(token: StorageToken, notify: (Value) -> Void)] = []
    /// `subscribers.count`, kept apart: asking an array of a generic element type whether it is
    /// empty looks up its metadata, on every commit.
    @exclusivity(unchecked) private var subscriberCount = 0
    @exclusivity(unchecked) private var nextToken = 0
    @exclusivity(unchecked) private var subject: CurrentValueSubject<Value, Never>?

    /// Nesting of commits and batch updates; subscribers hear of changes once the outermost ends.
    @exclusivity(unchecked) private var batchDepth = 0
    @exclusivity(unchecked) private var changedDuringBatch = false
    /// The running commit's name, logger and parent dispatch, given to the change events it causes
    /// (looked up once per commit rather than once per event).
    @exclusivity(unchecked) private var runningCommit = RunningCommit()

    @exclusivity(unchecked) private(set) var channel: EventChannel?
    @exclusivity(unchecked) var activitySubject: AnyObject?

    init(_ value: Value) {
        self.value = value
    }

    deinit {
        channel?.release()
    }

    // MARK: Subscribers

    func add(subscriber: @escaping (Value) -> Void) -> StorageToken {
        lock.withLock {
            nextToken += 1
            let token = StorageToken(id: nextToken)
            subscribers.append((token, subscriber))
            subscriberCount = subscribers.count
            return token
        }
    }

    func remove(subscriber token: StorageToken) {
        lock.withLock {
            subscribers.removeAll { $0.token == token }
            subscriberCount = subscribers.count
        }
    }

    func publisher() -> AnyPublisher<Value, Never> {
        lock.withLock {
            if let subject { return subject.eraseToAnyPublisher() }
            let created = CurrentValueSubject<Value, Never>(value)
            subject = created
            return created.eraseToAnyPublisher()
        }
    }

    /// Tells subscribers now, or at the end of the running batch.
    private func noteChange() {
        guard batchDepth == 0 else {
            changedDuringBatch = true
            return
        }
        guard subscriberCount > 0 || subject != nil else { return }
        let current = value
        for subscriber in subscribers {
            subscriber.notify(current)
        }
        subject?.send(current)
    }

    // MARK: Logging

    /// The channel of the unit owning this storage, made on first use with that unit's identity.
    func channel(for unitType: Any.Type) -> EventChannel {
        lock.withLock { channelMadeIfNeeded(for: unitType) }
    }

    /// Call with `lock` held.
    private func channelMadeIfNeeded(for unitType: Any.Type) -> EventChannel {
        if let channel { return channel }
        let created = EventChannel(source: EventSource(framework: .cycler, type: unitType))
        channel = created
        return created
    }

    /// The logger to use now, after announcing the unit to it (see
    /// ``EventChannel/announcedLogger(callSite:state:)``). With a unit type, the unit's channel is
    /// made if it does not exist yet. Call with `lock` held.
    func activeLogger(unitType: Any.Type? = nil, callSite: CallSite) -> LoggerHandle? {
        if let unitType { _ = channelMadeIfNeeded(for: unitType) }
        return channel?.announcedHandle(callSite: callSite) { LoggedValue(value) }
    }

    // MARK: Mutation

    /// Runs one commit: a transaction that is logged as a mutation and tells subscribers once.
    func commit(
        name: String, description: String, callSite: CallSite, unitType: Any.Type, mutable: MutableStorage<Value>,
        _ mutate: (MutableStorage<Value>) throws -> Void
    ) rethrows {
        lock.lock()
        defer { lock.unlock() }
        let logger = activeLogger(unitType: unitType, callSite: callSite)
        let parent = logger == nil ? nil : DispatchScope.currentDispatch
        let start = logger == nil ? nil : EventTime.now()
        if let logger, let start {
            channel!.emit(.willMutate, name: name, description: description, callSite: callSite, parent: parent, at: start, to: logger)
        }
        // A commit inside a commit is rare: only then is the outer one copied aside.
        let outerCommit: RunningCommit? = runningCommit.isRunning ? runningCommit : nil
        runningCommit.isRunning = true
        runningCommit.name = name
        runningCommit.logger = logger
        runningCommit.parent = parent
        if let start { runningCommit.time = start }
        batchDepth += 1
        defer {
            batchDepth -= 1
            if let outerCommit {
                runningCommit = outerCommit
            } else {
                runningCommit.isRunning = false
                runningCommit.logger = nil
            }
            if let logger, let start {
                let end = EventTime.now()
                let duration = Duration.nanoseconds(Int64(end.monotonicNanoseconds - start.monotonicNanoseconds))
                channel!.emit(.didMutate(duration: duration, state: LoggedValue(value)), name: name, description: description, callSite: callSite, parent: parent, at: end, to: logger)
            }
            if batchDepth == 0, changedDuringBatch {
                changedDuringBatch = false
                noteChange()
            }
        }
        try mutate(mutable)
    }

    /// Runs several updates as one notification, without logging a mutation.
    func batch(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        batchDepth += 1
        body()
        batchDepth -= 1
        if batchDepth == 0, changedDuringBatch {
            changedDuringBatch = false
            noteChange()
        }
    }

    func update<Field>(_ newValue: Field, at keyPath: WritableKeyPath<Value, Field>, callSite: CallSite, onlyIf shouldUpdate: (Field) -> Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard shouldUpdate(value[keyPath: keyPath]) else { return }
        value[keyPath: keyPath] = newValue
        emitInRunningCommit(
            .change(path: ChangedPath(keyPath), value: LoggedValue(newValue), state: LoggedValue(value)),
            otherwiseNamed: "update", callSite: callSite
        )
        noteChange()
    }

    func replace(with change: (inout Value) -> Void, name: String, callSite: CallSite) {
        lock.lock()
        defer { lock.unlock() }
        change(&value)
        emitInRunningCommit(.replace(state: LoggedValue(value)), otherwiseNamed: name, callSite: callSite)
        noteChange()
    }

    /// Logs an event of the running commit — with its name, parent and start time — or, outside
    /// a commit, one of its own under `name`. Call with `lock` held.
    @inline(__always)
    private func emitInRunningCommit(_ kind: @autoclosure () -> Event.Kind, otherwiseNamed name: String, callSite: CallSite) {
        if runningCommit.isRunning {
            guard let logger = runningCommit.logger else { return }
            channel!.emit(kind(), name: runningCommit.name, callSite: callSite, parent: runningCommit.parent, at: runningCommit.time, to: logger)
        } else if let logger = activeLogger(callSite: callSite) {
            channel!.emit(kind(), name: name, callSite: callSite, to: logger)
        }
    }
}
