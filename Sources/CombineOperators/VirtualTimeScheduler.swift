import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// A scheduler whose clock moves only when told to: time-based operators (`debounce`, `delay`,
/// `throttle`) scheduled on it run when a test or a replay advances the clock, at once and in
/// order, instead of after real waiting.
///
/// ```swift
/// let scheduler = VirtualTimeScheduler()
/// let results = searchText.debounce(for: .milliseconds(300), scheduler: scheduler)
/// searchText.send("swift")
/// scheduler.advance(by: .milliseconds(300))   // the debounced value arrives now
/// ```
///
/// Thread safety: scheduling is safe from any thread; actions run on the thread that advances the
/// clock, one at a time, in order of their due time (ties in the order they were scheduled).
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
    // Unchecked: `state` is guarded by `lock`; actions are called without it held.

    /// A point on the virtual clock, in nanoseconds from its start.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// Nanoseconds since the scheduler was made.
        public let nanoseconds: Int64

        /// A time on the clock.
        public init(nanoseconds: Int64) {
            self.nanoseconds = nanoseconds
        }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds - nanoseconds)
        }

        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: nanoseconds + stride.nanoseconds)
        }

        /// A span of virtual time.
        public struct Stride: Comparable, SignedNumeric, Hashable, Sendable, SchedulerTimeIntervalConvertible {
            /// The span in nanoseconds.
            public var nanoseconds: Int64

            /// A span of `nanoseconds`.
            public init(nanoseconds: Int64) {
                self.nanoseconds = nanoseconds
            }

            public init(integerLiteral value: Int64) {
                self.init(nanoseconds: value)
            }

            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int64(exactly: source) else { return nil }
                self.init(nanoseconds: value)
            }

            public var magnitude: UInt64 { nanoseconds.magnitude }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds - rhs.nanoseconds) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.nanoseconds * rhs.nanoseconds) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ seconds: Int) -> Stride { Stride(nanoseconds: Int64(seconds) * 1_000_000_000) }
            public static func seconds(_ seconds: Double) -> Stride { Stride(nanoseconds: Int64((seconds * 1e9).rounded())) }
            public static func milliseconds(_ milliseconds: Int) -> Stride { Stride(nanoseconds: Int64(milliseconds) * 1_000_000) }
            public static func microseconds(_ microseconds: Int) -> Stride { Stride(nanoseconds: Int64(microseconds) * 1_000) }
            public static func nanoseconds(_ nanoseconds: Int) -> Stride { Stride(nanoseconds: Int64(nanoseconds)) }
        }
    }

    /// No options.
    public typealias SchedulerOptions = Never

    private struct Scheduled {
        let due: SchedulerTimeType
        let order: UInt64
        let action: () -> Void
    }

    private struct State {
        var now = SchedulerTimeType(nanoseconds: 0)
        var queue: [Scheduled] = []
        var nextOrder: UInt64 = 0
    }

    private let lock = NSLock()
    private var state = State()

    /// A clock at zero with nothing scheduled.
    public init() {}

    public var now: SchedulerTimeType { lock.withLock { state.now } }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// How many actions are waiting for their time.
    public var pendingActionCount: Int { lock.withLock { state.queue.count } }

    /// When the earliest waiting action falls due; `nil` when none waits.
    public var nextActionTime: SchedulerTimeType? { lock.withLock { state.queue.min { Self.precedes($0, $1) }?.due } }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: nil, action)
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: date, action)
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let repeating = RepeatingAction(scheduler: self, interval: max(interval, .nanoseconds(1)), action: action)
        enqueue(at: date) { repeating.fire() }
        return AnyCancellable { repeating.cancel() }
    }

    /// Moves the clock forward by `stride`, running every action that falls due on the way.
    public func advance(by stride: SchedulerTimeType.Stride = .nanoseconds(0)) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `time` (never backwards), running every action due by then.
    public func advance(to time: SchedulerTimeType) {
        while let next = takeNext(dueBy: time) {
            next()
        }
        lock.withLock { state.now = max(state.now, time) }
    }

    /// Runs everything scheduled, moving the clock as far as the last action, but at most
    /// `limit` actions (repeating actions never run out).
    public func run(limit: Int = 100_000) {
        var remaining = limit
        while remaining > 0, runNextAction() {
            remaining -= 1
        }
    }

    /// Moves the clock to the next scheduled action and runs it (with any due at the same time);
    /// returns `false`, leaving the clock alone, when nothing is scheduled.
    @discardableResult
    public func runNextAction() -> Bool {
        guard let due = lock.withLock({ state.queue.min { Self.precedes($0, $1) }?.due }) else { return false }
        advance(to: due)
        return true
    }

    private func enqueue(at date: SchedulerTimeType?, _ action: @escaping () -> Void) {
        // The action runs as an effect of the dispatch that scheduled it (see
        // `DispatchScope.runEffect(causedBy:_:)`).
        let cause = DispatchScope.currentDispatch
        let effect = { DispatchScope.runEffect(causedBy: cause, action) }
        lock.withLock {
            let due = max(date ?? state.now, state.now)
            state.queue.append(Scheduled(due: due, order: state.nextOrder, action: effect))
            state.nextOrder += 1
        }
    }

    /// Removes and returns the earliest action due by `time`, with the clock set to its due time.
    private func takeNext(dueBy time: SchedulerTimeType) -> (() -> Void)? {
        lock.withLock {
            guard let index = state.queue.indices.min(by: { Self.precedes(state.queue[$0], state.queue[$1]) }),
                  state.queue[index].due <= time else { return nil }
            let next = state.queue.remove(at: index)
            state.now = max(state.now, next.due)
            return next.action
        }
    }

    private static func precedes(_ first: Scheduled, _ second: Scheduled) -> Bool {
        (first.due, first.order) < (second.due, second.order)
    }

    /// An action that schedules itself again after each run, until cancelled.
    private final class RepeatingAction: @unchecked Sendable {
        // Unchecked: `isCancelled` is guarded by `lock`; the rest is immutable.
        private let lock = NSLock()
        private var isCancelled = false
        private weak var scheduler: VirtualTimeScheduler?
        private let interval: SchedulerTimeType.Stride
        private let action: () -> Void

        init(scheduler: VirtualTimeScheduler, interval: SchedulerTimeType.Stride, action: @escaping () -> Void) {
            self.scheduler = scheduler
            self.interval = interval
            self.action = action
        }

        func fire() {
            guard !lock.withLock({ isCancelled }), let scheduler else { return }
            action()
            scheduler.enqueue(at: scheduler.now.advanced(by: interval)) { self.fire() }
        }

        func cancel() {
            lock.withLock { isCancelled = true }
        }
    }
}
