import Foundation
@_spi(Tooling) import Rewind

/// The single-dispatch bus every mix goes through: one mix at a time, in the order they were
/// asked for, each atomic (a mix's changes and reactions happen before the next mix starts).
///
/// A mix asked for while another runs — from a reaction, or from another thread — waits its turn;
/// the thread already running mixes runs it. While the flux is locked (``FluxLock``), mixes wait in
/// order until the last lock is released, except the one a lock was made for
/// (`Flask.lock(withMixer:payload:)`).
///
/// The original's bus was an operation queue whose suspension raced with its own callbacks ("The
/// single flow is broken!" when its test suite ran whole); here every transition of the bus happens
/// under one lock, and exactly one thread runs mixes at any moment.
public final class Flux: @unchecked Sendable {
    // Unchecked: `state` is `Locked`; work items run one at a time, outside the lock.

    /// The process's bus.
    public static let bus = Flux()

    private struct Work {
        let run: () -> Void
        let bypassesLocks: Bool
        /// The dispatch that asked for the work (a mixer whose reaction asks for another mix): the
        /// work runs inside it whenever its turn comes, so what it logs names its cause — and a
        /// replay knows it as the app's own doing, not an input to send again.
        let cause: UInt64?
        /// The task's Flask scope when the work was asked for (see ``Flask/isolated(_:)``): the
        /// work runs in it whichever thread drains the flux.
        let scope: FlaskScope?
    }

    private struct BusState {
        var queue: [Work] = []
        var isRunning = false
        var locks: [FluxLock] = []
    }

    private let state = Locked(BusState())

    /// Where lock and release events go: `set(logger:)`, or the process-wide default.
    let channel = EventChannel(source: EventSource(framework: .flask, typeName: "Flux", label: "Flux"))

    init() {}

    /// Sends the bus's own events (locks and releases) to `logger`; `nil` goes back to the
    /// process-wide default.
    public func set(logger: (any CycleLogging)?) {
        channel.set(logger: logger)
    }

    /// Whether any lock holds the flux.
    public var isLocked: Bool { state.withLock { !$0.locks.isEmpty } }

    /// How many mixes wait for their turn.
    public var pendingCount: Int { state.withLock { $0.queue.count } }

    /// Runs `work` on the bus after the mixes already waiting, as a mix would: now if the bus is
    /// free and unlocked, otherwise in its turn. For work that must see every earlier mix done.
    ///
    /// ```swift
    /// Flask.bus.performInFluxQueue { print(substance.state.counter) }
    /// ```
    public func performInFluxQueue(_ work: @escaping () -> Void) {
        perform(work)
    }

    /// Drops the mixes (and other work) waiting for their turn; the one running finishes.
    public func purgeQueue() {
        state.withLock { $0.queue.removeAll() }
    }

    /// Runs `work` on the bus: now if the bus is free, otherwise in its turn.
    func perform(bypassingLocks: Bool = false, _ work: @escaping () -> Void) {
        let cause = DispatchScope.currentDispatch
        let scope = FlaskScope.task
        state.withLock { $0.queue.append(Work(run: work, bypassesLocks: bypassingLocks, cause: cause, scope: scope)) }
        drain()
    }

    /// Runs queued work until none can run; returns at once if another thread is running it.
    private func drain() {
        while let next = state.withLock({ bus -> Work? in
            guard !bus.isRunning else { return nil }
            let runnable = bus.locks.isEmpty
                ? bus.queue.indices.first
                : bus.queue.firstIndex { $0.bypassesLocks }
            guard let index = runnable else { return nil }
            bus.isRunning = true
            return bus.queue.remove(at: index)
        }) {
            FlaskScope.$task.withValue(next.scope) {
                // Work some dispatch asked for is an effect of it: Ricemill and Unio units it
                // changes log one settled commit, and replay knows it as the app's own doing.
                if let cause = next.cause {
                    DispatchScope.runEffect(causedBy: cause, next.run)
                } else {
                    DispatchScope.run(inside: nil, next.run)
                }
            }
            state.withLock { $0.isRunning = false }
        }
    }

