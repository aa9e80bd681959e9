/// An event's fields as readers present them: an event made (``RecordedEvent``), or a record read
/// in place in its block (``BlockRecords/Record``), which gives each field as its event has it.
/// What a reader that writes every event out takes (`export`, `log --json`, a Perfetto trace), so
/// that it makes no event.
package protocol EventFields {
    /// The event's sequence number.
    var sequence: UInt64 { get }
    /// Wall-clock time, nanoseconds since 1970 (UTC).
    var wallNanoseconds: Int64 { get }
    /// Monotonic clock time, nanoseconds.
    var monotonicNanoseconds: UInt64 { get }
    /// The unit that emitted it.
    var source: RecordedSource { get }
    /// What kind of event it is.
    var kind: Event.Category { get }
    /// Its name (dispatch or commit name).
    var name: String { get }
    /// Its description (empty when it has none).
    var description: String { get }
    /// The call site's file, function and line.
    var file: String { get }
    var function: String { get }
    var line: UInt { get }
    /// The sequence number of the dispatch it happened inside.
    var parent: UInt64? { get }
    /// For `didDispatch` and `didMutate`: how long it took.
    var duration: Duration? { get }
    /// For `change`: the changed path, as text.
    var path: String? { get }
    /// A change's new value, an activity's value, or a dispatch's input.
    var value: StateValue? { get }
    /// For `dropped`: the events dropped.
    var dropped: DroppedRange? { get }
    /// The value its change's path held in `state`, its source's state just before it
    /// (``ValueBefore``'s one rule).
    func value(before state: StateValue?) -> ValueBefore
    /// What it carries, on one line (``RecordedEvent/rowText(valueLimit:old:columns:)``).
    func rowText(valueLimit: Int, old: ValueBefore, columns: (String) -> Int) -> String
    /// The same text appended to `bytes` as UTF-8.
    func writeRowText(valueLimit: Int, old: ValueBefore, columns: (String) -> Int, to bytes: inout [UInt8])
}

extension EventFields {
    package func value(before state: StateValue?) -> ValueBefore {
        ValueBefore(kind: kind, path: path, in: state)
    }
}

extension RecordedEvent: EventFields {}
extension BlockRecords.Record: EventFields {}
