extension RecordedEvent {
    /// What the event carries, on one line, as `rewind log` and the viewer's rows show it: a
    /// change's `path = value`, a dispatch's input and an activity's value (an enum case as its
    /// payload), a mutation's or dispatch's
    /// duration, a dropped range. Values are cut with `…` after about `valueLimit` characters;
    /// control characters are shown escaped.
    ///
    /// A change reads as its path and new value; given the value its path held before
    /// (`old`: `.some(nil)` when the path was missing, which an optional left out as `nil` is), it
    /// reads as the move, as the viewer's rows say it:
    ///
    /// - `quantity: 0 → -1`, an optional that was missing reading `nil`;
    /// - a whole list or object replaced, as what changed in it:
    ///   `items[id: 2].done: false → true`;
    /// - a write of the value already there: `isOn = true (unchanged)`;
    /// - `path = new` when the move does not fit `valueLimit` columns, as `columns` measures text
    ///   (characters unless told: a terminal passes cell widths, where `ラ` takes two).
    ///
    /// ```swift
    /// event.rowText()                            // "count = 1"
    /// event.rowText(valueLimit: 8)               // "items = [{id: …"
    /// event.rowText(old: .value(.integer(0)))   // "count: 0 → 1"
    /// ```
    public func rowText(valueLimit: Int = .max, old: ValueBefore = .unknown, columns: (String) -> Int = { $0.count }) -> String {
        Self.rowText(
            kind: kind, name: name, path: path, value: value, duration: duration, dropped: dropped, valueLimit: valueLimit, old: old,
            columns: columns
        )
    }

    /// The row text of an event with these fields: the one rule, for an event and for a record
    /// read in its block.
    static func rowText(
        kind: Event.Category, name: @autoclosure () -> String, path: String?, value: StateValue?, duration: Duration?, dropped: DroppedRange?,
        valueLimit: Int, old: ValueBefore, columns: (String) -> Int
    ) -> String {
        switch kind {
        case .change:
            return changeRowText(path: path ?? "", new: value ?? .null, old: old, valueLimit: valueLimit, columns: columns)
        case .activity:
            return (value ?? .null).payloadDescription(sentAs: name(), limit: valueLimit)
        case .willDispatch:
            return value.map { $0.payloadDescription(sentAs: name(), limit: valueLimit) } ?? ""
        case .didDispatch, .didMutate:
            return duration.map(EventFormatter.format) ?? ""
        case .dropped:
            return dropped.map { "\($0.count) events dropped (steps \($0.sequences.lowerBound)–\($0.sequences.upperBound))" } ?? ""
        case .willMutate, .replace, .created, .released:
            return ""
        }
    }

    /// A change's row text from its parts, by the rule of `rowText(valueLimit:old:columns:)`: for
    /// changes that are not (yet) recorded events, as a live exporter sees them.
    public static func changeRowText(
        path: String, new: StateValue, old before: ValueBefore = .unknown, valueLimit: Int = .max, columns: (String) -> Int = { $0.count }
    ) -> String {
        let path = VisibleText.escaped(path)
        let newText = new.compactDescription(limit: valueLimit)
        guard before.isKnown else { return "\(path) = \(newText)" }
        let old = before.held
        if (old ?? .null) == new { return "\(path) = \(newText)\(unchangedMark)" }
        if let old, let text = ChangeText.text(path: path, old: old, new: new, limit: valueLimit) { return text }
        let move = "\(path): \(old?.compactDescription(limit: valueLimit) ?? "nil") → \(newText)"
        return valueLimit == .max || columns(move) <= valueLimit ? move : "\(path) = \(newText)"
    }

    // The names this had before "summary" kept one meaning (a block's summary): for one release.

    @available(*, deprecated, renamed: "rowText(valueLimit:old:columns:)")
    public func summary(valueLimit: Int = .max, old: ValueBefore = .unknown, columns: (String) -> Int = { $0.count }) -> String {
        rowText(valueLimit: valueLimit, old: old, columns: columns)
    }

    @available(*, deprecated, message: "use rowText(valueLimit:old:columns:) with a ValueBefore: .value(v), .absent or .unknown")
    public func summary(valueLimit: Int = .max, old: StateValue??, columns: (String) -> Int = { $0.count }) -> String {
        rowText(valueLimit: valueLimit, old: ValueBefore(old), columns: columns)
    }

    @available(*, deprecated, renamed: "changeRowText(path:new:old:valueLimit:columns:)")
    public static func changeSummary(
        path: String, new: StateValue, old: ValueBefore = .unknown, valueLimit: Int = .max, columns: (String) -> Int = { $0.count }
    ) -> String {
        changeRowText(path: path, new: new, old: old, valueLimit: valueLimit, columns: columns)
    }

    @available(*, deprecated, message: "use changeRowText(path:new:old:valueLimit:columns:) with a ValueBefore")
    public static func changeSummary(
        path: String, new: StateValue, old: StateValue??, valueLimit: Int = .max, columns: (String) -> Int = { $0.count }
    ) -> String {
        changeRowText(path: path, new: new, old: ValueBefore(old), valueLimit: valueLimit, columns: columns)
    }

    /// What a change's row text ends with when it wrote the value its path already held (Ricemill
    /// republishes every output): ` (unchanged)`.
    @_spi(Tooling) public static let unchangedMark = " (unchanged)"
}

extension BlockRecords.Record {
    /// What the record's event carries, on one line: its event's
    /// ``RecordedEvent/rowText(valueLimit:old:columns:)``, with no event made.
    package func rowText(valueLimit: Int = .max, old: ValueBefore = .unknown, columns: (String) -> Int = { $0.count }) -> String {
        let body = self.body
        return RecordedEvent.rowText(
            kind: kind, name: name, path: body.path, value: body.value, duration: body.duration, dropped: body.dropped, valueLimit: valueLimit,
            old: old, columns: columns
        )
    }
}
