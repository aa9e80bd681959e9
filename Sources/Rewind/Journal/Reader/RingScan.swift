import Foundation

/// The blocks that survive in a flight recorder's ring file (``RingFile``), in the order they were
/// written: what a reader and a dump make a journal of.
///
/// Every block is checked whole — its frame, its payload's checksum, its events decoded exactly as
/// a journal's reader decodes them — so a block torn by a crash, or half overwritten by the next
/// lap, is passed over, never read as something else. Blocks are ordered by their lap, then by
/// their place in the file; a ring holds at most two laps (the writer clears what is left of
/// a lap before starting the next), and any older lap found is left out as stale.
struct RingScan {
    /// One surviving events block, with its summary block when that survived too.
    struct Block {
        var offset: Int
        var frame: BlockFrame
        var payload: [UInt8]
        var outline: BlockOutline
        var summary: (frame: BlockFrame, payload: [UInt8])?

        /// Where the block, with its summary, ends in the ring.
        var end: Int { offset + frame.totalLength + (summary?.frame.totalLength ?? 0) }
    }

    /// Events lost between two blocks that survive: a block missing where the ones around it say
    /// one was written, damaged since or torn by a reader racing the writer.
    struct Hole: Equatable {
        /// The ring file's bytes where no whole block could be read.
        var byteRange: Range<Int>
        /// The steps between the blocks around it: at most these were lost (units recording into
        /// another journal of the process share the numbering); `nil` when the blocks' ranges
        /// leave none between them (they overlap when several threads log), or it was a summary.
        var sequences: ClosedRange<UInt64>?
        /// The block after it, in ``blocks``.
        var beforeBlock: Int
    }

    /// The blocks, oldest first.
    var blocks: [Block] = []
    /// Regions where no whole block could be read: a block torn by a crash, or the remains of
    /// one the next lap overwrote in part. Expected in a ring at the writer's place; counted.
    var skippedRegions = 0
    /// Blocks lost between two that survive (see ``Hole``): damage, never expected. Only the block
    /// at the writer's place may be torn — the run of blocks before it and after it is whole.
    var holes: [Hole] = []
    /// The ring file's regions that hold bytes but no block that reads (zeros, as the writer
    /// leaves the end of a lap, are not among them).
    private var damagedRegions: [Range<Int>] = []
    /// Where the ring's region starts.
    private var regionStart = 0
    /// The ring's size in bytes (the file's).
    var size: Int
    /// Whether the recorder closed the ring (``JournalFormat/RingFlags/closed``).
    var wasClosed: Bool
    /// The fatal signal its process died of, when the recorder could mark it (``CrashMarks``).
    var crashSignal: Int32?

    /// Scans the ring of `descriptor`, `size` bytes, whose region starts at `regionStart`; with
    /// `age`, keeps only the blocks within it (``keepOnly(age:)``), decoding only those.
    init(descriptor: Int32, size: Int, regionStart: Int, flags: UInt32, age: Duration? = nil) {
        self.size = size
        self.regionStart = regionStart
        wasClosed = flags & JournalFormat.RingFlags.closed != 0
        crashSignal = JournalFormat.RingFlags.crashSignal(flags)
        // Found by their frames and checksums first; decoded once ordered and cut to the age.
        var found: [Block] = []
        var offset = regionStart
        // Payload bytes checked, bounded: a file made by hand with a valid frame every few bytes,
        // each claiming the rest of the file, would otherwise cost the square of its size. Past
        // the budget a frame whose payload does not check is stepped over whole.
        var budget = 4 * size
        while offset + JournalFormat.frameHeaderLength <= size {
            let frameBytes = JournalReader.read(descriptor, at: offset, count: JournalFormat.frameHeaderLength)
            let frame = BlockFrame.decode(frameBytes, at: 0).flatMap { $0.type != .index && $0.lap != 0 && offset + $0.totalLength <= size ? $0 : nil }
            if let frame {
                budget -= Int(frame.compressedLength)
            }
            if let frame, budget >= 0, let payload = Self.checkedPayload(descriptor, at: offset, frame: frame) {
                if frame.type == .summary {
                    if let last = found.indices.last, found[last].offset + found[last].frame.totalLength == offset,
                        found[last].frame.lap == frame.lap, found[last].summary == nil
                    {
                        found[last].summary = (frame, payload)
                    }
                } else {
                    found.append(Block(offset: offset, frame: frame, payload: payload, outline: BlockOutline(sources: [], eventCount: 0)))
                }
                offset += frame.totalLength
                continue
            }
            skippedRegions += 1
            if let frame, budget < 0 {
                damagedRegions.append(offset..<(offset + frame.totalLength))
                offset += frame.totalLength
                continue
            }
            let next = Self.nextFrame(descriptor, after: offset, size: size) ?? size
            if !Self.isZero(descriptor, offset..<next) { damagedRegions.append(offset..<next) }
            offset = next
        }
        defer { findHoles() }
        // Only blocks that decode take part in the order and the age: a block whose checksum
        // holds but whose events do not decode (made by hand, or by a newer writer) must not
        // choose which lap is the newest, nor where the age cuts. With an age, the blocks it keeps
        // are decoded first — and the block the cut falls after, which places it — and all of
        // them only when one of those does not decode.
        if let age {
            let ordered = Self.ordered(found)
            let cut = Self.lastTooOld(age: age, in: ordered)
            let kept = Array(ordered[(cut.map { $0 + 1 } ?? 0)...])
            let decoded = Self.decoded(kept)
            let cutPlaced = cut.map { Self.outline(ordered[$0].payload, frame: ordered[$0].frame) != nil } ?? true
            if cutPlaced && decoded.count == kept.count {
                blocks = decoded
                return
            }
        }
        let decoded = Self.decoded(found)
        skippedRegions += found.count - decoded.count
        let decodedOffsets = Set(decoded.map(\.offset))
        damagedRegions += found.filter { !decodedOffsets.contains($0.offset) }.map { $0.offset..<$0.end }
        blocks = Self.ordered(decoded)
        if let age { keepOnly(age: age) }
    }

