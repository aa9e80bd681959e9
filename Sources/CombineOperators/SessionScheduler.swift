import Foundation
@preconcurrency import OpenCombine
@_spi(Tooling) import Rewind

/// A scheduler that is either real (a dispatch queue, the wall of time an app lives in) or virtual
/// (a ``VirtualTimeScheduler`` that moves only when told), behind one type — so that the same view
/// model records a session in real time and replays it on a virtual clock.
///
/// ```swift
/// let live = GitHubSearchViewStream(scheduler: .realTime(queue: .main))
/// let clock = VirtualTimeScheduler()
/// let replayed = GitHubSearchViewStream(scheduler: .virtual(clock))
/// ```
///
/// Times count nanoseconds from the scheduler's creation (real) or from the virtual clock's zero.
public final class SessionScheduler: Scheduler, @unchecked Sendable {
    // Unchecked: immutable; both kinds of clock are thread-safe.
    public typealias SchedulerTimeType = VirtualTimeScheduler.SchedulerTimeType
    public typealias SchedulerOptions = Never

    private enum Clock {
        case virtual(VirtualTimeScheduler)
        case realTime(DispatchQueue, start: UInt64)
    }

    private let clock: Clock

    private init(_ clock: Clock) {
        self.clock = clock
    }

    /// A scheduler on `scheduler`'s virtual clock.
    public static func virtual(_ scheduler: VirtualTimeScheduler) -> SessionScheduler {
        SessionScheduler(.virtual(scheduler))
    }

    /// A scheduler that runs actions on `queue` when their time comes.
    public static func realTime(queue: DispatchQueue) -> SessionScheduler {
        SessionScheduler(.realTime(queue, start: DispatchTime.now().uptimeNanoseconds))
    }

    /// The virtual clock, if the scheduler runs on one.
    public var virtualClock: VirtualTimeScheduler? {
        if case .virtual(let scheduler) = clock { return scheduler }
        return nil
    }

    public var now: SchedulerTimeType {
        switch clock {
        case .virtual(let scheduler): scheduler.now
        case .realTime(_, let start): SchedulerTimeType(nanoseconds: Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
    }

    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        switch clock {
        case .virtual(let scheduler): scheduler.schedule(options: nil, action)
        case .realTime(let queue, _): queue.async(execute: UncheckedAction(action).asEffect().run)
        }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        switch clock {
        case .virtual(let scheduler):
            scheduler.schedule(after: date, tolerance: tolerance, options: nil, action)
        case .realTime(let queue, _):
            queue.asyncAfter(deadline: deadline(for: date), execute: UncheckedAction(action).asEffect().run)
        }
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        switch clock {
        case .virtual(let scheduler):
            return scheduler.schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
        case .realTime(let queue, _):
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: deadline(for: date), repeating: .nanoseconds(Int(max(interval.nanoseconds, 1))))
            timer.setEventHandler(handler: UncheckedAction(action).asEffect().run)
            timer.resume()
            return AnyCancellable { timer.cancel() }
        }
    }

    private func deadline(for date: SchedulerTimeType) -> DispatchTime {
        .now() + .nanoseconds(Int(max(0, date.nanoseconds - now.nanoseconds)))
    }
}

/// A scheduler action handed to a dispatch queue. OpenCombine's `Scheduler` predates `Sendable`:
/// its actions are plain closures that the scheduler is trusted to run on its own queue, once the
/// operator that made them has handed them over (Combine's contract); the queue is what makes
/// running them elsewhere safe.
private struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    @Sendable func run() {
        action()
    }

    /// The action run as an effect of the dispatch running now, when it was scheduled (see
    /// `DispatchScope.runEffect(causedBy:_:)`).
    func asEffect() -> UncheckedAction {
        let cause = DispatchScope.currentDispatch
        let action = self.action
        return UncheckedAction { DispatchScope.runEffect(causedBy: cause, action) }
    }
}
