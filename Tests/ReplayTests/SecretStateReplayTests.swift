import Cycler
import Foundation
@_spi(Tooling) import Rewind
import RewindTesting
import TestSupport
import Testing

/// A session whose state holds a secret that changes: the journal tells its values apart
/// (`<redacted>`, `<redacted 2>`), a live capture does not, and neither may make a replay diverge.
@Suite("A secret in the state that changes")
struct SecretStateReplayTests {
    final class Session: ReplayableCycler, Sendable {
        enum Action: Codable, Equatable, Sendable {
            case signIn(user: String)
            case refresh
            case signOut
        }

        struct State: Codable, Equatable, Sendable {
            var user = ""
            var accessToken: String?
            var refreshes = 0
        }

        let state: Storage<State> = .init(.init())

        func handle(_ action: Action) {
            switch action {
            case .signIn(let user):
                commit("signIn") { state in
                    state.update(user, \.user)
                    state.update("tok-\(user)-1", \.accessToken)
                }
            case .refresh:
                commit("refresh") { state in
                    state.update(state.value.refreshes + 1, \.refreshes)
                    state.update("tok-\(state.value.user)-\(state.value.refreshes + 1)", \.accessToken)
                }
            case .signOut:
                commit("signOut") { $0.update(nil, \.accessToken) }
            }
        }
    }

    @Test("a session whose token changes is recorded true to the live states, and replays clean")
    func replaysClean() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("session.rewind")
        let session = Session()
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        let check = try LiveStateCheck.record(to: path, configuration: configuration, units: [session.replayTarget]) {
            session.send(.signIn(user: "ada"))
            session.send(.refresh)
            session.send(.refresh)
            session.send(.signOut)
        }
        #expect(check.mismatches.isEmpty, "\(check.mismatches)")
        let tokens = try JournalReader(path: path).events().filter { $0.kind == .change && $0.path == "accessToken" }.compactMap(\.value?.description)
        #expect(Set(tokens).count == 4, "every token is a value of its own: \(tokens)")
        expectReplay(of: path, driving: ["SecretStateReplayTests.Session": Session().replayTarget])
    }
}
