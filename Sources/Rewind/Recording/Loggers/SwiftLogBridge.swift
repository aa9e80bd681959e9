import Logging

/// Sends every event but the app's own log messages (`log`, which came from swift-log) to a
/// swift-log `Logger`, so Rewind's events join the rest of an application's
/// logs (and whatever backend it bootstrapped). The message is the kind and name; the fields go into
/// the metadata: `seq`, `source`, `kind`, `file`, `line`, `parent`, and `value` where there is one.
///
/// ```swift
/// viewModel.set(logger: SwiftLogBridge(Logger(label: "app.viewmodels")))
/// ```
public struct SwiftLogBridge: CycleLogging {
    /// The logger events are sent to.
    public let logger: Logger
    /// The level events are logged at.
    public let level: Logger.Level
    private let formatter: EventFormatter

    /// Creates a bridge to `logger`, logging at `level`.
    ///
    /// The default, `.info`, is swift-log's default log level, so a `Logger` made with the default
    /// settings shows the events. Pass `.debug` (or `.trace`) to keep them out of a logger's normal
    /// output; they are then sent only where the logger's level is set that low.
    public init(_ logger: Logger, level: Logger.Level = .info, captureOptions: CaptureOptions = .current) {
        self.logger = logger
        self.level = level
        self.formatter = EventFormatter(captureOptions: captureOptions)
    }

    public func log(_ event: Event) {
        // A `log` event is a swift-log message already (``RecordingLogHandler``): sent back, it
        // would be logged twice, and recorded again, without end.
        if case .log = event.kind { return }
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "seq": "\(event.sequence)",
            "source": "\(event.source.description)",
            "framework": "\(event.source.framework.rawValue)",
            "kind": "\(event.kind.name)",
            "file": "\(event.callSite.file)",
            "line": "\(event.callSite.line)",
        ]
        if let parent = event.parent { metadata["parent"] = "\(parent)" }
        if !event.description.isEmpty { metadata["description"] = "\(event.description)" }
        let detail = formatter.detail(of: event)
        if !detail.isEmpty { metadata["value"] = "\(detail)" }
        logger.log(
            level: level, "\(event.kind.name) \(event.name)", metadata: metadata,
            file: event.callSite.file.description, function: event.callSite.function.description, line: event.callSite.line
        )
    }
}
