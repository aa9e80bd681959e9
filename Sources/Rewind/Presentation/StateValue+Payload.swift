extension StateValue {
    /// A dispatch's input or an activity's value as rows and log lines show it. An enum case is
    /// captured as `{case: payload}`; shown whole, it repeats what the row already says
    /// (`setEnabled {setEnabled: {_0: true}}`). So a case the event is named after shows only its
    /// payload, another case shows its name and payload, a case without payload shows nothing
    /// more, and an unlabelled payload shows its values alone:
    ///
    /// ```swift
    /// input.payloadDescription(sentAs: "increment", limit: 80)    // ""         ({increment: {}})
    /// input.payloadDescription(sentAs: "setEnabled", limit: 80)   // "true"     ({setEnabled: {_0: true}})
    /// activity.payloadDescription(sentAs: "", limit: 80)          // "didReachBigNumber 12"
    /// input.payloadDescription(sentAs: "add", limit: 80)          // "(sku: \"A1\", quantity: 2)"
    /// ```
    ///
    /// An activity (sent under no name) is read as a case whenever it has that shape
    /// (`saved (itemCount: 4)`). Anything else — a struct, a string, a labelled payload under
    /// another name — is shown as ``compactDescription(limit:)`` shows it. Cut with `…` after about `limit` characters.
    @_spi(Tooling) public func payloadDescription(sentAs name: String, limit: Int) -> String {
        guard case .object(let fields) = self, fields.count == 1, let (caseName, payload) = fields.elements.first,
              case .object(let values) = payload,
              caseName == name || name.isEmpty || values.isEmpty || values.keys.allSatisfy(Self.isPositionalLabel)
        else { return compactDescription(limit: limit) }
        let payloadText = Self.payloadText(values, limit: limit)
        if caseName == name { return payloadText }
        let shownName = VisibleText.escaped(caseName)
        let text = payloadText.isEmpty ? shownName : shownName + " " + payloadText
        return VisibleText.truncated(text, to: limit)
    }

    /// `_0`, `_1`, …: how a payload's unlabelled values are captured.
    private static func isPositionalLabel(_ label: String) -> Bool {
        label.hasPrefix("_") && label.count > 1 && label.dropFirst().allSatisfy(\.isNumber)
    }

    /// Nothing for no values, one unlabelled value alone, several as a tuple: `(1, "a")`,
    /// `(sku: "A1", quantity: 2)`.
    private static func payloadText(_ values: StateObjectFields, limit: Int) -> String {
        if values.isEmpty { return "" }
        if values.count == 1, let (label, value) = values.elements.first, isPositionalLabel(label) {
            return value.compactDescription(limit: limit)
        }
        var text = "("
        for (index, (label, value)) in values.enumerated() {
            if index > 0 { text += ", " }
            if !isPositionalLabel(label) { text += VisibleText.escaped(label) + ": " }
            text += value.compactDescription(limit: max(8, limit - text.count))
            if text.count > limit { break }
        }
        text += ")"
        return VisibleText.truncated(text, to: limit)
    }
}
