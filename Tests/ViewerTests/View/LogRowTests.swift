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
}
