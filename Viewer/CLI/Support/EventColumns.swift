import Logging
@_spi(Tooling) import Rewind

/// The columns an event has in every JSON answer — `log --json`, `export`'s rows, `blame --json`
/// and the links of its `--why` — defined once: what each column is named and holds, and the one
/// order they appear in. Each answer takes the columns it documents (`docs/JSON_OUTPUT.md`,
/// `docs/EXPORT_SCHEMA.md`), so the same column never means two things.
enum EventColumns {
    enum Column {
        /// `seq`: the event's sequence number.
        case sequence
        /// `time`: wall-clock time, ISO 8601.
        case time
        /// `time_ns`: wall-clock time, nanoseconds since 1970.
        case timeNanoseconds
        /// `monotonic_ns`: the monotonic clock.
        case monotonic
        /// `source`: the unit's label, or `Type#id`.
        case source
        /// `source_id`: the unit's instance number.
        case sourceID
        /// `framework` and `type`: what the unit is.
        case framework, type
        /// `kind`: the event kind's word (`change`, `dispatch`, …).
        case kind
        /// `name` and `description`: what the event says it did.
        case name, description
        /// `file`, `function` and `line`: the call site.
        case file, function, line
        /// `parent`: the event that caused this one, or `null`.
        case parent
        /// `duration_ns`: a commit's or a dispatch's duration.
        case duration
        /// `level` and `message`: an app's log message's level (by its name: a crafted record whose
        /// name is no level has none) and text — what its `name` and `description` hold, under
        /// the names every answer gives them.
        case level, message
    }

    /// `log --json`: every column but `time_ns` (`level` and `message` on a log message's line only).
    static let log: [Column] = [
        .sequence, .time, .monotonic, .source, .sourceID, .framework, .type, .kind, .name, .description,
        .file, .function, .line, .parent, .duration, .level, .message,
    ]

    /// A row of `export`: every column but `level` and `message`, which come with the message's
    /// other columns at the end of the row.
    static let exportRow: [Column] = [
        .sequence, .time, .timeNanoseconds, .monotonic, .source, .sourceID, .framework, .type, .kind, .name,
        .description, .file, .function, .line, .parent, .duration,
    ]

    /// A step `blame --json` lists, and a link of its `why` (with the link's `input` after `name`).
    static let blame: [Column] = [.sequence, .source, .kind, .name]
    static let callSite: [Column] = [.file, .line]

    /// Adds `columns` of `event` to `object`, in order. A missing duration is left out, or written
    /// as `null` where a table needs every column on every row (`nullWhenAbsent`).
    static func add(_ columns: [Column], of event: some EventFields, to object: inout JSONText.Object, nullWhenAbsent: Bool = false) {
        for column in columns {
            switch column {
            case .sequence: object.field("seq", event.sequence)
            case .time: object.field("time", EventTime.iso8601(wallNanoseconds: event.wallNanoseconds))
            case .timeNanoseconds: object.field("time_ns", event.wallNanoseconds)
            case .monotonic: object.field("monotonic_ns", event.monotonicNanoseconds)
            case .source: object.field("source", event.source.description)
            case .sourceID: object.field("source_id", event.source.instanceID)
            case .framework: object.field("framework", event.source.framework)
            case .type: object.field("type", event.source.typeName)
            case .kind: object.field("kind", event.kind.rawValue)
            case .name: object.field("name", event.name)
            case .description: object.field("description", event.description)
            case .file: object.field("file", event.file)
            case .function: object.field("function", event.function)
            case .line: object.field("line", event.line)
            case .parent: object.field("parent", event.parent)
            case .duration:
                if let duration = event.duration {
                    object.field("duration_ns", duration.nanoseconds)
                } else if nullWhenAbsent {
                    object.raw("duration_ns", "null")
                }
            case .level:
                if let level = Logger.Level(kind: event.kind, name: event.name) {
                    object.field("level", level.rawValue)
                } else if nullWhenAbsent {
                    object.raw("level", "null")
                }
            case .message:
                if event.kind == .log {
                    object.field("message", event.description)
                } else if nullWhenAbsent {
                    object.raw("message", "null")
                }
            }
        }
    }
}
