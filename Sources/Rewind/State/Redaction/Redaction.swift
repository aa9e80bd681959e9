
/// The rules that decide which fields are secret, applied while state is captured so that no logger,
/// journal or screen ever receives the value.
///
/// A value is secret when it is wrapped in ``Secret``, or when its *name* is secret. The name rule is
/// one rule, applied to every name a unit records: fields and keys (dictionary keys, a
/// `String`-backed enum used as a key), enum cases (`setToken("…")` hides its payload), and the
/// names of dispatches, inputs, outputs, activities and mixers (their payload is hidden).
///
/// **The name rule.** A name is split into words at camel case (`apiKeyHash` → api, key, hash;
/// `APIKey` → api, key), `_`, `-`, `.`, spaces and digits, and compared without case. It is secret
/// when a run of its words, written together, is one of ``keyNames`` or that word's plural
/// (`tokens`, `cookies`); or when the whole name, written without separators, ends with one
/// (`accesstoken`). So `password` covers `passwordHash`, `userPasswords` and `new_password`, and
/// `secret` covers `secretKey`. A few short words that are also parts of everyday names
/// (``defaultLastWordNames``: `pin`, `pass`, `pem`, `dsn`, `bearer`) are secret only as a name's
/// last word: `userPin`, `db_pass` and `SENTRY_DSN` are secret; `unpin`, `pinConversation`,
/// `isPinned`, `compass` and `passenger` are not.
///
/// ```swift
/// Redaction.current = Redaction.default.adding(["iban", "licensePlate"])
/// ```
public struct Redaction: Sendable, Equatable {
    /// Field names (normalised: lower case, without `_` and `-`) whose values are redacted.
    public private(set) var keyNames: Set<String> {
        didSet { verdicts = Verdicts() }
    }
    /// Words (normalised) that make a name secret only as its last word, or that word's plural.
    public private(set) var lastWordNames: Set<String> {
        didSet { verdicts = Verdicts() }
    }
    /// Answers already given, per field name: capture asks about the same few names for every
    /// state it records, and normalising a name costs allocations.
    private var verdicts = Verdicts()

    private final class Verdicts: Sendable {
        let known = Locked<[String: Bool]>([:])
        let paths = Locked<[String: Bool]>([:])
    }

    /// Creates rules that redact the given field names (and every ``Secret``), and the names
    /// whose last word is one of `lastWordNames`.
    public init(keyNames: some Sequence<String>, lastWordNames: some Sequence<String> = [String]()) {
        self.keyNames = Set(keyNames.map(Self.normalised))
        self.lastWordNames = Set(lastWordNames.map(Self.normalised))
    }

    public static func == (lhs: Redaction, rhs: Redaction) -> Bool {
        lhs.keyNames == rhs.keyNames && lhs.lastWordNames == rhs.lastWordNames
    }

    /// The names redacted when nothing else is configured.
    ///
    /// Drawn from the deny-lists people already trust: the OWASP Logging Cheat Sheet's "never log"
    /// list (passwords, session identifiers, access tokens, encryption keys, card data, national
    /// identifiers), Sentry's default denylist (`auth`, `credentials`, `session`, `pwd`), Rails'
    /// default `filter_parameters` (`otp`, `cvc`, `salt`, `crypt`) and the names apps give one-time
    /// codes, wallet phrases and signing keys. Each word also covers its plural and every longer
    /// name it ends (`userPwd`, `oauth`, `mfaCode`); a name that only *contains* it as part of
    /// another word is not a match (`tokenizer`, `keyboard`, `isPinned`, `author`).
    public static let defaultKeyNames = [
        // Passwords and one-time codes.
        "password", "passwd", "pwd", "passphrase", "passcode", "pinCode", "pinNumber", "otp", "totp", "oneTimeCode",
        "mfaCode", "verificationCode", "securityCode",
        // Keys, tokens and what carries them.
        "secret", "token", "jwt", "apiKey", "apiSecret", "privateKey", "privKey", "encryptionKey",
        "signingKey", "masterKey", "salt", "credential", "auth", "authorization", "cookie",
        "session", "sessionId", "sshKey",
        // Where a service's credentials are written into an address.
        "databaseUrl", "connectionString",
        // Wallets.
        "seedPhrase", "recoveryPhrase", "mnemonic",
        // Payment cards and national identifiers.
        "creditCard", "cardNumber", "cvv", "cvc", "ssn", "socialSecurityNumber",
    ]

