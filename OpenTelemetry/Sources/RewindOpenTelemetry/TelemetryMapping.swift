import Logging
@_spi(Tooling) import Rewind
import Tracing

/// The one rule for what an event becomes in OpenTelemetry, for live sessions and recorded ones:
///
/// - a dispatch is a span (`dispatch <name>`) from its `willDispatch` to its `didDispatch`;
/// - a commit is a child span (`mutate <name>`) of the dispatch it happened inside (or a span of its
///   own), from `willMutate` to `didMutate` — also when it comes after its dispatch ended (a commit
///   made later through the dispatch's context: the recorded parent link says whose it is);
/// - a change is a span event on its commit's span, and — like activities, creations, releases and
///   replaced states — a log record;
/// - every span, span event and log record carries `rewind.recording_id` (the journal's, for a
///   recording; see ``OpenTelemetryConfiguration/recordingID``), `rewind.seq`, `rewind.source`,
///   `rewind.framework`, `rewind.kind`, `rewind.code.file`, `rewind.code.line`, and where there is
///   one `rewind.parent` (the causing dispatch's sequence number), `rewind.path` and `rewind.value`
///   (JSON, redacted as for every logger), a change's `rewind.old` where it is known (a recording's
///   export), and `rewind.summary`: what the event did as the viewer's rows say it
///   (`items[id: 2].done: false → true`, `setEnabled true`);
/// - every attribute has the same type on spans, span events and log records: text (swift-log's
///   metadata, through which log records go, holds nothing else), `rewind.duration_ns` on spans
///   alone an integer; each is capped at ``OpenTelemetryConfiguration/attributeValueLimit``.
///
/// Not thread-safe: one thread drives it. It waits while swift-otel's queues are full (see
/// ``DeliveryLedger``), so that thread must not be the app's.
struct TelemetryMapping {
    private let backend: TelemetryBackend
    /// The `rewind.recording_id` of every span and log record.
    private let recordingID: String
    private let limit: AttributeValueLimit
    /// Dispatches still running, by sequence number.
    private var dispatches: [UInt64: any Span] = [:]
    /// Commits still running, per source, innermost last.
    private var commits: [UInt64: [any Span]] = [:]
    /// The contexts of the latest dispatches that ended, for commits they cause later; the oldest
    /// are forgotten past ``finishedDispatchMemory``.
    private var finishedDispatches: [UInt64: ServiceContext] = [:]
    private var finishedOrder: [UInt64] = []
    private static let finishedDispatchMemory = 4_096

    init(backend: TelemetryBackend, recordingID: String, attributeValueLimit: Int) {
        self.backend = backend
        self.recordingID = recordingID
        limit = AttributeValueLimit(bytes: attributeValueLimit)
    }

    mutating func record(_ event: TelemetryEvent) {
        let instant = Instant(nanosecondsSinceEpoch: UInt64(max(0, event.wallNanoseconds)))
        switch event.kind {
        case .willDispatch:
            let span = startSpan("dispatch \(event.name)", parent: event.parent.flatMap(dispatchContext), event: event, at: instant)
            dispatches[event.sequence] = span
        case .didDispatch:
            guard let sequence = event.parent, let span = dispatches.removeValue(forKey: sequence) else { return }
            span.attributes["rewind.duration_ns"] = event.duration?.nanoseconds ?? 0
            end(span, at: instant)
            remember(span.context, ofFinishedDispatch: sequence)
        case .willMutate:
            let span = startSpan("mutate \(event.name)", parent: event.parent.flatMap(dispatchContext), event: event, at: instant)
            commits[event.sourceID, default: []].append(span)
        case .didMutate:
            guard let span = commits[event.sourceID]?.popLast() else { return }
            span.attributes["rewind.duration_ns"] = event.duration?.nanoseconds ?? 0
            end(span, at: instant)
            if commits[event.sourceID]?.isEmpty == true { commits[event.sourceID] = nil }
        case .change:
            let span = commits[event.sourceID]?.last ?? event.parent.flatMap { dispatches[$0] }
            span?.addEvent(SpanEvent(name: "change \(event.path ?? "")", at: instant, attributes: attributes(of: event)))
            log(event)
        case .released:
            // A unit released in the middle of a commit leaves no span open.
            for span in commits.removeValue(forKey: event.sourceID)?.reversed() ?? [] { end(span, at: instant) }
            log(event)
        case .activity, .created, .replace, .dropped, .log:
            log(event)
        }
    }

