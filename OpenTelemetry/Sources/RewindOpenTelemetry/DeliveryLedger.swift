import Foundation
import Logging

/// What happened to the spans and log records handed to swift-otel: how many were exported, failed
/// or dropped, read from swift-otel's diagnostic log (its batch processors report each batch there
/// and have no other way to tell), so that the exporter can count failures and never hand
/// swift-otel more than its queues hold — swift-otel drops what does not fit without telling the
/// caller.
final class DeliveryLedger: Sendable {
    /// The two streams swift-otel batches separately.
    enum Signal: Sendable { case spans, logRecords }

    private struct Counts {
        var handedOver = 0
        var exported = 0
        var settled = 0
    }

    private struct State {
        var spans = Counts()
        var logRecords = Counts()
        var failedBatches = 0
        var lastFailure: String?

        subscript(signal: Signal) -> Counts {
            get { signal == .spans ? spans : logRecords }
            set { if signal == .spans { spans = newValue } else { logRecords = newValue } }
        }
    }

    private let condition = NSCondition()
    // Guarded by `condition`: Swift cannot see that, hence the unchecked storage below.
    private nonisolated(unsafe) var state = State()

    /// How many of one signal swift-otel may hold at once: its queue's size.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits until swift-otel has room for one more item of `signal`, then counts it as handed over.
    /// Room comes back as batches are exported or fail (a failed export ends within its timeout).
    func handOver(_ signal: Signal) {
        condition.lock()
        defer { condition.unlock() }
        while state[signal].handedOver - state[signal].settled >= capacity { condition.wait() }
        state[signal].handedOver += 1
    }

    /// What was delivered: complete once swift-otel has shut down, as items it had not exported
    /// by then (a flush cut short by its timeout, say) count as not delivered.
    var delivery: Delivery {
        condition.lock()
        defer { condition.unlock() }
        return Delivery(
            spansExported: state.spans.exported, spansNotDelivered: state.spans.handedOver - state.spans.exported,
            logRecordsExported: state.logRecords.exported,
            logRecordsNotDelivered: state.logRecords.handedOver - state.logRecords.exported,
            failedExports: state.failedBatches, lastFailure: state.lastFailure
        )
    }

    fileprivate func settle(_ signal: Signal, count: Int, failure: String?) {
        condition.lock()
        defer { condition.unlock() }
        state[signal].settled += count
        if let failure {
            state.failedBatches += 1
            state.lastFailure = failure
        } else {
            state[signal].exported += count
        }
        condition.broadcast()
    }

    /// A swift-otel diagnostic logger that feeds this ledger.
    var diagnosticLogger: Logger {
        var logger = Logger(label: "rewind.opentelemetry") { _ in Handler(ledger: self) }
        logger.logLevel = .debug
        return logger
    }

    /// Reads the batch processors' "Exported batch." and "Failed to export batch." messages, with
    /// their `component` and `batch_size` metadata; "dropped because queue was full" should never
    /// appear, as ``handOver(_:)`` keeps within the queue, but counts as failure if it does.
    private struct Handler: LogHandler {
        let ledger: DeliveryLedger
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let signal: Signal
            switch metadata["component"]?.description {
            case "OTelBatchSpanProcessor": signal = .spans
            case "OTelBatchLogRecordProcessor": signal = .logRecords
            default: return
            }
            let message = event.message.description
            let extra = event.metadata ?? [:]
            if message == "Exported batch.", let size = metadata["batch_size"].flatMap({ Int($0.description) }) {
                ledger.settle(signal, count: size, failure: nil)
            } else if message == "Failed to export batch.", let size = metadata["batch_size"].flatMap({ Int($0.description) }) {
                let reason = event.error.map { String(describing: $0) } ?? extra["error"]?.description ?? "export failed"
                ledger.settle(signal, count: size, failure: reason)
            } else if message.hasPrefix("Log records were dropped") || message.hasPrefix("Spans were dropped"),
                      let dropped = extra["dropped_count"].flatMap({ Int($0.description) }) {
                ledger.settle(signal, count: dropped, failure: "swift-otel's queue was full")
            }
        }
    }
}
