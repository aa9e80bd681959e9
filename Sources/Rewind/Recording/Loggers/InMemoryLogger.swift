import DequeModule

/// Keeps the latest events in memory, in arrival order: for tests, and as the source for replay.
///
/// ```swift
/// let recorder = InMemoryLogger()
/// viewModel.set(logger: recorder)
/// viewModel.increment()
/// #expect(recorder.events.map(\.kind.category) == [.willDispatch, .willMutate, .change, .didMutate, .didDispatch])
/// ```
///
/// It holds at most `capacity` events (about 320 bytes each, plus what their values hold): when full,
/// the oldest event is dropped for each new one and ``eventsDropped`` counts them, so a long-running
/// recorder never grows without bound. For a whole session, record into a `JournalLogger`.
public final class InMemoryLogger: CycleLogging {
    /// The capacity a recorder has unless told otherwise: 100,000 events, some 32 MB.
    public static let defaultCapacity = 100_000

    private struct Storage {
        var events = Deque<Event>()
        var dropped = 0
    }

    private let recorded = Locked(Storage())

    /// The most events kept at once.
    public let capacity: Int

    /// Creates an empty recorder that keeps at most `capacity` events (at least one).
    public init(capacity: Int = InMemoryLogger.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    public func log(_ event: Event) {
        recorded.withLock { storage in
            if storage.events.count == capacity {
                storage.events.removeFirst()
                storage.dropped += 1
            }
            storage.events.append(event)
        }
    }

    /// The events kept, in the order they arrived.
    public var events: [Event] {
        recorded.withLock { Array($0.events) }
    }

    /// The events kept, ordered by sequence number (arrival order can differ from sequence order
    /// when several threads log at once).
    public var eventsInSequenceOrder: [Event] {
        events.sorted { $0.sequence < $1.sequence }
    }

    /// How many of the oldest events were dropped because the recorder was full.
    public var eventsDropped: Int {
        recorded.withLock { $0.dropped }
    }

    /// Forgets every event received so far (and the count of dropped ones).
    public func removeAll() {
        recorded.withLock { $0 = Storage() }
    }
}
