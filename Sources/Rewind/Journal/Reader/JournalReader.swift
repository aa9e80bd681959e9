import Synchronization
import Foundation

/// Reads a `.rewind` journal: its sources and counts from the index, any event or any source's
/// state at any step by random access, and all events lazily with filters.
///
/// Opening reads the header and the index at the end of the file. When the index is missing (the
/// writer was killed) or damaged, the reader rebuilds it by walking the blocks, skipping damaged
/// ones and saying exactly what was lost in ``damage``. Nothing in a file, however corrupt, makes
/// the reader crash or allocate more than a block's declared size (at most 64 MiB).
///
/// ```swift
/// let journal = try JournalReader(path: "session.rewind")
/// for source in journal.sources { print(source.source, source.eventCount) }
/// let state = try journal.state(of: journal.sources[0].source.instanceID, at: 1_000)
/// ```
public final class JournalReader: @unchecked Sendable {
    // Unchecked: the block list and damage list change only in `refresh()`, and the decoded-block
    // cache is guarded by its lock; use one reader per thread when following a live file.

    /// The file's path.
    public let path: String
    /// The file header.
    public private(set) var header: JournalHeader
    /// Whether the header's checksum held.
    public private(set) var headerIsIntact: Bool
    /// Whether the index at the end of the file was present and intact (a cleanly closed journal).
    public private(set) var hasIndex: Bool
    /// Whether the writer has closed the journal: its index was there when it was opened, or
    /// ``refresh()`` found the index and trailer a closing writer appends.
    public var isClosedByWriter: Bool { hasIndex || sawClosingIndex }
    private var sawClosingIndex = false
    /// The blocks of events, in file order.
    public private(set) var blocks: [JournalBlock] = []
    /// What could not be read.
    public private(set) var damage: [JournalDamage] = []
    /// The file's size when last read.
    public private(set) var fileSize: Int

    private let descriptor: Int32
    private var sourceTable: [UInt64: RecordedSource] = [:]
    private var sourceOrder: [UInt64] = []
    /// Where the block walk stopped: the next block to look for when following a growing file.
    private var scanOffset = JournalFormat.fixedHeaderLength
    /// While the opening walk runs: sees every state record of every block it reads, in file order
    /// (for `verify`, which folds the states as the walk goes rather than reading the blocks again).
    private var stateRecordVisitor: ((_ source: RecordedSource, _ sequence: UInt64, _ record: StateRecord) -> Void)?
    private let cache = Locked<[(offset: Int, events: [RecordedEvent])]>([])
    /// How many block payloads were inflated: what tests hold a reading strategy to.
    let blocksInflated = Atomic<Int>(0)
    /// Blocks' text filters, for searches (see ``block(_:mayContainText:)``).
    let searchIndex: SearchIndex
    private static let cacheSize = 4

    /// Opens a journal.
    ///
    /// - Throws: ``JournalReadError`` for a missing file, a directory, an empty file, a file that is
    ///   not a journal, or a newer format. Damage inside the file is not an error: see ``damage``.
    public convenience init(path: String) throws(JournalReadError) {
        try self.init(path: path, ignoringIndex: false)
    }

