/// The bytes of an event record (docs/JOURNAL_FORMAT.md, "Event record"), written and read here
/// and nowhere else:
///
///     kind|flags (1 byte)  sequence Δ  monotonic Δ  wall correction  source  name  [description]
///     file  function  line  [parent Δ]  body by kind  [state record]
///
/// Strings are references into the block's string table; Δ fields are zigzag varints from the
/// previous record (``RecordClock``).
extension WireRecord {
    /// The first byte: the kind in the low four bits (``KindCode``), flags in the high four.
    enum Flags {
        static let hasParent: UInt8 = 0x10
        static let hasDescription: UInt8 = 0x20
        static let hasState: UInt8 = 0x40
        /// A dispatch carrying its input value (a value follows).
        static let hasInput: UInt8 = 0x80
        /// A change whose value is a diff from its path's value in the source's last state record
        /// in the block (the same bit as `hasInput`: each is read for its own kind only).
        static let valueFromState: UInt8 = 0x80
    }

    /// The state record's tag byte.
    private enum StateTag: UInt8 {
        case keyframe = 1, diff = 2
    }

    /// Appends the record. `clock` carries the previous record's sequence number and time.
    func write(to writer: inout ByteWriter, strings: inout StringTable, clock: inout RecordClock) {
        write(to: &writer, strings: &strings, clock: &clock, sourceIndex: sourceIndex)
    }

    /// Appends the record as one of the block's source number `sourceIndex` — the writer's way,
    /// which places a record without copying it to set its field.
    func write(to writer: inout ByteWriter, strings: inout StringTable, clock: inout RecordClock, sourceIndex: Int) {
        var flags: UInt8 = 0
        if parent != nil { flags |= Flags.hasParent }
        if !description.isEmpty { flags |= Flags.hasDescription }
        if state != nil { flags |= Flags.hasState }
        if kind == .willDispatch, case .value = body { flags |= Flags.hasInput }
        if case .changeFromState = body { flags |= Flags.valueFromState }
        writer.byte(KindCode.code(of: kind) | flags)
        clock.write(sequence: sequence, time: time, to: &writer)
        writer.varint(sourceIndex)
        writer.varint(strings.reference(name))
        if !description.isEmpty { writer.varint(strings.reference(description)) }
        writer.varint(strings.reference(file))
        writer.varint(strings.reference(function))
        writer.varint(UInt64(line))
        if let parent { writer.signedVarint(Int64(bitPattern: sequence &- parent)) }
        switch body {
        case .none, .skipped:
            break
        case .duration(let nanoseconds):
            writer.varint(nanoseconds)
        case .change(let path, let value):
            writer.varint(strings.reference(path))
            StateValueCoding.write(value, to: &writer, strings: &strings)
        case .changeFromState(let path, let diff):
            writer.varint(strings.reference(path))
            StateValueCoding.write(diff, to: &writer, strings: &strings)
        case .value(let value):
            StateValueCoding.write(value, to: &writer, strings: &strings)
        case .dropped(let range):
            writer.varint(range.count)
            writer.varint(range.sequences.lowerBound)
            writer.varint(range.sequences.upperBound)
        }
        switch state {
        case .keyframe(let tree):
            writer.byte(StateTag.keyframe.rawValue)
            StateValueCoding.write(tree, to: &writer, strings: &strings)
        case .diff(let changes):
            writer.byte(StateTag.diff.rawValue)
            StateValueCoding.write(changes, to: &writer, strings: &strings)
        case nil:
            break
        }
    }