    /// Short words that are secret only as a name's last word: `userPin`, `DB_PASS`, `key.pem`,
    /// `SENTRY_DSN`, `bearer` — not `unpin`, `pinConversation`, `compass`, `passenger`, `dsnap`.
    /// As any word, each covers its plural (`pins`).
    public static let defaultLastWordNames = ["pin", "pass", "pem", "dsn", "bearer"]

    /// The default rules: ``defaultKeyNames``, ``defaultLastWordNames`` and every ``Secret``.
    public static let `default` = Redaction(keyNames: defaultKeyNames, lastWordNames: defaultLastWordNames)

    /// Only ``Secret`` fields are redacted; no names are.
    public static let secretsOnly = Redaction(keyNames: [])

    /// These rules with more names.
    public func adding(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.keyNames.formUnion(names.map(Self.normalised))
        return copy
    }

    /// These rules without some names, in either tier: for an app whose `session` or `pin` is
    /// not a secret.
    ///
    /// ```swift
    /// Redaction.current = Redaction.default.adding(["badge"]).removing(["session"])
    /// ```
    public func removing(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        let normalisedNames = names.map(Self.normalised)
        copy.keyNames.subtract(normalisedNames)
        copy.lastWordNames.subtract(normalisedNames)
        return copy
    }

    /// Whether these rules judge names at all (``secretsOnly`` judges none).
    var judgesNames: Bool { !keyNames.isEmpty || !lastWordNames.isEmpty }

    /// Whether a dispatch's, input's or activity's name is one a framework could not tell: `…`
    /// for a property wrapper's property, `…` or `[…]` as a step of a path (`inputs[…]`). A
    /// name that merely ends in an ellipsis (`Loading…`) is a name.
    static func isUnknownName(_ name: String) -> Bool {
        // Asked for every dispatch's payload: names without the ellipsis's first byte (most) are
        // answered without splitting them.
        guard name.utf8.contains(0xE2) else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).contains { $0 == "…" || $0.contains("[…]") }
    }

    /// Whether a field of this name is redacted.
    public func redacts(key: String) -> Bool {
        guard judgesNames else { return false }
        if let known = verdicts.known.withLock({ $0[key] }) { return known }
        let verdict = Self.matches(key, keyNames, lastWords: lastWordNames)
        verdicts.known.withLock { $0[key] = verdict }
        return verdict
    }

    /// Whether any field name along a path (`profile.pin`, `items[…].token`) is redacted.
    func redacts(path: String) -> Bool {
        if let known = verdicts.paths.withLock({ $0[path] }) { return known }
        let names = path.split(whereSeparator: { ".?[]".contains($0) })
        let verdict = names.contains { redacts(key: String($0)) }
        verdicts.paths.withLock { $0[path] = verdict }
        return verdict
    }

    /// The rules every capture uses unless told otherwise. Set it once at start-up.
    public static var current: Redaction {
        get { processRules.withLock { $0 } }
        set { processRules.withLock { $0 = newValue } }
    }

    private static let processRules = Locked(Redaction.default)

    /// The name rule (see the type's documentation).
    private static func matches(_ name: String, _ secretWords: Set<String>, lastWords: Set<String>) -> Bool {
        let words = NameWords.split(name)
        if let last = words.last, !lastWords.isEmpty, isWord(last, in: lastWords) { return true }
        let joined = normalised(name)
        if secretWords.contains(where: { joined.hasSuffix($0) }) { return true }
        for start in words.indices {
            var run = ""
            for word in words[start...] {
                run += word
                if isWord(run, in: secretWords) { return true }
            }
        }
        return false
    }

    /// Whether `word` is one of `words`, or its plural.
    private static func isWord(_ word: String, in words: Set<String>) -> Bool {
        words.contains(word) || (word.hasSuffix("s") && words.contains(String(word.dropLast())))
            || (word.hasSuffix("es") && words.contains(String(word.dropLast(2))))
    }

    static func normalised(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// The leaf that replaces a redacted value.
    static func redactedLeaf(typeName: String) -> OpaqueValue {
        OpaqueValue(typeName: typeName, text: OpaqueValue.redactedText)
    }
}
