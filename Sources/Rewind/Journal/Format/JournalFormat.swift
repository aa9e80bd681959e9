/// The fixed parts of the `.rewind` file format; `docs/JOURNAL_FORMAT.md` is the specification.
enum JournalFormat {
    /// `\x89 R W N D \r \n \x1A`: a non-ASCII first byte, then line endings and Ctrl-Z that text-mode
    /// transfers would mangle, as in PNG's signature.
    static let magic: [UInt8] = [0x89, 0x52, 0x57, 0x4E, 0x44, 0x0D, 0x0A, 0x1A]
    /// The format version this code writes and the newest it reads. Version 2 added changes whose
    /// value is written as a diff from their source's state (flag 0x80 on a change record);
    /// version 3 added a summary block after each events block (``BlockSummary``), which older
    /// readers would take for damage; version 4 extended the header with the recording's identity
    /// (``JournalHeader/recordingID``, ``JournalHeader/appVersion``), which older readers would
    /// take for a block; version 5 marks, in summaries, the paths that held NaN (an older file's
    /// summaries may hold NaN anywhere); version 6 added the `log` record (kind code 10: a message
    /// the application logged through swift-log), which older readers would take for damage. A
    /// file of an earlier version is a file of this one without what came later, so every version
    /// up to this one reads.
    static let version: UInt16 = 6
    /// The signature of a flight recorder's ring file (``RingFile``): `\x89RWRG\r\n\x1A`. A ring
    /// is read as a journal of the blocks that survive in it; a reader that does not know rings
    /// says it is not a journal rather than reading its laps out of order.
    static let ringMagic: [UInt8] = [0x89, 0x52, 0x57, 0x52, 0x47, 0x0D, 0x0A, 0x1A]

    /// The bits of a ring file's header flags.
    enum RingFlags {
        /// The recorder closed the ring: the process did not end without closing it (a crash,
        /// `kill -9`, an exit that skipped it).
        static let closed: UInt32 = 1
        /// The process died of a fatal signal, whose number is in bits 8–15 (``CrashMarks``).
        static let crashed: UInt32 = 2

        /// The signal a crashed ring's flags name, if they say it crashed.
        static func crashSignal(_ flags: UInt32) -> Int32? {
            flags & crashed != 0 ? Int32((flags >> 8) & 0xFF) : nil
        }
    }
    /// The header's fixed part; from version 4 the header's extension follows it, and the header
    /// length field says where the first block starts.
    static let fixedHeaderLength = 48
    /// The longest header a reader accepts: a damaged length field cannot make it skip the file.
    static let maximumHeaderLength = 4096
    static let writerVersionLength = 12

    /// `RWB1`, the start of every block frame; readers resynchronise on it after damage.
    static let blockMagic: [UInt8] = [0x52, 0x57, 0x42, 0x31]
    static let frameHeaderLength = 60
    /// `RWIX`, the start of the trailer that points at the index block.
    static let trailerMagic: [UInt8] = [0x52, 0x57, 0x49, 0x58]
    static let trailerLength = 16
    /// The payload checksum of an events frame that marks steps lost before the file was written
    /// (a dump of a ring with a hole; docs/JOURNAL_FORMAT.md, "Lost steps"): its one payload byte,
    /// zero, has another checksum, so the frame never reads as a block.
    static let lostBlockCRC: UInt32 = 0x4C4F_5354  // "LOST"
    /// Such a frame's length with its payload byte.
    static let lostBlockLength = frameHeaderLength + 1
    /// What readers report for such a frame.
    static let lostBlockReason = "steps lost before this file was written (a hole in the flight recorder's ring it was dumped from)"

    /// The largest uncompressed block a reader accepts: far above what the writer makes (64 KiB by
    /// default), low enough that a lying header cannot exhaust memory.
    static let maximumBlockLength = 64 << 20
    /// The deepest value tree a reader decodes (the writer's capture stops at 64 levels); diffs may
    /// not build a deeper state either (``StateValue/maximumDepth``).
    static let maximumTreeDepth = StateValue.maximumDepth
    /// The most values, changes, path components, strings and records one block may decode to:
    /// the 64 MiB bound on a block's bytes bounds what it decodes only loosely (a byte per `null`),
    /// and each decoded value costs tens of bytes. Low enough that no block can exhaust memory;
    /// the writer keeps every block within it (``maximumRecordItems``).
    static let maximumDecodedItemsPerBlock = 8_000_000

