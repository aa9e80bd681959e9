import Foundation
@_spi(Tooling) import Rewind

/// Where Rewind sends events over OTLP/HTTP, and how: for ``OpenTelemetryLogger`` (a live session)
/// and ``OpenTelemetryExport`` (a recorded journal).
///
/// ```swift
/// let configuration = OpenTelemetryConfiguration(endpoint: "http://collector:4318", serviceName: "checkout-app")
/// ```
///
/// swift-otel's `OTEL_*` environment variables (`OTEL_EXPORTER_OTLP_ENDPOINT`,
/// `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`, …) override these settings, as the
/// OpenTelemetry specification asks of every SDK.
public struct OpenTelemetryConfiguration: Sendable {
    /// The receiver's OTLP/HTTP base address; `/v1/traces` and `/v1/logs` are appended. An
    /// OpenTelemetry Collector, Jaeger and Grafana Alloy all listen on port 4318.
    public var endpoint: String
    /// The `service.name` resource attribute every span and log record carries.
    public var serviceName: String
    /// Extra HTTP headers for every export request (an API key, say).
    public var headers: [(String, String)]
    /// How long one export request may take, retries included, before it counts as failed.
    public var exportTimeout: Duration
    /// At most this many spans (or log records) go in one export request.
    public var batchSize: Int
    /// How often batches are sent while events keep coming.
    public var flushInterval: Duration
    /// How many events a live ``OpenTelemetryLogger`` holds while the receiver is slow or down;
    /// further events are dropped and counted, so that the app is never held up.
    public var queueCapacity: Int
    /// How a live logger captures events' values (redaction applies first, as for every logger).
    public var captureOptions: CaptureOptions
    /// The most UTF-8 bytes an attribute's value (or a log record's body) may take: a longer one
    /// — a whole state, a large input — is cut and ends with a marker saying how long it was
    /// (`…[cut: 182340 bytes]`). At least 64.
    public var attributeValueLimit: Int
    /// The `rewind.recording_id` every span and log record of a live ``OpenTelemetryLogger``
    /// carries: give it the journal's (``Rewind/JournalLogger/recordingID``) to tie the two
    /// together. `nil`: a fresh identifier for the logger. An export of a recorded journal always
    /// carries the journal's own.
    public var recordingID: UUID?

    /// A configuration for the receiver at `endpoint`.
    public init(
        endpoint: String = "http://localhost:4318",
        serviceName: String = "rewind",
        headers: [(String, String)] = [],
        exportTimeout: Duration = .seconds(10),
        batchSize: Int = 1_024,
        flushInterval: Duration = .milliseconds(200),
        queueCapacity: Int = 8_192,
        captureOptions: CaptureOptions = .current,
        attributeValueLimit: Int = 4_096,
        recordingID: UUID? = nil
    ) {
        self.endpoint = endpoint
        self.serviceName = serviceName
        self.headers = headers
        self.exportTimeout = exportTimeout
        self.batchSize = batchSize
        self.flushInterval = flushInterval
        self.queueCapacity = queueCapacity
        self.captureOptions = captureOptions
        self.attributeValueLimit = attributeValueLimit
        self.recordingID = recordingID
    }
}
