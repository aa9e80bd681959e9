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
        let hidden = { StateValue.opaque(options.redactedLeaf(typeName: value.shapeName, of: value)) }
        guard !named else { return hidden() }
        guard let state = state() else { return hidden() }
        return state.contains(subtree: value) ? value : hidden()
    }

    /// Whether the value a dispatch, input, output or activity named `name` carries is hidden:
    /// when the name is secret, and when it is not known (``isUnknownName(_:)``: a property
    /// wrapper's property whose name could not be told), since it may be a secret's
    /// (`setToken`). Fails closed for the rules that judge names; ``secretsOnly`` judges none.
    func redacts(sentAs name: String) -> Bool {
        redacts(key: name) || (judgesNames && Self.isUnknownName(name))
    }

    /// Whether a change path names each of its fields: not empty, and no `…` where a key path
    /// did not tell its step (a computed property, a subscript).
    static func namesEveryField(_ path: String) -> Bool {
        !path.isEmpty && !path.unicodeScalars.contains("…")
    }
}
