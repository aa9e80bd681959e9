import Logging
import OTel
import ServiceLifecycle
import Tracing

/// swift-otel set up for one exporter: a tracer and a logger that export over OTLP/HTTP, running
/// until ``shutdown()``, with a ``DeliveryLedger`` that paces what is handed to them.
final class TelemetryBackend: Sendable {
    let tracer: any Tracer
    let logger: Logger
    let ledger: DeliveryLedger
    private let services: ServiceGroup
    private let running: Task<Void, Never>

    /// How many requests' worth of spans (or log records) swift-otel may hold: enough to keep the
    /// connection busy while the next batch fills.
    private static let batchesInFlight = 4

    init(configuration: OpenTelemetryConfiguration) throws {
        let capacity = max(1, configuration.batchSize) * Self.batchesInFlight
        let ledger = DeliveryLedger(capacity: capacity)
        var otel = OTel.Configuration.default
        otel.serviceName = configuration.serviceName
        otel.diagnosticLogger = .custom(ledger.diagnosticLogger)
        otel.diagnosticLogLevel = .debug
        otel.metrics.enabled = false
        otel.logs.level = .info
        let base = configuration.endpoint.hasSuffix("/") ? String(configuration.endpoint.dropLast()) : configuration.endpoint
        for (signal, path) in [(\OTel.Configuration.traces.otlpExporter, "/v1/traces"), (\OTel.Configuration.logs.otlpExporter, "/v1/logs")] {
            otel[keyPath: signal].protocol = .httpProtobuf
            otel[keyPath: signal].endpoint = base + path
            otel[keyPath: signal].headers = configuration.headers
            otel[keyPath: signal].timeout = configuration.exportTimeout
        }
        // Sent every flushInterval, one batch at a time; the queues hold what the ledger lets in.
        otel.traces.batchSpanProcessor.scheduleDelay = configuration.flushInterval
        otel.traces.batchSpanProcessor.exportTimeout = configuration.exportTimeout
        otel.traces.batchSpanProcessor.maxQueueSize = capacity
        otel.traces.batchSpanProcessor.maxExportBatchSize = configuration.batchSize
        otel.logs.batchLogRecordProcessor.scheduleDelay = configuration.flushInterval
        otel.logs.batchLogRecordProcessor.exportTimeout = configuration.exportTimeout
        otel.logs.batchLogRecordProcessor.maxQueueSize = capacity
        otel.logs.batchLogRecordProcessor.maxExportBatchSize = configuration.batchSize
        let (tracer, tracing) = try OTel.makeTracingBackend(configuration: otel)
        let (handlers, logging) = try OTel.makeLoggingBackend(configuration: otel)
        self.tracer = tracer
        self.logger = Logger(label: "rewind", factory: handlers)
        self.ledger = ledger
        let services = ServiceGroup(configuration: .init(
            services: [tracing, logging], gracefulShutdownSignals: [], logger: Logger(label: "rewind.opentelemetry") { _ in SwiftLogNoOpLogHandler() }
        ))
        self.services = services
        running = Task { try? await services.run() }
    }

    /// Flushes what swift-otel holds, stops it and says what was delivered.
    func shutdown() async -> Delivery {
        await services.triggerGracefulShutdown()
        await running.value
        return ledger.delivery
    }
}
