import Synchronization

/// The link between one unit and its loggers: it knows the unit's ``EventSource`` and its own logger
/// (or falls back to ``CycleLoggingSystem/defaultLogger``), and turns what the unit reports into
/// ``Event``s with sequence numbers, times and causal links.
///
/// Frameworks own one channel per unit; applications only meet it through `set(logger:)`.
public final class EventChannel: Sendable {
    /// The unit the events come from.
    public let source: EventSource
    private let ownLogger = Locked<(any CycleLogging)?>(nil)
    private let hasOwnLogger = Atomic<Bool>(false)

    /// Creates a channel for a unit.
    public init(source: EventSource) {
        self.source = source
    }

    /// Sends this unit's events to `logger` instead of the process-wide default; `nil` goes back to
    /// the default.
    public func set(logger: (any CycleLogging)?) {
        ownLogger.withLock { $0 = logger }
        hasOwnLogger.store(logger != nil, ordering: .releasing)
    }

    /// The logger events go to now, if any. Checking this first lets a unit skip all work when
    /// nothing listens.
    @inline(__always)
    public var logger: (any CycleLogging)? {
        if hasOwnLogger.load(ordering: .acquiring) {
            return ownLogger.withLock { $0 } ?? CycleLoggingSystem.defaultLogger
        }
        return CycleLoggingSystem.defaultLogger
    }

    /// Records one event and hands it to `logger`; returns its sequence number.
    ///
    /// - Parameter kind: what happened, with its values.
    /// - Parameter name: the dispatch's, commit's or activity's name.
    /// - Parameter description: more about it, when there is more to say.
    /// - Parameter callSite: where in the source it happened.
    /// - Parameter parent: the dispatch it happened inside; by default the one running on this task.
    /// - Parameter time: when it happened; by default now. A unit that has just read the clock (to
    ///   time a mutation, say) passes that reading, since reading the clock is a measurable part of
    ///   the cost of an event.
    /// - Parameter sequence: the event's number, if it was taken earlier with
    ///   `EventSequence.next()` (an event that can only be described after what it caused).
    /// - Parameter logger: the logger that receives it.
    @discardableResult
    public func emit(
        _ kind: Event.Kind, name: String = "", description: String = "", callSite: CallSite,
        parent: UInt64? = DispatchScope.currentDispatch, at time: EventTime = .now(), sequence: UInt64? = nil,
        to logger: any CycleLogging
    ) -> UInt64 {
        let sequence = sequence ?? EventSequence.next()
        logger.log(Event(
            sequence: sequence, time: time, source: source, kind: kind, name: name,
            description: description, callSite: callSite, parent: parent
        ))
        return sequence
    }
}
