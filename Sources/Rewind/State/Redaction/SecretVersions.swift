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
    /// The numbers given so far, by digest: each value's, and when it was last seen.
    private struct Table {
        var versions: [Int: (version: Int, lastSeen: Int)] = [:]
        /// The last number given: numbers are never given twice, so two values never read alike.
        var lastVersion = 0
        /// How many values were looked up, as a clock for `lastSeen`.
        var lookUps = 0
    }

    private let table = Locked(Table())

    /// Beyond this many distinct values, the half least recently seen are forgotten: one seen
    /// again later takes a new number (it reads as changed, never as unchanged), so a secret that
    /// changes at every step — a nonce — keeps the table small without blinding the others.
    private static let limit = 16_384

    /// The text of a redacted leaf standing for `content`, a value captured with its secrets.
    func text(of content: StateValue) -> String {
        let digest = content.hashValue
        let version = table.withLock { table -> Int in
            table.lookUps += 1
            if let known = table.versions[digest] {
                table.versions[digest] = (known.version, table.lookUps)
                return known.version
            }
            if table.versions.count >= Self.limit {
                let kept = table.versions.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(Self.limit / 2)
                table.versions = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
            table.lastVersion += 1
            table.versions[digest] = (table.lastVersion, table.lookUps)
            return table.lastVersion
        }
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
