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
    /// order, and hands each to `body` — its fixed fields, and the values `reading` asked for —
    /// with a change written from its source's state already given its value: the one loop over
    /// a block's records.
    private static func forEachRecord(
        _ reader: inout ByteReader, strings: [String], sourceCount: Int, formatVersion: UInt16,
        reading: (WireRecord.Head) -> WireRecord.ValueReading = { _ in .all },
        _ body: (_ head: WireRecord.Head, _ body: WireRecord.Body, _ state: StateRecord?) throws(JournalFormatError) -> Void
    ) throws(JournalFormatError) {
        var clock = try RecordClock.readBases(from: &reader)
        var states = BlockStates(sourceCount: sourceCount)
        while !reader.isAtEnd {
            let offset = reader.offset
            try reader.countDecoded()
            let head = try WireRecord.readHead(from: &reader, stringCount: strings.count, clock: &clock, sourceCount: sourceCount)
            // Format 6 brought the `log` record: its code in an older file is no kind at all.
            guard head.kind != .log || formatVersion >= 6 else { throw .malformed("a log record in a file of format \(formatVersion)", at: offset) }
            var (recordBody, state) = try WireRecord.readValues(of: head, from: &reader, strings: strings, reading: reading(head))
            if case .changeFromState(let path, let diff) = recordBody {
                guard let statePath = StatePath(recordedChange: path), let old = states.state(of: head.sourceIndex)?[statePath],
                      let value = try? old.applying(diff) else {
                    throw .malformed("a change written from a state its block does not hold", at: offset)
                }
                recordBody = .change(path: path, value: value)
            }
            if let state { states.note(state, source: head.sourceIndex) }
            try body(head, recordBody, state)
        }
    }

    /// Every event of the block, with its source, and what it holds of each source (counted from
    /// the records' fixed fields, not from the events made of them).
    /// `expectedCount` (the frame's count) is room made for the events at once, not trusted: at
    /// most one event per sixteen bytes of payload, and at most 65,536 (a crafted frame's count
    /// must not reserve gigabytes for a block that fails at its first record). `formatVersion` is
    /// the file's: a kind a later format brought is malformed in an older file.
    static func events(in payload: [UInt8], expectedCount: Int = 0, formatVersion: UInt16 = JournalFormat.version) throws(JournalFormatError) -> (
        events: [RecordedEvent], sources: [RecordedSource], spans: [UInt64: JournalBlock.SourceSpan]
    ) {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        var events: [RecordedEvent] = []
        events.reserveCapacity(room(expectedCount: expectedCount, payload: payload))
        var perEntry = noSpans(count: sources.count)
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, formatVersion: formatVersion) { head, body, state in
            events.append(WireRecord(head, strings: strings, body: body, state: state).recordedEvent(source: sources[head.sourceIndex]))
            perEntry[head.sourceIndex].add(head.sequence)
        }
        return (events, sources, spansBySource(perEntry, sources: sources))
    }

    /// Every record of the block, read in place (``BlockRecords``): what ``events(in:expectedCount:)``
    /// reads, with no event made. `expectedCount` is taken as there.
    static func records(in payload: [UInt8], expectedCount: Int = 0, formatVersion: UInt16 = JournalFormat.version) throws(JournalFormatError) -> BlockRecords {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        let room = room(expectedCount: expectedCount, payload: payload)
        var heads: [WireRecord.Head] = []
        var bodies: [WireRecord.Body] = []
        var states: [StateRecord?] = []
        heads.reserveCapacity(room)
        bodies.reserveCapacity(room)
        states.reserveCapacity(room)
        var perEntry = noSpans(count: sources.count)
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, formatVersion: formatVersion) { head, body, state in
            heads.append(head)
            bodies.append(body)
            states.append(state)
            perEntry[head.sourceIndex].add(head.sequence)
        }
        return BlockRecords(
            strings: strings, sources: sources, heads: heads, bodies: bodies, states: states, spans: spansBySource(perEntry, sources: sources)
        )
    }

    /// The block as a walk over the whole file takes it (see ``BlockOutline``): its bytes read and
    /// checked exactly as ``events(in:)`` reads them, but only the values a state needs built —
    /// activities, inputs and changes' values are stepped over (a change written from its
    /// source's state is resolved against it, as every reader resolves it) — and no event or
    /// string made. With `foldingStates`, its state records are folded as they are read
    /// (``BlockOutline/FoldedStates``).
    static func outline(of payload: [UInt8], foldingStates: Bool, formatVersion: UInt16 = JournalFormat.version) throws(JournalFormatError) -> BlockOutline {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        var perEntry = noSpans(count: sources.count)
        var outline = BlockOutline(sources: sources, eventCount: 0)
        var folded = foldingStates ? BlockOutline.FoldedStates() : nil
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, formatVersion: formatVersion, reading: { _ in .states }) { head, _, state in
            outline.eventCount += 1
            perEntry[head.sourceIndex].add(head.sequence)
            if let state, folded != nil {
                folded!.fold(state, source: head.sourceIndex, instance: sources[head.sourceIndex].instanceID, sequence: head.sequence)
            }
        }
        outline.states = folded
        outline.summaries = spansBySource(perEntry, sources: sources)
        return outline
    }

    /// Room made at once for the events of a block whose frame says it holds `expectedCount`: the
    /// count is not trusted — at most one event per sixteen bytes of payload, and at most 65,536.
    private static func room(expectedCount: Int, payload: [UInt8]) -> Int {
        min(expectedCount, payload.count / 16, 1 << 16)
    }

    /// A span per entry of a block's source table, before any event is counted.
    private static func noSpans(count: Int) -> [JournalBlock.SourceSpan] {
        Array(repeating: .init(eventCount: 0, firstSequence: .max, lastSequence: 0), count: count)
    }

    /// What the block holds of each source, from the spans counted per entry of its source table:
    /// two entries naming one source (only a crafted block has them) count as one, as every
    /// reader takes their events for that source's.
    private static func spansBySource(_ perEntry: [JournalBlock.SourceSpan], sources: [RecordedSource]) -> [UInt64: JournalBlock.SourceSpan] {
        var spans: [UInt64: JournalBlock.SourceSpan] = [:]
        for (index, span) in perEntry.enumerated() where span.eventCount > 0 {
            spans[sources[index].instanceID, default: .init(eventCount: 0, firstSequence: span.firstSequence, lastSequence: span.lastSequence)].merge(span)
        }
        return spans
    }

    /// The state steps of one source in a block, up to and including `sequence`, in record order —
    /// its state records and its changes that carry none (see ``StateStep``): what rebuilding a
    /// state needs, without building the values of every other event of the block.
    static func stateSteps(
        in payload: [UInt8], source sourceID: UInt64, through sequence: UInt64, formatVersion: UInt16 = JournalFormat.version
    ) throws(JournalFormatError) -> [StateStep] {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        // Every entry naming the source: a crafted table may name one twice, and the events of
        // both entries are that source's to every other reader.
        let wanted = sources.map { $0.instanceID == sourceID }
        guard wanted.contains(true) else { return [] }
        var steps: [StateStep] = []
        try forEachRecord(&reader, strings: strings, sourceCount: sources.count, formatVersion: formatVersion, reading: { head in
            wanted[head.sourceIndex] && head.sequence <= sequence ? .all : .none
        }) { head, body, state in
            guard wanted[head.sourceIndex] else { return }
            if let state {
                steps.append(.record(state))
            } else if case .change(let path, let value) = body {
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
