/// A decoded block as its records: each record's fixed fields as numbers (``WireRecord/Head``:
/// strings as references into the block's string table), its body and its state record — no
/// ``RecordedEvent`` made. A reader that formats or walks millions of events reads them here
/// (``WalkedEvents``) and makes an event only where an API hands one out (``Record/event``);
/// the texts of a record's name and call site are the table's own strings, and two records
/// naming the same string hold the same reference, so a formatter can remember a column by it.
///
/// Immutable, and shared between the thread that decoded it and the one that writes it.
package final class BlockRecords: Sendable {
    /// The block's string table.
    let strings: [String]
    /// The block's source table.
    package let sources: [RecordedSource]
    let heads: [WireRecord.Head]
    let bodies: [WireRecord.Body]
    let states: [StateRecord?]
    /// What the block holds of each source (counted from the records, for the index entry to be
    /// held against).
    package let spans: [UInt64: JournalBlock.SourceSpan]

    init(
        strings: [String], sources: [RecordedSource], heads: [WireRecord.Head], bodies: [WireRecord.Body], states: [StateRecord?],
        spans: [UInt64: JournalBlock.SourceSpan]
    ) {
        self.strings = strings
        self.sources = sources
        self.heads = heads
        self.bodies = bodies
        self.states = states
        self.spans = spans
    }

    /// How many records the block holds.
    package var count: Int { heads.count }

    /// The record at `index` (in file order).
    package subscript(index: Int) -> Record { Record(block: self, index: index) }

    /// One record of a block, read in place.
    package struct Record: Sendable {
        /// The block it is in.
        package let block: BlockRecords
        /// Its position in the block.
        package let index: Int

        var head: WireRecord.Head { block.heads[index] }
        var body: WireRecord.Body { block.bodies[index] }

        // Each field as ``RecordedEvent`` has it (its ``event`` is made of the same head and body).

        /// Its sequence number.
        package var sequence: UInt64 { block.heads[index].sequence }
        /// Its wall-clock time, nanoseconds since 1970 (UTC).
        package var wallNanoseconds: Int64 { block.heads[index].time.wallNanoseconds }
        /// Its monotonic time, nanoseconds.
        package var monotonicNanoseconds: UInt64 { block.heads[index].time.monotonicNanoseconds }
        /// What kind of event it is.
        package var kind: Event.Category { block.heads[index].kind }
        /// The unit that emitted it.
        package var source: RecordedSource { block.sources[block.heads[index].sourceIndex] }
        /// That unit's instance number.
        package var sourceID: UInt64 { block.sources[block.heads[index].sourceIndex].instanceID }
        /// Its name (dispatch or commit name).
        package var name: String { block.strings[block.heads[index].name] }
        /// Its description (empty when it has none).
        package var description: String { block.heads[index].description(in: block.strings) }
        /// Its call site's file.
        package var file: String { block.strings[block.heads[index].file] }
        /// Its call site's function.
        package var function: String { block.strings[block.heads[index].function] }
        /// The dispatch it happened inside, if any.
        package var parent: UInt64? { block.heads[index].parent }
        /// Its call site's line.
        package var line: UInt { block.heads[index].callSiteLine }
        /// The reference of its name in the block's string table: equal references, equal names.
        package var nameReference: Int { block.heads[index].name }
        /// The reference of its call site's file in the block's string table.
        package var fileReference: Int { block.heads[index].file }
        /// For a change: its path, as text.
        package var path: String? { block.bodies[index].path }
        /// A change's new value, an activity's value, or a dispatch's input.
        package var value: StateValue? { block.bodies[index].value }
        /// For `didDispatch` and `didMutate`: how long it took.
        package var duration: Duration? { block.bodies[index].duration }
        /// For `dropped`: the events dropped.
        package var dropped: DroppedRange? { block.bodies[index].dropped }
        /// The state record it carries, if any.
        package var stateRecord: StateRecord? { block.states[index] }

        /// `File.swift:42` (``RecordedEvent/callSite``).
        package var callSite: String { RecordedEvent.callSite(file: file, line: line) }

        /// How the record moves its source's state, if it does (``StateStep``'s one rule).
        package var stateStep: StateStep? {
            StateStep(kind: kind, stateRecord: stateRecord, path: path, value: value)
        }

        /// The event as readers present it: made here, for the APIs that hand one out.
        package var event: RecordedEvent {
            WireRecord(head, strings: block.strings, body: body, state: stateRecord).recordedEvent(source: source)
        }
    }

    /// Every record as the event readers present it.
    package var events: [RecordedEvent] { heads.indices.map { self[$0].event } }
}

extension WireRecord.Body {
    /// A change's path.
    var path: String? {
        if case .change(let path, _) = self { path } else { nil }
    }

    /// A change's new value, an activity's value, or the input a dispatch carries.
    var value: StateValue? {
        switch self {
        case .change(_, let value), .value(let value): value
        default: nil
        }
    }

    /// A `didDispatch`'s or `didMutate`'s duration.
    var duration: Duration? {
        if case .duration(let nanoseconds) = self { .nanoseconds(Int64(clamping: nanoseconds)) } else { nil }
    }

    /// The events a writer in drop mode could not keep.
    var dropped: DroppedRange? {
        if case .dropped(let range) = self { range } else { nil }
    }
}
