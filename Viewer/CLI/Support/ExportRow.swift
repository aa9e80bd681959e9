import Logging
@_spi(Tooling) import Rewind

/// A row of `rewind export --format jsonl`: one event as a row of the fleet table that
/// `docs/EXPORT_SCHEMA.md` freezes. Every column is on every row, in the same order, `null` where
/// it does not apply, so that ClickHouse and DuckDB read many recordings' rows as one table; the
/// recording's identity (`recording_id`, `app_version`) is on each row, so that rows from many
/// files can be told apart.
///
/// A superset of an event of `log --json` (``EventText/json(_:old:dump:)``; both take their
/// columns from ``EventColumns``) with its own `schema_version`: adding columns keeps it, changing
/// or removing one raises it.
struct ExportRow: Sendable {
    /// The table schema's version: 2, the first table version (version 1 was the event shape).
    static let schemaVersion = 2

    /// The columns that are the same on every row — `schema_version`, and the recording's
    /// identity (`recording_id`, `app_version`) — encoded once.
    private let recordingColumns: [UInt8]

    init(header: JournalHeader) {
        let columns = JSONText.buildObject { row in
            row.field("schema_version", Self.schemaVersion)
            row.field("recording_id", header.recordingIDString)
            row.field("app_version", header.appVersion)
        }
        recordingColumns = columns.encodedFields
    }

    /// Appends one event's row and a newline to `buffer`. `step` is what the event did to its
    /// source's state and `old` what its change's path held before (``StateWalker/advance(_:old:)``):
    /// they fill `state`, `changes`, and for a change that moved the state `old` (`null` when the
    /// path was missing).
    ///
    /// With `includingState` false the `state` column is `null` (`rewind export --states N`).
    func write(
        _ event: some EventFields, step: (before: StateValue?, after: StateValue)?, old: ValueBefore, includingState: Bool = true,
        to buffer: inout [UInt8]
    ) {
        var row = JSONText.Object(continuing: &buffer)
        row.append(encodedFields: recordingColumns)
        EventColumns.add(EventColumns.exportRow, of: event, to: &row, nullWhenAbsent: true)
        row.field("path", event.path)
        let old = step == nil ? .unknown : old
        row.value("old", old.isKnown ? old.held ?? .null : nil)
        row.value("new", event.kind == .change ? event.value : nil)
        row.value("value", event.value)
        row.raw("dropped", event.dropped.map(CommandJSON.dropped) ?? "null")
        if let step, let before = step.before {
            row.changes("changes", from: before, to: step.after)
        } else {
            row.raw("changes", "[]")
        }
        row.value("state", includingState ? step?.after : nil)
        // An app's own log message (`log`): its level, its logger's label, the message and its
        // metadata; `null` on every other row.
        let isLog = event.kind == .log
        EventColumns.add([.level], of: event, to: &row, nullWhenAbsent: true)
        row.text("label", isLog ? event.source.label : nil)
        EventColumns.add([.message], of: event, to: &row, nullWhenAbsent: true)
        row.value("metadata", isLog ? event.value : nil)
        row.closeLine(into: &buffer)
    }
}

extension JSONText.Object {
    /// Adds a value field that is `null` when there is no value.
    fileprivate mutating func value(_ key: JSONText.Key, _ value: StateValue?) {
        if let value { field(key, value) } else { raw(key, "null") }
    }

    /// Adds a text field that is `null` when there is no text.
    fileprivate mutating func text(_ key: JSONText.Key, _ text: String?) {
        if let text { field(key, text) } else { raw(key, "null") }
    }
}
