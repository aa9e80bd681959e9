/// The values a replay puts back where the recording hid a secret: a journal never holds a
/// redacted input's value (a sign-in token, an API key, a payload's `authToken`), so the test
/// supplies it — as HTTP recorders put real credentials back in place of their placeholders on
/// playback.
///
/// Values are found by the input's name (`authToken`: a whole input), by the hidden field's path
/// inside the input (`authToken` for a Flask payload's key, `credentials.password`), or by both
/// (`signIn.authToken`); the most specific wins. A journal numbers the secret values it meets,
/// one number per value wherever it appears — `<redacted>`, `<redacted 2>`, `<redacted 3>`… — so
/// a mistyped password and the right one read apart: a key ending in `#N` supplies the value
/// recorded as `<redacted N>` (`#1` for plain `<redacted>`), and wins over the key without it.
/// The numbers are the journal's (an empty password in the first state is `<redacted>`, so the
/// first typed one is `<redacted 2>`): read them with `rewind log`.
/// A closure can answer instead, for values a test computes:
///
/// ```swift
/// expectReplay(of: "Fixtures/board.rewind", driving: ["board": board.replayTarget],
///              secrets: ["authToken": "tok-test-4711"])
/// replay.secrets = ["password#2": "hunter1", "password#3": "hunter2"]   // a typo, then the password
/// replay.secrets = ReplaySecrets { input, path in input == "signIn" ? "tok-\(path)" : nil }
/// replay.secrets = ReplaySecrets { input, path, ordinal in ordinal == 2 ? "hunter1" : "hunter2" }
/// ```
///
/// A closure may be asked more than once for one recorded input (a replay checks first that every
/// value it needs is there): answer the same for the same question.
///
/// A redacted input with no value supplied is never sent as text: the replay is refused before
/// anything is sent, naming each input and how to supply it. A redacted field of a *state* needs
/// no value: comparisons see it hidden on both sides, and putting a recorded state back keeps the
/// live unit's own value there.
public struct ReplaySecrets: Sendable, ExpressibleByDictionaryLiteral {
    private var values: [String: StateValue]
    private let provide: (@Sendable (_ input: String, _ path: StatePath, _ ordinal: Int?) -> (any Encodable & Sendable)?)?

    /// Values by input name, field path or both.
    public init(_ values: [String: any Encodable & Sendable] = [:]) {
        self.values = values.mapValues { StateCapture.capture($0) }
        self.provide = nil
    }

    /// Values from `provide`, asked with the input's name and the hidden field's path inside it
    /// (the root path for a whole input); `nil` when it has none.
    public init(_ provide: @escaping @Sendable (_ input: String, _ path: StatePath) -> (any Encodable & Sendable)?) {
        self.values = [:]
        self.provide = { input, path, _ in provide(input, path) }
    }

    /// Values from `provide`, asked as by the form without an ordinal and with which of the
    /// secret's values the recording hid there (1 for `<redacted>`, 2 for
    /// `<redacted 2>`; `nil` for `<redacted ?>`).
    public init(_ provide: @escaping @Sendable (_ input: String, _ path: StatePath, _ ordinal: Int?) -> (any Encodable & Sendable)?) {
        self.values = [:]
        self.provide = provide
    }