    /// Reads one record. `keepingValues` sees the record's fixed fields, and whether it carries a
    /// state record, and says whether to build its values (change value, activity, input, state
    /// record); when it says no they are stepped over, checked as building them would check them,
    /// and `body` is `.skipped` for the kinds that have values — a state rebuild reads one
    /// source's values, not every tree in the block.
    static func read(
        from reader: inout ByteReader, strings: [String], clock: inout RecordClock, sourceCount: Int,
        keepingValues: (_ record: WireRecord, _ carriesState: Bool) -> Bool = { _, _ in true }
    ) throws(JournalFormatError) -> WireRecord {
        let start = reader.offset
        let first = try reader.byte()
        guard let kind = KindCode.kind(first) else { throw .malformed("unknown event kind \(first & 0x0F)", at: start) }
        let (sequence, time) = try clock.read(from: &reader)
        let sourceReference = try reader.varint()
        guard sourceReference < UInt64(sourceCount) else { throw .malformed("source reference beyond the table", at: reader.offset) }
        let sourceIndex = Int(sourceReference)
        let name = try StateValueCoding.string(from: &reader, strings)
        let description = first & Flags.hasDescription != 0 ? try StateValueCoding.string(from: &reader, strings) : ""
        let file = try StateValueCoding.string(from: &reader, strings)
        let function = try StateValueCoding.string(from: &reader, strings)
        let line = try reader.varint()
        let parent = first & Flags.hasParent != 0 ? sequence &- UInt64(bitPattern: try reader.signedVarint()) : nil
        var record = WireRecord(
            kind: kind, sequence: sequence, time: time, sourceIndex: sourceIndex, name: name, description: description,
            file: .text(file), function: .text(function), line: UInt(clamping: line), parent: parent, body: .none, state: nil
        )
        let keep = keepingValues(record, first & Flags.hasState != 0)
        switch kind {
        case .dropped:
            let count = try reader.varint()
            let lowest = try reader.varint()
            let highest = try reader.varint()
            guard lowest <= highest else { throw .malformed("an empty dropped range", at: reader.offset) }
            record.body = .dropped(DroppedRange(count: count, sequences: lowest...highest))
        case .didDispatch, .didMutate:
            record.body = .duration(try reader.varint())
        case .change where first & Flags.valueFromState != 0:
            let path = try StateValueCoding.string(from: &reader, strings)
            // Diffs are small; reading one is the one definition of what a diff's bytes may be.
            let diff = try StateValueCoding.readDiff(from: &reader, strings: strings)
            record.body = keep ? .changeFromState(path: path, diff: diff) : .skipped
        case .change:
            let path = try StateValueCoding.string(from: &reader, strings)
            record.body = switch try readValue(from: &reader, strings: strings, keep: keep) {
            case .value(let value): .change(path: path, value: value)
            default: .skipped
            }
        case .activity:
            record.body = try readValue(from: &reader, strings: strings, keep: keep)
        case .willDispatch where first & Flags.hasInput != 0:
            record.body = try readValue(from: &reader, strings: strings, keep: keep)
        default:
            break
        }
        guard first & Flags.hasState != 0 else { return record }
        let tagOffset = reader.offset
        switch (StateTag(rawValue: try reader.byte()), keep) {
        case (.keyframe, true): record.state = .keyframe(try StateValueCoding.read(from: &reader, strings: strings))
        case (.diff, true): record.state = .diff(try StateValueCoding.readDiff(from: &reader, strings: strings))
        case (.keyframe, false): try StateValueCoding.skip(in: &reader, strings: strings)
        // Diffs are small; reading one is the one definition of what a diff's bytes may be.
        case (.diff, false): _ = try StateValueCoding.readDiff(from: &reader, strings: strings)
        case (nil, _): throw .malformed("unknown state record \(reader.bytes[tagOffset])", at: tagOffset)
        }
        return record
    }

    /// A value of the body: built (`.value`) or stepped over (`.skipped`).
    private static func readValue(from reader: inout ByteReader, strings: [String], keep: Bool) throws(JournalFormatError) -> Body {
        guard keep else {
            try StateValueCoding.skip(in: &reader, strings: strings)
            return .skipped
        }
        return .value(try StateValueCoding.read(from: &reader, strings: strings))
    }
}

/// A record's sequence number and times, stored as differences from the record before it in the
/// block (the first record's from zero and from the block's time bases), which keeps them to a
/// byte or two each.
struct RecordClock {
    private var previousSequence: UInt64 = 0
    private var previousMonotonic: UInt64
    private let monotonicBase: UInt64
    private let wallBase: Int64

    /// A clock starting at the block's time bases.
    init(monotonicBase: UInt64, wallBase: Int64) {
        self.monotonicBase = monotonicBase
        self.wallBase = wallBase
        previousMonotonic = monotonicBase
    }

    /// Writes the time bases that start a block's records.
    func writeBases(to writer: inout ByteWriter) {
        writer.varint(monotonicBase)
        writer.signedVarint(wallBase)
    }

    /// Reads the time bases that start a block's records.
    static func readBases(from reader: inout ByteReader) throws(JournalFormatError) -> RecordClock {
        let monotonic = try reader.varint()
        return RecordClock(monotonicBase: monotonic, wallBase: try reader.signedVarint())
    }

    /// The sequence number's difference from the previous record's, the monotonic time's, and the
    /// wall time's difference from what the monotonic clock predicts (zero unless the wall clock
    /// was set).
    mutating func write(sequence: UInt64, time: EventTime, to writer: inout ByteWriter) {
        writer.signedVarint(Int64(bitPattern: sequence &- previousSequence))
        writer.signedVarint(Int64(bitPattern: time.monotonicNanoseconds &- previousMonotonic))
        writer.signedVarint(time.wallNanoseconds &- predictedWall(time.monotonicNanoseconds))
        previousSequence = sequence
        previousMonotonic = time.monotonicNanoseconds
    }

    mutating func read(from reader: inout ByteReader) throws(JournalFormatError) -> (UInt64, EventTime) {
        let sequence = previousSequence &+ UInt64(bitPattern: try reader.signedVarint())
        let monotonic = previousMonotonic &+ UInt64(bitPattern: try reader.signedVarint())
        let wall = predictedWall(monotonic) &+ (try reader.signedVarint())
        previousSequence = sequence
        previousMonotonic = monotonic
        return (sequence, EventTime(wallNanoseconds: wall, monotonicNanoseconds: monotonic))
    }

    private func predictedWall(_ monotonic: UInt64) -> Int64 {
        wallBase &+ Int64(bitPattern: monotonic &- monotonicBase)
    }
}

extension StringTable {
    mutating func reference(_ text: WireRecord.RecordedText) -> Int {
        switch text {
        case .text(let string): reference(string)
        case .callSite(let staticString): reference(staticString)
        }
    }
}
