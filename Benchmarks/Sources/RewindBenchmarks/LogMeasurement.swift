import Foundation
import Logging
@_spi(Tooling) import Rewind

/// Issue 46's figures for the app's own log messages:
///
/// - what a message costs the app's thread with ``RecordingLogHandler`` (into a journal), beside
///   swift-log's own `StreamLogHandler` (to standard error, here /dev/null) and a handler that
///   drops everything, with and without metadata: nanoseconds per message (the median of 10,000-
///   message batches) and callgrind's instructions and allocations per message;
/// - on a 1,000,000-message recording with one error, `rewind log --kind log --level error` and
///   `rewind query … 'kind == log && level >= error' --first` beside the floor (every block
///   inflated): block summaries know levels, so both read only the error's block.
enum LogMeasurement {
    /// The handler a logger is made with.
    enum Handler: String, CaseIterable, Codable {
        /// `SwiftLogNoOpLogHandler`: the call alone (its level is above every message's).
        case noop
        /// `StreamLogHandler.standardError`: formats each message and writes it (standard output
        /// carries the child's figures).
        case stream
        /// ``RecordingLogHandler`` into a ``JournalLogger``.
        case recording
    }

    /// One handler's cost on the app's thread.
    struct Caller: Codable {
        var handler: String
        var metadata: Bool
        var nanosecondsPerMessage: Double
        var instructionsPerMessage: Double?
        var allocationsPerMessage: Double?
        /// Instructions per message on the other threads: for the recording handler, the
        /// journal's (the metadata's tree, redaction, encoding, compression); for the stream
        /// handler, none (it writes on the caller's thread).
        var writerInstructionsPerMessage: Double?
    }

    /// What `--logs` writes as JSON.
    struct Report: Codable {
        var callers: [Caller]
        var reading: [ReadingMeasurement.Result]
        var machine: String
    }

    /// Messages per timed run, and per batch whose time is one sample.
    static let timedMessages = 500_000
    static let batch = 10_000
    /// Messages per callgrind run (and twice as many: the difference is their cost).
    static let countedMessages = 20_000
    /// The recording read back.
    static let recordedMessages = 1_000_000

    // MARK: The app's thread

    /// Child mode: logs `count` messages with `handler` (into a journal at `file` for the
    /// recording handler); the median nanoseconds per message over batches.
    static func logMessages(handler: Handler, metadata: Bool, count: Int, file: String) throws -> Double {
        var configuration = JournalConfiguration()
        configuration.replaceExisting = true
        let journal = handler == .recording ? try JournalLogger(path: file, configuration: configuration) : nil
        let logger = Logger(label: "app.cache") { label -> any LogHandler in
            switch handler {
            case .noop: SwiftLogNoOpLogHandler()
            case .stream: StreamLogHandler.standardError(label: label)
            case .recording: RecordingLogHandler(label: label, recordingTo: journal)
            }
        }
        var samples: [Double] = []
        var logged = 0
        while logged < count {
            let size = min(batch, count - logged)
            let start = EventTime.monotonicNow()
            for index in logged..<(logged + size) {
                // What an app writes: an interpolated message, and two fields (one a secret).
                if metadata {
                    logger.info("cache miss for user \(index)", metadata: ["user": "\(index)", "token": "tok_live_4242"])
                } else {
                    logger.info("cache miss for user \(index)")
                }
            }
            samples.append(Double(EventTime.monotonicNow() - start) / Double(size))
            logged += size
        }
        journal?.close()
        return samples.sorted()[samples.count / 2]
    }

    /// Each handler with and without metadata: timed in child processes (the median of
    /// `repeats`), and counted under callgrind unless `instructions` is false.
    static func callers(scratch: String, repeats: Int, instructions: Bool) throws -> [Caller] {
        var callers: [Caller] = []
        for handler in Handler.allCases {
            for metadata in [false, true] {
                let mode = "\(handler.rawValue):\(metadata ? "metadata" : "plain")"
                let file = "\(scratch)/caller-\(handler.rawValue).rewind"
                FileHandle.standardError.write(Data("timing \(mode)…\n".utf8))
                var times: [Double] = []
                for _ in 0..<repeats {
                    let data = try ReadingMeasurement.runChild(["--run-log", mode, "--messages", String(timedMessages), "--file", file], quiet: true)
                    times.append(try JSONDecoder().decode(Double.self, from: data))
                }
                var caller = Caller(handler: handler.rawValue, metadata: metadata, nanosecondsPerMessage: times.sorted()[times.count / 2])
                if instructions, InstructionCount.isAvailable {
                    FileHandle.standardError.write(Data("counting instructions: \(mode)…\n".utf8))
                    func count(_ messages: Int) throws -> InstructionCount.Counts {
                        try InstructionCount.count(
                            name: "log-\(handler.rawValue)-\(metadata)-\(messages)",
                            arguments: ["--run-log", mode, "--messages", String(messages), "--file", file], environment: [:], scratch: scratch
                        )
                    }
                    let small = try count(countedMessages), large = try count(2 * countedMessages)
                    caller.instructionsPerMessage = (large.callerInstructions - small.callerInstructions) / Double(countedMessages)
                    caller.allocationsPerMessage = (large.callerAllocations - small.callerAllocations) / Double(countedMessages)
                    caller.writerInstructionsPerMessage = (large.otherInstructions - small.otherInstructions) / Double(countedMessages)
                }
                unlink(file)
                callers.append(caller)
            }
        }
        return callers
    }

