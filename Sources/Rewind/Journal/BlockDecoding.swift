import Foundation

/// Reads the payload of one events block back into ``RecordedEvent``s.
enum BlockDecoding {
    /// The string and source tables at the start of a block's payload.
    private static func tables(_ reader: inout ByteReader) throws(JournalFormatError) -> (strings: [String], sources: [RecordedSource]) {
        let stringCount = try reader.count(atMost: reader.remaining)
        var strings: [String] = []
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount { strings.append(try reader.string()) }
        let sourceCount = try reader.count(atMost: reader.remaining / 4)
        var sources: [RecordedSource] = []
        for _ in 0..<sourceCount {
            let id = try reader.varint()
            let framework = try StateValueCoding.string(from: &reader, strings)
            let typeName = try StateValueCoding.string(from: &reader, strings)
            let labelReference = try reader.count(atMost: strings.count)
            sources.append(RecordedSource(instanceID: id, framework: framework, typeName: typeName, label: labelReference == 0 ? nil : strings[labelReference - 1]))
        }
        return (strings, sources)
    }

    /// Whether any string of the block's string table contains `word` (case-insensitively): every
    /// name, path, field name and string value of the block is in that table.
    static func stringTable(of payload: [UInt8], containsWord word: String) throws(JournalFormatError) -> Bool {
        var reader = ByteReader(payload)
        return try tables(&reader).strings.contains { $0.range(of: word, options: .caseInsensitive) != nil }
    }

    static func events(in payload: [UInt8]) throws(JournalFormatError) -> (events: [RecordedEvent], sources: [RecordedSource]) {
        var reader = ByteReader(payload)
        let (strings, sources) = try tables(&reader)
        let monotonicBase = try reader.varint()
        let wallBase = try reader.signedVarint()
        var events: [RecordedEvent] = []
        var previousSequence: UInt64 = 0
        var previousMonotonic = monotonicBase
        while !reader.isAtEnd {
            let first = try reader.byte()
            guard let kind = EventRecordFlags.category(first) else { throw .malformed("unknown event kind \(first & 0x0F)", at: reader.offset - 1) }
            let sequenceDelta = try reader.signedVarint()
            let sequence = previousSequence &+ UInt64(bitPattern: sequenceDelta)
            let monotonic = previousMonotonic &+ UInt64(bitPattern: try reader.signedVarint())
            let wall = wallBase &+ Int64(bitPattern: monotonic &- monotonicBase) &+ (try reader.signedVarint())
            previousSequence = sequence
            previousMonotonic = monotonic
            let sourceIndex = try reader.varint()
            guard sourceIndex < UInt64(sources.count) else { throw .malformed("source reference beyond the table", at: reader.offset) }
            let name = try StateValueCoding.string(from: &reader, strings)
            let description = first & EventRecordFlags.hasDescription != 0 ? try StateValueCoding.string(from: &reader, strings) : ""
            let file = try StateValueCoding.string(from: &reader, strings)
            let function = try StateValueCoding.string(from: &reader, strings)
            let line = try reader.varint()
            let parent = first & EventRecordFlags.hasParent != 0 ? sequence &- UInt64(bitPattern: try reader.signedVarint()) : nil
            var event = RecordedEvent(
                sequence: sequence, wallNanoseconds: wall, monotonicNanoseconds: monotonic, source: sources[Int(sourceIndex)],
                kind: kind, name: name, description: description, file: file, function: function, line: UInt(line), parent: parent
            )
            switch kind {
            case .dropped:
                let count = try reader.varint()
                let lowest = try reader.varint()
                let highest = try reader.varint()
                guard lowest <= highest else { throw .malformed("an empty dropped range", at: reader.offset) }
                event.dropped = DroppedRange(count: count, sequences: lowest...highest)
            case .didDispatch, .didMutate:
                event.duration = .nanoseconds(Int64(clamping: try reader.varint()))
            case .change:
                event.path = try StateValueCoding.string(from: &reader, strings)
                event.value = try StateValueCoding.read(from: &reader, strings: strings)
            case .activity:
                event.value = try StateValueCoding.read(from: &reader, strings: strings)
            case .willDispatch where first & EventRecordFlags.hasInput != 0:
                event.value = try StateValueCoding.read(from: &reader, strings: strings)
            default:
                break
            }
            if first & EventRecordFlags.hasState != 0 {
                switch try reader.byte() {
                case 1: event.stateRecord = .keyframe(try StateValueCoding.read(from: &reader, strings: strings))
                case 2: event.stateRecord = .diff(try StateValueCoding.readDiff(from: &reader, strings: strings))
                case let other: throw .malformed("unknown state record \(other)", at: reader.offset - 1)
                }
            }
            events.append(event)
        }
        return (events, sources)
    }

    /// The state steps of one source in a block, up to and including `sequence`, in record order —
    /// its state records and its changes that carry none (see ``StateStep``): what rebuilding a
    /// state needs, without materialising every event of the block.
    static func stateSteps(in payload: [UInt8], source sourceID: UInt64, through sequence: UInt64) throws(JournalFormatError) -> [StateStep] {
        var reader = ByteReader(payload)
        let (strings, sources) = try tables(&reader)
        guard let position = sources.firstIndex(where: { $0.instanceID == sourceID }) else { return [] }
        let wanted = UInt64(position)
        _ = try reader.varint()
        _ = try reader.signedVarint()
        var steps: [StateStep] = []
        var previousSequence: UInt64 = 0
        while !reader.isAtEnd {
            let first = try reader.byte()
            guard let kind = EventRecordFlags.category(first) else { throw .malformed("unknown event kind", at: reader.offset - 1) }
            let eventSequence = previousSequence &+ UInt64(bitPattern: try reader.signedVarint())
            previousSequence = eventSequence
            _ = try reader.varint()  // monotonic delta
            _ = try reader.varint()  // wall correction
            let source = try reader.varint()
            _ = try reader.varint()  // name
            if first & EventRecordFlags.hasDescription != 0 { _ = try reader.varint() }
            for _ in 0..<3 { _ = try reader.varint() }  // file, function, line
            if first & EventRecordFlags.hasParent != 0 { _ = try reader.varint() }
            let relevant = source == wanted && eventSequence <= sequence
            let hasState = first & EventRecordFlags.hasState != 0
            switch kind {
            case .dropped: for _ in 0..<3 { _ = try reader.varint() }
            case .didDispatch, .didMutate: _ = try reader.varint()
            case .change where relevant && !hasState:
                let path = try StateValueCoding.string(from: &reader, strings)
                steps.append(.change(path: path, value: try StateValueCoding.read(from: &reader, strings: strings)))
            case .change:
                _ = try reader.varint()
                try StateValueCoding.skip(in: &reader)
            case .activity: try StateValueCoding.skip(in: &reader)
            case .willDispatch where first & EventRecordFlags.hasInput != 0: try StateValueCoding.skip(in: &reader)
            default: break
            }
            guard hasState else { continue }
            let tag = try reader.byte()
            switch (tag, relevant) {
            case (1, true): steps.append(.record(.keyframe(try StateValueCoding.read(from: &reader, strings: strings))))
            case (2, true): steps.append(.record(.diff(try StateValueCoding.readDiff(from: &reader, strings: strings))))
            case (1, false): try StateValueCoding.skip(in: &reader)
            case (2, false): try StateValueCoding.skipDiff(in: &reader)
            default: throw .malformed("unknown state record \(tag)", at: reader.offset - 1)
            }
        }
        return steps
    }
}
