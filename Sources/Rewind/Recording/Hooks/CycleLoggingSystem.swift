
/// The process-wide default logger: units that were not given one with `set(logger:)` send their
/// events here. Like swift-log's `LoggingSystem`, set it once at start-up (or in a test's setup).
///
/// ```swift
/// CycleLoggingSystem.bootstrap(ConsoleLogger())
/// ```
public enum CycleLoggingSystem {
    /// Read on every commit of every unit without a logger of its own, so without a lock.
    private static let installed = LoggerSlot()

    /// Makes `logger` the default for every unit without a logger of its own; `nil` turns the
    /// default off.
    public static func bootstrap(_ logger: (any CycleLogging)?) {
        installed.store(logger)
    }

    /// The default logger, if one is installed.
    @inline(__always)
    public static var defaultLogger: (any CycleLogging)? {
        installed.handle?.logger
    }

    /// The default logger as units hold it (see ``LoggerHandle``).
    @inline(__always)
    package static var defaultHandle: LoggerHandle? {
        installed.handle
    }
}