    /// Opens a journal; with `ignoringIndex`, the blocks are walked even when an index exists (for
    /// verification and recovery), and `visitor` sees every state record the walk reads.
    init(
        path: String, ignoringIndex: Bool,
        visitingStateRecords visitor: ((_ source: RecordedSource, _ sequence: UInt64, _ record: StateRecord) -> Void)? = nil
    ) throws(JournalReadError) {
        self.path = path
        stateRecordVisitor = visitor
        searchIndex = SearchIndex(journalPath: path)
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw errno == ENOENT ? .fileNotFound(path) : .unreadable(path, code: errno)
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw .isDirectory(path) }
        // Only regular files: reading a FIFO would wait forever for a writer, a device such as
        // /dev/zero never ends. O_NONBLOCK: a FIFO put at the path after the check does not block
        // the open (it is refused below).
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path, kind: FileKind.describe(status.st_mode)) }
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else { throw .unreadable(path, code: errno) }
        var openedStatus = stat()
        guard fstat(opened, &openedStatus) == 0, (openedStatus.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw .notARegularFile(path, kind: FileKind.describe(openedStatus.st_mode))
        }
        status = openedStatus
        descriptor = opened
        fileSize = Int(status.st_size)
        guard fileSize > 0 else { close(opened); throw .empty(path) }
        let headerBytes = Self.read(opened, at: 0, count: JournalFormat.fixedHeaderLength)
        switch JournalHeader.decodeFixedPart(headerBytes) {
        case .failure(.notAJournal):
            close(opened)
            throw .notAJournal(path)
        case .failure(.newerVersion(let version)):
            close(opened)
            throw .newerFormat(path, version: version)
        case .failure(.damaged):
            header = JournalHeader(formatVersion: JournalFormat.version, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "unknown")
            headerIsIntact = false
            damage.append(JournalDamage(byteRange: 0..<min(fileSize, JournalFormat.fixedHeaderLength), sequences: nil, reason: "the file header is cut short"))
        case .success(let fixed):
            header = fixed.header
            headerIsIntact = fixed.isIntact
            if !fixed.isIntact {
                damage.append(JournalDamage(byteRange: 0..<JournalFormat.fixedHeaderLength, sequences: nil, reason: "the file header's checksum does not match (creation time and writer unknown)"))
            } else if fixed.length > JournalFormat.fixedHeaderLength {
                let extensionBytes = Self.read(opened, at: JournalFormat.fixedHeaderLength, count: fixed.length - JournalFormat.fixedHeaderLength)
                if !header.decodeExtension(extensionBytes) {
                    headerIsIntact = false
                    damage.append(JournalDamage(
                        byteRange: JournalFormat.fixedHeaderLength..<min(fileSize, fixed.length), sequences: nil,
                        reason: "the file header's extension is damaged (recording id and app version unknown)"
                    ))
                }
            }
            // A cut-short extension is damage above; the blocks still start after it.
            scanOffset = fixed.length
        }
        hasIndex = false
        if ignoringIndex || !loadIndex() {
            walkBlocks(final: true)
        }
        stateRecordVisitor = nil
    }

    deinit {
        close(descriptor)
    }

    // MARK: Summary

    /// A source of the journal with its event count.
    public struct SourceSummary: Sendable, Equatable {
        /// The source.
        public var source: RecordedSource
        /// How many of its events the journal holds.
        public var eventCount: Int
        /// Its first and last sequence numbers.
        public var sequences: ClosedRange<UInt64>
    }

    /// The sources, in the order they first appear, with their event counts.
    public var sources: [SourceSummary] {
        var counts: [UInt64: (count: Int, first: UInt64, last: UInt64)] = [:]
        for block in blocks {
            for (id, summary) in block.sources {
                let previous = counts[id] ?? (0, summary.firstSequence, summary.lastSequence)
                counts[id] = (previous.count + summary.eventCount, min(previous.first, summary.firstSequence), max(previous.last, summary.lastSequence))
            }
        }
        return sourceOrder.compactMap { id in
            guard let source = sourceTable[id], let count = counts[id] else { return nil }
            return SourceSummary(source: source, eventCount: count.count, sequences: count.first...count.last)
        }
    }

    /// How many events ``damage`` lost, counting the stretches whose sequence range is known.
    public var lostEventCount: Int {
        damage.lostEventCount
    }

    /// The number of events in the readable blocks.
    public var eventCount: Int {
        blocks.reduce(0) { $0 + $1.eventCount }
    }

    /// The lowest and highest sequence numbers, if there are events.
    public var sequenceRange: ClosedRange<UInt64>? {
        guard let first = blocks.map(\.firstSequence).min(), let last = blocks.map(\.lastSequence).max() else { return nil }
        return first...last
    }

    /// The wall-clock times of the first and last events, in nanoseconds since 1970.
    public var timeSpan: ClosedRange<Int64>? {
        guard let first = blocks.map(\.firstWallNanoseconds).min(), let last = blocks.map(\.lastWallNanoseconds).max() else { return nil }
        return first...last
    }

    /// The bytes of compressed and uncompressed block payloads.
    public var payloadSizes: (compressed: Int, uncompressed: Int) {
        blocks.reduce((0, 0)) { ($0.0 + $1.compressedLength, $0.1 + $1.uncompressedLength) }
    }

    /// The source with this instance number, if the journal has it.
    public func source(_ instanceID: UInt64) -> RecordedSource? {
        sourceTable[instanceID]
    }

    // MARK: Random access

    /// Where the event with this sequence number is: its block and its index in the block's events.
    public func location(ofSequence sequence: UInt64) throws(JournalReadError) -> (block: Int, index: Int)? {
        for block in candidateBlocks(containing: sequence) {
            if let index = try events(inBlock: block).firstIndex(where: { $0.sequence == sequence }) { return (block, index) }
        }
        return nil
    }

    /// The event with this sequence number, or `nil` if the journal does not hold it.
    public func event(sequence: UInt64) throws(JournalReadError) -> RecordedEvent? {
        for index in candidateBlocks(containing: sequence) {
            if let event = try events(inBlock: index).first(where: { $0.sequence == sequence }) { return event }
        }
        return nil
    }

    /// The state of a source after step `sequence`: its last state record at or before that step,
    /// rebuilt from the block's keyframe and the diffs after it, with the changes recorded since
    /// inside a commit applied — by the one rule of ``StateFold``. `nil` if the source has no state
    /// by then (or it was in a damaged block).
    public func state(of sourceID: UInt64, at sequence: UInt64) throws(JournalReadError) -> StateValue? {
        try stateFold(of: sourceID, at: sequence).current
    }

    /// The fold of a source's state after step `sequence` (see ``state(of:at:)``): with the recorded
    /// state too, so that a ``StateWalker`` can go on from there.
    public func stateFold(of sourceID: UInt64, at sequence: UInt64) throws(JournalReadError) -> StateFold {
        try stateFold(of: sourceID, through: sequence, fromBlock: lastBlock(startingAtOrBefore: sequence))
    }

    /// The fold of a source's state after all of its steps in blocks `0...block`: where a reader
    /// that skipped blocks picks the source up again.
    public func stateFold(of sourceID: UInt64, throughBlock block: Int) throws(JournalReadError) -> StateFold {
        try stateFold(of: sourceID, through: .max, fromBlock: block < 0 ? nil : block)
    }

    /// The folds of several sources' states after all of their steps in blocks `0...block`
    /// (``stateFold(of:throughBlock:)`` for each), reading each block once for all of them: a
    /// reader that skipped blocks of a thousand units picks them all up with one pass. A source
    /// whose blocks no longer read back gets an empty fold.
    public func stateFolds(of sources: Set<UInt64>, throughBlock block: Int) -> [UInt64: StateFold] {
        var folds: [UInt64: StateFold] = [:]
        var needed = sources
        var laterSteps: [UInt64: [[StateStep]]] = [:]
        var index = block
        while index >= 0, !needed.isEmpty {
            defer { index -= 1 }
            let holding = needed.filter { blocks[index].sources[$0] != nil }
            guard !holding.isEmpty else { continue }
            guard let events = try? events(inBlock: index) else {
                for source in holding { folds[source] = StateFold() }
                needed.subtract(holding)
                continue
            }
            var steps: [UInt64: [StateStep]] = [:]
            for event in events where holding.contains(event.source.instanceID) {
                if let step = event.stateStep { steps[event.source.instanceID, default: []].append(step) }
            }
            for (source, sourceSteps) in steps {
                guard let start = sourceSteps.lastIndex(where: \.isKeyframe) else {
                    laterSteps[source, default: []].append(sourceSteps)
                    continue
                }
                var fold = StateFold()
                for step in sourceSteps[start...] { fold.apply(step) }
                for step in (laterSteps[source] ?? []).reversed().joined() { fold.apply(step) }
                folds[source] = fold
                needed.remove(source)
            }
        }
        for source in needed { folds[source] = StateFold() }
        return folds
    }

    private func stateFold(of sourceID: UInt64, through sequence: UInt64, fromBlock start: Int?) throws(JournalReadError) -> StateFold {
        // Steps found in later blocks before any keyframe: applied once an earlier block gives one.
        var laterSteps: [[StateStep]] = []
        var index = start
        while let current = index, current >= 0 {
            let block = blocks[current]
            if let summary = block.sources[sourceID], summary.firstSequence <= sequence {
                let steps = try stateSteps(of: sourceID, through: sequence, inBlock: current)
                if let start = steps.lastIndex(where: \.isKeyframe) {
                    var fold = StateFold()
                    for step in steps[start...] { fold.apply(step) }
                    for step in laterSteps.reversed().joined() { fold.apply(step) }
                    return fold
                }
                if !steps.isEmpty { laterSteps.append(steps) }
            }
            index = current == 0 ? nil : current - 1
        }
        return StateFold()
    }

    /// One block's state steps for a source up to `sequence`, from the cached events when the
    /// block is cached, else from a scan that decodes only the source's state records and changes.
    private func stateSteps(of sourceID: UInt64, through sequence: UInt64, inBlock index: Int) throws(JournalReadError) -> [StateStep] {
        let block = blocks[index]
        if let cached = cache.withLock({ $0.first { $0.offset == block.offset }?.events }) {
            return cached.filter { $0.source.instanceID == sourceID && $0.sequence <= sequence }.compactMap(\.stateStep)
        }
        guard case .success(let payload) = payload(at: block.offset, frame: block.frame) else {
            throw .damagedBlock(path, offset: block.offset, reason: "it no longer reads back")
        }
        do {
            return try BlockDecoding.stateSteps(in: payload, source: sourceID, through: sequence)
        } catch {
            throw .damagedBlock(path, offset: block.offset, reason: "its events cannot be decoded: \(error)")
        }
    }

    /// The blocks whose sequence range may hold `sequence` (ranges of neighbouring blocks can overlap
    /// slightly when several threads log at once).
    func candidateBlocks(containing sequence: UInt64) -> [Int] {
        guard let last = lastBlock(startingAtOrBefore: sequence) else { return [] }
        var result: [Int] = []
        var index = last
        while index >= 0 && index >= last - 2 {
            if blocks[index].firstSequence <= sequence && sequence <= blocks[index].lastSequence { result.append(index) }
            index -= 1
        }
        return result
    }

    /// The last block whose first sequence number is at or before `sequence` (binary search).
    func lastBlock(startingAtOrBefore sequence: UInt64) -> Int? {
        let after = blocks.indices.partitionPoint { blocks[$0].firstSequence > sequence }
        return after == 0 ? nil : after - 1
    }

    /// The events of one block, decoded (and cached: the viewer steps within a block).
    public func events(inBlock index: Int) throws(JournalReadError) -> [RecordedEvent] {
        let block = blocks[index]
        if let cached = cache.withLock({ $0.first { $0.offset == block.offset }?.events }) { return cached }
        let decoded: [RecordedEvent]
        switch decodeBlock(at: block.offset, frame: block.frame) {
        case .success(let result): decoded = result.events
        case .failure(.damaged(let reason)): throw .damagedBlock(path, offset: block.offset, reason: reason)
        }
        holdIndexEntry(ofBlock: index, to: decoded)
        cache.withLock { cache in
            cache.removeAll { $0.offset == block.offset }
            cache.append((block.offset, decoded))
            if cache.count > Self.cacheSize { cache.removeFirst() }
        }
        return decoded
    }

    // MARK: Iteration

    /// All events that match `filter`, in file order, decoded one block at a time: memory stays
    /// constant however long the journal is. A block that turns out damaged is skipped and added to
    /// ``damage``.
    public func events(matching filter: EventFilter = EventFilter()) -> JournalEvents {
        JournalEvents(reader: self, filter: filter)
    }

    /// Adds a block that failed to read back to ``damage`` (readers with an index find damaged blocks
    /// only when they read them).
    public func recordDamage(blockAt index: Int, reason: String) {
        let block = blocks[index]
        let entry = JournalDamage(byteRange: block.offset..<(block.offset + block.frame.totalLength), sequences: block.firstSequence...block.lastSequence, reason: reason)
        if !damage.contains(entry) { damage.append(entry) }
    }

    /// Checks every block's checksum without decompressing it, adding the blocks that fail to
    /// ``damage``: how a command that reads one step learns whether the journal is damaged
    /// elsewhere (the index lists blocks without vouching for them). Reads the whole file, at
    /// checksum speed.
    public func checkBlockChecksums() {
        for (index, block) in blocks.enumerated() {
            let compressed = readBytes(at: block.offset + JournalFormat.frameHeaderLength, count: block.compressedLength)
            if compressed.count != block.compressedLength || Zlib.crc32(compressed) != block.frame.payloadCRC {
                recordDamage(blockAt: index, reason: "the block's checksum does not match")
            }
        }
    }

    // MARK: Following a growing file

    /// Whether a writer has the file open: a Rewind writer holds an exclusive `flock` on its
    /// journal from creation until it closes it, and the kernel lets go of it when the writer
    /// ends in any way, `kill -9` included. `false` for a journal closed by its writer or left by
    /// one that crashed, and for a journal of format 4 or older, whose writers held no lock;
    /// `nil` where it cannot be told (a file system without `flock`).
    public var isHeldByWriter: Bool? {
        // Asked on the file this reader has open (a path may be a link to it), and let go at once.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK ? true : nil
    }

    /// Looks for blocks appended since the journal was opened (or last refreshed) — for following a
    /// journal another process is still writing. Returns how many new blocks were found; their
    /// events are in ``blocks`` and ``events(inBlock:)``.
    @discardableResult
    public func refresh() -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return 0 }
        fileSize = Int(status.st_size)
        guard !hasIndex else { return 0 }
        let before = blocks.count
        walkBlocks(final: false)
        return blocks.count - before
    }

    // MARK: Reading the file

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
        guard compressed.count == Int(frame.compressedLength) else { return .failure(.damaged("the block is cut short (torn tail)")) }
        guard Zlib.crc32(compressed) == frame.payloadCRC else { return .failure(.damaged("the block's checksum does not match")) }
        guard let payload = compressed.withUnsafeBytes({ Zlib.inflate($0, expectedCount: Int(frame.uncompressedLength)) }) else {
            return .failure(.damaged("the block does not decompress to its declared size"))
        }
        return .success(payload)
    }

    func decodeBlock(at offset: Int, frame: BlockFrame) -> Result<(events: [RecordedEvent], sources: [RecordedSource]), BlockProblem> {
        read(at: offset, frame: frame) { payload throws(JournalFormatError) in
            let decoded = try BlockDecoding.events(in: payload)
            let sequences = decoded.events.map(\.sequence)
            return (decoded, sequences.count, sequences.min().flatMap { lowest in sequences.max().map { lowest...$0 } })
        }
    }

    /// Holds the index's entry for a block just decoded — which units it holds, how many of their
    /// events and which steps — against the block: an entry that misstates them (a crafted file;
    /// a writer never makes one) is corrected from the block, so that what this reader answers
    /// from then on comes from the block, and the lie is reported in ``damage``. Called on the
    /// thread that reads (never from a read-ahead), as ``refresh()`` is.
    func holdIndexEntry(ofBlock index: Int, to events: [RecordedEvent]) {
        guard hasIndex, blocks.indices.contains(index) else { return }
        var found: [UInt64: JournalBlock.SourceSummary] = [:]
        for event in events {
            found[event.source.instanceID, default: .init(eventCount: 0, firstSequence: event.sequence, lastSequence: event.sequence)].add(event.sequence)
        }
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
    func outlineBlock(at offset: Int, frame: BlockFrame, keepingStateRecords: Bool) -> Result<BlockOutline, BlockProblem> {
        read(at: offset, frame: frame) { payload throws(JournalFormatError) in
            let outline = try BlockDecoding.outline(of: payload, keepingStateRecords: keepingStateRecords)
            return (outline, outline.eventCount, outline.sequences)
        }
    }

    /// A block's payload read by `decode`, which also says how many events it found and their
    /// sequence range; both are held against the block's frame.
    private func read<Decoded>(
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
    private func loadIndex() -> Bool {
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
        return true
    }

    /// Walks block frames from `scanOffset`, adding good blocks and recording damage. With `final`
    /// false (following a live file), an incomplete last block is left for the next refresh.
    private func walkBlocks(final: Bool) {
        var offset = scanOffset
        // The next block is read on another core while this one is added (and its state records
        // folded, for verify): reading is most of a walk's time. (Two blocks read at once made
        // verify slower on a two-core machine: three busy threads on two cores.)
        var ahead: WorkAhead<Int, Result<BlockOutline, BlockProblem>>?
        let keepingStateRecords = stateRecordVisitor != nil
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
                let outlined = ahead?.key == offset ? ahead!.result() : outlineBlock(at: offset, frame: frame, keepingStateRecords: keepingStateRecords)
                ahead = nil
                if let (next, nextFrame) = nextEventsFrame(after: offset + frame.totalLength) {
                    ahead = WorkAhead(next) { [self] in outlineBlock(at: next, frame: nextFrame, keepingStateRecords: keepingStateRecords) }
                }
                switch outlined {
                case .success(let outline):
                    add(block: offset, frame: frame, outline: outline)
                case .failure(.damaged(let reason)):
                    damage.append(JournalDamage(byteRange: offset..<(offset + frame.totalLength), sequences: frame.firstSequence...frame.lastSequence, reason: reason))
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

    /// The events block at `offset`, or just after the summary block there, when its frame is
    /// valid and it lies within the file: the block a walk decodes ahead.
    private func nextEventsFrame(after offset: Int) -> (offset: Int, frame: BlockFrame)? {
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
    private func nextFrame(after offset: Int) -> Int? {
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

    private func add(block offset: Int, frame: BlockFrame, outline: BlockOutline) {
        if let stateRecordVisitor {
            for (source, sequence, record) in outline.stateRecords { stateRecordVisitor(source, sequence, record) }
        }
        for source in outline.sources where sourceTable[source.instanceID] == nil {
            sourceTable[source.instanceID] = source
            sourceOrder.append(source.instanceID)
        }
        blocks.append(JournalBlock(offset: offset, frame: frame, sources: outline.summaries))
    }
}

/// One block of events, as the index describes it.
public struct JournalBlock: Sendable, Equatable {
    /// Where the block's frame starts in the file.
    public var offset: Int
    var frame: BlockFrame
    /// Per source: its events in this block.
    public var sources: [UInt64: SourceSummary]
    /// Where the block's summary block starts (see ``BlockSummary``), if it has one.
    public var summaryOffset: Int?

    /// A source's events within one block.
    public struct SourceSummary: Sendable, Equatable {
        /// How many.
        public var eventCount: Int
        /// The lowest sequence number.
        public var firstSequence: UInt64
        /// The highest sequence number.
        public var lastSequence: UInt64

        mutating func add(_ sequence: UInt64) {
            eventCount += 1
            firstSequence = min(firstSequence, sequence)
            lastSequence = max(lastSequence, sequence)
        }

        mutating func merge(_ other: SourceSummary) {
            eventCount += other.eventCount
            firstSequence = min(firstSequence, other.firstSequence)
            lastSequence = max(lastSequence, other.lastSequence)
        }
    }

    /// How many events the block holds.
    public var eventCount: Int { Int(frame.eventCount) }
    /// The lowest sequence number in the block.
    public var firstSequence: UInt64 { frame.firstSequence }
    /// The highest sequence number in the block.
    public var lastSequence: UInt64 { frame.lastSequence }
    /// The earliest wall-clock time in the block.
    public var firstWallNanoseconds: Int64 { frame.firstWallNanoseconds }
    /// The latest wall-clock time in the block.
    public var lastWallNanoseconds: Int64 { frame.lastWallNanoseconds }
    /// The size of the block's payload on disk.
    public var compressedLength: Int { Int(frame.compressedLength) }
    /// The size of the block's payload decompressed.
    public var uncompressedLength: Int { Int(frame.uncompressedLength) }
}