    /// Scans the ring of `descriptor` (as ``init(descriptor:size:regionStart:flags:age:)``) for a
    /// reader outside its recorder: a ring still written is scanned again while a scan met a
    /// hole, since a block the writer was writing as the scan passed it leaves one that the next
    /// scan does not meet. What holes remain after that — or in a ring nobody writes — are damage.
    ///
    /// - Parameter beforeRescan: for tests, called before each scan after the first: the writer's
    ///   moves between two scans, made at will.
    static func reading(
        descriptor: Int32, size: Int, regionStart: Int, flags: UInt32, age: Duration? = nil, beforeRescan: () -> Void = {}
    ) -> RingScan {
        var scan = RingScan(descriptor: descriptor, size: size, regionStart: regionStart, flags: flags, age: age)
        var attempts = 1
        while !scan.holes.isEmpty, attempts < Self.scansOfALiveRing, JournalReader.isHeldByWriter(descriptor) == true {
            beforeRescan()
            scan = RingScan(descriptor: descriptor, size: size, regionStart: regionStart, flags: flags, age: age)
            attempts += 1
        }
        return scan
    }

    /// How many times a reader scans a ring still written before it reports the holes it meets.
    /// One scan in 50 to 100 of a busy recorder's ring meets its writer; 20 in a row, never here.
    static let scansOfALiveRing = 20

    /// The blocks that decode as a journal's reader decodes them, with their outlines.
    private static func decoded(_ blocks: [Block]) -> [Block] {
        blocks.compactMap { block in
            Self.outline(block.payload, frame: block.frame).map { outline in
                var block = block
                block.outline = outline
                return block
            }
        }
    }

    /// The blocks a recorder's own catalog lists (``RingCatalog``), read from the ring of
    /// `descriptor` and checked by their checksums only: the writer made them. A block the writer
    /// overwrote since the catalog was copied fails its checksum; it is left out with every block
    /// before it, so that what is kept is one run of blocks that ends with the newest.
    init(catalog entries: [RingCatalog.Entry], descriptor: Int32, size: Int, flags: UInt32, age: Duration? = nil) {
        self.size = size
        wasClosed = flags & JournalFormat.RingFlags.closed != 0
        crashSignal = JournalFormat.RingFlags.crashSignal(flags)
        for entry in entries {
            guard let payload = Self.checkedPayload(descriptor, at: entry.offset, frame: entry.frame) else {
                skippedRegions += 1
                blocks.removeAll()
                continue
            }
            let outline = BlockOutline(sources: entry.sources, eventCount: entry.eventCount, summaries: entry.summaries)
            var block = Block(offset: entry.offset, frame: entry.frame, payload: payload, outline: outline)
            let summaryOffset = entry.offset + entry.frame.totalLength
            if let frame = entry.summaryFrame, let payload = Self.checkedPayload(descriptor, at: summaryOffset, frame: frame) {
                block.summary = (frame, payload)
            }
            blocks.append(block)
        }
        if let age { keepOnly(age: age) }
    }

    /// Finds the ``holes``: damaged regions between two blocks that follow each other in
    /// ``blocks``. The one gap that may hold a torn block — the writer's place, after the newest
    /// block and before the oldest — is never between two of them.
    private mutating func findHoles() {
        holes = []
        for index in blocks.indices.dropFirst() {
            let before = blocks[index - 1]
            let after = blocks[index]
            // In the file's order from the end of one to the start of the next, round the lap's end.
            let between: [Range<Int>] =
                after.offset >= before.end ? [before.end..<after.offset] : [before.end..<size, regionStart..<max(regionStart, after.offset)]
            let damaged = damagedRegions.filter { region in between.contains { $0.overlaps(region) } }
            guard let lower = damaged.map(\.lowerBound).min(), let upper = damaged.map(\.upperBound).max() else { continue }
            let stepsBetween =
                before.frame.lastSequence < .max && after.frame.firstSequence > before.frame.lastSequence + 1
                ? (before.frame.lastSequence + 1)...(after.frame.firstSequence - 1) : nil
            holes.append(Hole(byteRange: lower..<upper, sequences: stepsBetween, beforeBlock: index))
        }
    }

