/// Which events to read: by source, kind, text, sequence range and time range. Empty means all.
public struct EventFilter: Sendable {
    /// Only events of the source with one of these instance numbers.
    public var sourceIDs: Set<UInt64>?
    /// Only events of these kinds.
    public var kinds: Set<Event.Category>?
    /// Only events whose name, description, path or value contains this text (case-insensitive).
    public var text: String? {
        didSet { searched = text.map(SearchedText.init) }
    }
    private var searched: SearchedText?
    /// Text every event the caller wants holds somewhere in what a search looks at
    /// (its name, source, description, path, value and row as shown): blocks whose search filter rules it out are passed
    /// over, but events are not judged by it — the caller judges them (`rewind log --grep`, by the
    /// viewer's search text).
    package var blockText: String?
    /// Only events with sequence numbers in this range.
    public var sequences: ClosedRange<UInt64>?
    /// Only events with wall-clock times (ns since 1970) in this range.
    public var wallTimes: ClosedRange<Int64>?

    /// A filter; every criterion is optional.
    public init(sourceIDs: Set<UInt64>? = nil, kinds: Set<Event.Category>? = nil, text: String? = nil, sequences: ClosedRange<UInt64>? = nil, wallTimes: ClosedRange<Int64>? = nil) {
        self.sourceIDs = sourceIDs
        self.kinds = kinds
        self.text = text
        searched = text.map(SearchedText.init)
        self.sequences = sequences
        self.wallTimes = wallTimes
    }

    /// Whether it looks for a text (``text``, or ``blockText``): a search, which reads only the
    /// blocks that may hold it.
    package var searchesText: Bool { text != nil || blockText != nil }

    /// Whether a block can hold matching events, judged from the index alone.
    package func mayMatch(_ block: JournalBlock) -> Bool {
        if let sequences, block.lastSequence < sequences.lowerBound || block.firstSequence > sequences.upperBound { return false }
        if let wallTimes, block.lastWallNanoseconds < wallTimes.lowerBound || block.firstWallNanoseconds > wallTimes.upperBound { return false }
        if let sourceIDs, sourceIDs.isDisjoint(with: block.sources.keys) { return false }
        return true
    }

    /// Whether an event matches.
    public func matches(_ event: RecordedEvent) -> Bool {
        guard matches(sequence: event.sequence, wall: event.wallNanoseconds, source: event.source.instanceID, kind: event.kind) else {
            return false
        }
        if let searched, !searched.text.isEmpty {
            return searched.isFound(in: event.name) || searched.isFound(in: event.description)
                || event.path.map(searched.isFound) == true || event.value.map { searched.isFound(in: $0.description) } == true
        }
        return true
    }

    /// Whether a record read in its block matches: a filter with a text to find is not taken (its
    /// text is judged on the event the record makes).
    package func matches(_ record: BlockRecords.Record) -> Bool {
        precondition(text == nil, "a text is judged on the event")
        return matches(sequence: record.sequence, wall: record.wallNanoseconds, source: record.sourceID, kind: record.kind)
    }

    /// Whether an event's fixed fields match.
    private func matches(sequence: UInt64, wall: Int64, source: UInt64, kind: Event.Category) -> Bool {
        if let sequences, !sequences.contains(sequence) { return false }
        if let wallTimes, !wallTimes.contains(wall) { return false }
        if let sourceIDs, !sourceIDs.contains(source) { return false }
        if let kinds, !kinds.contains(kind) { return false }
        return true
    }
}
