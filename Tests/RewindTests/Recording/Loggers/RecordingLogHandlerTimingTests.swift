import Foundation
import Logging
@_spi(Tooling) @testable import Rewind
import Synchronization
import TestSupport
import Testing

/// When a message's metadata is read, and what the writer's own thread may log (issue 63).
@Suite("RecordingLogHandler: what was logged, when it was logged")
struct RecordingLogHandlerTimingTests {
    /// A value whose description is its count of the moment, as a metrics object's is.
    final class Counter: CustomStringConvertible, @unchecked Sendable {
        // Written and read by the test's thread only; the journal's thread must never read it.
        var value = 0
        var description: String { "\(value)" }
    }

    struct Failure: Error, CustomStringConvertible {
        let counter: Counter
        var description: String { "failed at \(counter.value)" }
    }

    @Test("a self-describing value and an error are recorded as they were at the moment they were logged, as StreamLogHandler prints them")
    func metadataIsDescribedWhenLogged() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ticks.rewind")
        let journal = try JournalLogger(path: path)
        let logger = Logger(label: "app.ticks") { RecordingLogHandler(label: $0, recordingTo: journal) }
        let counter = Counter()
        for tick in 0..<2_000 {
            counter.value = tick
            logger.info(
                "tick \(tick)", metadata: ["counter": .stringConvertible(counter), "nested": .array([.stringConvertible(counter)])])
            if tick % 500 == 0 { logger.error("tick failed", error: Failure(counter: counter)) }
        }
        counter.value = -1
        journal.close()
        let messages = Array(try JournalReader(path: path).events()).filter { $0.kind == .log }
        #expect(messages.count == 2_004)
        var errors: [String] = []
        for message in messages {
            guard case .object(let fields) = message.value else {
                Issue.record("no metadata on \(message.description)")
                continue
            }
            if message.description == "tick failed" {
                guard case .string(let text) = fields["error"] else {
                    Issue.record("no error")
                    continue
                }
                errors.append(text)
                continue
            }
            let tick = String(message.description.dropFirst("tick ".count))
            #expect(fields["counter"] == .string(tick), "\(message.description): \(String(describing: fields["counter"]))")
            #expect(fields["nested"] == .array([.string(tick)]))
        }
        #expect(errors == ["failed at 0", "failed at 500", "failed at 1000", "failed at 1500"])
    }

    @Test("a journal's onFailure that logs into the same full journal, through RecordingLogHandler, returns: the writer's thread never waits for itself")
    func loggingInsideOnFailureNeverWaits() throws {
        let directory = TemporaryDirectory()
        let appLogger = Mutex<Logger?>(nil)
        let told = DispatchSemaphore(value: 0)
        var configuration = JournalConfiguration()
        // Two places: the callback's third message finds the queue full, and nobody but the
        // writer's thread, the callback's own, could make room.
        configuration.queueCapacity = 2
        configuration.overflow = .wait
        configuration.sizeLimitForTesting = 1024
        configuration.onFailure = { error in
            let logger = appLogger.withLock { $0 }
            for attempt in 0..<8 { logger?.error("journal failed (\(attempt))", metadata: ["error": "\(error)"]) }
            told.signal()
        }
        let journal = try JournalLogger(path: directory.file("full.rewind"), configuration: configuration)
        let logger = Logger(label: "app") { RecordingLogHandler(label: $0, recordingTo: journal) }
        appLogger.withLock { $0 = logger }
        // Text that compresses little: its block does not fit the disk.
        logger.info("\((0..<600).map { String(UInt64($0) &* 0x9E37_79B9_7F4A_7C15, radix: 36) }.joined())")
        #expect(throws: JournalWriteError.self) { try journal.sync() }
        try #require(told.wait(timeout: .now() + 60) == .success, "the writer waited for itself in onFailure")
        #expect(journal.statistics.eventsDropped > 0, "what did not fit was dropped and counted")
        journal.close()
    }
}
