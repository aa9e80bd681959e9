/// Sends every event to several loggers, in order: a journal and the console at once, say.
///
/// ```swift
/// viewModel.set(logger: MultiplexLogger([ConsoleLogger(), try JournalLogger(path: "run.rewind")]))
/// ```
public struct MultiplexLogger: CycleLogging {
    /// The loggers, in the order they receive events.
    public let loggers: [any CycleLogging]

    /// Creates a logger that forwards to all of `loggers`.
    public init(_ loggers: [any CycleLogging]) {
        self.loggers = loggers
    }

    public func log(_ event: Event) {
        for logger in loggers {
            logger.log(event)
        }
    }
}
