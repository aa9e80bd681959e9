import Cycler
import Foundation
import Logging
import ReadmeChecking
@_spi(Tooling) import Rewind
import Testing

/// The article "The app's own logs on the timeline", run: its blocks appear below, in order, in a
/// cart whose card is declined.
@Suite("The logs-on-the-timeline article's examples")
struct LogsOnTheTimelineArticleTests {
    struct Cart: Codable { var status = "open" }

    final class CartModel: CyclerType, Sendable {
        let state: Storage<Cart> = .init(.init())
    }

    /// The article's adoption: compiled here, not run (swift-log bootstraps once per process, and
    /// the test process's other suites log through it).
    static func adopt() throws {
        let journal = try JournalLogger(path: "session.rewind")
        LoggingSystem.bootstrap { label in
            MultiplexLogHandler([
                StreamLogHandler.standardOutput(label: label),
                RecordingLogHandler(label: label, recordingTo: journal, minimumLevel: .debug)
            ])
        }
    }

    /// The article's flight recorder that dumps when an error is logged: compiled here (it writes
    /// beside the working directory); `LogsOnTheTimelineTests` runs one.
    static func recordIntoARing() throws -> Logger {
        var configuration = FlightRecorder.Configuration()
        configuration.conditions = [try Condition(parsing: "level >= error")]
        let recorder = try FlightRecorder(path: "app.rewind-ring", configuration: configuration)
        let payments = Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: recorder) }
        return payments
    }

    @Test("a message logged inside a dispatch is recorded under it, its token redacted, the raw response left out; the article's blocks are these lines")
    func articleExamples() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-logs-article-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try JournalLogger(path: folder + "/session.rewind")
        let cart = CartModel()
        cart.set(logger: journal)
        let token = "tok_live_42", body = "{\"card\": \"4242\"}"

        let payments = Logger(label: "app.payments") { RecordingLogHandler(label: $0, recordingTo: journal) }
        cart.dispatch("checkout") { context in
            payments.warning("card declined", metadata: ["code": "51", "token": "\(token)"])  // token: <redacted>
            payments.info("raw response \(body)", metadata: RecordingLogHandler.notRecorded)
            context.commit("decline") { $0.update("declined", \.status) }
        }
        journal.close()

        let events = Array(try JournalReader(path: folder + "/session.rewind").events())
        let logs = events.filter { $0.kind == .log }
        let checkout = try #require(events.first { $0.kind == .willDispatch })
        #expect(logs.map(\.description) == ["card declined"])
        #expect(logs.first?.parent == checkout.sequence && logs.first?.logLevel == .warning)
        #expect(logs.first?.value?[StatePath([.key("code")])] == .string("51"))
        guard case .opaque(let leaf)? = logs.first?.value?[StatePath([.key("token")])] else {
            Issue.record("the token is not redacted")
            return
        }
        #expect(leaf.isRedacted)
        try DocumentedCode.expectBlocks(ofArticle: "LogsOnTheTimeline", appearIn: #filePath)
        try DocumentedCode.expectBlocks(under: "## The app's own logs on the timeline", appearIn: #filePath)
    }
}
