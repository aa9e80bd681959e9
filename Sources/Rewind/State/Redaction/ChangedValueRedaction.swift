extension Redaction {
    /// The new value of a change event as it may be recorded or shown.
    ///
    /// A key path that names its fields (`profile.pin`) is checked against the name rules. One that
    /// does not — a property wrapper such as ``Secret`` is reached through its computed
    /// `wrappedValue` — is checked against the redacted state instead: the value is shown only if
    /// that state already shows it. `state` is asked for only in that second case.
    func visibleChange(at path: String, value: StateValue, options: CaptureOptions, state: () -> StateValue?) -> StateValue {
        let named = Self.namesEveryField(path)
        // The common case first: looking through a large value for redactions costs its size.
        if named, !redacts(path: path) { return value }
        if value.containsRedaction { return value }
        // Made only when the value is hidden: making it numbers the value (``SecretVersions``).
        let hidden = { StateValue.opaque(options.redactedLeaf(typeName: value.shapeName, of: value, in: Self.fieldName(ending: path))) }
        guard !named else { return hidden() }
        guard let state = state() else { return hidden() }
        return state.contains(subtree: value) ? value : hidden()
    }

    /// Whether a change path names each of its fields: not empty, and no `…` where a key path
    /// did not tell its step (a computed property, a subscript).
    static func namesEveryField(_ path: String) -> Bool {
        !path.isEmpty && !path.unicodeScalars.contains("…")
    }

    /// The name of the field a change path ends in (`profile.pin` → `pin`, `tokens[2]` →
    /// `tokens`), under which its secret's values are numbered as when the state is captured.
    private static func fieldName(ending path: String) -> String {
        let field = path.split(separator: ".").last.map(String.init) ?? path
        return field.firstIndex(of: "[").map { String(field[..<$0]) } ?? field
    }
}
