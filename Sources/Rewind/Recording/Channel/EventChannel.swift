import Synchronization

/// The link between one unit and its loggers: it knows the unit's ``EventSource`` and its own logger
/// (or falls back to ``CycleLoggingSystem/defaultLogger``), and turns what the unit reports into
/// ``Event``s with sequence numbers, times and causal links.
///
/// Frameworks own one channel per unit; applications only meet it through `set(logger:)`.
public final class EventChannel: Sendable {
    /// The unit the events come from.
    public let source: EventSource
    private let ownLogger = LoggerSlot()
    private let hasOwnLogger = Atomic<Bool>(false)
    /// Whether the logger in use has seen the unit's `created` event: read on every event, so
    /// apart from `lifecycle`, which serialises announcing and releasing.
    private let isAnnounced = Atomic<Bool>(false)
    private let lifecycle = Locked(Lifecycle())

    /// Where the unit is in its life, as its loggers saw it.
    private struct Lifecycle {
        var isReleased = false
    }

    /// Creates a channel for a unit.
    public init(source: EventSource) {
        self.source = source
    }

    /// Sends this unit's events to `logger` instead of the process-wide default; `nil` goes back to
    /// the default. The new logger has not seen the unit's creation, even if the old one has: the
    /// next ``announcedLogger(callSite:state:)`` announces the unit again.
    public func set(logger: (any CycleLogging)?) {
        lifecycle.withLock { _ in
            ownLogger.store(logger)
            hasOwnLogger.store(logger != nil, ordering: .releasing)
            isAnnounced.store(false, ordering: .releasing)
        }
    }

    /// The logger events go to now, if any. Checking this first lets a unit skip all work when
    /// nothing listens.
    @inline(__always)
    public var logger: (any CycleLogging)? {
        handle?.logger
    }

    /// The logger events go to now, as units hold it (see ``LoggerHandle``).
    @inline(__always)
    package var handle: LoggerHandle? {
        if hasOwnLogger.load(ordering: .acquiring) {
            return ownLogger.handle ?? CycleLoggingSystem.defaultHandle
        }
        return CycleLoggingSystem.defaultHandle
    }

    /// The logger to send the unit's events to now, after announcing the unit to it — its
    /// `created` event, with `state()` — the first time, and again after ``set(logger:)``; `nil`
    /// when nothing listens or the unit was released.
    ///
    /// Units call this before each of their events, so that a logger always sees a unit's
    /// creation before anything it did. Another thread asking while the unit is being announced
    /// waits for the announcement, so `created` keeps the unit's lowest sequence number.
    ///
    /// ```swift
    /// guard let logger = channel.announcedLogger(callSite: callSite, state: { LoggedValue(state) }) else { return }
    /// channel.emit(.willMutate, name: name, callSite: callSite, to: logger)
    /// ```
    @inline(__always)
    public func announcedLogger(callSite: CallSite = .unknown, state: () -> LoggedValue?) -> (any CycleLogging)? {
        announcedHandle(callSite: callSite, state: state)?.logger
    }

    /// ``announcedLogger(callSite:state:)``, as units hold the logger (see ``LoggerHandle``): the
    /// frameworks' path.
    @inline(__always)
    package func announcedHandle(callSite: CallSite = .unknown, state: () -> LoggedValue?) -> LoggerHandle? {
        guard let handle else { return nil }
        if isAnnounced.load(ordering: .acquiring) { return handle }
        return announce(to: handle, callSite: callSite, state: state)
    }

    private func announce(to handle: LoggerHandle, callSite: CallSite, state: () -> LoggedValue?) -> LoggerHandle? {
        lifecycle.withLock { lifecycle in
            guard !lifecycle.isReleased else { return nil }
            if !isAnnounced.load(ordering: .acquiring) {
                emit(.created(state: state()), callSite: callSite, parent: nil, to: handle)
                isAnnounced.store(true, ordering: .releasing)
            }
            return handle
        }
    }

    /// Logs the unit's `released` event — if its logger saw it created — and ends its events:
    /// ``announcedLogger(callSite:state:)`` returns `nil` from then on. Units call it when they go.
    public func release() {
        lifecycle.withLock { lifecycle in
            guard !lifecycle.isReleased else { return }
            lifecycle.isReleased = true
            if isAnnounced.load(ordering: .acquiring), let handle {
                emit(.released, callSite: .unknown, parent: nil, to: handle)
            }
            isAnnounced.store(false, ordering: .releasing)
        }
    }

    /// Whether the unit was released (see ``release()``): a unit kept alive by a wrapper after
    /// that still works, but logs nothing.
    package var isReleased: Bool {
        lifecycle.withLock { $0.isReleased }
    }

    /// Records one event and hands it to `logger` — as an ``EventRecord`` to a logger that takes
    /// records (``CycleLogging/takesRecords``), as an ``Event`` to any other — and returns its
    /// sequence number.
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
        _ kind: consuming Event.Kind, name: String = "", description: String = "", callSite: CallSite,
        parent: UInt64? = DispatchScope.currentDispatch, at time: EventTime = .now(), sequence: UInt64? = nil,
        to logger: any CycleLogging
    ) -> UInt64 {
        // `logger` is, in every unit written as documented, the one this channel gave it: what it
        // said about records when it was set holds. Were it another, either call still delivers
        // the event (`record(_:)` makes the `Event`, `log(_:)` the record).
        deliver(
            kind, name: name, description: description, callSite: callSite, parent: parent, at: time, sequence: sequence,
            to: logger, takesRecords: handle?.takesRecords ?? false
        )
    }

    /// ``emit(_:name:description:callSite:parent:at:sequence:to:)``, to a logger as units hold it
    /// (see ``LoggerHandle``): the frameworks' path.
    @discardableResult
    @inline(__always)
    package func emit(
        _ kind: consuming Event.Kind, name: String = "", description: String = "", callSite: CallSite,
        parent: UInt64? = DispatchScope.currentDispatch, at time: EventTime = .now(), sequence: UInt64? = nil,
        to handle: LoggerHandle
    ) -> UInt64 {
        deliver(
            kind, name: name, description: description, callSite: callSite, parent: parent, at: time, sequence: sequence,
            to: handle.logger, takesRecords: handle.takesRecords
        )
    }

    @inline(__always)
    private func deliver(
        _ kind: consuming Event.Kind, name: String, description: String, callSite: CallSite, parent: UInt64?, at time: EventTime,
        sequence: UInt64?, to logger: any CycleLogging, takesRecords: Bool
    ) -> UInt64 {
        let sequence = sequence ?? EventSequence.next()
        // A logger that wants events gets one made here, as it always did: making a record first
        // would cost it a conversion.
        if takesRecords {
            let record = EventRecord(
                sequence: sequence, time: time, source: source, kind: consume kind, name: name,
                description: description, callSite: callSite, parent: parent
            )
            logger.record(consume record)
        } else {
            let event = Event(
                sequence: sequence, time: time, source: source, kind: consume kind, name: name,
                description: description, callSite: callSite, parent: parent
            )
            logger.log(event)
        }
        return sequence
    }
}
