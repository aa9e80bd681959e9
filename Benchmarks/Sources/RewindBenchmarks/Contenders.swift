import Foundation
import Logging
@_spi(Tooling) import Rewind
import Synchronization

/// What records the workload's events.
enum Contender: String, CaseIterable {
    /// No logger: the baseline.
    case none
    /// Rewind's journal.
    case journal
    /// Rewind's journal with `overflow = .drop`: under overload the app keeps its speed and the
    /// journal counts what it could not keep.
    case drop
    /// The logger a developer would write by hand: JSONEncoder per event, a line per event appended
    /// through FileHandle.
    case naive
    /// A full state snapshot per event kept in memory, as Redux DevTools does.
    case snapshots
    /// Rewind's flight recorder: the journal's writer, into a 16 MiB ring file.
    case ring
    /// A logger that does nothing: what making and handing over the events costs on its own.
    case discard
    /// What many people write: a swift-log `StreamLogHandler` line per event with
    /// `String(describing:)` of the state.
    case swiftlog
}

/// Receives events and drops them.
struct DiscardingLogger: CycleLogging {
    func log(_ event: Event) {}
}

/// The hand-written logger: each event becomes a JSON line with its state, written at once.
final class NaiveJSONLogger: CycleLogging, @unchecked Sendable {
    // Unchecked: the file handle and encoder are used under `lock`.
    private let lock = NSLock()
    private let handle: FileHandle
    private let encoder = JSONEncoder()

    struct Line: Encodable {
        var seq: UInt64
        var time: Double
        var source: String
        var kind: String
        var name: String
        var file: String
        var line: UInt
        var value: AnyEncodable?
        var state: AnyEncodable?
    }

    struct AnyEncodable: Encodable {
        let value: any Encodable
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    init(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)!
    }

    func log(_ event: Event) {
        var value: AnyEncodable?
        if case .change(_, let changed, _) = event.kind, let encodable = changed.value as? any Encodable { value = AnyEncodable(value: encodable) }
        let state = (event.kind.state?.value as? any Encodable).map(AnyEncodable.init)
        let line = Line(
            seq: event.sequence, time: event.time.date.timeIntervalSince1970, source: event.source.description,
            kind: event.kind.name, name: event.name, file: event.callSite.file.description, line: event.callSite.line,
            value: value, state: state
        )
        lock.lock()
        defer { lock.unlock() }
        var data = try! encoder.encode(line)
        data.append(0x0A)
        handle.write(data)
    }

    func close() {
        try? handle.synchronize()
        try? handle.close()
    }
}

/// Keeps every state it is given, per event, in memory.
final class SnapshotLogger: CycleLogging {
    private let snapshots = Mutex<[(UInt64, LoggedValue?)]>([])

    func log(_ event: Event) {
        snapshots.withLock { $0.append((event.sequence, event.kind.state)) }
    }

    var count: Int { snapshots.withLock { $0.count } }
}

/// A swift-log logger writing one text line per event, the state printed with
/// `String(describing:)`, through swift-log's `StreamLogHandler` on standard error — redirected to
/// the contender's file, as an app's stderr is when it runs under a service manager.
final class SwiftLogTextLogger: CycleLogging, @unchecked Sendable {
    // Unchecked: swift-log's stream handler locks around each write.
    private let logger: Logger

    init(path: String) {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        dup2(file, STDERR_FILENO)
        Glibc.close(file)
        var logger = Logger(label: "rewind.benchmark") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .info
        self.logger = logger
    }

    func log(_ event: Event) {
        let state = event.kind.state.map { String(describing: $0.value) } ?? "-"
        logger.info("\(event.source) \(event.kind.name) \(event.name) \(state)")
    }

    func close() {
        fsync(STDERR_FILENO)
    }
}