    /// The most one event's record may hold, counted as a reader counts a block: its values
    /// (every node of a state, a change's value, an input), its changes and their path
    /// components, and the strings it adds. The writer seals a block once what it holds leaves
    /// less room than this (in items or bytes), so a record up to half of a block always fits
    /// beside what came before; a larger one is refused at record time
    /// (``JournalLogger/Refusal``), never written unreadable. A state of up to four million values (a list
    /// of 800,000 four-field structs) is recorded.
    static let maximumRecordItems = maximumDecodedItemsPerBlock / 2
    /// The most bytes one event's record may take, its new strings included (see ``maximumRecordItems``).
    static let maximumRecordBytes = maximumBlockLength / 2

    enum BlockType: UInt8 {
        case events = 1
        case index = 2
        /// What the events block just before it can hold (``BlockSummary``).
        case summary = 3
    }
}

/// The fixed-size frame in front of every block: what a reader needs to find, check and index the
/// block without decompressing it.
struct BlockFrame: Equatable, Sendable {
    var type: JournalFormat.BlockType
    var compressedLength: UInt32
    var uncompressedLength: UInt32
    var eventCount: UInt32
    var firstSequence: UInt64
    var lastSequence: UInt64
    var firstWallNanoseconds: Int64
    var lastWallNanoseconds: Int64
    var payloadCRC: UInt32
    /// In a flight recorder's ring file, the lap of the ring the block was written in (1, 2, …,
    /// 24 bits, wrapping to 1): what orders the blocks that survive there (``RingFile``). 0 in a
    /// journal, whose blocks are in file order.
    var lap: UInt32 = 0

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: JournalFormat.frameHeaderLength)
        writer.append(JournalFormat.blockMagic)
        writer.byte(type.rawValue)
        writer.byte(UInt8(truncatingIfNeeded: lap))
        writer.fixed(UInt16(truncatingIfNeeded: lap >> 8))
        writer.fixed(compressedLength)
        writer.fixed(uncompressedLength)
        writer.fixed(eventCount)
        writer.fixed(firstSequence)
        writer.fixed(lastSequence)
        writer.fixed(firstWallNanoseconds)
        writer.fixed(lastWallNanoseconds)
        writer.fixed(payloadCRC)
        writer.fixed(Zlib.crc32(writer.bytes))
        return writer.bytes
    }

    /// Reads a frame at `offset`; `nil` unless the magic, the header CRC, the sizes and the ranges
    /// (lowest ≤ highest, for sequence numbers and for times) all check out.
    static func decode(_ bytes: [UInt8], at offset: Int) -> BlockFrame? {
        guard offset >= 0, bytes.count - offset >= JournalFormat.frameHeaderLength,
              bytes[offset..<(offset + 4)].elementsEqual(JournalFormat.blockMagic) else { return nil }
        let headerBytes = Array(bytes[offset..<(offset + JournalFormat.frameHeaderLength - 4)])
        var reader = ByteReader(bytes, offset: offset + 4, end: offset + JournalFormat.frameHeaderLength)
        guard let typeByte = try? reader.byte(), let type = JournalFormat.BlockType(rawValue: typeByte),
              let lapLow = try? reader.byte(), let lapHigh = try? reader.fixed(UInt16.self),
              let compressed = try? reader.fixed(UInt32.self), let uncompressed = try? reader.fixed(UInt32.self),
              let count = try? reader.fixed(UInt32.self), let first = try? reader.fixed(UInt64.self),
              let last = try? reader.fixed(UInt64.self), let firstWall = try? reader.fixed(Int64.self),
              let lastWall = try? reader.fixed(Int64.self), let payloadCRC = try? reader.fixed(UInt32.self),
              let headerCRC = try? reader.fixed(UInt32.self), headerCRC == Zlib.crc32(headerBytes),
              uncompressed <= JournalFormat.maximumBlockLength, compressed > 0, uncompressed > 0,
              first <= last, firstWall <= lastWall
        else { return nil }
        return BlockFrame(
            type: type, compressedLength: compressed, uncompressedLength: uncompressed, eventCount: count,
            firstSequence: first, lastSequence: last, firstWallNanoseconds: firstWall, lastWallNanoseconds: lastWall,
            payloadCRC: payloadCRC, lap: UInt32(lapLow) | UInt32(lapHigh) << 8
        )
    }

    var totalLength: Int { JournalFormat.frameHeaderLength + Int(compressedLength) }

    /// The steps a damaged block lost, as its frame says: `nil` for a frame that claims no event
    /// (a lost-steps frame whose steps are unknown).
    var claimedSequences: ClosedRange<UInt64>? { eventCount == 0 ? nil : firstSequence...lastSequence }
}
