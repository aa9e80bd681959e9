import Logging

/// One event as the journal's path carries it: flat fields and the values as the unit had them —
/// no ``Event``, no ``Event/Kind`` to copy, no redaction context bound on the app's thread.
///
/// A unit makes one per event (``EventChannel/emit(_:name:description:callSite:parent:at:sequence:to:)``)
/// and hands it to its logger's `record(_:)`. A logger that takes records (the journal, the
/// OpenTelemetry exporter) moves it into its queue as it is; any other logger gets the ``Event``
/// made from it, once (``MultiplexLogger`` makes it once for all its children that want it). The
/// redaction rules are applied where the record becomes an ``Event`` — on the logger's own thread
/// for a logger that takes records — so every logger still sees the same redacted values.
public struct EventRecord: Sendable {
    /// The event's place in the process-wide order.
    public var sequence: UInt64
    /// When it happened.
    public var time: EventTime
    /// Which unit made it.
    public var source: EventSource
    /// What kind of event it is.
    public var category: Event.Category
    /// The dispatch's, commit's or activity's name.
    public var name: String
    /// More about it, when there is more to say.
    public var description: String
    /// Where in the user's code it happened.
    public var callSite: CallSite
    /// The dispatch it happened inside.
    public var parent: UInt64?
    /// A finished dispatch's or commit's duration; zero for the other kinds.
    public var duration: Duration
    // Spelled `Optional<…>`, not `…?`: a `var` of the sugared spelling starts as `nil` in every
    // initializer, which makes the initializer's write a replacement that destroys that `nil`
    // (measured: ~60 instructions an event, on the app's thread).
    /// A change's path.
    public var path: Optional<ChangedPath>
    /// A change's new value, a dispatch's input or an activity's value.
    public var value: Optional<LoggedValue>
    /// The whole state after the event, where the event carries it.
    public var state: Optional<LoggedValue>

    /// A record of `kind`, its values moved out of it.
    @inline(__always)
    public init(
        sequence: UInt64, time: EventTime, source: EventSource, kind: consuming Event.Kind, name: String,
        description: String, callSite: CallSite, parent: UInt64?
    ) {
        self.sequence = sequence
        self.time = time
        self.source = source
        self.name = name
        self.description = description
        self.callSite = callSite
        self.parent = parent
        (category, duration, path, value, state) =
            switch consume kind {
            case .willDispatch(let input): (.willDispatch, .zero, nil, input, nil)
            case .didDispatch(let duration): (.didDispatch, duration, nil, nil, nil)
            case .willMutate: (.willMutate, .zero, nil, nil, nil)
            case .didMutate(let duration, let state): (.didMutate, duration, nil, nil, state)
            case .change(let path, let value, let state): (.change, .zero, path, value, state)
            case .replace(let state): (.replace, .zero, nil, nil, state)
            case .activity(let value): (.activity, .zero, nil, value, nil)
            case .created(let state): (.created, .zero, nil, nil, state)
            case .released: (.released, .zero, nil, nil, nil)
            // Kept whole, as the value: the writer takes its metadata's tree and its place in the
            // code from it on its own thread.
            case .log(let message): (.log, .zero, nil, LoggedValue(message), nil)
            }
    }

    public init(_ event: Event) {
        self.init(
            sequence: event.sequence, time: event.time, source: event.source, kind: event.kind, name: event.name,
            description: event.description, callSite: event.callSite, parent: event.parent
        )
    }

    /// What stands in for a value a kind needs and a record made by hand left out: `nil`.
    static let missing = LoggedValue(Optional<Int>.none as Any)
}

extension Event {
    /// The event a record describes, with its values bound to their redaction context (see
    /// ``Event/init(sequence:time:source:kind:name:description:callSite:parent:)``); the values
    /// are moved out of the record.
    public init(_ record: consuming EventRecord) {
        let kind: Kind =
            switch record.category {
            case .willDispatch: .willDispatch(input: record.value.take())
            case .didDispatch: .didDispatch(duration: record.duration)
            case .willMutate: .willMutate
            case .didMutate: .didMutate(duration: record.duration, state: record.state.take() ?? EventRecord.missing)
            case .change:
                .change(path: record.path.take() ?? ChangedPath(name: ""), value: record.value.take() ?? EventRecord.missing, state: record.state.take())
            case .replace: .replace(state: record.state.take() ?? EventRecord.missing)
            case .activity: .activity(record.value.take() ?? EventRecord.missing)
            case .created: .created(state: record.state.take())
            case .released, .dropped: .released
            case .log:
                .log(
                    record.value.take()?.value as? LogMessage
                        ?? LogMessage(level: Logger.Level(rawValue: record.name) ?? .info, message: record.description, file: "", function: "", line: 0))
            }
        self.init(
            sequence: record.sequence, time: record.time, source: record.source, kind: kind, name: record.name,
            description: record.description, callSite: record.callSite, parent: record.parent
        )
    }
}