    public init(dictionaryLiteral elements: (String, any Encodable & Sendable)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Whether no value is supplied at all.
    var isEmpty: Bool { values.isEmpty && provide == nil }

    /// The value for the field at `path` of input `input`, recorded as `<redacted ordinal>`, if
    /// supplied.
    func value(forInput input: String, at path: StatePath, ordinal: Int? = nil) -> StateValue? {
        if let provide, let value = provide(input, path, ordinal) { return StateCapture.capture(value) }
        let field = path.description
        var keys = path.isRoot ? [input] : ["\(input).\(field)", field]
        if case .key(let last)? = path.components.last, !path.isRoot { keys.append(last) }
        if let ordinal {
            if let value = keys.lazy.compactMap({ values["\($0)#\(ordinal)"] }).first { return value }
        }
        return keys.lazy.compactMap { values[$0] }.first
    }

    /// `input` with every redacted part replaced by its supplied value, and the paths (inside the
    /// input) of the parts no value was supplied for.
    func filling(_ input: RecordedInput) -> (input: RecordedInput, missing: [StatePath]) {
        guard let value = input.value, value.containsRedaction else { return (input, []) }
        var missing: [StatePath] = []
        let filled = fill(value, at: .root, input: input.name, missing: &missing)
        var result = input
        result.value = filled
        return (result, missing)
    }

    private func fill(_ value: StateValue, at path: StatePath, input: String, missing: inout [StatePath]) -> StateValue {
        switch value {
        case .opaque(let leaf) where leaf.isRedacted:
            if let supplied = self.value(forInput: input, at: path, ordinal: leaf.redactedOrdinal) { return supplied }
            missing.append(path)
            return value
        case .array(let elements):
            return .array(elements.enumerated().map { fill($0.element, at: path.appending(.index($0.offset)), input: input, missing: &missing) })
        case .object(var fields):
            for key in fields.keys {
                fields[key] = fill(fields[key]!, at: path.appending(.key(key)), input: input, missing: &missing)
            }
            return .object(fields)
        default:
            return value
        }
    }
}

/// A recorded input whose value was redacted and for which the replay was given no value.
public struct MissingSecret: Sendable, Equatable, CustomStringConvertible {
    /// The input's name.
    public var input: String
    /// The hidden part's path inside the input (the root for a whole input).
    public var path: StatePath
    /// How many recorded inputs hide it.
    public var count: Int

    /// Creates the description of a missing secret.
    package init(input: String, path: StatePath, count: Int) {
        self.input = input
        self.path = path
        self.count = count
    }

    /// The key a test supplies it under.
    package var key: String { path.isRoot ? input : "\(input).\(path)" }

    public var description: String {
        let what = path.isRoot ? "input '\(input)'" : "'\(path)' of input '\(input)'"
        let times = count == 1 ? "" : " (\(count) recorded inputs)"
        if Redaction.isUnknownName(input) {
            // Hidden because its name could not be told (``Redaction/redacts(sentAs:)``): no
            // word of the rules hid it, and a key cannot tell such inputs apart.
            return "\(what) was recorded redacted\(times), its name unknown when it was recorded; supply its value with a closure, "
                + "replay.secrets = ReplaySecrets { input, path, ordinal in … }, which is told the recorded ordinal (<redacted N>)"
        }
        // The name's last word, which the name rule most often matched (`pin` of `userPin`).
        let name = path.isRoot ? input : path.description.split(whereSeparator: { ".?[]".contains($0) }).last.map(String.init) ?? input
        let word = NameWords.split(name).last ?? name
        return "\(what) was recorded redacted\(times); supply its value: secrets: [\"\(key)\": …] (expectReplay) or replay.secrets = [\"\(key)\": …]"
            + "; or, if '\(word)' is no secret in this app, record without hiding it: Redaction.current = Redaction.default.removing([\"\(word)\"])"
    }
}

extension StateValue {
    /// This recorded state with every redacted part replaced by the value at the same path of
    /// `live` (or left hidden where `live` has none): what putting a recorded state back writes,
    /// since a recording never holds a secret's value.
    func fillingRedactions(from live: StateValue?) -> StateValue {
        switch self {
        case .opaque(let leaf) where leaf.isRedacted:
            return live ?? self
        case .array(let elements):
            guard containsRedaction else { return self }
            return .array(elements.enumerated().map { index, element in
                element.fillingRedactions(from: live?[.index(index)])
            })
        case .object(var fields):
            guard containsRedaction else { return self }
            for key in fields.keys {
                fields[key] = fields[key]!.fillingRedactions(from: live?[.key(key)])
            }
            return .object(fields)
        default:
            return self
        }
    }
}
