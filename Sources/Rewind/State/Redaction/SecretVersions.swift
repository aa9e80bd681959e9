/// Tells apart the values secrets take within one recording, without keeping any of them: the
/// first secret value a journal meets reads `<redacted>`, a different one `<redacted 2>`, and so
/// on — so a token that changed reads as changed (`authToken: <redacted> → <redacted 2>`), one
/// written again reads as unchanged, and one value reads alike wherever it is shown: in the
/// state, in the input that carried it, in a log message's metadata, whatever each calls it.
///
/// Only a digest of each value is kept, made with this process's random hashing seed, which is
/// never written: the recording shows which values were equal, never what they were. One instance
/// serves one journal; the numbers depend only on the order values appear, so two recordings of
/// the same session number them alike.
final class SecretVersions: Sendable {
    /// The version of each value seen, by digest.
    private let versions = Locked<[Int: Int]>([:])

    /// Beyond this many distinct values, new ones read `<redacted ?>` (changed, but not told
    /// apart from one another): the table stays small when a secret changes at every step.
    private static let limit = 16_384

    /// The text of a redacted leaf standing for `content`, a value captured with its secrets.
    func text(of content: StateValue) -> String {
        let digest = content.hashValue
        let version = versions.withLock { all -> Int? in
            if let version = all[digest] { return version }
            guard all.count < Self.limit else { return nil }
            all[digest] = all.count + 1
            return all.count
        }
        guard let version else { return "<redacted ?>" }
        return version == 1 ? OpaqueValue.redactedText : "<redacted \(version)>"
    }
}

extension CaptureOptions {
    /// The leaf that replaces a secret, for `content` — the secret's live value or its tree — as
    /// these options number it (see ``SecretVersions``): plain `<redacted>` when they do not.
    func redactedLeaf(typeName: String, of content: @autoclosure () -> Any) -> OpaqueValue {
        guard let secretVersions else { return Redaction.redactedLeaf(typeName: typeName) }
        var value = content()
        if let secret = value as? any SecretValue { value = secret.content }
        let tree = value as? StateValue ?? StateCapture.capture(value, options: CaptureOptions(redaction: .secretsOnly, maximumDepth: maximumDepth, revealingSecrets: true))
        return OpaqueValue(typeName: typeName, text: secretVersions.text(of: tree))
    }
}

extension StateValue {
    /// This tree with every secret's version (`<redacted 2>`) read as the plain `<redacted>` a
    /// capture outside a journal holds: how a replay holds a recorded state to a live one. A
    /// secret's value is never compared.
    package func forgettingSecretVersions() -> StateValue {
        guard holdsSecretVersion else { return self }
        switch self {
        case .opaque(let leaf):
            return .opaque(OpaqueValue(typeName: leaf.typeName, text: OpaqueValue.redactedText))
        case .array(let elements):
            return .array(elements.map { $0.forgettingSecretVersions() })
        case .object(var fields):
            for index in fields.values.indices { fields.values[index] = fields.values[index].forgettingSecretVersions() }
            return .object(fields)
        default:
            return self
        }
    }

    /// Whether a redacted leaf inside reads as a later version (`<redacted 2>`).
    private var holdsSecretVersion: Bool {
        switch self {
        case .opaque(let leaf): leaf.isRedacted && leaf.text != OpaqueValue.redactedText
        case .array(let elements): elements.contains { $0.holdsSecretVersion }
        case .object(let fields): fields.values.contains { $0.holdsSecretVersion }
        default: false
        }
    }
}