    // MARK: Locks

    func add(_ lock: FluxLock) {
        state.withLock { $0.locks.append(lock) }
        log("lock", lock)
    }

    /// Removes `lock`; returns whether it was holding the flux.
    func remove(_ lock: FluxLock) -> Bool {
        let removed = state.withLock { bus in
            guard let index = bus.locks.firstIndex(where: { $0 === lock }) else { return false }
            bus.locks.remove(at: index)
            return true
        }
        if removed {
            log("release", lock)
            drain()
        }
        return removed
    }

    /// Releases every lock (their `onRelease` blocks are not called) and runs what waited.
    public func removeLocks() {
        let removed = state.withLock { bus in
            defer { bus.locks = [] }
            return bus.locks
        }
        for lock in removed { log("release", lock) }
        drain()
    }

    private func log(_ name: String, _ lock: FluxLock) {
        guard let logger = channel.handle else { return }
        var fields: [(name: String, value: Any)] = [("lock", lock.number)]
        if let mixer = lock.mixerName { fields.append(("mixer", mixer)) }
        channel.emit(.activity(LoggedValue(StateFields(fields))), name: name, callSite: .unknown, to: logger)
    }
}

/// Pauses the flux: mixes asked for while a lock holds wait, in order, until every lock is
/// released. A lock made with a mixer (`Flask.lock(withMixer:payload:)`) lets that one mixer run,
/// and reaches its reactions as `reaction.onLock`, so that a reaction can release it — at once or
/// after asynchronous work.
///
/// ```swift
/// let lock = Flask.lock()
/// Flask.substances(reactTo: Mixers.login)   // waits
/// lock.release()                            // runs now
/// ```
public final class FluxLock: Hashable, @unchecked Sendable {
    // Unchecked: `releaseState` is `Locked`; the rest is immutable.
    private static let counter = Locked<UInt64>(0)

    let number: UInt64
    let mixerName: String?
    /// Whether the lock releases itself once its mixer's reactions have run.
    let autoreleases: Bool
    private let bus: Flux
    private let releaseState = Locked(Release())

    /// The release handler, and the release once it happened.
    private struct Release {
        var block: ((Any?) -> Void)?
        /// Set when the lock was released, with the release's payload.
        var payload: Any??
    }

    init(bus: Flux, mixerName: String? = nil, autoreleases: Bool = false) {
        self.bus = bus
        self.mixerName = mixerName
        self.autoreleases = autoreleases
        number = Self.counter.withLock { $0 += 1; return $0 }
        bus.add(self)
    }

    /// Called once, with the release's payload, when the lock is released.
    ///
    /// The original applied a locked mixer asynchronously, so a handler set right after
    /// `Flask.lock(withMixer:payload:autorelease:)` was always in place when the mixer's reactions
    /// (or its autorelease) released the lock. Here the mixer runs within that call when the flux is
    /// free, so the release may already have happened: a handler set after the release runs at once,
    /// with the release's payload — the same handler, called once, after the release either way.
    public var onRelease: ((Any?) -> Void)? {
        get { releaseState.withLock { $0.block } }
        set {
            let late: Any?? = releaseState.withLock { release in
                guard let payload = release.payload else {
                    release.block = newValue
                    return nil
                }
                return .some(payload)
            }
            if let payload = late, let newValue { newValue(payload) }
        }
    }

    /// Releases the lock: when no other lock holds the flux, the waiting mixes run. Releasing a lock
    /// twice does nothing the second time.
    public func release(payload: Any? = nil) {
        guard bus.remove(self) else { return }
        let block = releaseState.withLock { release in
            defer { release.block = nil }
            release.payload = .some(payload)
            return release.block
        }
        block?(payload)
    }

    /// Releases the lock if it was made with `autorelease: true` (the seed's `autorelease()`).
    public func autorelease() {
        autoreleaseIfAsked()
    }

    func autoreleaseIfAsked() {
        if autoreleases { release() }
    }

    public static func == (lhs: FluxLock, rhs: FluxLock) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
