/// One event record of a block payload, with the fields the format stores (docs/JOURNAL_FORMAT.md,
/// "Event record"). The writer makes one from each ``EventRecord`` it encodes, and from each run of
/// dropped events; readers get one back per record and turn it into a ``RecordedEvent``.
/// `WireRecord+Coding.swift` is the one place the record's bytes are written and read.
struct WireRecord {
    var kind: Event.Category
    var sequence: UInt64
    var time: EventTime
    /// The source's position in the block's source table.
    var sourceIndex: Int
    var name: String
    var description: String
    var file: RecordedText
    var function: RecordedText
    var line: UInt
    /// The sequence number of the dispatch the event happened inside.
    var parent: UInt64?
    var body: Body
    var state: StateRecord?

    /// What follows the fixed fields, by kind.
    enum Body: Equatable {
        case none
        /// A `didDispatch`'s or `didMutate`'s duration, in nanoseconds.
        case duration(UInt64)
        /// A change's path and new value.
        case change(path: String, value: StateValue)
        /// A change's path, and its new value as the changes from the value at that path in the
        /// source's latest state record before it in the block: appending to a long list records
        /// the new element, not the list. Block decoding turns it into ``change(path:value:)``
        /// (``BlockDecoding``); the writer uses it only where that state is in the block.
        case changeFromState(path: String, diff: StateDiff)
        /// An activity's value, or the input a `willDispatch` carries.
        case value(StateValue)
        /// Events a writer in drop mode could not keep.
        case dropped(DroppedRange)
        /// Values the reader stepped over without building them (see
        /// ``WireRecord/readValues(of:from:strings:reading:)``).
        case skipped
    }

    /// A string of the record: the call site's static strings are interned by address on the
    /// writer's side, so recording a call site allocates nothing.
    enum RecordedText {
        case text(String)
        case callSite(StaticString)

        var string: String {
            switch self {
            case .text(let text): text
            case .callSite(let text): text.description
            }
        }
    }
}

extension WireRecord {
    /// The record of an event the writer encodes; `body` and `state` are what the writer captured.
    init(_ event: EventRecord, sequence: UInt64, time: EventTime, body: Body, state: StateRecord?) {
        self.init(
            kind: event.category, sequence: sequence, time: time, sourceIndex: 0, name: event.name,
            description: event.description, file: .callSite(event.callSite.file), function: .callSite(event.callSite.function),
            line: event.callSite.line, parent: event.parent, body: body, state: state
        )
    }

    /// The record of a run of events a writer in drop mode could not keep: it stands at the run's
    /// highest sequence number, in the source the run came from.
    init(dropped: DroppedRange, time: EventTime) {
        self.init(
            kind: .dropped, sequence: dropped.sequences.upperBound, time: time, sourceIndex: 0, name: "", description: "",
            file: .text(""), function: .text(""), line: 0, parent: nil, body: .dropped(dropped), state: nil
        )
    }

    /// The event as readers present it.
    func recordedEvent(source: RecordedSource) -> RecordedEvent {
        // The body's fields as a record in its block reads them (``BlockRecords/Record``).
        RecordedEvent(
            sequence: sequence, wallNanoseconds: time.wallNanoseconds, monotonicNanoseconds: time.monotonicNanoseconds,
            source: source, kind: kind, name: name, description: description, file: file.string, function: function.string,
            line: line, parent: parent, duration: body.duration, path: body.path, value: body.value, dropped: body.dropped,
            stateRecord: state
        )
    }
}
