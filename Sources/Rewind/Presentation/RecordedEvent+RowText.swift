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
            kind: kind, name: name, description: description, path: path, value: value, duration: duration, dropped: dropped,
            valueLimit: valueLimit, old: old, columns: columns
        )
    }

    /// The row text of an event with these fields: the one rule, for an event and for a record
    /// read in its block.
    static func rowText(
        kind: Event.Category, name: @autoclosure () -> String, description: @autoclosure () -> String, path: String?, value: StateValue?,
        duration: Duration?, dropped: DroppedRange?, valueLimit: Int, old: ValueBefore, columns: (String) -> Int
    ) -> String {
        var bytes: [UInt8] = []
        writeRowText(
            kind: kind, name: name(), description: description(), path: path, value: value, duration: duration, dropped: dropped, valueLimit: valueLimit,
            old: old,
            columns: columns, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the row text of an event with these fields to `bytes` as UTF-8: the rule itself,
    /// which `rewind log` writes straight into its lines.
    static func writeRowText(
        kind: Event.Category, name: @autoclosure () -> String, description: @autoclosure () -> String, path: String?, value: StateValue?,
        duration: Duration?, dropped: DroppedRange?, valueLimit: Int, old: ValueBefore, columns: (String) -> Int, to bytes: inout [UInt8]
    ) {
        switch kind {
        case .change:
            writeChangeRowText(path: path ?? "", new: value ?? .null, old: old, valueLimit: valueLimit, columns: columns, to: &bytes)
        case .activity:
            bytes += (value ?? .null).payloadDescription(sentAs: name(), limit: valueLimit).utf8
        case .willDispatch:
            if let value { bytes += value.payloadDescription(sentAs: name(), limit: valueLimit).utf8 }
        case .didDispatch, .didMutate:
            if let duration { bytes += EventFormatter.format(duration).utf8 }
        case .dropped:
            if let dropped { bytes += "\(dropped.count) events dropped (steps \(dropped.sequences.lowerBound)–\(dropped.sequences.upperBound))".utf8 }
        case .log:
            // The message, then its metadata: `request failed {status: 503}`.
            let message = VisibleText.escaped(description())
            let shown = VisibleText.truncated(message, to: valueLimit)
            bytes += shown.utf8
            // Metadata only after a message shown whole, in what room it leaves.
            guard let value, shown == message else { return }
            let room = valueLimit == .max ? .max : valueLimit - columns(message) - 1
            guard room >= 8 else { return }
            bytes.append(UInt8(ascii: " "))
            value.writeCompact(limit: room, to: &bytes)
        case .willMutate, .replace, .created, .released:
            break
        }
    }

    /// A change's row text from its parts, by the rule of `rowText(valueLimit:old:columns:)`: for
    /// changes that are not (yet) recorded events, as a live exporter sees them.
    public static func changeRowText(
        path: String, new: StateValue, old before: ValueBefore = .unknown, valueLimit: Int = .max, columns: (String) -> Int = { $0.count }
    ) -> String {
        var bytes: [UInt8] = []
        writeChangeRowText(path: path, new: new, old: before, valueLimit: valueLimit, columns: columns, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``changeRowText(path:new:old:valueLimit:columns:)``'s text to `bytes` as UTF-8.
    static func writeChangeRowText(
        path: String, new: StateValue, old before: ValueBefore, valueLimit: Int, columns: (String) -> Int, to bytes: inout [UInt8]
    ) {
        let start = bytes.count
        let path = VisibleText.escaped(path)
        bytes += path.utf8
        let pathEnd = bytes.count
        guard before.isKnown else {
            bytes += " = ".utf8
            return new.writeCompact(limit: valueLimit, to: &bytes)
        }
        let old = before.held
        if (old ?? .null) == new {
            bytes += " = ".utf8
            new.writeCompact(limit: valueLimit, to: &bytes)
            bytes += unchangedMark.utf8
            return
        }
        if let old, let text = ChangeText.text(path: path, old: old, new: new, limit: valueLimit) {
            bytes.removeSubrange(start...)
            bytes += text.utf8
            return
        }
        bytes += ": ".utf8
        if let old { old.writeCompact(limit: valueLimit, to: &bytes) } else { bytes += "nil".utf8 }
        bytes += " → ".utf8
        new.writeCompact(limit: valueLimit, to: &bytes)
        // A move that does not fit says the new value only.
        guard valueLimit != .max, columns(String(decoding: bytes[start...], as: UTF8.self)) > valueLimit else { return }
        bytes.removeSubrange(pathEnd...)
        bytes += " = ".utf8
        new.writeCompact(limit: valueLimit, to: &bytes)
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
        var bytes: [UInt8] = []
        writeRowText(valueLimit: valueLimit, old: old, columns: columns, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``rowText(valueLimit:old:columns:)``'s text to `bytes` as UTF-8.
    package func writeRowText(valueLimit: Int, old: ValueBefore, columns: (String) -> Int, to bytes: inout [UInt8]) {
        let body = self.body
        RecordedEvent.writeRowText(
            kind: kind, name: name, description: description, path: body.path, value: body.value, duration: body.duration, dropped: body.dropped,
            valueLimit: valueLimit,
            old: old, columns: columns, to: &bytes)
    }
}

extension RecordedEvent {
    /// Appends ``rowText(valueLimit:old:columns:)``'s text to `bytes` as UTF-8.
    package func writeRowText(valueLimit: Int, old: ValueBefore, columns: (String) -> Int, to bytes: inout [UInt8]) {
        Self.writeRowText(
            kind: kind, name: name, description: description, path: path, value: value, duration: duration, dropped: dropped, valueLimit: valueLimit, old: old,
            columns: columns, to: &bytes)
    }
}
