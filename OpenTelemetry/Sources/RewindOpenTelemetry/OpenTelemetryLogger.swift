import Foundation
@_spi(Tooling) import Rewind
import Synchronization

/// Sends a session's events to an OpenTelemetry receiver — an OpenTelemetry Collector, Jaeger,
/// Grafana Alloy — over OTLP/HTTP, live: dispatches and commits as spans, changes as span events
/// and log records, activities as log records (``TelemetryMapping`` states exactly what carries
/// what).
///
/// ```swift
/// let exporter = try OpenTelemetryLogger(configuration: .init(endpoint: "http://collector:4318"))
/// viewModel.set(logger: MultiplexLogger([journal, exporter]))
/// // … when the session ends:
/// let delivery = await exporter.shutdown()
/// ```
///
/// The app's thread only puts the event, its values uncaptured, into an ``EventQueue``, the same
/// lock-free queue the journal uses; a thread of
/// the exporter's own captures, redacts and maps it, and swift-otel batches, retries with backoff
/// (on 429, 502, 503 and 504) and exports. The queue is bounded by
/// ``OpenTelemetryConfiguration/queueCapacity``: when the receiver is down or slower than the app
/// and the queue is full, events are dropped and counted in ``eventsDropped`` — the app is never
/// held up, and memory stays bounded.
public final class OpenTelemetryLogger: CycleLogging, Sendable {
    private let configuration: OpenTelemetryConfiguration
    private let backend: TelemetryBackend
    private let queue: EventQueue
    private let finishing = Atomic<Bool>(false)
    /// Events logged after ``shutdown()`` began (the queue counts those it dropped when full).
    private let refused = Atomic<UInt64>(0)
    /// Signalled by the exporter thread once it has mapped the last event.
    private let drained = DispatchSemaphore(value: 0)

    /// The `rewind.recording_id` on every span and log record it sends
    /// (``OpenTelemetryConfiguration/recordingID``, or a fresh one).
    public let recordingID: UUID

    /// Events dropped because the queue was full (the receiver down or slower than the app) or
    /// logged after ``shutdown()``.
    public var eventsDropped: UInt64 { queue.droppedCount + refused.load(ordering: .relaxed) }

    /// Starts exporting to the receiver `configuration` names.
    ///
    /// - Throws: swift-otel's configuration error when the endpoint cannot be used.
    public init(configuration: OpenTelemetryConfiguration = OpenTelemetryConfiguration()) throws {
        self.configuration = configuration
        recordingID = configuration.recordingID ?? UUID()
        backend = try TelemetryBackend(configuration: configuration)
        queue = EventQueue(capacity: configuration.queueCapacity, overflow: .drop)
        let thread = Thread { [self] in self.exportQueuedEvents() }
        thread.name = "rewind.opentelemetry"
        thread.start()
    }

    /// Queues the event for export, or drops and counts it when the queue is full. Never blocks
    /// on the receiver.
    public func log(_ event: Event) {
        record(EventRecord(event))
    }

    /// Queues a unit's event as the unit made it: the `Event` is made on the exporter's thread.
    public func record(_ record: consuming EventRecord) {
        guard !finishing.load(ordering: .relaxed) else {
            refused.add(1, ordering: .relaxed)
            return
        }
        if !queue.push(consume record) && queue.isClosed { refused.add(1, ordering: .relaxed) }
    }

    /// The exporter takes records as they are.
    public var takesRecords: Bool { true }

    /// Exports what is queued, ends the spans still open, flushes swift-otel and stops; says what
    /// reached the receiver. Events logged afterwards are dropped. Call it once the session ends:
    /// without it, what is still queued is lost.
    @discardableResult
    public func shutdown() async -> Delivery {
        if beginShutdown() {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                // The exporter thread may be waiting for swift-otel to make room: wait off the
                // cooperative pool, so that swift-otel's own tasks keep running.
                Thread.detachNewThread { [drained] in
                    drained.wait()
                    done.resume()
                }
            }
        }
        return await backend.shutdown()
    }

    /// Stops taking events and wakes the exporter thread; `false` when already shutting down.
    private func beginShutdown() -> Bool {
        guard !finishing.exchange(true, ordering: .sequentiallyConsistent) else { return false }
        queue.close()
        return true
    }

    private func exportQueuedEvents() {
        var mapping = TelemetryMapping(
            backend: backend, recordingID: JournalHeader.text(ofRecordingID: recordingID), attributeValueLimit: configuration.attributeValueLimit
        )
        var batch: [EventRecord] = []
        while true {
            let finished = finishing.load(ordering: .sequentiallyConsistent)
            queue.take(into: &batch)
            for record in batch { mapping.record(TelemetryEvent(Event(record), options: configuration.captureOptions)) }
            let tookAny = !batch.isEmpty
            batch.removeAll(keepingCapacity: true)
            if tookAny { continue }
            if !finished {
                // Asleep until an event comes (the queue wakes it) or shutdown closes the queue.
                queue.sleep(seconds: 3600) { false }
                continue
            }
            mapping.endOpenSpans()
            drained.signal()
            return
        }
    }
}