    /// Whether the bytes of `range` are all zero (a lap's end the writer cleared, a ring not yet
    /// written that far).
    private static func isZero(_ descriptor: Int32, _ range: Range<Int>) -> Bool {
        var position = range.lowerBound
        while position < range.upperBound {
            let chunk = JournalReader.read(descriptor, at: position, count: min(1 << 16, range.upperBound - position))
            guard !chunk.isEmpty, chunk.allSatisfy({ $0 == 0 }) else { return chunk.isEmpty }
            position += chunk.count
        }
        return true
    }

    /// The compressed payload, when it is all there and its checksum holds.
    private static func checkedPayload(_ descriptor: Int32, at offset: Int, frame: BlockFrame) -> [UInt8]? {
        let payload = JournalReader.read(descriptor, at: offset + JournalFormat.frameHeaderLength, count: Int(frame.compressedLength))
        guard payload.count == Int(frame.compressedLength), Zlib.crc32(payload) == frame.payloadCRC else { return nil }
        return payload
    }

    /// The block's outline, when it decodes as a journal's reader accepts it: its events as many
    /// as its frame says, within the frame's range.
    private static func outline(_ compressed: [UInt8], frame: BlockFrame) -> BlockOutline? {
        guard let payload = compressed.withUnsafeBytes({ Zlib.inflate($0, expectedCount: Int(frame.uncompressedLength)) }),
            let outline = try? BlockDecoding.outline(of: payload, foldingStates: false),
            outline.eventCount == Int(frame.eventCount)
        else { return nil }
        if let sequences = outline.sequences, sequences.lowerBound < frame.firstSequence || sequences.upperBound > frame.lastSequence {
            return nil
        }
        return outline
    }

    /// Leaves out the blocks older than `age` before the newest one's last event.
    /// Measured from the last block written, not the latest time: a wall clock stepped back must
    /// not make the newest blocks look old. What is kept is a run that ends with the last block.
    mutating func keepOnly(age: Duration) {
        Self.keepOnly(age: age, in: &blocks)
    }

    private static func keepOnly(age: Duration, in blocks: inout [Block]) {
        if let lastTooOld = lastTooOld(age: age, in: blocks) { blocks.removeSubrange(...lastTooOld) }
    }

    /// The last block older than `age` before the newest one's last event, which the age cut
    /// drops with every block before it.
    private static func lastTooOld(age: Duration, in blocks: [Block]) -> Int? {
        guard let newest = blocks.last?.frame.lastWallNanoseconds else { return nil }
        let (seconds, attoseconds) = age.components
        let span = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !span.overflow else { return nil }
        let oldest = newest.subtractingReportingOverflow(span.partialValue &+ attoseconds / 1_000_000_000)
        guard !oldest.overflow else { return nil }
        return blocks.lastIndex { $0.frame.lastWallNanoseconds < oldest.partialValue }
    }

    /// The next place after `offset` where a valid block frame starts (its magic, then a frame
    /// whose checksum holds): one pass over the bytes, whatever they hold.
    private static func nextFrame(_ descriptor: Int32, after offset: Int, size: Int) -> Int? {
        var position = offset + 1
        let chunkSize = 1 << 16
        let magic = JournalFormat.blockMagic
        while position + magic.count <= size {
            let chunk = JournalReader.read(descriptor, at: position, count: min(chunkSize + magic.count - 1, size - position))
            guard chunk.count >= magic.count else { return nil }
            for index in 0...(chunk.count - magic.count)
            where chunk[index] == magic[0] && chunk[index + 1] == magic[1] && chunk[index + 2] == magic[2] && chunk[index + 3] == magic[3] {
                if BlockFrame.decode(JournalReader.read(descriptor, at: position + index, count: JournalFormat.frameHeaderLength), at: 0) != nil {
                    return position + index
                }
            }
            position += chunkSize
        }
        return nil
    }

    /// The blocks of the newest lap and the one before it, oldest first.
    static func ordered(_ blocks: [Block]) -> [Block] {
        let laps = Set(blocks.map(\.frame.lap))
        // The newest lap is the one whose successor is absent (laps wrap from 0xFFFFFF to 1).
        func next(_ lap: UInt32) -> UInt32 { lap == 0xFF_FFFF ? 1 : lap + 1 }
        // Of several (a file made by hand), the highest, so that every read agrees.
        guard let newest = laps.filter({ !laps.contains(next($0)) }).max() else { return blocks }
        let previous = laps.first { next($0) == newest }
        return blocks.filter { $0.frame.lap == previous } + blocks.filter { $0.frame.lap == newest }
    }
}
