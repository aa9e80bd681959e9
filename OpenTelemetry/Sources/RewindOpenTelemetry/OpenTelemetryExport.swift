import Foundation
@_spi(Tooling) import Rewind

/// Ships a recorded journal to an OpenTelemetry receiver, mapped exactly as a live
/// ``OpenTelemetryLogger`` maps events (``TelemetryMapping``): what `rewind export FILE --otlp URL`
/// runs.
///
/// ```swift
/// let journal = try JournalReader(path: "session.rewind")
/// let delivery = try await OpenTelemetryExport.export(journal, configuration: .init(endpoint: "http://collector:4318"))
/// print(delivery.isComplete ? "sent" : "not delivered: \(delivery.lastFailure ?? "")")
/// ```
///
/// Nothing is dropped on the way: reading waits while swift-otel's queues are full, so memory
/// stays bounded whatever the journal's length. Events a receiver refuses are counted in the
/// returned ``Delivery``. Spans and log records carry the recorded times; log records also carry
/// `rewind.time_ns`, as swift-otel stamps them with the time of export.
public enum OpenTelemetryExport {
    /// Exports every event of `journal`; `progress` is called from another thread with the number
    /// of events mapped so far, every 10,000 events.
    public static func export(
        _ journal: JournalReader, configuration: OpenTelemetryConfiguration,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> Delivery {
        let backend = try TelemetryBackend(configuration: configuration)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Its own thread: the mapping waits for swift-otel's queues, whose tasks need the pool.
            let thread = Thread {
                var mapping = TelemetryMapping(
                    backend: backend, recordingID: journal.header.recordingIDString,
                    attributeValueLimit: configuration.attributeValueLimit
                )
                var walker = StateWalker()
                var count = 0
                for event in journal.events() {
                    let old = walker.value(before: event)
                    let state = walker.advance(event)?.after
                    mapping.record(TelemetryEvent(event, state: state, old: old))
                    count += 1
                    if count % 10_000 == 0 { progress?(count) }
                }
                mapping.endOpenSpans()
                done.resume()
            }
            thread.name = "rewind.opentelemetry.export"
            thread.start()
        }
        return await backend.shutdown()
    }
}
