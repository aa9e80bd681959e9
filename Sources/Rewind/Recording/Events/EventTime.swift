import Foundation
import Synchronization

/// When an event happened, on two clocks: the wall clock (for people, across processes) and the
/// monotonic clock (for durations and ordering, immune to clock adjustments).
public struct EventTime: Sendable, Hashable, Comparable {
    /// Nanoseconds since 1970-01-01 UTC.
    public var wallNanoseconds: Int64
    /// Nanoseconds on the system's monotonic clock (since boot).
    public var monotonicNanoseconds: UInt64

    /// Creates a time from both clock readings.
    public init(wallNanoseconds: Int64, monotonicNanoseconds: UInt64) {
        self.wallNanoseconds = wallNanoseconds
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    /// The current time on both clocks.
    ///
    /// Only the monotonic clock is read; the wall-clock time is the monotonic time plus the offset
    /// between the clocks measured once per process. That halves the cost of timestamping an event,
    /// keeps wall times in the same order as the events, and means a wall-clock adjustment during a
    /// recording does not show up in it (as in NanoLog and other low-overhead loggers).
    @inline(__always)
    public static func now() -> EventTime {
        let monotonic = monotonicNow()
        return EventTime(wallNanoseconds: Int64(bitPattern: monotonic) &+ wallOffset, monotonicNanoseconds: monotonic)
    }

    /// Wall-clock time minus monotonic time, in nanoseconds, measured when first needed.
    private static let wallOffset: Int64 = {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let monotonic = monotonicNow()
        return Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec) - Int64(bitPattern: monotonic)
    }()

    /// The current monotonic clock reading alone, for measuring durations.
    @_spi(Tooling) public static func monotonicNow() -> UInt64 {
        var monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return UInt64(monotonic.tv_sec) * 1_000_000_000 + UInt64(monotonic.tv_nsec)
    }

    /// The wall-clock time as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(wallNanoseconds) / 1_000_000_000)
    }

    /// A wall-clock time as ISO 8601 text in UTC with microseconds: `2026-01-01T00:00:00.001000Z`.
    /// The wall-clock nanoseconds from `start` to `end`, saturating: recorded times come from a
    /// file, and a damaged one can hold any two.
    package static func wallNanoseconds(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        return overflow ? (end > start ? .max : .min) : difference
    }

    package static func iso8601(wallNanoseconds: Int64) -> String {
        TimestampText.format(Date(timeIntervalSince1970: Double(wallNanoseconds) / 1_000_000_000))
    }

    public static func < (lhs: EventTime, rhs: EventTime) -> Bool {
        lhs.monotonicNanoseconds < rhs.monotonicNanoseconds
    }
}

/// The process-wide sequence of event numbers: every event gets the next one, whichever thread and
/// unit it comes from, so events from all units can be merged into one ordered timeline.
public enum EventSequence {
    private static let counter = Atomic<UInt64>(0)

    /// Takes the next sequence number (the first is 1).
    @inline(__always)
    public static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }

    /// The last sequence number taken (0 before the first): the step a flight recorder's dump
    /// names as the one its trigger fired at.
    package static var last: UInt64 {
        counter.load(ordering: .relaxed)
    }
}
