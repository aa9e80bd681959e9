/// Tells apart the values a secret takes within one recording, without keeping any of them: the
/// first value a field (by name) is seen with reads `<redacted>`, a different one `<redacted 2>`,
/// and so on — so a token that changed reads as changed (`authToken: <redacted> → <redacted 2>`)
/// and one written again reads as unchanged.
///
/// Only a digest of each value is kept, made with this process's random hashing seed, which is
/// never written: the recording shows which values were equal, never what they were. One instance
/// serves one journal; the numbers depend only on the order values appear, so two recordings of
/// the same session number them alike.
final class SecretVersions: Sendable {
    /// Per field name, the version of each value seen, by digest.
    private let versions = Locked<[String: [Int: Int]]>([:])

    /// Beyond this many distinct values of one field, new ones read `<redacted ?>` (changed, but
    /// not told apart from one another): the table stays small when a secret changes at every step.
    private static let limit = 4_096

    /// The text of a redacted leaf standing for `content`, a value captured with its secrets,
    /// held by a field named `slot`.
    func text(of content: StateValue, in slot: String) -> String {
        let digest = content.hashValue
        let version = versions.withLock { all -> Int? in
            if let version = all[slot]?[digest] { return version }
            let count = all[slot]?.count ?? 0
            guard count < Self.limit else { return nil }
            all[slot, default: [:]][digest] = count + 1
            return count + 1
        }
        guard let version else { return "<redacted ?>" }
        return version == 1 ? OpaqueValue.redactedText : "<redacted \(version)>"
    }
}

extension CaptureOptions {
    /// The leaf that replaces a secret held by a field named `slot` (the name it is redacted by,
    /// or its type's for a ``Secret`` reached without one), for `content` — the secret's live
    /// value or its tree — as these options number it (see ``SecretVersions``): plain
    /// `<redacted>` when they do not.
    func redactedLeaf(typeName: String, of content: @autoclosure () -> Any, in slot: String) -> OpaqueValue {
        guard let secretVersions else { return Redaction.redactedLeaf(typeName: typeName) }
        var value = content()
        if let secret = value as? any SecretValue { value = secret.content }
        let tree = value as? StateValue ?? StateCapture.capture(value, options: CaptureOptions(redaction: .secretsOnly, maximumDepth: maximumDepth, revealingSecrets: true))
        return OpaqueValue(typeName: typeName, text: secretVersions.text(of: tree, in: slot))
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