    /// Ends every span still open (a session cut short, a journal that ends inside a dispatch), now.
    mutating func endOpenSpans() {
        for span in commits.values.joined() { end(span, at: nil) }
        for (_, span) in dispatches.sorted(by: { $0.key > $1.key }) { end(span, at: nil) }
        dispatches = [:]
        commits = [:]
    }

    private func end(_ span: any Span, at instant: Instant?) {
        backend.ledger.handOver(.spans)
        if let instant { span.end(at: instant) } else { span.end() }
    }

    /// The context of dispatch `sequence`, running or ended.
    private func dispatchContext(_ sequence: UInt64) -> ServiceContext? {
        dispatches[sequence]?.context ?? finishedDispatches[sequence]
    }

    private mutating func remember(_ context: ServiceContext, ofFinishedDispatch sequence: UInt64) {
        finishedDispatches[sequence] = context
        finishedOrder.append(sequence)
        if finishedOrder.count > 2 * Self.finishedDispatchMemory {
            for old in finishedOrder.prefix(Self.finishedDispatchMemory) { finishedDispatches[old] = nil }
            finishedOrder.removeFirst(Self.finishedDispatchMemory)
        }
    }

    private func startSpan(_ name: String, parent: ServiceContext?, event: TelemetryEvent, at instant: Instant) -> any Span {
        let span = backend.tracer.startSpan(
            name, context: parent ?? .topLevel, ofKind: .internal, at: instant,
            function: event.name, file: event.file, line: event.line
        )
        span.attributes = attributes(of: event)
        return span
    }

    private func log(_ event: TelemetryEvent) {
        var metadata: Logger.Metadata = [:]
        fields(of: event) { key, value in metadata[key] = .string(value) }
        metadata["rewind.time_ns"] = .string(String(event.wallNanoseconds))
        let detail = event.path ?? event.name
        var message = limit.capped(detail.isEmpty ? event.kind.rawValue : "\(event.kind.rawValue) \(detail)")
        var level = Logger.Level.info
        if event.kind == .log {
            // The app's own message keeps its text and its severity.
            message = limit.capped(event.summary ?? "")
            level = Logger.Level(rawValue: event.name) ?? .info
        }
        backend.ledger.handOver(.logRecords)
        backend.logger.log(level: level, "\(message)", metadata: metadata, file: event.file, function: event.name, line: event.line)
    }

    private func attributes(of event: TelemetryEvent) -> SpanAttributes {
        var attributes = SpanAttributes()
        fields(of: event) { key, value in attributes[key] = value }
        return attributes
    }

    /// The event's fields as text, capped, in one place for span attributes and log metadata: so
    /// that each has the same type on every signal.
    private func fields(of event: TelemetryEvent, _ addUncapped: (String, String) -> Void) {
        func add(_ key: String, _ value: String) { addUncapped(key, limit.capped(value)) }
        add("rewind.recording_id", recordingID)
        add("rewind.seq", String(event.sequence))
        add("rewind.source", event.source)
        add("rewind.framework", event.framework)
        add("rewind.kind", event.kind.rawValue)
        add("rewind.name", event.name)
        add("rewind.code.file", event.file)
        add("rewind.code.line", String(event.line))
        if let parent = event.parent { add("rewind.parent", String(parent)) }
        if let path = event.path { add("rewind.path", path) }
        if let value = event.value { add("rewind.value", value) }
        if let old = event.old { add("rewind.old", old) }
        if let summary = event.summary { add("rewind.summary", summary) }
    }

    /// An event's wall-clock time as a tracer instant.
    struct Instant: TracerInstant {
        var nanosecondsSinceEpoch: UInt64
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch }
    }
}
