
/// The rules that decide which fields are secret, applied while state is captured so that no logger,
/// journal or screen ever receives the value.
///
/// A field is secret when it is wrapped in ``Secret``, or when its name matches one of ``keyNames``.
/// Names are compared without case, `_` and `-`, and match as a suffix, so `"token"` also covers
/// `accessToken` and `refresh_token`.
///
/// ```swift
/// Redaction.current = Redaction.default.adding(["pin", "ssn"])
/// ```
public struct Redaction: Sendable, Equatable {
    /// Field names (normalised: lower case, without `_` and `-`) whose values are redacted.
    public private(set) var keyNames: Set<String> {
        didSet { verdicts = Verdicts() }
    }
    /// Answers already given, per field name: capture asks about the same few names for every
    /// state it records, and normalising a name costs allocations.
    private var verdicts = Verdicts()

    private final class Verdicts: Sendable {
        let known = Locked<[String: Bool]>([:])
        let paths = Locked<[String: Bool]>([:])
    }

    /// Creates rules that redact the given field names (and every ``Secret``).
    public init(keyNames: some Sequence<String>) {
        self.keyNames = Set(keyNames.map(Self.normalised))
    }

    public static func == (lhs: Redaction, rhs: Redaction) -> Bool {
        lhs.keyNames == rhs.keyNames
    }

    /// The names redacted when nothing else is configured.
    public static let defaultKeyNames = [
        "password", "passwd", "passphrase", "secret", "token", "apiKey", "apiSecret", "privateKey",
        "authorization", "cookie", "sessionId", "creditCard", "cardNumber", "cvv", "ssn", "pin",
    ]

    /// The default rules: ``defaultKeyNames`` and every ``Secret``.
    public static let `default` = Redaction(keyNames: defaultKeyNames)

    /// Only ``Secret`` fields are redacted; no names are.
    public static let secretsOnly = Redaction(keyNames: [])

    /// These rules with more names.
    public func adding(_ names: some Sequence<String>) -> Redaction {
        var copy = self
        copy.keyNames.formUnion(names.map(Self.normalised))
        return copy
    }

    /// Whether a field of this name is redacted.
    public func redacts(key: String) -> Bool {
        guard !keyNames.isEmpty else { return false }
        if let known = verdicts.known.withLock({ $0[key] }) { return known }
        let name = Self.normalised(key)
        let verdict = keyNames.contains(name) || keyNames.contains { name.hasSuffix($0) }
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

    static func normalised(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// The leaf that replaces a redacted value.
    static func redactedLeaf(typeName: String) -> OpaqueValue {
        OpaqueValue(typeName: typeName, summary: OpaqueValue.redactedSummary)
    }
}
