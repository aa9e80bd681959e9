/// Collects the events of one block on the writer's thread and produces its payload: the string
/// table, the source table, the time bases, then the event records (see docs/JOURNAL_FORMAT.md,
/// "Block payload").
struct BlockBuilder {
    private(set) var strings = StringTable()
    private var sourceIndex: [UInt64: Int] = [:]
    /// The block's sources, in the order their first event arrived.
    private(set) var sources: [RecordedSource] = []
    private var records = ByteWriter(capacity: 72 * 1024)
    private var clock = RecordClock(monotonicBase: 0, wallBase: 0)
    /// Records in the block, dropped-events records included.
    private(set) var eventCount = 0
    /// Dropped-events records among them.
    private(set) var droppedRecordCount = 0
    private(set) var firstSequence = UInt64.max
    private(set) var lastSequence: UInt64 = 0
    private(set) var firstWall = Int64.max
    private(set) var lastWall = Int64.min
    /// What the index keeps per source: how many events, and the first and last sequence number.
    var sourceSummaries: [UInt64: JournalBlock.SourceSpan] {
        Dictionary(uniqueKeysWithValues: zip(sources.map(\.instanceID), summaries))
    }
    /// Each source's summary, by its place in `sources`.
    private var summaries: [JournalBlock.SourceSpan] = []
    /// The last source appended and its place: most events come from the source before them,
    /// and a dictionary lookup per event is a measurable part of the writer's cost.
    private var lastSource: (id: UInt64, index: Int)?
    /// What each source's steps in the block can hold, filled in when the block is sealed (see
    /// ``BlockSummary``).
    var stepSummaries: [UInt64: BlockSummary.Source] = [:]
    /// Whether the block gets a summary: not when it records dropped events, after which the
    /// states a reader folds are not the ones the writer followed.
    var isSummarized = true
    /// The monotonic time the first event arrived, for the time-based flush.
    private(set) var openedAtMonotonic: UInt64 = 0

    var isEmpty: Bool { eventCount == 0 }
    /// The size of the records so far, each source's first keyframe left out: the flush policy
    /// compares it with the block size, so that a large state — whose keyframe starts every block —
    /// does not make every block one commit long. Only the first: a unit whose every step is a
    /// keyframe (its diffs would weigh as much as its states) still fills blocks, rather than one
    /// block of everything the writer holds, which a ring smaller than it would have to drop.
    var recordBytes: Int { records.count - keyframeRecordBytes }
    private var keyframeRecordBytes = 0
    /// Whether each source's first keyframe in the block was left out of ``recordBytes``, by its
    /// place in `sources`.
    private var keyframeLeftOut: [Bool] = []

    func contains(source: UInt64) -> Bool { sourceIndex[source] != nil }

    /// What a reader counts when it decodes this block (``ByteReader/countDecoded(_:)``): its
    /// records, their values, changes and path components, its strings, and its sources (each
    /// with the strings its source table adds).
    var decodedItems: Int { records.decodedItems + eventCount + strings.strings.count + 3 * sources.count }
    /// The block's payload size so far, at most.
    var payloadBytes: Int { records.count + strings.byteCount + 64 * sources.count + 32 }
    /// Whether the block should be sealed now whatever its record bytes: past this, a record a
    /// reader accepts alone (``JournalFormat/maximumRecordItems``) might not fit beside what it
    /// holds. Only then: a state of millions of values keeps its block through many commits,
    /// rather than a keyframe and a block of its own for each. The byte side keeps a mebibyte
    /// spare for the source table, which ``payloadBytes`` only estimates.
    var isFull: Bool {
        decodedItems >= JournalFormat.maximumDecodedItemsPerBlock - JournalFormat.maximumRecordItems
            || payloadBytes >= JournalFormat.maximumBlockLength - JournalFormat.maximumRecordBytes - (1 << 20)
    }

    /// How much one record took in its block, as a reader counts it.
    struct RecordSize: Equatable {
        var items: Int
        var bytes: Int

        /// Whether a block can always take it (``JournalFormat/maximumRecordItems``).
        var fits: Bool { items <= JournalFormat.maximumRecordItems && bytes <= JournalFormat.maximumRecordBytes }
    }

