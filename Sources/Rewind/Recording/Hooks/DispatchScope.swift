import Synchronization

/// Which dispatch is running, so that the events it causes carry its sequence number as their
/// parent. A task-local value follows the dispatch into the synchronous code it calls and into the
/// tasks it starts; work that hops threads some other way (a Combine delay, a queue) keeps the link
/// through the dispatch's context object, or by running as an effect of it
/// (``runEffect(causedBy:_:)``), which is what the project's schedulers and Flask's flux do.
public enum DispatchScope {
    @TaskLocal private static var current: UInt64?
    @TaskLocal private static var holding: HeldChanges?

    /// How many dispatches and effects are running anywhere in the process. Reading a task-local
    /// value costs a generic-metadata lookup; while none runs (most commits in a busy app), that
    /// lookup is skipped.
    private static let running = Atomic<Int>(0)

    /// The sequence number of the innermost running dispatch, if any — inside an effect, the
    /// dispatch that caused it.
    @inline(__always)
    public static var currentDispatch: UInt64? {
        running.load(ordering: .relaxed) == 0 ? nil : current
    }

    /// Runs `body` as the inside of dispatch `sequence`.
    public static func run<T>(inside sequence: UInt64?, _ body: () throws -> T) rethrows -> T {
        guard sequence != nil || running.load(ordering: .relaxed) > 0 else { return try body() }
        running.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        return try $current.withValue(sequence, operation: body)
    }

    /// Runs `body` as an effect of dispatch `cause`: work the app's code scheduled while that
    /// dispatch ran (a delayed answer, a debounced search, a queued mix), running now.
    ///
    /// Inside, ``currentDispatch`` is `cause`, so what the effect logs names its cause, and a replay
    /// knows it as the app's own doing rather than an input to send again. Units that log their
    /// state one property at a time (Ricemill stores, Unio relays) hold the effect's changes until
    /// it ends and log them as one commit, with the state they settled in: a delayed answer that
    /// sets three properties is one step, never three half-done ones.
    ///
    /// A scheduler of your own keeps these links by taking ``currentDispatch`` when an action is
    /// scheduled and running the action through this function:
    ///
    /// ```swift
    /// func schedule(options: Never?, _ action: @escaping () -> Void) {
    ///     let cause = DispatchScope.currentDispatch
    ///     queue.async { DispatchScope.runEffect(causedBy: cause, action) }
    /// }
    /// ```
    public static func runEffect<T>(causedBy cause: UInt64?, _ body: () throws -> T) rethrows -> T {
        let (result, held) = try runHolding(inside: cause, body)
        held.release()
        return result
    }

    /// Runs `body` as the inside of dispatch `sequence` (or an effect of it) where units hold
    /// their changes: what they held is logged when the caller releases the returned
    /// ``HeldChanges``, once it has logged what must come first.
    package static func runHolding<T>(inside sequence: UInt64?, _ body: () throws -> T) rethrows -> (T, HeldChanges) {
        let held = HeldChanges(cause: sequence)
        running.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        do {
            let result = try $current.withValue(sequence) {
                try $holding.withValue(held, operation: body)
            }
            return (result, held)
        } catch {
            // What was held before the body threw is logged all the same.
            held.release()
            throw error
        }
    }

    /// Where units hold their changes on this task now: the innermost dispatch or effect run by
    /// ``runHolding(inside:_:)`` or ``runEffect(causedBy:_:)``, if any.
    package static var currentHolding: HeldChanges? {
        running.load(ordering: .relaxed) == 0 ? nil : holding
    }

    /// What units changed inside one dispatch or effect, held until it ends — so that a state is
    /// logged once it has settled, never while a property is still announcing its new value (a
    /// `@Published` property tells its subscribers before it stores) — each unit logging what it
    /// held when the whole is released.
    package final class HeldChanges: Sendable {
        /// The dispatch the changes happened in or because of, if known.
        package let cause: UInt64?
        private let state = Locked(State())

        private struct State: Sendable {
            var isReleased = false
            var units: [Unit] = []
        }

        /// One unit's held events, and how it logs them.
        private struct Unit: Sendable {
            let id: ObjectIdentifier
            var events: [any Sendable]
            let log: @Sendable ([any Sendable]) -> Void
        }

        init(cause: UInt64?) {
            self.cause = cause
        }

        /// Holds `event` for `unit`, to be handed to `log` with the unit's other held events when
        /// the whole is released (the `log` given first for a unit is the one used); `false` when
        /// it was released already (a task started inside the dispatch, running later): the
        /// caller logs the event itself.
        package func hold(_ event: any Sendable, for unit: ObjectIdentifier, log: @escaping @Sendable ([any Sendable]) -> Void) -> Bool {
            state.withLock { state in
                guard !state.isReleased else { return false }
                if let index = state.units.firstIndex(where: { $0.id == unit }) {
                    state.units[index].events.append(event)
                } else {
                    state.units.append(Unit(id: unit, events: [event], log: log))
                }
                return true
            }
        }

        /// Lets each unit log what it held, in the order they first changed, once: held events
        /// are refused from then on, and a second release logs nothing.
        package func release() {
            let units = state.withLock { state in
                defer { state.units = [] }
                state.isReleased = true
                return state.units
            }
            for unit in units { unit.log(unit.events) }
        }
    }
}
