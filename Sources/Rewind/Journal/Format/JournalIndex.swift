/// The index block's payload and the trailer that points at it (docs/JOURNAL_FORMAT.md, "Index
/// block" and "Trailer"), written when a journal is closed and read when it is opened.
enum JournalIndex {
    /// The index payload: the source table, then per block its offset, its frame, and per source
    /// the position in the table, the event count and the first and last sequence number.
    static func encode(sources: [RecordedSource], blocks: [JournalBlock]) -> [UInt8] {
        var writer = ByteWriter()
        SourceTable.writeIndexTable(sources, to: &writer)
        var position: [UInt64: Int] = [:]
        for (index, source) in sources.enumerated() { position[source.instanceID] = index }
        writer.varint(blocks.count)
        for block in blocks {
            writer.varint(block.offset)
            writer.append(block.frame.encoded())
            writer.varint(block.sources.count)
            for (id, summary) in block.sources.sorted(by: { $0.key < $1.key }) {
                writer.varint(position[id] ?? 0)
                writer.varint(summary.eventCount)
                writer.varint(summary.firstSequence)
                writer.varint(summary.lastSequence)
            }
        }
        // Version 3: where each block's summary block is, after the entries a version 2 index ends with.
        writer.varint(blocks.count)
        for block in blocks { writer.varint(block.summaryOffset.map { $0 + 1 } ?? 0) }
        return writer.bytes
    }

    /// Reads an index payload of a file whose blocks end at `fileSize`; every block it lists must
    /// lie between the header and that end, in order and without overlapping.
    static func parse(_ payload: [UInt8], fileSize: Int) throws(JournalFormatError) -> (blocks: [JournalBlock], sources: [UInt64: RecordedSource], sourceOrder: [UInt64]) {
        var reader = ByteReader(payload)
        let table = try SourceTable.readIndexTable(from: &reader)
        let order = table.map(\.instanceID)
        var sources: [UInt64: RecordedSource] = [:]
        for source in table { sources[source.instanceID] = source }
        let blockCount = try reader.count(atMost: reader.remaining / JournalFormat.frameHeaderLength)
        var blocks: [JournalBlock] = []
        blocks.reserveCapacity(blockCount)
        var nextFree = JournalFormat.fixedHeaderLength
        for _ in 0..<blockCount {
            let offset = try reader.count(atMost: fileSize)
            let frameStart = reader.offset
            try reader.skip(JournalFormat.frameHeaderLength)
            guard let frame = BlockFrame.decode(payload, at: frameStart), frame.type == .events,
                  offset >= nextFree, frame.totalLength <= fileSize - offset else {
                throw .malformed("an index entry that does not describe a block", at: frameStart)
            }
            nextFree = offset + frame.totalLength
            let summaryCount = try reader.count(atMost: order.count)
            var summaries: [UInt64: JournalBlock.SourceSpan] = [:]
            for _ in 0..<summaryCount {
                let position = try reader.varint()
                guard position < UInt64(order.count) else { throw .malformed("source reference beyond the table", at: reader.offset) }
                let count = try reader.count(atMost: Int(frame.eventCount))
                let first = try reader.varint(), last = try reader.varint()
                guard first <= last, frame.firstSequence <= first, last <= frame.lastSequence else {
                    throw .malformed("a source's steps outside its block's", at: reader.offset)
                }
                summaries[order[Int(position)]] = .init(eventCount: count, firstSequence: first, lastSequence: last)
            }
            blocks.append(JournalBlock(offset: offset, frame: frame, sources: summaries))
        }
        if !reader.isAtEnd {
            guard try reader.count(atMost: blocks.count) == blocks.count else { throw .malformed("summary offsets for another number of blocks", at: reader.offset) }
            for index in blocks.indices {
                let stored = try reader.count(atMost: fileSize)
                guard stored > 0 else { continue }
                // A summary block lies after its events block and before the next one.
                let end = index + 1 < blocks.count ? blocks[index + 1].offset : fileSize
                guard stored - 1 >= blocks[index].offset + blocks[index].frame.totalLength, stored - 1 + JournalFormat.frameHeaderLength <= end else {
                    throw .malformed("a summary block outside the space after its block", at: reader.offset)
                }
                blocks[index].summaryOffset = stored - 1
            }
        }
        guard reader.isAtEnd else { throw .malformed("bytes after the index", at: reader.offset) }
        return (blocks, sources, order)
    }

    /// The trailer: `RWIX`, the index block's offset, and a CRC of both.
    static func trailer(indexOffset: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: JournalFormat.trailerLength)
        writer.append(JournalFormat.trailerMagic)
        writer.fixed(UInt64(indexOffset))
        writer.fixed(Zlib.crc32(writer.bytes))
        return writer.bytes
    }

    /// The index block's offset from a trailer, if the trailer checks out and points inside a file
    /// of `fileSize` bytes.
    static func indexOffset(fromTrailer bytes: [UInt8], fileSize: Int) -> Int? {
        guard bytes.count == JournalFormat.trailerLength, bytes.prefix(4).elementsEqual(JournalFormat.trailerMagic) else { return nil }
        var reader = ByteReader(bytes, offset: 4)
        guard let offset = try? reader.fixed(UInt64.self), let crc = try? reader.fixed(UInt32.self),
              crc == Zlib.crc32(Array(bytes.prefix(12))), offset >= UInt64(JournalFormat.fixedHeaderLength), offset < UInt64(fileSize) else { return nil }
        return Int(offset)
    }
}