    /// Appends one event record of the source `sourceID` (which the record's source index is set
    /// to), unless it is larger than a block can always take: then the block is left as it was
    /// and the record's size is returned.
    mutating func append(_ record: WireRecord, source: EventSource, sourceID: UInt64) -> RecordSize? {
        // What a refused record takes back: its bytes, strings and counts, and a source it added.
        let before = (
            records: records.count, items: records.decodedItems, strings: strings.strings.count, stringBytes: strings.byteCount,
            sources: sources.count, eventCount: eventCount, dropped: droppedRecordCount, first: firstSequence, last: lastSequence,
            firstWall: firstWall, lastWall: lastWall, clock: clock, opened: openedAtMonotonic, lastSource: lastSource,
            keyframeBytes: keyframeRecordBytes
        )
        let (index, summaryBefore, leftOut) = place(record, source: source, sourceID: sourceID)
        let size = RecordSize(
            items: records.decodedItems - before.items + 1 + strings.strings.count - before.strings,
            bytes: records.count - before.records + strings.byteCount - before.stringBytes
        )
        guard !size.fits else { return nil }
        records.bytes.removeSubrange(before.records...)
        records.decodedItems = before.items
        strings.truncate(to: before.strings)
        if sources.count > before.sources {
            sourceIndex[sourceID] = nil
            sources.removeLast()
            summaries.removeLast()
            keyframeLeftOut.removeLast()
        } else {
            summaries[index] = summaryBefore
            if leftOut { keyframeLeftOut[index] = false }
        }
        (eventCount, droppedRecordCount, firstSequence, lastSequence) = (before.eventCount, before.dropped, before.first, before.last)
        (firstWall, lastWall, clock, openedAtMonotonic) = (before.firstWall, before.lastWall, before.clock, before.opened)
        (lastSource, keyframeRecordBytes) = (before.lastSource, before.keyframeBytes)
        return size
    }

    /// Appends a record a block always takes (a dropped-events record).
    mutating func appendUnchecked(_ record: WireRecord, source: EventSource, sourceID: UInt64) {
        _ = place(record, source: source, sourceID: sourceID)
    }

    /// Writes the record into the block; returns its source's place, that source's summary before
    /// it, and whether it is the source's first keyframe, left out of ``recordBytes``.
    private mutating func place(
        _ record: WireRecord, source: EventSource, sourceID: UInt64
    ) -> (index: Int, summaryBefore: JournalBlock.SourceSpan, keyframeLeftOut: Bool) {
        if eventCount == 0 {
            clock = RecordClock(monotonicBase: record.time.monotonicNanoseconds, wallBase: record.time.wallNanoseconds)
            openedAtMonotonic = EventTime.monotonicNow()
        }
        eventCount += 1
        if record.kind == .dropped { droppedRecordCount += 1 }
        firstSequence = min(firstSequence, record.sequence)
        lastSequence = max(lastSequence, record.sequence)
        firstWall = min(firstWall, record.time.wallNanoseconds)
        lastWall = max(lastWall, record.time.wallNanoseconds)
        let index = localIndex(of: source, id: sourceID, firstSequence: record.sequence)
        let summaryBefore = summaries[index]
        summaries[index].add(record.sequence)
        let start = records.count
        record.write(to: &records, strings: &strings, clock: &clock, sourceIndex: index)
        var leftOut = false
        if case .keyframe = record.state, !keyframeLeftOut[index] {
            keyframeRecordBytes += records.count - start
            keyframeLeftOut[index] = true
            leftOut = true
        }
        return (index, summaryBefore, leftOut)
    }

    private mutating func localIndex(of source: EventSource, id: UInt64, firstSequence: UInt64) -> Int {
        if let lastSource, lastSource.id == id { return lastSource.index }
        let index: Int
        if let known = sourceIndex[id] {
            index = known
        } else {
            sources.append(RecordedSource(instanceID: id, framework: source.framework.rawValue, typeName: source.typeName, label: source.label))
            summaries.append(JournalBlock.SourceSpan(eventCount: 0, firstSequence: firstSequence, lastSequence: firstSequence))
            keyframeLeftOut.append(false)
            index = sources.count - 1
            sourceIndex[id] = index
        }
        lastSource = (id, index)
        return index
    }

    /// The uncompressed payload: string table, source table, time bases, records.
    mutating func payload() -> [UInt8] {
        // The source table's strings go into the string table, so it is written first.
        var sourceTable = ByteWriter()
        SourceTable.writeBlockTable(sources, to: &sourceTable, strings: &strings)
        var payload = ByteWriter(capacity: records.count + sourceTable.count + strings.strings.reduce(0) { $0 + $1.utf8.count + 2 } + 32)
        payload.varint(strings.strings.count)
        for text in strings.strings { payload.string(text) }
        payload.append(sourceTable.bytes)
        clock.writeBases(to: &payload)
        payload.append(records.bytes)
        return payload.bytes
    }
}
