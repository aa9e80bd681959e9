@_spi(Tooling) import Rewind

/// A row of `rewind export --format jsonl`: one event as a row of the fleet table that
/// `docs/EXPORT_SCHEMA.md` freezes. Every column is on every row, in the same order, `null` where
/// it does not apply, so that ClickHouse and DuckDB read many recordings' rows as one table; the
/// recording's identity (`recording_id`, `app_version`) is on each row, so that rows from many
/// files can be told apart.
///
/// A superset of an event of `log --json` (``EventText/json(_:old:state:change:)``; both take their
/// columns from ``EventColumns``) with its own `schema_version`: adding columns keeps it, changing
/// or removing one raises it.
struct ExportRow: Sendable {
    /// The table schema's version: 2, the first table version (version 1 was the event shape).
    static let schemaVersion = 2

    /// The recording the rows come from, as its rows name it (made once: UUID's text is made
    /// with `snprintf`).
    private let recordingID: String
    private let appVersion: String?

    init(header: JournalHeader) {
        recordingID = header.recordingIDString
        appVersion = header.appVersion
    }

    /// One event's row. `step` is what the event did to its source's state (``StateWalker/advance(_:)``):
    /// it fills `state`, `changes`, and for a change `old` (the value its path held before,
    /// `null` when the path was missing).
    ///
    /// With `includingState` false the `state` column is `null` (`rewind export --states N`).
    func json(_ event: RecordedEvent, step: (before: StateValue?, after: StateValue)?, includingState: Bool = true) -> JSONText.Object {
        JSONText.buildObject { row in
            row.field("schema_version", Self.schemaVersion)
            row.field("recording_id", recordingID)
            row.field("app_version", appVersion)
            EventColumns.add(EventColumns.exportRow, of: event, to: &row, nullWhenAbsent: true)
            row.field("path", event.path)
            let old = ValueBefore(of: event, in: step?.before)
            row.value("old", old.isKnown ? old.held ?? .null : nil)
            row.value("new", event.kind == .change ? event.value : nil)
            row.value("value", event.value)
            row.raw("dropped", event.dropped.map(CommandJSON.dropped) ?? "null")
            row.raw("changes", step.map { step in step.before.map { CommandJSON.changes(from: $0, to: step.after) } ?? "[]" } ?? "[]")
            row.value("state", includingState ? step?.after : nil)
        }
    }
}

extension JSONText.Object {
    /// Adds a value field that is `null` when there is no value.
    fileprivate mutating func value(_ key: String, _ value: StateValue?) {
        if let value { field(key, value) } else { raw(key, "null") }
    }
}
