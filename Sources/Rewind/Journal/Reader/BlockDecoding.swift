/// Reads the payload of one events block: the tables at its start, then its records, through
/// ``WireRecord``'s one reading of them.
enum BlockDecoding {
    /// The string table, the source table and the clock that start a block's payload, with the
    /// reader left at the first record.
    private static func opening(_ reader: inout ByteReader) throws(JournalFormatError) -> (strings: [String], sources: [RecordedSource]) {
        let strings = try stringTable(&reader)
        return (strings, try SourceTable.readBlockTable(from: &reader, strings: strings))
    }

    private static func stringTable(_ reader: inout ByteReader) throws(JournalFormatError) -> [String] {
        // Each string takes at least its length byte.
        let count = try reader.count(atMost: reader.remaining)
        try reader.countDecoded(count)
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count { strings.append(try reader.string()) }
        return strings
    }

    /// Whether any string of the block's string table contains `word` (case-insensitively): every
    /// name, path, field name and string value of the block is in that table.
    static func stringTable(of payload: [UInt8], containsWord word: String) throws(JournalFormatError) -> Bool {
        var reader = ByteReader(payload)
        return try stringTable(&reader).contains { $0.range(of: word, options: .caseInsensitive) != nil }
    }

    /// Reads every record of the block from the reader's position (just past its opening), in
    /// order, and hands each to `body` with a change written from its source's state already
    /// given its value: the one loop over a block's records. `keepingValues` is
    /// ``WireRecord/read(from:strings:clock:sourceCount:keepingValues:)``'s.
    private static func forEachRecord(
        _ reader: inout ByteReader, strings: [String], sourceCount: Int,
        keepingValues: (_ record: WireRecord, _ carriesState: Bool) -> Bool = { _, _ in true },
        _ body: (WireRecord) throws(JournalFormatError) -> Void
    ) throws(JournalFormatError) {
        var clock = try RecordClock.readBases(from: &reader)
        var states = BlockStates(sourceCount: sourceCount)
        while !reader.isAtEnd {
            let offset = reader.offset
            try reader.countDecoded()
            var record = try WireRecord.read(from: &reader, strings: strings, clock: &clock, sourceCount: sourceCount, keepingValues: keepingValues)
            if case .changeFromState(let path, let diff) = record.body {
                guard let statePath = StatePath(recordedChange: path), let old = states.state(of: record.sourceIndex)?[statePath],
                      let value = try? old.applying(diff) else {
                    throw .malformed("a change written from a state its block does not hold", at: offset)
                }
                record.body = .change(path: path, value: value)
            }
            if let state = record.state { states.note(state, source: record.sourceIndex) }
            try body(record)
        }
    }

    /// Every event of the block, with its source.
    static func events(in payload: [UInt8]) throws(JournalFormatError) -> (events: [RecordedEvent], sources: [RecordedSource]) {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        var events: [RecordedEvent] = []
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count) { record in
            events.append(record.recordedEvent(source: sources[record.sourceIndex]))
        }
        return (events, sources)
    }

    /// The block as a walk over the whole file takes it (see ``BlockOutline``): its bytes read and
    /// checked exactly as ``events(in:)`` reads them, but only the values a state needs built —
    /// activities and inputs are stepped over — and no event made.
    static func outline(of payload: [UInt8], keepingStateRecords: Bool) throws(JournalFormatError) -> BlockOutline {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        var perSource = [JournalBlock.SourceSpan](repeating: .init(eventCount: 0, firstSequence: .max, lastSequence: 0), count: sources.count)
        var outline = BlockOutline(sources: sources, eventCount: 0)
        // A change's value is built too: a change written from its source's state is resolved
        // against that state, as every reader resolves it.
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, keepingValues: { record, carriesState in
            carriesState || record.kind == .change
        }) { record in
            outline.eventCount += 1
            perSource[record.sourceIndex].add(record.sequence)
            if keepingStateRecords, let state = record.state {
                outline.stateRecords.append((sources[record.sourceIndex], record.sequence, state))
            }
        }
        for (index, summary) in perSource.enumerated() where summary.eventCount > 0 {
            // Two table entries naming one source (only a crafted block has them) count as one.
            outline.summaries[sources[index].instanceID, default: .init(eventCount: 0, firstSequence: summary.firstSequence, lastSequence: summary.lastSequence)].merge(summary)
        }
        return outline
    }

    /// The state steps of one source in a block, up to and including `sequence`, in record order —
    /// its state records and its changes that carry none (see ``StateStep``): what rebuilding a
    /// state needs, without building the values of every other event of the block.
    static func stateSteps(in payload: [UInt8], source sourceID: UInt64, through sequence: UInt64) throws(JournalFormatError) -> [StateStep] {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        // Every entry naming the source: a crafted table may name one twice, and the events of
        // both entries are that source's to every other reader.
        let wanted = sources.map { $0.instanceID == sourceID }
        guard wanted.contains(true) else { return [] }
        var steps: [StateStep] = []
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, keepingValues: { record, _ in
            wanted[record.sourceIndex] && record.sequence <= sequence
        }) { record in
            guard wanted[record.sourceIndex] else { return }
            if let state = record.state {
                steps.append(.record(state))
            } else if case .change(let path, let value) = record.body {
                steps.append(.change(path: path, value: value))
            }
        }
        return steps
    }
}

/// Each source's state as the block's state records leave it, for the changes written as a diff
/// from it (``WireRecord/Body/changeFromState(path:diff:)``). The records are folded only when
/// such a change asks for the state: a block without one costs a list of its records, not a
/// state rebuilt at every step.
private struct BlockStates {
    private var folded: [StateValue?]
    /// The records since each source's state was last folded.
    private var pending: [[StateRecord]]

    init(sourceCount: Int) {
        folded = Array(repeating: nil, count: sourceCount)
        pending = Array(repeating: [], count: sourceCount)
    }

    mutating func note(_ record: StateRecord, source: Int) {
        if case .keyframe = record { pending[source].removeAll(keepingCapacity: true) }
        pending[source].append(record)
    }

    mutating func state(of source: Int) -> StateValue? {
        var fold = StateFold(state: folded[source])
        folded[source] = nil
        for record in pending[source] { fold.apply(.record(record)) }
        pending[source].removeAll(keepingCapacity: true)
        folded[source] = fold.current
        return fold.current
    }
}

/// What a walk over a whole journal takes from an events block — the opening walk of a file
/// without an index, `verify` and `recover`: its sources, each one's events in it, and (for
/// `verify`) its state records, without its events built.
struct BlockOutline {
    /// The block's source table.
    var sources: [RecordedSource]
    /// How many events the block holds.
    var eventCount: Int
    /// Per source instance: its events in the block.
    var summaries: [UInt64: JournalBlock.SourceSpan] = [:]
    /// Every state record, in record order, with its event's source and sequence number (kept
    /// only when asked for).
    var stateRecords: [(source: RecordedSource, sequence: UInt64, record: StateRecord)] = []

    /// The lowest and highest sequence numbers of the block's events.
    var sequences: ClosedRange<UInt64>? {
        guard let first = summaries.values.map(\.firstSequence).min(), let last = summaries.values.map(\.lastSequence).max() else { return nil }
        return first...last
    }
}
