import Logging

/// A swift-log `LogHandler` that records the application's own log messages into a journal, on the
/// same timeline as its states: each message is a `log` event with its level, message, metadata
/// and place in the code, under the dispatch it was logged inside (its parent), from a source named
/// by the logger's label.
///
/// One line to adopt, beside the handler the app already uses:
///
/// ```swift
/// let journal = try JournalLogger(path: "session.rewind")
/// LoggingSystem.bootstrap { label in
///     MultiplexLogHandler([StreamLogHandler.standardOutput(label: label), RecordingLogHandler(label: label, recordingTo: journal)])
/// }
/// ```
///
/// - The handler's ``logLevel`` is the lowest level recorded (`.info` unless told, swift-log's own
///   default): swift-log asks each handler of a `MultiplexLogHandler` on its own level, and a
///   lower one makes the app build every `debug` message's text for it.
/// - Metadata goes through the state's redaction rules: keys named like secrets (`token`,
///   `password`, …) are redacted at any depth. The message itself is text, and recorded as it is.
/// - A message whose metadata holds ``skipKey`` (``notRecorded``) is left out of the recording.
///
/// Threading: ``log(event:)`` may be called on any
/// thread. On it, the message takes its sequence number, the time and the running dispatch, and
/// goes to the journal's queue with its metadata described (a `.stringConvertible` value, an
/// `error:`, turned into text as swift-log's own handlers do); the metadata's tree is made on the
/// journal's own thread
/// (for a logger that takes records, as ``JournalLogger`` and ``FlightRecorder`` do; another makes
/// it where it is handed the event). Each label makes one source, kept for the process's life.
public struct RecordingLogHandler: LogHandler {
    /// The lowest level recorded.
    public var logLevel: Logger.Level
    /// Metadata added to every message of this handler's logger.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added to every message, read when it is logged.
    public var metadataProvider: Logger.MetadataProvider?

    /// The metadata key that keeps a message out of the recording, whatever its value.
    public static let skipKey = "rewind.skip"
    /// Metadata that keeps a message out of the recording:
    /// `logger.info("raw response \(body)", metadata: RecordingLogHandler.notRecorded)`.
    public static let notRecorded: Logger.Metadata = [skipKey: "true"]

    /// The logger's label as the journal's source of its messages.
    private let channel: EventChannel
    /// Where messages go: `nil` for the process-wide logger (``CycleLoggingSystem/defaultLogger``)
    /// at the time of each message.
    private let target: LoggerHandle?

    /// A handler for the logger labelled `label` that records its messages at `minimumLevel` and
    /// above into `logger` (a ``JournalLogger``, a ``FlightRecorder``'s, or any other), or, when
    /// `nil`, into the process-wide logger of the moment.
    public init(
        label: String, recordingTo logger: (any CycleLogging)? = nil, minimumLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.channel = Self.channel(label: label)
        self.target = logger.map(LoggerHandle.init)
        self.logLevel = minimumLevel
        self.metadataProvider = metadataProvider
    }

    /// Reads or sets one key of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Records one message (see the type's threading contract). An error logged with it is kept
    /// in its metadata, under `error`.
    public func log(event: LogEvent) {
        guard event.level >= logLevel, let target = target ?? CycleLoggingSystem.defaultHandle else { return }
        // The call's metadata over the provider's over the handler's, as swift-log's own
        // handlers merge them.
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { _, new in new } }
        if let explicit = event.metadata, !explicit.isEmpty { merged.merge(explicit) { _, new in new } }
        guard merged[Self.skipKey] == nil else { return }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        Self.describeNow(&merged)
        let recorded = LogMessage(
            level: event.level, message: event.message.description, metadata: merged, file: event.file, function: event.function,
            line: event.line)
        channel.emit(.log(recorded), name: event.level.rawValue, description: recorded.message, callSite: .unknown, to: target)
    }

    /// Describes the values that describe themselves (`.stringConvertible`) now, on the caller's
    /// thread, as swift-log's own handlers do: what is recorded is what was logged, at the moment
    /// it was logged, not what the object says when the journal's thread gets to it. Strings, and
    /// lists and dictionaries of only strings, are left as they are, uncopied.
    private static func describeNow(_ metadata: inout Logger.Metadata) {
        for (key, value) in metadata where value.needsDescribing { metadata[key] = value.describedNow }
    }

    /// One channel per label, so that the messages of every logger made with a label share one
    /// source in the journal.
    private static func channel(label: String) -> EventChannel {
        channels.withLock { channels in
            if let channel = channels[label] { return channel }
            let channel = EventChannel(source: EventSource(framework: .swiftLog, typeName: "Logger", label: label))
            channels[label] = channel
            return channel
        }
    }

    private static let channels = Locked<[String: EventChannel]>([:])
}

extension Logger.MetadataValue {
    /// Whether a value describes itself somewhere inside.
    fileprivate var needsDescribing: Bool {
        switch self {
        case .string: false
        case .stringConvertible: true
        case .dictionary(let fields): fields.values.contains { $0.needsDescribing }
        case .array(let elements): elements.contains { $0.needsDescribing }
        }
    }

    /// The value with every self-describing value inside it turned into its text.
    fileprivate var describedNow: Logger.MetadataValue {
        switch self {
        case .string: self
        case .stringConvertible(let value): .string(value.description)
        case .dictionary(let fields): .dictionary(fields.mapValues(\.describedNow))
        case .array(let elements): .array(elements.map(\.describedNow))
        }
    }
}
