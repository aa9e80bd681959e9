import Foundation

/// Reading the file: bytes at an offset, block payloads and their decoding, the index, and the
/// walk over the blocks that rebuilds it when it is missing or damaged.
extension JournalReader {
    static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { break }
            filled += result
        }
        return filled == count ? buffer : Array(buffer.prefix(filled))
    }

    func readBytes(at offset: Int, count: Int) -> [UInt8] {
        Self.read(descriptor, at: offset, count: count)
    }

    enum BlockProblem: Error { case damaged(String) }

    /// Reads, checks and decompresses a block's payload.
    func payload(at offset: Int, frame: BlockFrame) -> Result<[UInt8], BlockProblem> {
        blocksInflated.add(1, ordering: .relaxed)
        let compressed = readBytes(at: offset + JournalFormat.frameHeaderLength, count: Int(frame.compressedLength))
        if frame.payloadCRC == JournalFormat.lostBlockCRC && frame.totalLength == JournalFormat.lostBlockLength && frame.type == .events {
            return .failure(.damaged(JournalFormat.lostBlockReason))
        }
        guard compressed.count == Int(frame.compressedLength) else { return .failure(.damaged("the block is cut short (torn tail)")) }
        guard Zlib.crc32(compressed) == frame.payloadCRC else { return .failure(.damaged("the block's checksum does not match")) }
        guard let payload = compressed.withUnsafeBytes({ Zlib.inflate($0, expectedCount: Int(frame.uncompressedLength)) }) else {
            return .failure(.damaged("the block does not decompress to its declared size"))
        }
        return .success(payload)
    }

    func decodeBlock(at offset: Int, frame: BlockFrame) -> Result<
        (events: [RecordedEvent], sources: [RecordedSource], spans: [UInt64: JournalBlock.SourceSpan]), BlockProblem
    > {
        read(at: offset, frame: frame) { payload throws(JournalFormatError) in
            let decoded = try BlockDecoding.events(in: payload, expectedCount: Int(frame.eventCount), formatVersion: header.formatVersion)
            return (decoded, decoded.events.count, JournalBlock.SourceSpan.sequences(of: decoded.spans.values))
        }
    }

    /// The block's records, read in place (``BlockRecords``), accepted or refused exactly as
    /// ``decodeBlock(at:frame:)`` accepts or refuses the block.
    func decodeRecords(at offset: Int, frame: BlockFrame) -> Result<BlockRecords, BlockProblem> {
        read(at: offset, frame: frame) { payload throws(JournalFormatError) in
            let records = try BlockDecoding.records(in: payload, expectedCount: Int(frame.eventCount), formatVersion: header.formatVersion)
            return (records, records.count, JournalBlock.SourceSpan.sequences(of: records.spans.values))
        }
    }

    /// Holds the index's entry for a block just decoded — which units it holds, how many of their
    /// events and which steps — against the block: an entry that misstates them (a crafted file;
    /// a writer never makes one) is corrected from the block, so that what this reader answers
    /// from then on comes from the block, and the lie is reported in ``damage``. Called on the
    /// thread that reads (never from a read-ahead), as ``refresh()`` is.
    func holdIndexEntry(ofBlock index: Int, toSpans found: [UInt64: JournalBlock.SourceSpan]) {
        guard hasIndex, blocks.indices.contains(index) else { return }
        guard found != blocks[index].sources else { return }
        blocks[index].sources = found
        let block = blocks[index]
        let entry = JournalDamage(
            byteRange: block.offset..<(block.offset + block.frame.totalLength), sequences: nil,
            reason: "the index misstates the units of the block of steps \(block.firstSequence)–\(block.lastSequence) (no events lost: read from the block itself)"
        )
        if !damage.contains(entry) { damage.append(entry) }
    }

    /// The block as a walk over the file takes it (see ``BlockOutline``), accepted or refused
    /// exactly as ``decodeBlock(at:frame:)`` accepts or refuses it.
    func outlineBlock(at offset: Int, frame: BlockFrame, foldingStates: Bool) -> Result<BlockOutline, BlockProblem> {
        read(at: offset, frame: frame) { payload throws(JournalFormatError) in
            let outline = try BlockDecoding.outline(of: payload, foldingStates: foldingStates, formatVersion: header.formatVersion)
            return (outline, outline.eventCount, outline.sequences)
        }
    }

    /// A block's payload read by `decode`, which also says how many events it found and their
    /// sequence range; both are held against the block's frame.
    func read<Decoded>(
        at offset: Int, frame: BlockFrame,
        _ decode: ([UInt8]) throws(JournalFormatError) -> (decoded: Decoded, eventCount: Int, sequences: ClosedRange<UInt64>?)
    ) -> Result<Decoded, BlockProblem> {
        switch payload(at: offset, frame: frame) {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes):
            do {
                let (decoded, count, sequences) = try decode(bytes)
                guard count == Int(frame.eventCount) else { return .failure(.damaged("the block holds \(count) events, its frame says \(frame.eventCount)")) }
                // Random access finds an event through its block's range: an event outside it
                // could never be found, and would be found in the wrong block.
                if let sequences, sequences.lowerBound < frame.firstSequence || sequences.upperBound > frame.lastSequence {
                    return .failure(.damaged("the block holds events outside its frame's range"))
                }
                return .success(decoded)
            } catch {
                return .failure(.damaged("its events cannot be decoded: \(error)"))
            }
        }
    }

    /// Reads the index through the trailer; `false` if there is none or it does not check out.
    func loadIndex() -> Bool {
        guard fileSize >= scanOffset + JournalFormat.frameHeaderLength + JournalFormat.trailerLength else { return false }
        let trailer = readBytes(at: fileSize - JournalFormat.trailerLength, count: JournalFormat.trailerLength)
        guard let offset = JournalIndex.indexOffset(fromTrailer: trailer, fileSize: fileSize) else { return false }
        guard let frame = BlockFrame.decode(readBytes(at: offset, count: JournalFormat.frameHeaderLength), at: 0), frame.type == .index,
              offset + frame.totalLength + JournalFormat.trailerLength == fileSize,
              case .success(let payload) = payload(at: offset, frame: frame),
              let parsed = try? JournalIndex.parse(payload, fileSize: offset) else { return false }
        blocks = parsed.blocks
        sourceTable = parsed.sources
        sourceOrder = parsed.sourceOrder
        hasIndex = true
        scanOffset = offset
        if header.dump != nil || ring != nil { reportLostSteps() }
        return true
    }

    /// Reports the frames that mark steps lost before the file was written (a dump of a ring with
    /// a hole, ``JournalFile/appendLost(_:between:and:)``), which the index leaves out: each lies
    /// just before the block after the hole.
    private func reportLostSteps() {
        for block in blocks.dropFirst() {
            let offset = block.offset - JournalFormat.lostBlockLength
            guard let frame = BlockFrame.decode(readBytes(at: offset, count: JournalFormat.frameHeaderLength), at: 0),
                frame.totalLength == JournalFormat.lostBlockLength, case .failure(.damaged(let reason)) = payload(at: offset, frame: frame)
            else { continue }
            damage.append(JournalDamage(byteRange: offset..<block.offset, sequences: frame.claimedSequences, reason: reason))
        }
    }

    /// Walks block frames from `scanOffset`, adding good blocks and recording damage. With `final`
    /// false (following a live file), an incomplete last block is left for the next refresh.
    func walkBlocks(final: Bool) {
        var offset = scanOffset
        // The next blocks are read — inflated, decoded, and for verify their states folded — on
        // other threads while this one is added: reading is nearly all of a walk's time, and
        // adding a block is light, so one reader per core (at least two, at most eight blocks
        // read ahead) keeps every core busy. (When this thread still folded every state record,
        // a second reader made verify slower on two cores: three busy threads.) Each is taken
        // for the block at its offset only if the frame there is still the one it read.
        var ahead: [(work: WorkAhead<Int, Result<BlockOutline, BlockProblem>>, frame: BlockFrame, end: Int)] = []
        let depth = Self.blocksReadAhead
        let foldingStates = blockVisitor != nil
        while offset < fileSize {
            let frameBytes = readBytes(at: offset, count: JournalFormat.frameHeaderLength)
            if let frame = BlockFrame.decode(frameBytes, at: 0) {
                if offset + frame.totalLength > fileSize {
                    if final {
                        let torn: JournalDamage = switch frame.type {
                        case .index: JournalDamage(byteRange: offset..<fileSize, sequences: nil, reason: "the index is cut short (rebuilt from the blocks; no events lost)")
                        case .summary: JournalDamage(byteRange: offset..<fileSize, sequences: nil, reason: "the last block's summary is cut short (no events lost)")
                        case .events: JournalDamage(byteRange: offset..<fileSize, sequences: frame.firstSequence...frame.lastSequence, reason: "the last block is cut short (torn tail)")
                        }
                        damage.append(torn)
                        offset = fileSize
                    }
                    break
                }
                if frame.type == .summary {
                    // The summary of the block just before it; checked when a query reads it.
                    if let last = blocks.indices.last, blocks[last].offset + blocks[last].frame.totalLength == offset {
                        blocks[last].summaryOffset = offset
                    }
                    offset += frame.totalLength
                    continue
                }
                if frame.type == .index {
                    // The index of a closed journal (or a stale one before a torn tail): skip it and
                    // the trailer after it.
                    offset += frame.totalLength
                    if offset + JournalFormat.trailerLength <= fileSize,
                       readBytes(at: offset, count: 4) == JournalFormat.trailerMagic {
                        offset += JournalFormat.trailerLength
                        if offset == fileSize { sawClosingIndex = true }
                    }
                    continue
                }
                let found = ahead.firstIndex { $0.work.key == offset && $0.frame == frame }
                let taken = found.map { ahead[$0].work }
                ahead.removeFirst(found.map { $0 + 1 } ?? ahead.count)
                // The blocks after this one start before this one is read, when none had.
                var following = ahead.last?.end ?? offset + frame.totalLength
                var held = ahead.reduce(Int(frame.uncompressedLength)) { $0 + Int($1.frame.uncompressedLength) }
                while ahead.count < depth, let (next, nextFrame) = nextEventsFrame(after: following), Self.mayReadAhead(nextFrame, holding: held) {
                    following = next + nextFrame.totalLength
                    held += Int(nextFrame.uncompressedLength)
                    ahead.append((WorkAhead(next) { [self] in outlineBlock(at: next, frame: nextFrame, foldingStates: foldingStates) }, nextFrame, following))
                }
                let outlined = taken?.result() ?? outlineBlock(at: offset, frame: frame, foldingStates: foldingStates)
                switch outlined {
                case .success(let outline):
                    add(block: offset, frame: frame, outline: outline)
                case .failure(.damaged(let reason)):
                    damage.append(JournalDamage(byteRange: offset..<(offset + frame.totalLength), sequences: frame.claimedSequences, reason: reason))
                }
                offset += frame.totalLength
                continue
            }
            if !final && fileSize - offset < JournalFormat.frameHeaderLength { break }
            // Not a block here: find the next frame that checks out and report what lies between.
            let next = nextFrame(after: offset)
            let end = next ?? fileSize
            if !final && next == nil { break }
            let lostFirst = (blocks.last?.lastSequence).flatMap { $0 == .max ? nil : $0 + 1 }
            let lostLast = next.flatMap { BlockFrame.decode(readBytes(at: $0, count: JournalFormat.frameHeaderLength), at: 0) }.map { $0.firstSequence }
            var sequences: ClosedRange<UInt64>?
            if let lostFirst, let lostLast, lostLast > lostFirst { sequences = lostFirst...(lostLast - 1) }
            let reason = next == nil && fileSize - offset < JournalFormat.frameHeaderLength
                ? "the file ends inside a block frame (torn tail)" : "unreadable bytes where a block should start"
            damage.append(JournalDamage(byteRange: offset..<end, sequences: sequences, reason: reason))
            offset = end
        }
        scanOffset = offset
    }

    /// How many blocks a walk over the whole file reads ahead at once: one per core, at least two
    /// and at most eight — within ``readAheadPayloadBytes``.
    package static let blocksReadAhead = min(8, max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// The most uncompressed payload that blocks being read, or read ahead, or kept for random
    /// access may hold together when one more is started: a block of 16 MiB can decode to 800 MB
    /// of values (millions of one-field objects), and eight of them at once to gigabytes, while
    /// the writer's blocks are 64 KiB. Whatever its size, a block is read when nothing else is.
    static let readAheadPayloadBytes = 2 << 20

    /// Whether a block whose frame is `frame` may be started while blocks of `held` payload bytes
    /// are being read or read ahead (``readAheadPayloadBytes``): the one rule every reader that
    /// reads ahead follows.
    static func mayReadAhead(_ frame: BlockFrame, holding held: Int) -> Bool {
        held == 0 || held + Int(frame.uncompressedLength) <= readAheadPayloadBytes
    }

    /// The events block at `offset`, or just after the summary block there, when its frame is
    /// valid and it lies within the file: the block a walk decodes ahead.
    func nextEventsFrame(after offset: Int) -> (offset: Int, frame: BlockFrame)? {
        var position = offset
        for _ in 0..<2 {
            guard position + JournalFormat.frameHeaderLength <= fileSize,
                  let frame = BlockFrame.decode(readBytes(at: position, count: JournalFormat.frameHeaderLength), at: 0),
                  position + frame.totalLength <= fileSize else { return nil }
            if frame.type == .events { return (position, frame) }
            guard frame.type == .summary else { return nil }
            position += frame.totalLength
        }
        return nil
    }

    /// The offset of the next valid block frame after `offset`, found by its magic.
    func nextFrame(after offset: Int) -> Int? {
        var position = offset + 1
        let chunkSize = 1 << 16
        while position < fileSize {
            let chunk = readBytes(at: position, count: min(chunkSize + 3, fileSize - position))
            guard chunk.count >= 4 else { return nil }
            for index in 0...(chunk.count - 4) where chunk[index] == JournalFormat.blockMagic[0]
                && chunk[index + 1] == JournalFormat.blockMagic[1] && chunk[index + 2] == JournalFormat.blockMagic[2]
                && chunk[index + 3] == JournalFormat.blockMagic[3] {
                if BlockFrame.decode(readBytes(at: position + index, count: JournalFormat.frameHeaderLength), at: 0) != nil {
                    return position + index
                }
            }
            position += chunkSize
        }
        return nil
    }

    func add(block offset: Int, frame: BlockFrame, outline: BlockOutline) {
        blockVisitor?(outline)
        for source in outline.sources where sourceTable[source.instanceID] == nil {
            sourceTable[source.instanceID] = source
            sourceOrder.append(source.instanceID)
        }
        blocks.append(JournalBlock(offset: offset, frame: frame, sources: outline.summaries))
    }
}
