/// The summary block's payload (docs/JOURNAL_FORMAT.md, "Summary block"): the one codec for it.
extension BlockSummary {
    private enum Flag {
        static let holdsFalse: UInt8 = 0x01
        static let holdsTrue: UInt8 = 0x02
        static let holdsNil: UInt8 = 0x04
        static let holdsContainer: UInt8 = 0x08
        static let holdsNumbers: UInt8 = 0x10
        static let holdsOtherTexts: UInt8 = 0x20
        /// From format 5.
        static let holdsNaN: UInt8 = 0x40
    }

    /// Each kind's bit in a source's kind mask: bit *n* for the kind an event record codes as *n*.
    private static let kindBits: [Event.Category: UInt64] = Dictionary(
        uniqueKeysWithValues: Event.Category.allCases.map { ($0, UInt64(1) << UInt64(WireRecord.KindCode.code(of: $0))) }
    )

    func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.fixed(eventsPayloadCRC)
        writer.varint(sources.count)
        for (id, source) in sources.sorted(by: { $0.key < $1.key }) {
            writer.varint(id)
            writer.varint(source.kinds.reduce(UInt64(0)) { $0 | (Self.kindBits[$1] ?? 0) })
            Self.write(source.names, to: &writer)
            Self.write(source.changedFields, to: &writer)
            writer.varint(source.values.count)
            for (path, span) in source.values.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                writer.varint(path.count)
                for key in path { writer.string(key) }
                Self.write(span, to: &writer)
            }
        }
        return writer.bytes
    }

    /// Reads a summary payload; every count is checked against the bytes left. A summary of a
    /// file of `formatVersion` 4 or older does not mark NaN: each span may hold one.
    static func decode(_ payload: [UInt8], formatVersion: UInt16 = JournalFormat.version) throws(JournalFormatError) -> BlockSummary {
        let marksNaN = formatVersion >= 5
        var reader = ByteReader(payload)
        let crc = try reader.fixed(UInt32.self)
        var sources: [UInt64: Source] = [:]
        for _ in 0..<(try reader.count(atMost: reader.remaining)) {
            let id = try reader.varint()
            var source = Source()
            let mask = try reader.varint()
            source.kinds = Set(kindBits.filter { mask & $0.value != 0 }.keys)
            source.names = try readSet(&reader)
            source.changedFields = try readSet(&reader)
            for _ in 0..<(try reader.count(atMost: reader.remaining)) {
                var path: [String] = []
                for _ in 0..<(try reader.count(atMost: min(reader.remaining, StateValue.maximumDepth))) { path.append(try reader.string()) }
                source.values[path] = try readSpan(&reader, marksNaN: marksNaN)
            }
            guard sources.updateValue(source, forKey: id) == nil else { throw .malformed("a source summarised twice", at: reader.offset) }
        }
        guard reader.isAtEnd else { throw .malformed("bytes after the summary", at: reader.offset) }
        return BlockSummary(eventsPayloadCRC: crc, sources: sources)
    }

    /// A set of texts as a count + 1 (0: too many to list) and the texts.
    private static func write(_ texts: Set<String>?, to writer: inout ByteWriter) {
        guard let texts else { return writer.varint(0) }
        writer.varint(texts.count + 1)
        for text in texts.sorted() { writer.string(text) }
    }

    private static func readSet(_ reader: inout ByteReader) throws(JournalFormatError) -> Set<String>? {
        let stored = try reader.count(atMost: reader.remaining + 1)
        guard stored > 0 else { return nil }
        var texts = Set<String>()
        for _ in 0..<(stored - 1) { texts.insert(try reader.string()) }
        return texts
    }

    private static func write(_ span: ValueSpan, to writer: inout ByteWriter) {
        var flags: UInt8 = 0
        if span.holdsFalse { flags |= Flag.holdsFalse }
        if span.holdsTrue { flags |= Flag.holdsTrue }
        if span.holdsNil { flags |= Flag.holdsNil }
        if span.holdsContainer { flags |= Flag.holdsContainer }
        if span.numbers != nil { flags |= Flag.holdsNumbers }
        if span.holdsOtherTexts { flags |= Flag.holdsOtherTexts }
        if span.holdsNaN { flags |= Flag.holdsNaN }
        writer.byte(flags)
        if let numbers = span.numbers {
            writer.fixed(numbers.lowerBound.bitPattern)
            writer.fixed(numbers.upperBound.bitPattern)
        }
        write(span.texts, to: &writer)
    }

    private static func readSpan(_ reader: inout ByteReader, marksNaN: Bool) throws(JournalFormatError) -> ValueSpan {
        let flags = try reader.byte()
        var span = ValueSpan()
        span.holdsNaN = marksNaN ? flags & Flag.holdsNaN != 0 : true
        span.holdsFalse = flags & Flag.holdsFalse != 0
        span.holdsTrue = flags & Flag.holdsTrue != 0
        span.holdsNil = flags & Flag.holdsNil != 0
        span.holdsContainer = flags & Flag.holdsContainer != 0
        span.holdsOtherTexts = flags & Flag.holdsOtherTexts != 0
        if flags & Flag.holdsNumbers != 0 {
            let low = Double(bitPattern: try reader.fixed(UInt64.self)), high = Double(bitPattern: try reader.fixed(UInt64.self))
            guard low <= high else { throw .malformed("a number range whose lowest is above its highest", at: reader.offset) }
            span.numbers = low...high
        }
        guard let texts = try readSet(&reader) else { throw .malformed("a span's texts without a count", at: reader.offset) }
        span.texts = texts
        return span
    }
}

extension BlockSummary {
    /// The summary as a block of its own, to follow the events block framed by `events`: same
    /// sequence and time range, no events. Its payload is stored as it is: a few hundred bytes
    /// gain little from deflate, whose set-up would cost the writer more than the summary.
    func framed(describing events: BlockFrame) -> (frame: BlockFrame, payload: [UInt8]) {
        let payload = encoded()
        let frame = BlockFrame(
            type: .summary, compressedLength: UInt32(payload.count), uncompressedLength: UInt32(payload.count), eventCount: 0,
            firstSequence: events.firstSequence, lastSequence: events.lastSequence,
            firstWallNanoseconds: events.firstWallNanoseconds, lastWallNanoseconds: events.lastWallNanoseconds, payloadCRC: Zlib.crc32(payload)
        )
        return (frame, payload)
    }
}
