import Foundation

/// The time a flight recorder's rate limit and tail are measured in, and how its dump thread
/// waits for the next tail to end. The recorder uses the monotonic clock; tests give their own,
/// moved by hand, so that no test sleeps.
package protocol DumpClock: Sendable {
    /// Now, on a clock that never goes back.
    var now: Duration { get }
    /// Returns at `deadline` (at once when it has passed) or when `wake` is signalled, whichever
    /// comes first; with no deadline, when `wake` is signalled.
    func wait(until deadline: Duration?, orUntil wake: DispatchSemaphore)
}

/// The monotonic clock events are stamped with.
struct MonotonicDumpClock: DumpClock {
    var now: Duration { .nanoseconds(Int64(clamping: EventTime.monotonicNow())) }

    func wait(until deadline: Duration?, orUntil wake: DispatchSemaphore) {
        guard let deadline else { return wake.wait() }
        let left = (deadline - now).nanoseconds
        guard left > 0 else { return }
        _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: left)))
    }
}
