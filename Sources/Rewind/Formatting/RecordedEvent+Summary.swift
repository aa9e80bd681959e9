extension RecordedEvent {
    /// What the event carries, on one line, as `rewind log` and the viewer's rows show it: a
    /// change's `path = value`, a dispatch's input and an activity's value (an enum case as its
    /// payload: see ``StateValue/payloadDescription(sentAs:limit:)``), a mutation's or dispatch's
    /// duration, a dropped range. Values are cut with `…` after about `valueLimit` characters;
    /// control characters are shown escaped.
    ///
    /// ```swift
    /// event.summary()               // "count = 1"
    /// event.summary(valueLimit: 8)  // "items = [{id: …"
    /// ```
    public func summary(valueLimit: Int = .max) -> String {
        switch kind {
        case .change:
            return "\(VisibleText.escaped(path ?? "")) = \((value ?? .null).compactDescription(limit: valueLimit))"
        case .activity:
            return (value ?? .null).payloadDescription(sentAs: name, limit: valueLimit)
        case .willDispatch:
            return value.map { $0.payloadDescription(sentAs: name, limit: valueLimit) } ?? ""
        case .didDispatch, .didMutate:
            return duration.map(EventFormatter.format) ?? ""
        case .dropped:
            return dropped.map { "\($0.count) events dropped (steps \($0.sequences.lowerBound)–\($0.sequences.upperBound))" } ?? ""
        case .willMutate, .replace, .created, .released:
            return ""
        }
    }
}
