import Foundation
import Logging
@_spi(Tooling) import Rewind
import RewindViewer
import Testing
import TestSupport

/// The app's own log messages in the viewer: a row with its level and message, hidden below a
/// level by the filter, found by search.
@Suite("Log messages in the viewer")
struct LogRowTests {
    /// A counter whose commits are logged around: an info, a warning and an error.
    static func record(to path: String) throws {
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Cart", label: nil))
        let logger = Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: journal) }
        for (step, message) in ["charged card", "retrying charge", "payment failed: 503"].enumerated() {
            channel.emit(.willMutate, name: "charge", callSite: CallSite(), to: journal)
            channel.emit(.didMutate(duration: .zero, state: LoggedValue(["total": step])), name: "charge", callSite: CallSite(), to: journal)
            switch step {
            case 0: logger.info("\(message)", metadata: ["amount": "5"])
            case 1: logger.warning("\(message)")
            default: logger.error("\(message)", metadata: ["status": "503", "token": "tok_9"])
            }
        }
        journal.close()
    }

    @Test("a log row shows its source, kind, level, message and metadata; level>=warning hides the info; search finds the error")
    func rowsFilterAndSearch() throws {
        try ViewerFixtures.withJournalPath("logs.rewind") { path in
            try Self.record(to: path)
            let timeline = Timeline(reader: try JournalReader(path: path))
            let program = ViewerProgram(timeline: timeline, model: ViewerModel(width: 240, height: 30, colors: false, title: "logs.rewind"))
            let frame = program.frame().plainText
            let failed = try #require(frame.split(separator: "\n").first { $0.contains("payment failed: 503") }, "\(frame)")
            #expect(failed.contains("app.payments") && failed.contains("log") && failed.contains("error"), "\(failed)")
            #expect(failed.contains("status: \"503\"") && failed.contains("<redacted>") && !frame.contains("tok_9"), "\(failed)")

            // The detail pane says what a log message is: its level, the message, its metadata.
            program.press(.character("G"))
            program.press(.character("d"))
            let detail = program.frame().plainText
            #expect(detail.contains("level     error") && detail.contains("message   payment failed: 503") && detail.contains("metadata  {"), "\(detail)")
            #expect(detail.contains("caused by") == false, "logged outside any dispatch")
            program.press(.character("d"))

            program.press(contentsOf: ViewerFixtures.typing("flevel>=warning") + [.enter])
            #expect(program.model.message == nil)
            let filtered = program.frame().plainText
            #expect(!filtered.contains("charged card") && filtered.contains("retrying charge") && filtered.contains("payment failed"))
            #expect(filtered.contains("mutate"), "other kinds stay")

            let clear = ViewerFixtures.typing("f") + Array(repeating: Key.backspace, count: 20)
            program.press(contentsOf: clear + ViewerFixtures.typing("log level>=error") + [.enter])
            #expect(program.model.page.eventCount == 1 && program.model.page.step?.event.description == "payment failed: 503")

            program.press(contentsOf: clear + ViewerFixtures.typing("level>=loud") + [.enter])
            #expect(program.model.message?.hasPrefix("unknown level 'loud'") == true)

            program.press(contentsOf: clear + [.enter])
            program.press(.character("g"))
            program.press(contentsOf: ViewerFixtures.typing("/retrying") + [.enter])
            #expect(program.model.page.step?.event.description == "retrying charge")
        }
    }

    /// A long session in many blocks: 300 commits, each with an info message, one warning at
    /// step 100 and one error at step 250.
    static func recordLong(to path: String) throws {
        var configuration = JournalConfiguration()
        configuration.blockSize = 2_048
        // A step a millisecond: the strip's slices of time are the same on a busy machine.
        configuration.deterministic = true
        let journal = try JournalLogger(path: path, configuration: configuration)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Cart", label: nil))
        let logger = Logger(label: "app.cache") { RecordingLogHandler(label: $0, recordingTo: journal) }
        for step in 0..<300 {
            channel.emit(.willMutate, name: "touch", callSite: CallSite(), to: journal)
            channel.emit(.didMutate(duration: .zero, state: LoggedValue(["total": step])), name: "touch", callSite: CallSite(), to: journal)
            logger.info("lookup \(step)")
            if step == 100 { logger.warning("cache slow") }
            if step == 250 { logger.error("cache corrupted") }
        }
        journal.close()
    }

    @Test("the overview strip marks the app's error with ! (found between keys, not before the first frame) and tints the warning's cell")
    func overviewMarksErrors() throws {
        try ViewerFixtures.withJournalPath("long-logs.rewind") { path in
            try Self.recordLong(to: path)
            let reader = try JournalReader(path: path)
            #expect(reader.blocks.count > 3)
            let program = ViewerProgram(timeline: Timeline(reader: reader), model: ViewerModel(width: 120, height: 30, colors: false, title: "logs"))
            #expect(program.model.logMarks == LogMarks(), "the first frame waits for nothing")
            program.finishBackgroundWork()
            let events = try reader.events(matching: EventFilter(kinds: [.log])).filter { ($0.logLevel ?? .trace) >= .warning }
            #expect(program.model.logMarks.errors == events.filter { $0.logLevel == .error }.map(\.sequence))
            #expect(program.model.logMarks.warnings == events.filter { $0.logLevel == .warning }.map(\.sequence))
            let title = try #require(program.frame().plainText.split(separator: "\n").first)
            #expect(title.filter { $0 == "!" }.count == 1, "\(title)")
            let marks = program.model.page.overview.marks(cells: 60, cursor: nil, hits: [], bookmarks: [], logged: program.model.logMarks)
            #expect(marks.filter { $0 == .error }.count == 1)
            #expect(marks.contains { if case .density(_, warning: true) = $0 { true } else { false } })
            // The error, logged five sixths of the way through, is marked there.
            let cell = try #require(marks.firstIndex(of: .error))
            #expect((45...55).contains(cell), "\(cell)")
        }
    }

    @Test("L shows the app's logs from every level, warnings up, errors up, none, and every level again, keeping the filter's other words")
    func levelKeyCycles() throws {
        let sources = [RecordedSource(instanceID: 1, framework: "Cycler", typeName: "Cart", label: nil)]
        func next(_ text: String?) -> String? { TimelineFilter.nextLogLevel(after: text, sources: sources) }
        #expect(next(nil) == "level>=warning")
        #expect(next("level>=warning") == "level>=error")
        #expect(next("level>=critical") == "!log")
        #expect(next("!log") == nil)
        #expect(next("Cart !log path:items[id: 2].done") == "Cart path:items[id: 2].done")
        #expect(next("level>=debug mutate") == "mutate level>=warning")
        // Each word as the filter reads it: the last level wins, a kind list keeps its other kinds.
        #expect(next("level>=error level>=info") == "level>=warning")
        #expect(next("!LOG,activity mutate") == "!activity mutate")
        // Only the app's messages shown: after errors, every level again (`!log` would show nothing).
        #expect(next("log level>=error") == "log")
        try ViewerFixtures.withJournalPath("logs.rewind") { path in
            try Self.record(to: path)
            let program = ViewerProgram(timeline: Timeline(reader: try JournalReader(path: path)), model: ViewerModel(width: 160, height: 30, colors: false))
            func messages() -> [String] { program.model.page.rows.compactMap { $0.event?.kind == .log ? $0.event?.description : nil } }
            #expect(messages() == ["charged card", "retrying charge", "payment failed: 503"])
            program.press(.character("L"))
            #expect(program.model.filterText == "level>=warning" && messages() == ["retrying charge", "payment failed: 503"])
            #expect(program.model.message == "log messages: warning and above shown (L for fewer)")
            program.press(.character("L"))
            #expect(messages() == ["payment failed: 503"])
            program.press(.character("L"))
            #expect(program.model.filterText == "!log" && messages().isEmpty && program.model.page.eventCount == 6)
            program.press(.character("L"))
            #expect(program.model.filterText == nil && messages().count == 3)
        }
        let todo = try ViewerFixtures.program("counter.rewind", keys: [.character("L")])
        #expect(todo.model.filterText == nil && todo.model.message?.hasPrefix("no log messages in this recording") == true)
    }
}
