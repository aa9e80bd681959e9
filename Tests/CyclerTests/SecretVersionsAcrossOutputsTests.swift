import Cycler
import Foundation
import Logging
@_spi(Tooling) import Rewind
import Testing
import TestSupport

/// One secret value reads alike wherever a journal shows it — in the state, in the input that
/// carried it, in a log message's metadata — and a `@Secret` field's change keeps its path, so
/// that blame follows it while its value stays hidden (issue 63).
@Suite("A secret's versions read alike in every output")
struct SecretVersionsAcrossOutputsTests {
    final class Login: ReplayableCycler, Sendable {
        enum Action: Codable, Sendable { case signIn(user: String, password: String) }
        struct State: Codable, Equatable, Sendable {
            var user = ""
            @Secret var password = ""
            /// Secret by its name; no value before the first sign-in.
            var lastPassword: String?
            var attempts = 0
        }

        let state: Storage<State> = .init(.init())
        let log: Logger

        init(log: Logger) { self.log = log }

        func handle(_ action: Action) {
            switch action {
            case .signIn(let user, let password):
                log.info("signing in", metadata: ["user": "\(user)", "password": "\(password)"])
                commit("signIn") { state in
                    state.update(user, \.user)
                    state.update(password, \.password)
                    state.update(password, \.lastPassword)
                    state.update(state.value.attempts + 1, \.attempts)
                }
            }
        }
    }

    /// A redacted leaf's text (`<redacted 2>`), whatever type it stood for.
    static func text(of value: StateValue?) -> String {
        guard case .opaque(let leaf)? = value else { return value?.description ?? "none" }
        return leaf.text
    }

    /// The texts a journal holds for the password, in order: (where, text).
    static func passwordTexts(in path: String) throws -> [(String, String)] {
        let reader = try JournalReader(path: path)
        var texts: [(String, String)] = []
        for event in reader.events() {
            switch event.kind {
            case .willDispatch:
                if case .object(let payload)? = event.value, case .object(let fields)? = payload["signIn"] {
                    texts.append(("input", text(of: fields["password"])))
                }
            case .log:
                if case .object(let metadata)? = event.value { texts.append(("log", text(of: metadata["password"]))) }
            case .didMutate:
                if case .object(let state)? = try reader.state(of: event.source.instanceID, at: event.sequence) {
                    texts.append(("state", text(of: state["password"])))
                    texts.append(("optional", text(of: state["lastPassword"])))
                }
            default:
                break
            }
        }
        return texts
    }

    @Test("the same password reads the same version in the state, the input and the log message; a new one reads the next")
    func oneVersionPerValue() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("login.rewind")
        let journal = try JournalLogger(path: path)
        let login = Login(log: Logger(label: "app.login") { RecordingLogHandler(label: $0, recordingTo: journal) })
        login.set(logger: journal)
        login.send(.signIn(user: "ada", password: "hunter1"))
        login.send(.signIn(user: "ada", password: "hunter2"))
        journal.close()

        let texts = try Self.passwordTexts(in: path)
        let byPlace = Dictionary(grouping: texts, by: \.0).mapValues { $0.map(\.1) }
        #expect(byPlace["input"]?.count == 2 && byPlace["log"]?.count == 2 && byPlace["state"]?.count == 2, "\(texts)")
        #expect(byPlace["input"] == byPlace["log"] && byPlace["input"] == byPlace["state"] && byPlace["input"] == byPlace["optional"], "\(texts)")
        #expect(Set(byPlace["input"] ?? []).count == 2, "two passwords read as two versions: \(texts)")
        #expect(!texts.contains { $0.1.contains("hunter") }, "\(texts)")
    }

    /// The change events of one sign-in, recorded without the app's log messages.
    static func changes(signingIn user: String, password: String) throws -> [RecordedEvent] {
        let directory = TemporaryDirectory()
        let path = directory.file("login.rewind")
        let journal = try JournalLogger(path: path)
        let login = Login(log: Logger(label: "app.login") { _ in SwiftLogNoOpLogHandler() })
        login.set(logger: journal)
        login.send(.signIn(user: user, password: password))
        journal.close()
        return try JournalReader(path: path).events().filter { $0.kind == .change }
    }

    @Test("a @Secret field's change is recorded at its path with its value hidden, and blame follows it")
    func secretChangeKeepsItsPath() throws {
        let changes = try Self.changes(signingIn: "ada", password: "hunter1")
        let password = try #require(changes.first { $0.path == "password" }, "\(changes.map { $0.path ?? "nil" })")
        #expect(password.value?.description.contains("redacted") == true && password.value?.description.contains("hunter") == false)
        #expect(!changes.contains { $0.path == "…" }, "\(changes.map { $0.path ?? "nil" })")
    }

    @Test("a @Secret field set to a value another field shows is recorded hidden at its path, not in clear")
    func secretEqualToAShownValue() throws {
        // The password is the user's name: the state shows "ada" under `user`.
        let changes = try Self.changes(signingIn: "ada", password: "ada")
        let password = try #require(changes.first { $0.path == "password" }, "\(changes.map { $0.path ?? "nil" })")
        #expect(password.value?.containsRedaction == true, "\(String(describing: password.value))")
        #expect(!changes.contains { $0.path != "user" && $0.value?.description.contains("ada") == true }, "\(changes.map(\.value))")
    }
}
