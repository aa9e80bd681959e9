import Cycler
import Dispatch
import Foundation
import Logging
import LoggerProbes
@_spi(Tooling) @testable import Rewind
import TestSupport
import Testing

/// An app's own swift-log messages recorded beside its states (``RecordingLogHandler``): inside a
/// dispatch, in an effect that answers later on another thread, and from several threads outside
/// any dispatch — each once, at its step, under its dispatch, with its secrets redacted, in every
/// reader.
@Suite("The app's own log messages on the timeline")
struct LogsOnTheTimelineTests {
    /// A checkout whose dispatch logs, and whose payment answers later from another thread.
    final class Checkout: CyclerType, Sendable {
        struct State: Codable, Equatable {
            var total = 0
            var status = "idle"
        }
        let state: Storage<State> = .init(.init())
        let logger: Logger

        init(logger: Logger) {
            self.logger = logger
        }

        /// Logs inside the dispatch, then answers from a queue as an effect of it, once `answer`
        /// is signalled (after the dispatch ended: every run's events come in one order).
        func checkout(amount: Int, answer: DispatchSemaphore, answered: DispatchGroup) {
            dispatch("checkout") { context in
                logger.info("checkout started", metadata: ["amount": "\(amount)", "token": "tok_live_123", "card": ["number": "4242", "password": "hunter2"]])
                logger.trace("a trace below the recorded level")
                logger.debug("raw card \(amount)", metadata: RecordingLogHandler.notRecorded)
                context.commit("add to total") { $0.update($0.value.total + amount, \.total) }
                let cause = DispatchScope.currentDispatch
                answered.enter()
                DispatchQueue.global().async {
                    answer.wait()
                    DispatchScope.runEffect(causedBy: cause) {
                        self.logger.error("payment failed: 503", metadata: ["status": "503"])
                        context.commit("decline") { $0.update("declined", \.status) }
                    }
                    answered.leave()
                }
            }
        }
    }

    struct Recording {
        let directory: TemporaryDirectory
        let path: String
        /// The messages logged from threads outside any dispatch.
        let outside: Set<String>
    }

