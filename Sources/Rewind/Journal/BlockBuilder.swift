/// Collects the events of one block on the writer's thread and produces its payload: the string
/// table, the source table, then the event records (see docs/JOURNAL_FORMAT.md, "Block payload").
struct BlockBuilder {
    private(set) var strings = StringTable()
    private var sourceIndex: [UInt64: Int] = [:]
    private var sources: [(source: EventSource, id: UInt64)] = []
    private var records = ByteWriter(capacity: 72 * 1024)
    private(set) var eventCount = 0
    private(set) var firstSequence = UInt64.max
    private(set) var lastSequence: UInt64 = 0
    private(set) var firstWall = Int64.max
    private(set) var lastWall = Int64.min
    private var previousSequence: UInt64 = 0
    private var previousMonotonic: UInt64 = 0
    private var wallBase: Int64 = 0
    private var monotonicBase: UInt64 = 0
    /// What the index keeps per source: how many events, and the first and last sequence number.
    private(set) var sourceSummaries: [UInt64: JournalBlock.SourceSummary] = [:]
    /// The wall-clock time the first event arrived, for the time-based flush.
    private(set) var openedAtMonotonic: UInt64 = 0

    var isEmpty: Bool { eventCount == 0 }
    /// The size of the records so far, which the flush policy compares with the block size.
    var recordBytes: Int { records.count }

    func contains(source: UInt64) -> Bool { sourceIndex[source] != nil }

    /// Appends one event record. `value` is the change's new value or the activity; `state` the
    /// state record, if the event carries one.
    mutating func append(_ event: Event, time: EventTime, sequence: UInt64, sourceID: UInt64, path: String?, value: StateValue?, state: StateRecord?, dropped: DroppedRange? = nil) {
        if eventCount == 0 {
            // The first record's sequence delta is from zero: the full number.
            previousSequence = 0
            monotonicBase = time.monotonicNanoseconds
            previousMonotonic = monotonicBase
            wallBase = time.wallNanoseconds
            openedAtMonotonic = EventTime.monotonicNow()
        }
        eventCount += 1
        firstSequence = min(firstSequence, sequence)
        lastSequence = max(lastSequence, sequence)
        firstWall = min(firstWall, time.wallNanoseconds)
        lastWall = max(lastWall, time.wallNanoseconds)
        sourceSummaries[sourceID, default: JournalBlock.SourceSummary(eventCount: 0, firstSequence: sequence, lastSequence: sequence)].add(sequence)

        let category = dropped == nil ? event.kind.category : .dropped
        var flags: UInt8 = 0
        let parent = dropped == nil ? event.parent : nil
        if parent != nil { flags |= EventRecordFlags.hasParent }
        if dropped == nil, !event.description.isEmpty { flags |= EventRecordFlags.hasDescription }
        if state != nil { flags |= EventRecordFlags.hasState }
        if dropped == nil, category == .willDispatch, value != nil { flags |= EventRecordFlags.hasInput }
        records.byte(EventRecordFlags.kindCode(category) | flags)
        records.signedVarint(Int64(bitPattern: sequence &- previousSequence))
        records.signedVarint(Int64(bitPattern: time.monotonicNanoseconds &- previousMonotonic))
        let expectedWall = wallBase &+ Int64(bitPattern: time.monotonicNanoseconds &- monotonicBase)
        records.signedVarint(time.wallNanoseconds &- expectedWall)
        previousSequence = sequence
        previousMonotonic = time.monotonicNanoseconds
        records.varint(localIndex(of: event.source, id: sourceID))
        records.varint(strings.reference(dropped == nil ? event.name : ""))
        if flags & EventRecordFlags.hasDescription != 0 { records.varint(strings.reference(event.description)) }
        records.varint(strings.reference(event.callSite.file))
        records.varint(strings.reference(event.callSite.function))
        records.varint(UInt64(event.callSite.line))
        if let parent { records.signedVarint(Int64(bitPattern: sequence &- parent)) }

        switch (event.kind, dropped) {
        case (_, .some(let dropped)):
            records.varint(dropped.count)
            records.varint(dropped.sequences.lowerBound)
            records.varint(dropped.sequences.upperBound)
        case (.didDispatch(let duration), _), (.didMutate(let duration, _), _):
            records.varint(UInt64(max(0, duration.nanoseconds)))
        case (.change, _):
            records.varint(strings.reference(path ?? ""))
            StateValueCoding.write(value ?? .null, to: &records, strings: &strings)
        case (.activity, _):
            StateValueCoding.write(value ?? .null, to: &records, strings: &strings)
        case (.willDispatch, _):
            if let value { StateValueCoding.write(value, to: &records, strings: &strings) }
        default:
            break
        }
        switch state {
        case .keyframe(let tree):
            records.byte(1)
            StateValueCoding.write(tree, to: &records, strings: &strings)
        case .diff(let changes):
            records.byte(2)
            StateValueCoding.write(changes, to: &records, strings: &strings)
        case nil:
            break
        }
    }

    private mutating func localIndex(of source: EventSource, id: UInt64) -> Int {
        if let index = sourceIndex[id] { return index }
        sources.append((source, id))
        sourceIndex[id] = sources.count - 1
        return sources.count - 1
    }

    /// The uncompressed payload: string table, source table, time bases, records.
    mutating func payload() -> [UInt8] {
        // Intern the source descriptions first so the string table is complete.
        let sourceRows = sources.map { (source, id) in
            (id: id,
             framework: strings.reference(source.framework.rawValue),
             typeName: strings.reference(source.typeName),
             label: source.label.map { strings.reference($0) + 1 } ?? 0)
        }
        var payload = ByteWriter(capacity: records.count + strings.strings.reduce(0) { $0 + $1.utf8.count + 2 } + 64)
        payload.varint(strings.strings.count)
        for text in strings.strings { payload.string(text) }
        payload.varint(sourceRows.count)
        for row in sourceRows {
            payload.varint(row.id)
            payload.varint(row.framework)
            payload.varint(row.typeName)
            payload.varint(row.label)
        }
        payload.varint(monotonicBase)
        payload.signedVarint(wallBase)
        payload.append(records.bytes)
        return payload.bytes
    }
}

/// The first byte of an event record: the kind in the low four bits, flags in the high four.
enum EventRecordFlags {
    static let hasParent: UInt8 = 0x10
    static let hasDescription: UInt8 = 0x20
    static let hasState: UInt8 = 0x40
    /// A dispatch carrying its input value (a payload follows).
    static let hasInput: UInt8 = 0x80

    static let kinds = Event.Category.allCases

    static func kindCode(_ category: Event.Category) -> UInt8 {
        UInt8(kinds.firstIndex(of: category)!)
    }

    static func category(_ code: UInt8) -> Event.Category? {
        let index = Int(code & 0x0F)
        return kinds.indices.contains(index) ? kinds[index] : nil
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
