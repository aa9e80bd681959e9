import Cycler
import Foundation
@_spi(Tooling) @testable import Rewind
import Testing
import TestSupport

/// Recorded events written again (a shrink's candidates) keep what the recording holds exactly
/// (issue 63).
@Suite("Recorded events written again")
struct RewrittenEventsTests {
    final class Chat: CyclerType, Sendable {
        enum Action: Codable, Equatable, Sendable {
            case pin(conversation: Int)
            case signIn(password: String)
        }

        struct State: Codable, Equatable, Sendable {
            var pinned: [Int] = []
            var signedIn = false
        }

        let state: Storage<State> = .init(.init())

        func send(_ action: Action) {
            switch action {
            case .pin(let conversation):
                dispatch("pin", with: conversation) { context, conversation in context.commit { $0.update($0.value.pinned + [conversation], \.pinned) } }
            case .signIn(let password):
                dispatch("signIn", with: ["password": password]) { context, _ in context.commit { $0.update(true, \.signedIn) } }
            }
        }
    }

    @Test(
        "an app that takes `pin` out of its rules records its pins; written again by a process with the default rules, they stay, and the password stays hidden"
    )
    func valuesAreKeptExactly() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("chat.rewind")
        var configuration = JournalConfiguration()
        configuration.captureOptions.redaction = Redaction.default.removing(["pin"])
        let journal = try JournalLogger(path: path, configuration: configuration)
        let chat = Chat()
        chat.set(logger: journal)
        chat.send(.pin(conversation: 7))
        chat.send(.signIn(password: "hunter2"))
        journal.close()
        let recorded = try JournalReader(path: path)
        let events = Array(recorded.events())
        let pin = try #require(events.first { $0.kind == .willDispatch && $0.name == "pin" })
        #expect(pin.value?.description.contains("7") == true, "\(String(describing: pin.value))")

        let rewritten = directory.file("candidate.rewind")
        try JournalEncoder.write(events, header: recorded.header, to: rewritten)
        let again = Array(try JournalReader(path: rewritten).events())
        // The inputs, which a shrink's candidates replay: names and values as recorded.
        func inputs(_ events: [RecordedEvent]) -> [String] {
            events.filter { $0.kind == .willDispatch }.map { "\($0.name) \($0.value?.description ?? "")" }
        }
        #expect(inputs(again) == inputs(events))
        #expect(inputs(again).first?.hasPrefix("pin 7") == true, "\(inputs(again))")
        #expect(!again.contains { $0.value?.description.contains("hunter2") == true })
    }
}
