import Foundation
import Logging
import LoggerProbes
import Synchronization
import TestSupport
import Testing
@_spi(Tooling) @testable import Rewind

@Suite("Redaction")
struct RedactionTests {
    struct Login: Codable {
        var user: String
        @Secret var password: String
        var apiKey: String
        var accessToken: String
        var profile: Profile
    }
    struct Profile: Codable { var nickname: String; var pin: Int }
    struct PlainLogin { var user: String; @Secret var code: String; var refresh_token: String }

    // The PIN is negative and long: a short positive one can occur in a line's step number
    // (`#59911`) and read as a leak.
    static let secrets = ["hunter2", "KEY-123", "tok-456", "-73915208", "otp-777", "refresh-888"]

    static func login() -> Login {
        Login(user: "ada", password: "hunter2", apiKey: "KEY-123", accessToken: "tok-456", profile: Profile(nickname: "countess", pin: -73_915_208))
    }

    @Test("secret fields and secret names are replaced in captured trees")
    func capturedTrees() {
        let text = StateCapture.capture(Self.login()).description
        for secret in Self.secrets { #expect(!text.contains(secret)) }
        #expect(text.contains("ada") && text.contains("countess"))
        let plain = StateCapture.capture(PlainLogin(user: "ada", code: "otp-777", refresh_token: "refresh-888")).description
        for secret in Self.secrets { #expect(!plain.contains(secret)) }
        #expect(plain.contains("code: <redacted>"))
    }

    @Test("the name rule: words split at camel case and separators, runs of words, plurals, written-together suffixes")
    func nameRules() {
        let rules = Redaction.default
        let secret = [
            "password", "Password", "user_password", "accessToken", "X-Api-Key", "pin", "tokens", "secretKey",
            "passwordHash", "tokenReceived", "setPassword", "APIKey", "api_keys", "oauth2Token", "accesstoken",
            "userPasswords", "cookies", "new-passphrase", "SESSION_ID",
        ]
        for name in secret { #expect(rules.redacts(key: name), "\(name)") }
        for name in ["user", "title", "pinned", "tokenizer", "isPinned", "keyboard", "passage", "nickname"] {
            #expect(!rules.redacts(key: name), "\(name)")
        }
        #expect(rules.adding(["ssnLast4"]).redacts(key: "ssn_last4"))
        #expect(!Redaction.secretsOnly.redacts(key: "password"))
    }

    @Test("the names users mean as secrets are redacted by default, and words read as parts of other words are not")
    func widerVocabulary() {
        let rules = Redaction.default
        let secret = [
            "pwd", "userPwd", "mysql_pwd", "passcode", "otp", "oneTimeCode", "totp", "mfaCode", "verificationCode",
            "cvc", "securityCode", "socialSecurityNumber", "jwt", "idJWT", "credential", "credentials", "encryptionKey",
            "signingKey", "masterKey", "privKey", "seedPhrase", "recoveryPhrase", "mnemonic", "auth", "oauth",
            "authHeader", "session", "userSession", "password_salt",
        ]
        for name in secret { #expect(rules.redacts(key: name), "\(name)") }
        for name in ["author", "authors", "isAuthenticated", "keyboard", "tokenizer", "isPinned", "optional", "photos"] {
            #expect(!rules.redacts(key: name), "\(name)")
        }
        // One place to add and remove words.
        let app = Redaction.default.adding(["badge"]).removing(["session", "Session"])
        #expect(app.redacts(key: "badgeNumber") && !app.redacts(key: "session") && app.redacts(key: "password"))
    }

    @Test("credentials in configuration names are secret; a short word (pin, pass, pem, dsn, bearer) only as a name's last word")
    func configurationNamesAndShortWords() {
        let rules = Redaction.default
        let secret = [
            "sshKey", "ssh_key", "SSH_KEY", "pem", "key.pem", "bearer", "pass", "DB_PASS", "dsn", "SENTRY_DSN", "DATABASE_URL",
            "databaseUrl", "connectionString", "privateKey", "pin", "userPin", "pins", "setPin", "pinCode", "pin_code", "PIN_NUMBER"
        ]
        for name in secret { #expect(rules.redacts(key: name), "\(name)") }
        let plain = ["passenger", "compass", "bypass", "passage", "dsnap", "unpin", "spin", "pinConversation", "isPinned", "pinned"]
        for name in plain { #expect(!rules.redacts(key: name), "\(name)") }
        // Taken out of either tier by name.
        #expect(!rules.removing(["pin"]).redacts(key: "userPin"))
        #expect(rules.removing(["pin"]) != rules)
        let metadata: Logger.Metadata = ["sshKey": "ssh-ed25519 AAAA", "DATABASE_URL": "postgres://u:pw@db", "dsn": "https://k@sentry", "passenger": "Ada"]
        let message = LogMessage(level: .info, message: "connecting", metadata: metadata, file: "f", function: "g", line: 1)
        let text = message.metadataTree(options: CaptureOptions(redaction: .default))?.description ?? ""
        #expect(!text.contains("AAAA") && !text.contains("postgres") && !text.contains("k@sentry") && text.contains("Ada"), "\(text)")
    }

    @Test("Secret stays transparent to the app's own Codable persistence")
    func persistenceUnaffected() throws {
        let data = try JSONEncoder().encode(Self.login())
        let decoded = try JSONDecoder().decode(Login.self, from: data)
        #expect(decoded.password == "hunter2")
        #expect(String(describing: decoded).contains("hunter2") == false)
    }

    @Test("no logger's output ever contains a secret")
    func noLoggerLeaks() throws {
        let printed = Mutex<[String]>([])
        let console = ConsoleLogger { line in printed.withLock { $0.append(line) } }
        let handler = CapturingLogHandler()
        var swiftLogger = Logger(label: "test") { _ in handler }
        swiftLogger.logLevel = .trace
        let bridge = SwiftLogBridge(swiftLogger)
        let hooks = PrintingHookLogger()
        let memory = InMemoryLogger()
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "LoginViewModel"))
        let all = MultiplexLogger([console, bridge, hooks, memory])

        let before = Self.login()
        var after = before
        after.password = "hunter2-new"
        channel.emit(.created(state: LoggedValue(before)), callSite: CallSite(), to: all)
        channel.emit(.willMutate, name: "typePassword", callSite: CallSite(), to: all)
        channel.emit(.change(path: ChangedPath(\Login.password), value: LoggedValue(after.password), state: LoggedValue(after)), name: "typePassword", callSite: CallSite(), to: all)
        channel.emit(.didMutate(duration: .microseconds(3), state: LoggedValue(after)), name: "typePassword", callSite: CallSite(), to: all)
        channel.emit(.activity(LoggedValue(after)), callSite: CallSite(), to: all)
        channel.emit(.replace(state: LoggedValue(after)), callSite: CallSite(), to: all)

        var outputs = printed.withLock { $0 } + handler.lines + hooks.lines
        outputs += memory.events.compactMap { $0.kind.state?.tree().description }
        #expect(!outputs.isEmpty)
        let everything = outputs.joined(separator: "\n")
        for secret in Self.secrets + ["hunter2-new"] {
            #expect(!everything.contains(secret), "leaked \(secret)")
        }
        #expect(everything.contains("<redacted>"))
    }

    enum Action { case setToken(String), login(user: String, password: String), rename(String) }
    enum CodableAction: Codable { case setToken(String), setPin(Int), rename(String) }

    @Test("a case named like a secret hides its payload, labelled or not, reflected or Codable")
    func enumPayloads() {
        let reflected = StateCapture.capture([Action.setToken("tok-456"), .login(user: "ada", password: "hunter2"), .rename("countess")])
        let codable = StateCapture.capture([CodableAction.setToken("tok-456"), .setPin(-73_915_208), .rename("countess")])
        for tree in [reflected, codable] {
            let text = tree.description
            for secret in Self.secrets { #expect(!text.contains(secret), "leaked \(secret) in \(text)") }
            #expect(text.contains("countess") && text.contains("<redacted>"))
        }
    }

    @Test("a value sent under a name that could not be told (…) is hidden, since it may be a secret's; a named one is shown")
    func unknownNamesFailClosed() {
        let unknown = LoggedValue("s3cr3t").sent(as: "…").tree(options: CaptureOptions(redaction: .default))
        #expect(unknown.description.contains("<redacted>") && !unknown.description.contains("s3cr3t"), "\(unknown)")
        let subscripted = LoggedValue("s3cr3t").sent(as: "inputs[…]").tree(options: CaptureOptions(redaction: .default))
        #expect(!subscripted.description.contains("s3cr3t"), "\(subscripted)")
        let named = LoggedValue("countess").sent(as: "rename").tree(options: CaptureOptions(redaction: .default))
        #expect(named.description.contains("countess"), "\(named)")
        // A name that ends in an ellipsis is a name.
        let loading = LoggedValue("inbox").sent(as: "Loading…").tree(options: CaptureOptions(redaction: .default))
        #expect(loading.description.contains("inbox"), "\(loading)")
        // Rules that judge no names keep the value, as replay's own captures need.
        let unjudged = LoggedValue("s3cr3t").sent(as: "…").tree(options: CaptureOptions(redaction: .secretsOnly))
        #expect(unjudged.description.contains("s3cr3t"), "\(unjudged)")
    }

    @Test("a logger a user writes gets redacted trees for every value, a change's new value included")
    func userLoggerAndJournal() throws {
        let directory = TemporaryDirectory()
        let user = TreeLogger()
        let journal = try JournalLogger(path: directory.file("session.rewind"))
        let all = MultiplexLogger([user, journal])
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "LoginViewModel"))
        var login = Self.login()
        channel.emit(.created(state: LoggedValue(login)), callSite: CallSite(), to: all)
        channel.emit(.willDispatch(input: LoggedValue(Action.setToken("tok-456"))), name: "setToken", callSite: CallSite(), to: all)
        login.accessToken = "tok-789"
        // A plain string written at a secret path: only the path says it is secret.
        channel.emit(.change(path: ChangedPath(\Login.accessToken), value: LoggedValue(login.accessToken), state: LoggedValue(login)), callSite: CallSite(), to: all)
        channel.emit(.change(path: ChangedPath(name: "profile.pin"), value: LoggedValue(1234), state: nil), callSite: CallSite(), to: all)
        channel.emit(.activity(LoggedValue(CodableAction.setPin(-73_915_208))), callSite: CallSite(), to: all)
        journal.close()
        let recorded = try JournalReader(path: directory.file("session.rewind")).events().map { event in
            [event.value?.description ?? "", event.stateRecord.map { "\($0)" } ?? ""].joined(separator: " ")
        }
        for (name, text) in [("user logger", user.lines.joined(separator: "\n")), ("journal", recorded.joined(separator: "\n"))] {
            for secret in Self.secrets + ["tok-789", "1234"] {
                #expect(!text.contains(secret), "\(name) leaked \(secret)")
            }
        }
    }
}

extension RedactionTests {
    @Test("a journal tells a secret that changed from one written again, without recording either value")
    func changedSecretsReadAsChanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("tokens.rewind")
        let journal = try JournalLogger(path: path)
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "LoginViewModel"))
        var login = Self.login()
        channel.emit(.created(state: LoggedValue(login)), callSite: CallSite(), to: journal)
        func write(_ token: String, password: String? = nil) {
            login.accessToken = token
            if let password { login.password = password }
            channel.emit(.change(path: ChangedPath(\Login.accessToken), value: LoggedValue(token), state: LoggedValue(login)), callSite: CallSite(), to: journal)
        }
        write("tok-456")                       // the value it had: unchanged
        write("tok-999", password: "hunter3")  // signed in again: both secrets changed
        write("tok-456")                       // back to the first token
        journal.close()

        let reader = try JournalReader(path: path)
        let events = reader.events()
        let changes = events.filter { $0.kind == .change }
        let values = changes.compactMap(\.value)
        // Versions are numbered across the journal (the state's other secrets came first), one
        // number per value: the first token reads alike when it comes back, the second differs.
        let texts = values.map(\.description)
        #expect(texts.count == 3 && texts[0] == texts[2] && texts[0] != texts[1] && texts.allSatisfy { $0.hasPrefix("<redacted") }, "\(texts)")
        let before = try reader.state(of: changes[0].source.instanceID, at: changes[0].sequence - 1)?[.key("accessToken")]
        #expect(changes[0].rowText(old: .value(try #require(before))) == "accessToken = \(texts[0])" + RecordedEvent.unchangedMark)
        #expect(changes[1].rowText(old: .value(values[0])) == "accessToken: \(texts[0]) → \(texts[1])")
        #expect(changes[2].rowText(old: .value(values[1])) == "accessToken: \(texts[1]) → \(texts[0])")
        // The states say so too: the password, a `Secret`, took a second value at the second write.
        let passwords = try changes.map { try reader.state(of: $0.source.instanceID, at: $0.sequence)?[.key("password")]?.description }
        #expect(passwords[0] == "<redacted> (Secret<String>)" && passwords[1] == passwords[2] && passwords[1] != passwords[0], "\(passwords)")
        let newPassword = String(passwords[1]?.prefix { $0 != ">" } ?? "") + ">"
        #expect(!texts.contains { $0.hasPrefix(newPassword) }, "a new password reads as no token did: \(passwords) \(texts)")
        let text = events.map { "\($0.value?.description ?? "") \($0.stateRecord.map { "\($0)" } ?? "")" }.joined()
        for secret in Self.secrets + ["tok-999", "hunter3"] { #expect(!text.contains(secret), "leaked \(secret)") }
        // Every value is still a redaction, as replay's secrets and the decoder need to know.
        #expect(values.allSatisfy { $0.containsRedaction })
    }
}

/// A logger a user might write: it prints the tree of every value it is handed.
final class TreeLogger: CycleLogging {
    private let printed = Mutex<[String]>([])
    var lines: [String] { printed.withLock { $0 } }
    func log(_ event: Event) {
        let values: [LoggedValue?] = switch event.kind {
        case .willDispatch(let input): [input]
        case .change(_, let value, let state): [value, state]
        case .activity(let value), .replace(let value), .didMutate(_, let value): [value]
        case .created(let state): [state]
        default: []
        }
        printed.withLock { $0 += values.compactMap { $0?.tree().description } }
    }}
