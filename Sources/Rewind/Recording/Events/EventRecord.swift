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
    public var duration: Duration = .zero
    /// A change's path.
    public var path: ChangedPath?
    /// A change's new value, a dispatch's input or an activity's value.
    public var value: LoggedValue?
    /// The whole state after the event, where the event carries it.
    public var state: LoggedValue?

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
        switch consume kind {
        case .willDispatch(let input):
            category = .willDispatch
            value = input
        case .didDispatch(let duration):
            category = .didDispatch
            self.duration = duration
        case .willMutate:
            category = .willMutate
        case .didMutate(let duration, let state):
            category = .didMutate
            self.duration = duration
            self.state = state
        case .change(let path, let value, let state):
            category = .change
            self.path = path
            self.value = value
            self.state = state
        case .replace(let state):
            category = .replace
            self.state = state
        case .activity(let value):
            category = .activity
            self.value = value
        case .created(let state):
            category = .created
            self.state = state
        case .released:
            category = .released
        }
    }

    /// The record of an event made elsewhere (a logger handed an ``Event`` by a user's code).
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
            }
        self.init(
            sequence: record.sequence, time: record.time, source: record.source, kind: kind, name: record.name,
            description: record.description, callSite: record.callSite, parent: record.parent
        )
    }
}
