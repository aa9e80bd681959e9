import Cycler
import Foundation
@_spi(Tooling) import Rewind
import RewindTesting
import TestSupport
import Testing

/// A replay's failure report shows an input as the journal does: a secret the test supplied is
/// `<redacted>` there too, never in clear in test output or CI logs (issue 63).
@Suite("A replay report keeps supplied secrets hidden")
struct SecretInputReportTests {
    final class SignIn: ReplayableCycler, Sendable {
        enum Action: Codable, Equatable, Sendable {
            case signIn(user: String, password: String)
        }

        struct State: Codable, Equatable, Sendable {
            var user = ""
            var attempts = 0
        }

        let state: Storage<State> = .init(.init())
        let miscounts: Bool

        init(miscounts: Bool = false) { self.miscounts = miscounts }

        func handle(_ action: Action) {
            switch action {
            case .signIn(let user, _):
                commit("signIn") { state in
                    state.update(user, \.user)
                    state.update(state.value.attempts + (miscounts ? 2 : 1), \.attempts)
                }
            }
        }
    }

    @Test("a divergence after a secret input names the input with its password <redacted>, not the value the test supplied")
    func divergenceAfterASecretInput() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("sign-in.rewind")
        let session = SignIn()
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        _ = try LiveStateCheck.record(to: path, configuration: configuration, units: [session.replayTarget]) {
            session.send(.signIn(user: "ada", password: "hunter2-recorded"))
        }
        let replay = try Replay(journal: path)
        replay.secrets = ReplaySecrets { _, _ in "hunter2-supplied" }
        try replay.bind("SecretInputReportTests.SignIn", to: SignIn(miscounts: true).replayTarget)
        let report = replay.run()
        let divergence = try #require(report.divergence, "\(report)")
        let text = "\(report)"
        #expect(!text.contains("hunter2"), "\(text)")
        #expect("\(divergence)".contains("signIn") && "\(divergence)".contains("<redacted>"), "\(divergence)")
    }
}

/// A secret input that took several values in one recording (issue 63).
@Suite("A secret input with several values")
struct SecretOrdinalReplayTests {
    final class Gate: ReplayableCycler, Sendable {
        enum Action: Codable, Equatable, Sendable {
            case signIn(password: String)
        }

        struct State: Codable, Equatable, Sendable {
            var attempts = 0
            var signedIn = false
        }

        let state: Storage<State> = .init(.init())

        func handle(_ action: Action) {
            switch action {
            case .signIn(let password):
                commit("signIn") { state in
                    state.update(state.value.attempts + 1, \.attempts)
                    state.update(password == "hunter2", \.signedIn)
                }
            }
        }
    }

    @Test("a typo'd sign-in then the right one replays clean with each value supplied by its recorded ordinal, and diverges with one value for both")
    func typoThenPassword() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("gate.rewind")
        let gate = Gate()
        var configuration = JournalConfiguration()
        configuration.deterministic = true
        _ = try LiveStateCheck.record(to: path, configuration: configuration, units: [gate.replayTarget]) {
            gate.send(.signIn(password: "hunter1"))
            gate.send(.signIn(password: "hunter2"))
        }
        let inputs = try JournalReader(path: path).events().filter { $0.kind == .willDispatch }.compactMap(\.value?.description)
        #expect(inputs.count == 2 && inputs[0].contains("<redacted>") && inputs[1].contains("<redacted 2>"), "\(inputs)")

        func replay(_ secrets: ReplaySecrets) throws -> ReplayReport {
            let replay = try Replay(journal: path)
            replay.secrets = secrets
            try replay.bind("SecretOrdinalReplayTests.Gate", to: Gate().replayTarget)
            return replay.run()
        }
        let byOrdinal = try replay(["password#1": "hunter1", "password#2": "hunter2"])
        #expect(byOrdinal.divergence == nil && byOrdinal.inputsReplayed == 2, "\(byOrdinal)")
        let byClosure = try replay(ReplaySecrets { _, _, ordinal in ordinal == 1 ? "hunter1" : "hunter2" })
        #expect(byClosure.divergence == nil, "\(byClosure)")
        let oneForBoth = try replay(["password": "hunter2"])
        #expect(oneForBoth.divergence != nil, "the first attempt signs in with the right password: \(oneForBoth)")
    }
}
