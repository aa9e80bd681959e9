/// What an export delivered to the OpenTelemetry receiver.
public struct Delivery: Sendable, Equatable {
    /// Spans the receiver accepted.
    public var spansExported: Int
    /// Spans handed to swift-otel that the receiver never accepted (it was down, refused them or
    /// did not answer in time).
    public var spansNotDelivered: Int
    /// Log records the receiver accepted.
    public var logRecordsExported: Int
    /// Log records handed to swift-otel that the receiver never accepted.
    public var logRecordsNotDelivered: Int
    /// Export requests that failed after swift-otel's retries.
    public var failedExports: Int
    /// Why the last failed export failed, as swift-otel reported it.
    public var lastFailure: String?

    /// Whether everything handed over reached the receiver.
    public var isComplete: Bool { spansNotDelivered == 0 && logRecordsNotDelivered == 0 && failedExports == 0 }
}