    static func record() throws -> Recording {
        let directory = TemporaryDirectory()
        let path = directory.file("checkout.rewind")
        let journal = try JournalLogger(path: path)
        let payments = Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: journal, minimumLevel: .debug) }
        let checkout = Checkout(logger: payments)
        checkout.set(logger: journal)
        let answer = DispatchSemaphore(value: 0), answered = DispatchGroup()
        checkout.checkout(amount: 5, answer: answer, answered: answered)
        answer.signal()
        answered.wait()
        payments.notice("session ended")
        // Four threads log outside any dispatch, with loggers of another label made on each.
        let threads = 4, each = 25
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let cache = Logger(label: "app.cache") { RecordingLogHandler(label: $0, recordingTo: journal) }
            for index in 0..<each { cache.warning("cache miss \(thread)-\(index)", metadata: ["user": "\(index)"]) }
        }
        journal.close()
        let outside = Set((0..<threads).flatMap { thread in (0..<each).map { "cache miss \(thread)-\($0)" } })
        return Recording(directory: directory, path: path, outside: outside)
    }

    @Test("each message is read back once, at its step, under its dispatch, with its level, place and redacted metadata")
    func readBack() throws {
        let recording = try Self.record()
        let events = try JournalReader(path: recording.path).allEvents()
        let logs = events.filter { $0.kind == .log }
        #expect(logs.count == 3 + recording.outside.count, "the trace and the message kept out are not recorded")
        #expect(Set(logs.map(\.description)).count == logs.count, "each message once")
        #expect(Set(logs.map(\.description)).isSuperset(of: recording.outside))

        let dispatch = try #require(events.first { $0.kind == .willDispatch && $0.name == "checkout" })
        let started = try #require(logs.first { $0.description == "checkout started" })
        #expect(started.logLevel == .info && started.name == "info")
        #expect(started.parent == dispatch.sequence, "logged inside the dispatch")
        #expect(started.source.description == "app.payments" && started.source.framework == "swift-log")
        #expect(started.file.hasSuffix("LogsOnTheTimelineTests.swift") && started.line > 0)
        let metadata = try #require(started.value)
        #expect(metadata[StatePath([.key("amount")])] == .string("5"))
        #expect(Self.isRedacted(metadata[StatePath([.key("token")])]), "a key named like a secret")
        #expect(Self.isRedacted(metadata[StatePath([.key("card"), .key("password")])]), "nested too")
        #expect(metadata[StatePath([.key("card"), .key("number")])] == .string("4242"))
        #expect(!String(describing: events).contains("hunter2") && !String(describing: events).contains("tok_live_123"))

        let ended = try #require(logs.first { $0.description == "session ended" })
        #expect(ended.value == nil && ended.parent == nil && ended.logLevel == .notice, "a message without metadata carries none")

        let failed = try #require(logs.first { $0.description == "payment failed: 503" })
        #expect(failed.logLevel == .error && failed.parent == dispatch.sequence, "an effect's message names the dispatch that caused it")
        let decline = try #require(events.first { $0.kind == .willMutate && $0.name == "decline" })
        #expect(failed.sequence < decline.sequence, "at its step: before the commit it preceded")

        for log in logs where recording.outside.contains(log.description) {
            #expect(log.parent == nil && log.logLevel == .warning && log.source.description == "app.cache")
        }
        #expect(Set(logs.filter { $0.source.description == "app.cache" }.map(\.source.instanceID)).count == 1, "one source per label")
    }

    @Test("an error logged with a message is kept in its metadata; the swift-log bridge does not send a log message back to swift-log")
    func errorsAndTheBridge() throws {
        struct Timeout: Error, CustomStringConvertible {
            var description: String { "timed out after 30 s" }
        }
        let kept = InMemoryLogger()
        let probe = CapturingLogHandler()
        // Rewind's events go to swift-log too, and swift-log's messages are recorded: a message
        // recorded must not come back through the bridge.
        let everything = MultiplexLogger([kept, SwiftLogBridge(Logger(label: "bridge") { _ in probe })])
        let network = Logger(label: "app.network") { RecordingLogHandler(label: $0, recordingTo: everything) }
        network.error("request failed", error: Timeout())
        let logs = kept.events.filter { $0.kind.category == .log }
        #expect(logs.count == 1)
        guard case .log(let message)? = logs.first?.kind else { return }
        #expect(message.metadataTree()?[StatePath([.key("error")])] == .string("timed out after 30 s"))
        #expect(message.level == .error && message.message == "request failed")
        #expect(probe.entries.isEmpty, "nothing sent back to swift-log")
    }

    /// 600 info messages and commits in more than ten blocks, with one error among them.
    static func recordBusy(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("busy.rewind")
        var configuration = JournalConfiguration()
        configuration.blockSize = 2_048
        let journal = try JournalLogger(path: path, configuration: configuration)
        let checkout = Checkout(logger: Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: journal) })
        checkout.set(logger: journal)
        let cache = Logger(label: "app.cache") { RecordingLogHandler(label: $0, recordingTo: journal) }
        for step in 0..<600 {
            cache.info("lookup \(step)")
            checkout.commit("touch") { $0.update(step, \.total) }
            if step == 450 { cache.error("cache corrupted") }
        }
        journal.close()
        return path
    }

    @Test("block summaries know levels: a question about errors reads only the blocks that hold one")
    func summariesKnowLevels() throws {
        let directory = TemporaryDirectory()
        let path = try Self.recordBusy(in: directory)
        let reader = try JournalReader(path: path)
        #expect(reader.blocks.count > 10)
        let errors = try Condition(parsing: "kind == log && level >= error")
        let holding = reader.blocks.indices.filter { reader.mayHold(errors, inBlock: $0) }
        #expect(holding.count == 1, "only the block with the error: \(holding)")
        let found = Array(reader.steps(where: errors))
        #expect(found.map(\.event.description) == ["cache corrupted"])
        let infos = try Condition(parsing: "level == info")
        #expect(reader.blocks.indices.allSatisfy { reader.mayHold(infos, inBlock: $0) }, "every block logs an info message")
    }

    @Test("log --kind log --level error reads only the blocks whose summaries may hold an error")
    func logSkipsBlocksByLevel() throws {
        let directory = TemporaryDirectory()
        let path = try Self.recordBusy(in: directory)
        #expect(Condition.logMessages(from: .error) == (try Condition(parsing: "kind == log && level >= error")))
        let reader = try JournalReader(path: path)
        let holding = reader.blocks.indices.filter { reader.mayHold(.logMessages(from: .error), inBlock: $0) }
        #expect(holding.count == 1 && reader.blocks.count > 10, "the summaries rule out every block but the error's: \(holding)")
        // Every other block is damaged in its compressed bytes: read, it would be reported.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        for index in reader.blocks.indices where !holding.contains(index) {
            let block = reader.blocks[index]
            bytes[block.offset + JournalFormat.frameHeaderLength + Int(block.frame.compressedLength) / 2] ^= 0xFF
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let errors = try CommandRunner.run(["log", path, "--kind", "log", "--level", "error"])
        #expect(errors.status == 0 && errors.standardError.isEmpty, "\(errors.standardError)")
        #expect(errors.standardOutput.split(separator: "\n").count == 1 && errors.standardOutput.contains("cache corrupted"))
        let infos = try CommandRunner.run(["log", path, "--kind", "log", "--level", "info"])
        #expect(infos.standardError.contains("damage"), "the damaged blocks are read for info messages: \(infos.standardError)")
    }

    @Test("a log record in a file whose header says format 5 (before log records existed) is damage, not a message")
    func logRecordInAnOlderFormatIsDamage() throws {
        let recording = try Self.record()
        let reader = try JournalReader(path: recording.path)
        var header = reader.header
        header.formatVersion = 5
        let encoded = header.encoded()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recording.path)))
        try #require(Array(bytes.prefix(encoded.count)) != encoded)
        bytes.replaceSubrange(0..<encoded.count, with: encoded)
        let older = recording.directory.file("older.rewind")
        try Data(bytes).write(to: URL(fileURLWithPath: older))

        let reread = try JournalReader(path: older)
        #expect(reread.header.formatVersion == 5)
        let events = Array(try reread.events())
        #expect(!events.contains { $0.kind == .log }, "no block with a log record reads as one")
        #expect(reread.damage.contains { $0.reason.contains("a log record in a file of format 5") }, "\(reread.damage)")
        let verified = try CommandRunner.run(["verify", older])
        #expect(verified.status != 0 && verified.standardOutput.contains("damaged"), "\(verified.transcript)")
    }

    @Test(
        "a flight recorder's condition on log messages dumps at the error logged, alone or as a term of a ||; a condition on the state alone is not judged at messages"
    )
    func flightRecorderDumpsOnAnError() throws {
        let directory = TemporaryDirectory()
        var configuration = FlightRecorder.Configuration()
        configuration.conditions = try ["level >= error", "status != \"idle\"", "level >= error || status != \"idle\""].map(Condition.init(parsing:))
        configuration.rateLimit = .unlimited
        configuration.tail = .zero
        let made = Locked<[String]>([])
        let dumped = DispatchSemaphore(value: 0)
        configuration.onDump = { path in
            made.withLock { $0.append(path) }
            dumped.signal()
        }
        let recorder = try FlightRecorder(path: directory.file("checkout.rewind-ring"), configuration: configuration)
        let checkout = Checkout(logger: Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: recorder) })
        checkout.set(logger: recorder)
        checkout.logger.info("checkout started")
        checkout.logger.warning("card slow to answer")
        checkout.logger.error("payment failed: 503")
        checkout.logger.error("payment failed again: 503")
        try recorder.sync()
        for _ in 0..<4 { try #require(dumped.wait(timeout: .now() + .seconds(600)) == .success, "no dump was made") }
        recorder.close()
        let dumps = try made.withLock { $0 }.map { try JournalReader(path: $0) }
        let whys = dumps.compactMap(\.header.dump)
        let mixed = #"level >= error || status != "idle" on app.payments"#
        let alone = "level >= error on app.payments"
        #expect(whys.map(\.reason).sorted() == [alone, alone, mixed, mixed], "a dump at each error, for each")
        let steps = zip(dumps, whys).map { dump, why in dump.allEvents().first { $0.sequence == why.step }?.description ?? "" }
        #expect(steps.sorted() == ["payment failed again: 503", "payment failed again: 503", "payment failed: 503", "payment failed: 503"])
        // `status` is nil at a message (a logger has no state): judged there, `status != "idle"`
        // alone, or as a term of the `||`, would have dumped at the first message too.
        #expect(made.withLock { $0.count } == 4)
    }

    @Test("a condition can hold only at a log message when it requires kind == log or compares level with a level, in every term of a ||")
    func conditionsOnMessages() throws {
        let onlyAtMessages = [
            "level >= error", "kind == log", "log == kind && name == \"error\"", "level == warning && total > 3",
            "level > info || (kind == log && name == \"debug\")", "warning <= level"
        ]
        let anywhere = [
            "status != \"idle\"", "!(level >= error)", "level != error", "level >= error || status != \"idle\"",
            "kind != log", "name == \"error\"", "level == nil"
        ]
        for text in onlyAtMessages { #expect(try Condition(parsing: text).holdsOnlyAtLogMessages, "\(text)") }
        for text in anywhere { #expect(try !Condition(parsing: text).holdsOnlyAtLogMessages, "\(text)") }
    }

    @Test("a message's metadata tree is the one a state capture makes of the same values: redaction by key at any depth, stable order, the depth limit")
    func metadataTreeIsTheCapturesTree() {
        func plain(_ value: Logger.MetadataValue) -> Any {
            switch value {
            case .string(let text): text
            case .stringConvertible(let convertible): convertible.description
            case .dictionary(let fields): fields.mapValues(plain)
            case .array(let elements): elements.map(plain)
            }
        }
        let samples: [Logger.Metadata] = [
            ["amount": "5", "token": "tok_live_123"],
            ["card": ["number": "4242", "password": "hunter2", "owner": ["name": "Ada", "pin": "1234"]], "z": "last", "a": "first"],
            ["tags": ["blue", "green", ["apiKey": "k"]], "retries": .stringConvertible(3), "secret": ["nested": "x"], "tokens": ["a", "b"]],
            ["deep": ["a": ["b": ["c": ["d": "e"]]]], "list": [[["x"]]]]
        ]
        for options in [CaptureOptions.current, CaptureOptions(redaction: .default, maximumDepth: 2)] {
            for metadata in samples {
                let message = LogMessage(level: .info, message: "m", metadata: metadata, file: "f", function: "g", line: 1)
                let captured = StateCapture.capture(metadata.mapValues(plain), options: options)
                #expect(message.metadataTree(options: options) == captured, "\(metadata)")
            }
        }
    }

    @Test("a message counts for its text in the journal's queue: long messages past its byte limit are dropped in drop mode, counted exactly")
    func queueCountsMessages() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("chatty.rewind")
        var configuration = JournalConfiguration()
        // Room for a thousand short events, not for two hundred 16 KB messages.
        configuration.queueByteLimit = 256 * 1_000
        configuration.overflow = .drop
        let journal = try JournalLogger(path: path, configuration: configuration)
        let chatty = Logger(label: "app.dump") { RecordingLogHandler(label: $0, recordingTo: journal) }
        let page = String(repeating: "x", count: 16 * 1024)
        for index in 0..<200 { chatty.info("response \(index): \(page)") }
        journal.close()
        let dropped = journal.statistics.eventsDropped
        let events = try JournalReader(path: path).allEvents()
        #expect(dropped > 0)
        #expect(events.compactMap(\.dropped).reduce(0) { $0 + $1.count } == dropped)
        #expect(UInt64(events.filter { $0.kind == .log }.count) + dropped == 200)
    }

    static func object(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func isRedacted(_ value: StateValue?) -> Bool {
        if case .opaque(let leaf)? = value { leaf.isRedacted } else { false }
    }

    @Test("log, log --json, --level, query and export show each message")
    func readers() throws {
        let recording = try Self.record()
        let path = recording.path

        let lines = try CommandRunner.run(["log", path, "--kind", "log"])
        #expect(lines.status == 0)
        let rows = lines.standardOutput.split(separator: "\n")
        #expect(rows.count == 3 + recording.outside.count)
        let failedRow = try #require(rows.first { $0.contains("payment failed: 503") })
        #expect(failedRow.contains("app.payments") && failedRow.contains(" log ") && failedRow.contains("error") && failedRow.contains("{status: \"503\"}"))

        let errors = try CommandRunner.run(["log", path, "--kind", "log", "--level", "error"])
        #expect(errors.standardOutput.split(separator: "\n").count == 1)
        let everything = try CommandRunner.run(["log", path, "--level", "warning"])
        #expect(!everything.standardOutput.contains("checkout started"), "an info message is below warning")
        #expect(everything.standardOutput.contains("add to total"), "other kinds are kept")
        let unknown = try CommandRunner.run(["log", path, "--level", "loud"])
        #expect(unknown.status != 0 && unknown.standardError.contains("unknown level 'loud'"))

        let json = try CommandRunner.run(["log", path, "--kind", "log", "--json"])
        let objects = try json.standardOutput.split(separator: "\n").map(Self.object)
        let started = try #require(objects.first { $0["description"] as? String == "checkout started" })
        #expect(started["kind"] as? String == "log" && started["name"] as? String == "info")
        // Under the names the export's rows give them too: one name for one thing.
        #expect(started["level"] as? String == "info" && started["message"] as? String == "checkout started")
        #expect((started["value"] as? [String: Any])?["amount"] as? String == "5")
        #expect(!json.standardOutput.contains("hunter2") && !json.standardOutput.contains("tok_live_123"))
        let eventSchema = try JSONSchemaCheck(file: JSONOutputTests.schemas + "event.schema.json")
        for line in json.standardOutput.split(separator: "\n") { #expect(eventSchema.problems(try JSONValue.parse(line)) == [], "\(line)") }

        #expect(rows.contains { $0.hasSuffix("notice    session ended") || $0.contains(" notice ") && $0.hasSuffix("session ended") })
        let verified = try CommandRunner.run(["verify", path, "--deep"])
        #expect(verified.status == 0, "\(verified.standardOutput)\(verified.standardError)")
        // Two runs of the app log other orders and values; their units did the same.
        let again = try Self.record()
        let diff = try CommandRunner.run(["diff", path, again.path])
        #expect(diff.status == 0, "\(diff.standardOutput)")

        let count = try CommandRunner.run(["query", path, "kind == log && level >= error", "--count"])
        #expect(count.standardOutput.contains("1"), "\(count.standardOutput)")
        let first = try CommandRunner.run(["query", path, "level >= warning", "--first"])
        #expect(first.status == 0 && first.standardOutput.contains("payment failed: 503"), "\(first.standardOutput)")
        let badLevel = try CommandRunner.run(["query", path, "level >= loud"])
        #expect(badLevel.standardError.contains("unknown level 'loud'"))

        let export = try CommandRunner.run(["export", path, "--format", "jsonl"])
        #expect(export.status == 0)
        let exported = export.standardOutput.split(separator: "\n").filter { $0.contains("\"kind\":\"log\"") }
        #expect(exported.count == 3 + recording.outside.count)
        let rowSchema = try JSONSchemaCheck(file: JSONOutputTests.schemas + "export-row.schema.json")
        for row in export.standardOutput.split(separator: "\n") { #expect(rowSchema.problems(try JSONValue.parse(row)) == [], "\(row)") }
        let table = try export.standardOutput.split(separator: "\n").map(Self.object)
        let failedExport = try #require(table.first { $0["message"] as? String == "payment failed: 503" })
        #expect(failedExport["level"] as? String == "error" && failedExport["label"] as? String == "app.payments")
        #expect((failedExport["metadata"] as? [String: Any])?["status"] as? String == "503")
        let commitRow = try #require(table.first { $0["kind"] as? String == "didMutate" })
        #expect(commitRow["level"] is NSNull && commitRow["label"] is NSNull && commitRow["message"] is NSNull && commitRow["metadata"] is NSNull)
        #expect(!export.standardOutput.contains("hunter2"))
    }
}
