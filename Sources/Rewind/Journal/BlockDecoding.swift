/// Reads the payload of one events block: the tables at its start, then its records, through
/// ``EventRecord``'s one reading of them.
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

    /// Every event of the block, with its source.
    static func events(in payload: [UInt8]) throws(JournalFormatError) -> (events: [RecordedEvent], sources: [RecordedSource]) {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        var clock = try RecordClock.readBases(from: &reader)
        var records: [(record: EventRecord, offset: Int)] = []
        while !reader.isAtEnd {
            let offset = reader.offset
            try reader.countDecoded()
            records.append((try EventRecord.read(from: &reader, strings: strings, clock: &clock, sourceCount: sources.count), offset))
        }
        try resolveChangesFromState(&records)
        return (records.map { $0.record.recordedEvent(source: sources[$0.record.sourceIndex]) }, sources)
    }

    /// Gives each change written as a diff from its source's state (``EventRecord/Body/changeFromState(path:diff:)``)
    /// its value, following each source's state through the block's state records — only when the
    /// block has such a change, so that blocks without one cost nothing more.
    private static func resolveChangesFromState(_ records: inout [(record: EventRecord, offset: Int)]) throws(JournalFormatError) {
        guard records.contains(where: { if case .changeFromState = $0.record.body { true } else { false } }) else { return }
        var states: [Int: StateValue] = [:]
        for index in records.indices {
            let source = records[index].record.sourceIndex
            if case .changeFromState(let path, let diff) = records[index].record.body {
                guard let statePath = StatePath(recordedChange: path), let old = states[source]?[statePath],
                      let value = try? apply(diff, to: old) else {
                    throw .malformed("a change written from a state its block does not hold", at: records[index].offset)
                }
                records[index].record.body = .change(path: path, value: value)
            }
            if let record = records[index].record.state {
                states[source] = StateStep.record(record).applied(to: states[source])
            }
        }
    }

    /// The state steps of one source in a block, up to and including `sequence`, in record order —
    /// its state records and its changes that carry none (see ``StateStep``): what rebuilding a
    /// state needs, without building the values of every other event of the block.
    static func stateSteps(in payload: [UInt8], source sourceID: UInt64, through sequence: UInt64) throws(JournalFormatError) -> [StateStep] {
        var reader = ByteReader(payload)
        let (strings, sources) = try opening(&reader)
        guard let wanted = sources.firstIndex(where: { $0.instanceID == sourceID }) else { return [] }
        var clock = try RecordClock.readBases(from: &reader)
        var records: [(record: EventRecord, offset: Int)] = []
        while !reader.isAtEnd {
            let offset = reader.offset
            let record = try EventRecord.read(from: &reader, strings: strings, clock: &clock, sourceCount: sources.count) {
                $0.sourceIndex == wanted && $0.sequence <= sequence
            }
            if record.sourceIndex == wanted, record.state != nil || record.kind == .change { records.append((record, offset)) }
        }
        try resolveChangesFromState(&records)
        return records.compactMap { (record, _) in
            if let state = record.state { return .record(state) }
            if case .change(let path, let value) = record.body { return .change(path: path, value: value) }
            return nil
        }
    }
}
