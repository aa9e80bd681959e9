
/// Keeps every event in memory, in arrival order: for tests, and as the source for replay.
///
/// ```swift
/// let recorder = InMemoryLogger()
/// viewModel.set(logger: recorder)
/// viewModel.increment()
/// #expect(recorder.events.map(\.kind.category) == [.willDispatch, .willMutate, .change, .didMutate, .didDispatch])
/// ```
public final class InMemoryLogger: CycleLogging {
    private let recorded = Locked<[Event]>([])

    /// Creates an empty recorder.
    public init() {}

    public func log(_ event: Event) {
        recorded.withLock { $0.append(event) }
    }

    /// The events received so far, in the order they arrived.
    public var events: [Event] {
        recorded.withLock { $0 }
    }

    /// The events received so far, ordered by sequence number (arrival order can differ from
    /// sequence order when several threads log at once).
    public var eventsInSequenceOrder: [Event] {
        events.sorted { $0.sequence < $1.sequence }
    }

    /// Forgets every event received so far.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }
}
