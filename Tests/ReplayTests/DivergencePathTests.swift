import Cycler
import Foundation
@testable import Rewind
import TestSupport
import Testing

/// A divergence is named where the bug is: the first structural difference (an element added or
/// removed) before a field that differs beside it, which is often only the live unit having moved
/// on (issue 63).
@Suite("A divergence named at its first structural difference")
struct DivergencePathTests {
    /// A chat whose retry, in today's build, appends the message again, both copies already sent.
    final class Chat: ReplayableCycler, Sendable {
        enum Action: Codable, Sendable { case send(String), retry }
        struct Message: Codable, Equatable, Sendable {
            var text: String
            var status: String
        }
        struct State: Codable, Equatable, Sendable { var messages: [Message] = [] }

        let state: Storage<State> = .init(.init())
        let appendsOnRetry: Bool

        init(appendsOnRetry: Bool = false) { self.appendsOnRetry = appendsOnRetry }

        func handle(_ action: Action) {
            switch action {
            case .send(let text):
                commit("send") { $0.update($0.value.messages + [Message(text: text, status: "sent")], \.messages) }
            case .retry:
                commit("retry") { state in
                    var messages = state.value.messages
                    guard let last = messages.indices.last else { return }
                    if appendsOnRetry {
                        // Both copies sent at once: the live unit has moved on past "sending".
                        messages[last].status = "sent"
                        messages.append(messages[last])
                    } else {
                        messages[last].status = "sending"
                    }
                    state.update(messages, \.messages)
                }
            }
        }
    }

    @Test("a retry that appends a message twice diverges at the extra element, not at the status beside it")
    func extraElementFirst() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("chat.rewind")
        let journal = try JournalLogger(path: path)
        let chat = Chat()
        chat.set(logger: journal)
        for text in ["hi", "how are you", "lunch?"] { chat.send(.send(text)) }
        chat.send(.retry)
        journal.close()

        let replay = try Replay(journal: path)
        try replay.bind("DivergencePathTests.Chat", to: Chat(appendsOnRetry: true).replayTarget)
        let report = replay.run()
        let divergence = try #require(report.divergence, "\(report)")
        #expect(divergence.difference.changedPaths.map(\.description).contains("messages[2].status"), "\(divergence.difference)")
        #expect(ReplayFailure(report) == .divergence(path: "messages[3]", source: "DivergencePathTests.Chat"), "\(report)")
    }

    @Test("a difference with nothing added or removed is named at its first changed path")
    func firstChangeOtherwise() throws {
        typealias Message = Chat.Message
        let before = StateCapture.capture(Chat.State(messages: [Message(text: "a", status: "sent"), Message(text: "b", status: "sent")]))
        let failed = StateCapture.capture(Chat.State(messages: [Message(text: "a", status: "sent"), Message(text: "b", status: "failed")]))
        #expect(StateDiff(from: before, to: failed).leadingPath?.description == "messages[1].status")
        let grown = StateCapture.capture(
            Chat.State(messages: [Message(text: "a", status: "sent"), Message(text: "b", status: "failed"), Message(text: "c", status: "sending")])
        )
        #expect(StateDiff(from: before, to: grown).leadingPath?.description == "messages[2]", "\(StateDiff(from: before, to: grown))")
        #expect(StateDiff(from: before, to: before).leadingPath == nil)
    }
}
