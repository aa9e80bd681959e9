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
        /// A log message carrying its metadata (a value follows; the same bit again).
        static let hasMetadata: UInt8 = 0x80
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
        if kind == .log, case .value = body { flags |= Flags.hasMetadata }
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

    /// A record's fixed fields as the block stores them: numbers, with its strings as references
    /// into the block's string table — read without building a string or a value. What a walk
    /// over a whole file needs of most records (their sequence numbers and sources), and where
    /// every reading of a record starts.
    struct Head {
        /// The record's first byte: its kind and flags (``Flags``).
        var first: UInt8
        var kind: Event.Category
        var sequence: UInt64
        var time: EventTime
        /// The source's position in the block's source table.
        var sourceIndex: Int
        /// References into the block's string table, each checked to be in it.
        var name: Int
        var description: Int?
        var file: Int
        var function: Int
        var line: UInt64
        var parent: UInt64?

        /// Whether a state record follows the body.
        var carriesState: Bool { first & Flags.hasState != 0 }

        /// Its description, from the block's string table (empty when it has none).
        func description(in strings: [String]) -> String { description.map { strings[$0] } ?? "" }

        /// Its call site's line, as events hold it.
        var callSiteLine: UInt { UInt(clamping: line) }
    }

    /// Which of a record's values a reader builds; the others are stepped over, checked as
    /// building them would check them, so a block reads the same to every reader.
    enum ValueReading {
        /// Every value: the body's and the state record.
        case all
        /// None: the body is ``Body/skipped`` for the kinds that have values, and no state record.
        case none
        /// The state record, and a change written from its source's state (which needs the state
        /// to resolve), but no other value: what a walk that folds states reads.
        case states
    }

    /// Reads one record, every value built. (Block readers read the head first and choose which
    /// values to build: ``readHead(from:stringCount:clock:sourceCount:)``,
    /// ``readValues(of:from:strings:reading:)``.)
    static func read(from reader: inout ByteReader, strings: [String], clock: inout RecordClock, sourceCount: Int) throws(JournalFormatError) -> WireRecord {
        let head = try readHead(from: &reader, stringCount: strings.count, clock: &clock, sourceCount: sourceCount)
        let (body, state) = try readValues(of: head, from: &reader, strings: strings, reading: .all)
        return WireRecord(head, strings: strings, body: body, state: state)
    }

    /// Reads a record's fixed fields (``Head``), leaving the reader at its body.
    static func readHead(from reader: inout ByteReader, stringCount: Int, clock: inout RecordClock, sourceCount: Int) throws(JournalFormatError) -> Head {
        let start = reader.offset
        let first = try reader.byte()
        guard let kind = KindCode.kind(first) else { throw .malformed("unknown event kind \(first & 0x0F)", at: start) }
        let (sequence, time) = try clock.read(from: &reader)
        let sourceReference = try reader.varint()
        guard sourceReference < UInt64(sourceCount) else { throw .malformed("source reference beyond the table", at: reader.offset) }
        let name = try StateValueCoding.reference(from: &reader, stringCount: stringCount)
        let description = first & Flags.hasDescription != 0 ? try StateValueCoding.reference(from: &reader, stringCount: stringCount) : nil
        let file = try StateValueCoding.reference(from: &reader, stringCount: stringCount)
        let function = try StateValueCoding.reference(from: &reader, stringCount: stringCount)
        let line = try reader.varint()
        let parent = first & Flags.hasParent != 0 ? sequence &- UInt64(bitPattern: try reader.signedVarint()) : nil
        return Head(
            first: first, kind: kind, sequence: sequence, time: time, sourceIndex: Int(sourceReference), name: name,
            description: description, file: file, function: function, line: line, parent: parent
        )
    }

    /// Reads what follows a record's fixed fields — its body by kind, then its state record —
    /// building the values `reading` asks for.
    static func readValues(
        of head: Head, from reader: inout ByteReader, strings: [String], reading: ValueReading
    ) throws(JournalFormatError) -> (body: Body, state: StateRecord?) {
        let first = head.first
        let keepsBody = reading == .all
        let keepsState = reading != .none
        var body = Body.none
        switch head.kind {
        case .dropped:
            let count = try reader.varint()
            let lowest = try reader.varint()
            let highest = try reader.varint()
            guard lowest <= highest else { throw .malformed("an empty dropped range", at: reader.offset) }
            body = .dropped(DroppedRange(count: count, sequences: lowest...highest))
        case .didDispatch, .didMutate:
            body = .duration(try reader.varint())
        case .change where first & Flags.valueFromState != 0:
            let path = try StateValueCoding.string(from: &reader, strings)
            // Diffs are small; reading one is the one definition of what a diff's bytes may be.
            let diff = try StateValueCoding.readDiff(from: &reader, strings: strings)
            body = keepsState ? .changeFromState(path: path, diff: diff) : .skipped
        case .change:
            let path = try StateValueCoding.reference(from: &reader, stringCount: strings.count)
            body = switch try readValue(from: &reader, strings: strings, keep: keepsBody) {
            case .value(let value): .change(path: strings[path], value: value)
            default: .skipped
            }
        case .activity:
            body = try readValue(from: &reader, strings: strings, keep: keepsBody)
        case .willDispatch where first & Flags.hasInput != 0:
            body = try readValue(from: &reader, strings: strings, keep: keepsBody)
        case .log where first & Flags.hasMetadata != 0:
            body = try readValue(from: &reader, strings: strings, keep: keepsBody)
        default:
            break
        }
        guard head.carriesState else { return (body, nil) }
        let tagOffset = reader.offset
        switch (StateTag(rawValue: try reader.byte()), keepsState) {
        case (.keyframe, true): return (body, .keyframe(try StateValueCoding.read(from: &reader, strings: strings)))
        case (.diff, true): return (body, .diff(try StateValueCoding.readDiff(from: &reader, strings: strings)))
        case (.keyframe, false): try StateValueCoding.skip(in: &reader, strings: strings)
        // Diffs are small; reading one is the one definition of what a diff's bytes may be.
        case (.diff, false): _ = try StateValueCoding.readDiff(from: &reader, strings: strings)
        case (nil, _): throw .malformed("unknown state record \(reader.bytes[tagOffset])", at: tagOffset)
        }
        return (body, nil)
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

extension WireRecord {
    /// The record whose fixed fields are `head`, its strings taken from the block's table.
    init(_ head: Head, strings: [String], body: Body, state: StateRecord?) {
        self.init(
            kind: head.kind, sequence: head.sequence, time: head.time, sourceIndex: head.sourceIndex, name: strings[head.name],
            description: head.description(in: strings), file: .text(strings[head.file]),
            function: .text(strings[head.function]), line: head.callSiteLine, parent: head.parent, body: body, state: state
        )
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
