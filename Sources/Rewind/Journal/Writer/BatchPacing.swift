/// How many events the journal's writer takes from the queue at once: about as many as it encodes
/// in ``target``, so that a producer waiting for room in a full queue (``EventQueue/Overflow/wait``)
/// waits about that long, whatever an event costs — a counter's commit or a 6,000-item list's, in
/// a release build or a debug one. A fixed count cannot do that: 1,024 counter events take a
/// millisecond to encode, 1,024 commits of a wide list take hundreds.
///
/// Used by the writer's thread only.
struct BatchPacing {
    /// About how long the writer encodes between two takes.
    static let target: Duration = .milliseconds(2)
    /// The fewest and the most events a take moves: a take has a cost of its own, and the
    /// writer's batch is kept small in memory.
    static let limits = 64...1_024

    /// How many events the next take may move.
    private(set) var limit = limits.upperBound
    /// The writer's recent cost per event, smoothed over batches; 0 before the first.
    private var nanosecondsPerEvent = 0.0

    /// Notes that the writer encoded `events` in `nanoseconds`, and sets the next limit from it.
    mutating func encoded(_ events: Int, in nanoseconds: UInt64) {
        guard events > 0 else { return }
        let measured = Double(nanoseconds) / Double(events)
        // Smoothed, so that one slow batch (a keyframe, a page fault) does not shrink the next ones.
        nanosecondsPerEvent = nanosecondsPerEvent == 0 ? measured : 0.75 * nanosecondsPerEvent + 0.25 * measured
        let fitting = Double(Self.target.nanoseconds) / max(nanosecondsPerEvent, 1)
        limit = Int(min(Double(Self.limits.upperBound), max(Double(Self.limits.lowerBound), fitting.rounded(.down))))
    }
}
