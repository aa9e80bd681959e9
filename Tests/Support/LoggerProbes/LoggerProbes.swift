import Logging
@_spi(Tooling) import Rewind
import Synchronization

/// A logger written the seed's way, printing the raw values its hook methods are handed.
public final class PrintingHookLogger: CycleLogging {
    private let printed = Mutex<[String]>([])
    /// What the hooks were given, a line per call.
    public var lines: [String] { printed.withLock { $0 } }

    public init() {}

    public func didChange(value: Any, for keyPath: AnyKeyPath, root: Any) {
        printed.withLock { $0.append("change \(keyPath) = \(value) in \(root)") }
    }

    public func didReplace(root: Any) {
        printed.withLock { $0.append("replace \(root)") }
    }

    public func didEmit(activity: Any, file: StaticString, function: StaticString, line: UInt, on cycler: AnyCyclerType) {
        printed.withLock { $0.append("activity \(activity)") }
    }
}

/// A swift-log handler that keeps what it is given, as swift-log's own tests do.
public final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    // Unchecked: `recorded` is guarded by its Mutex; the other properties are set before use.
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace
    private let recorded = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])
    /// Every entry logged, in order.
    public var entries: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] { recorded.withLock { $0 } }
    /// Every entry as one line: its message and metadata.
    public var lines: [String] { entries.map { "\($0.message) \($0.metadata)" } }

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        recorded.withLock { $0.append((event.level, event.message.description, event.metadata ?? [:])) }
    }
}