    // MARK: Reading a million messages

    /// Child mode: a million messages from four loggers into a journal (`wait`: none dropped),
    /// a warning every 100,000th, and one error three quarters of the way through.
    static func recordSession(file: String) throws {
        var configuration = JournalConfiguration()
        configuration.replaceExisting = true
        let journal = try JournalLogger(path: file, configuration: configuration)
        let loggers = ["app.cache", "app.api", "app.db", "app.ui"].map { label in
            Logger(label: label) { RecordingLogHandler(label: $0, recordingTo: journal) }
        }
        for index in 0..<recordedMessages {
            let logger = loggers[index % loggers.count]
            if index == recordedMessages * 3 / 4 {
                logger.error("connection reset by peer", metadata: ["attempt": "3"])
            } else if index % 100_000 == 99_999 {
                logger.warning("slow answer: \(index % 997) ms", metadata: ["request": "\(index)"])
            } else {
                logger.info("request \(index) answered", metadata: ["status": "200", "user": "\(index % 1_000)"])
            }
        }
        journal.close()
    }

    /// The floor, then each question for the rare error, timed with the release `rewind`.
    static func reading(rewind: String, scratch: String, repeats: Int) throws -> [ReadingMeasurement.Result] {
        let path = "\(scratch)/logs-reading.rewind"
        FileHandle.standardError.write(Data("recording a million messages…\n".utf8))
        try ReadingMeasurement.runChild(["--record-log-session", path])
        let events = try JournalReader(path: path).eventCount
        var results = [try ReadingMeasurement.inflateFloor(journal: "logs", path: path, events: events, repeats: repeats)]
        let commands: [(String, [String])] = [
            ("log --kind log --level error", ["log", path, "--kind", "log", "--level", "error"]),
            ("query level>=error --first", ["query", path, "kind == log && level >= error", "--first"]),
            ("query level>=error --count", ["query", path, "kind == log && level >= error", "--count"]),
            ("log --kind log --level warning", ["log", path, "--kind", "log", "--level", "warning"]),
            ("log --kind log (every message)", ["log", path, "--kind", "log"])
        ]
        for (name, arguments) in commands {
            var runs: [(seconds: Double, megabytes: Double)] = []
            for _ in 0..<repeats { runs.append(try ReadingMeasurement.timeCommand(rewind, arguments)) }
            let median = runs.sorted { $0.seconds < $1.seconds }[runs.count / 2]
            results.append(
                ReadingMeasurement.Result(
                    journal: "logs", events: events, operation: name, seconds: median.seconds,
                    eventsPerSecond: Double(events) / median.seconds, peakResidentMegabytes: median.megabytes
                ))
            FileHandle.standardError.write(Data("  logs \(name): \(String(format: "%.3f", median.seconds)) s\n".utf8))
        }
        unlink(path)
        return ReadingMeasurement.withFloorRatios(results)
    }

    static func table(_ callers: [Caller]) -> String {
        var lines = ["handler     metadata   ns/message   instructions/message   allocations/message   writer instructions/message"]
        for caller in callers {
            lines.append(
                [
                    caller.handler.padding(toLength: 11, withPad: " ", startingAt: 0),
                    (caller.metadata ? "yes" : "no").padding(toLength: 8, withPad: " ", startingAt: 0),
                    String(format: "%12.0f", caller.nanosecondsPerMessage),
                    caller.instructionsPerMessage.map { String(format: "%22.0f", $0) } ?? String(repeating: " ", count: 21) + "—",
                    caller.allocationsPerMessage.map { String(format: "%21.2f", $0) } ?? String(repeating: " ", count: 20) + "—",
                    caller.writerInstructionsPerMessage.map { String(format: "%29.0f", $0) } ?? String(repeating: " ", count: 28) + "—"
                ].joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }
}
