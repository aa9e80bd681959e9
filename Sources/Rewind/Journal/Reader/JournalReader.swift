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
    public internal(set) var header: JournalHeader
    /// Whether the header's checksum held.
    package internal(set) var headerIsIntact: Bool
    /// Whether the index at the end of the file was present and intact (a cleanly closed journal).
    public internal(set) var hasIndex: Bool
    /// Whether the writer has closed the journal: its index was there when it was opened, or
    /// ``refresh()`` found the index and trailer a closing writer appends.
    public var isClosedByWriter: Bool { hasIndex || sawClosingIndex }
    var sawClosingIndex = false
    /// The blocks of events, in file order.
    package internal(set) var blocks: [JournalBlock] = []
    /// What could not be read.
    public internal(set) var damage: [JournalDamage] = []
    /// The file's size when last read.
    package internal(set) var fileSize: Int
    /// What a flight recorder's ring file holds, when the file is one: the reader reads the
    /// blocks that survive in it as a journal (offsets in ``damage`` are then the journal's).
    public internal(set) var ring: RingWindow?

    let descriptor: Int32
    var sourceTable: [UInt64: RecordedSource] = [:]
    var sourceOrder: [UInt64] = []
    /// Where the block walk stopped: the next block to look for when following a growing file.
    var scanOffset = JournalFormat.fixedHeaderLength
    /// While the opening walk runs: sees every block it reads, with its state records folded
    /// (``BlockOutline/FoldedStates``), in file order — for `verify`, which joins the blocks'
    /// states up as the walk goes rather than reading the blocks again.
    var blockVisitor: ((BlockOutline) -> Void)?
    /// Blocks decoded for random access, oldest first, with their payloads' sizes.
    let cache = Locked<[(offset: Int, size: Int, events: [RecordedEvent])]>([])
    /// How many block payloads were inflated: what tests hold a reading strategy to.
    let blocksInflated = Atomic<Int>(0)
    /// Blocks' text filters, for searches (see ``block(_:mayContainText:)``).
    let searchIndex: SearchIndex
    static let cacheSize = 4

    /// Opens a journal.
    ///
    /// - Throws: ``JournalReadError`` for a missing file, a directory, an empty file, a file that is
    ///   not a journal, or a newer format. Damage inside the file is not an error: see ``damage``.
    public convenience init(path: String) throws(JournalReadError) {
        try self.init(path: path, ignoringIndex: false)
    }

    /// Opens a journal; with `ignoringIndex`, the blocks are walked even when an index exists (for
    /// verification and recovery), and `visitor` sees every block the walk reads, with its state
    /// records folded.
    init(
        path: String, ignoringIndex: Bool,
        visitingBlocks visitor: ((BlockOutline) -> Void)? = nil
    ) throws(JournalReadError) {
        self.path = path
        blockVisitor = visitor
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
        guard status.st_size > 0 else { close(opened); throw .empty(path) }
        // A flight recorder's ring is read as the journal of the blocks that survive in it, in the
        // order they were written (``RingScan``), made in a private temporary file.
        let ringImage: (descriptor: Int32, size: Int, window: RingWindow)?
        do {
            ringImage = try Self.ringImage(of: opened, path: path, size: Int(status.st_size))
        } catch {
            close(opened)
            throw error
        }
        if let ring = ringImage {
            close(opened)
            descriptor = ring.descriptor
            fileSize = ring.size
            self.ring = ring.window
        } else {
            descriptor = opened
            fileSize = Int(status.st_size)
        }
        let headerBytes = Self.read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)
        switch JournalHeader.decodeFixedPart(headerBytes) {
        case .failure(.notAJournal):
            close(descriptor)
            throw .notAJournal(path)
        case .failure(.newerVersion(let version)):
            close(descriptor)
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
                let extensionBytes = Self.read(descriptor, at: JournalFormat.fixedHeaderLength, count: fixed.length - JournalFormat.fixedHeaderLength)
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
        blockVisitor = nil
    }

    deinit {
        close(descriptor)
    }

    // MARK: Sources

    /// A source of the journal with how many events it has and the steps they span.
    public struct SourceSpan: Sendable, Equatable {
        /// The source.
        public var source: RecordedSource
        /// How many of its events the journal holds.
        public var eventCount: Int
        /// Its first and last sequence numbers.
        public var sequences: ClosedRange<UInt64>
    }

    /// The name ``SourceSpan`` had ("summary" now means a block's summary only): for one release.
    @available(*, deprecated, renamed: "SourceSpan")
    public typealias SourceSummary = SourceSpan

    /// The sources, in the order they first appear, with their event counts.
    public var sources: [SourceSpan] {
        var counts: [UInt64: (count: Int, first: UInt64, last: UInt64)] = [:]
        for block in blocks {
            for (id, summary) in block.sources {
                let previous = counts[id] ?? (0, summary.firstSequence, summary.lastSequence)
                counts[id] = (previous.count + summary.eventCount, min(previous.first, summary.firstSequence), max(previous.last, summary.lastSequence))
            }
        }
        return sourceOrder.compactMap { id in
            guard let source = sourceTable[id], let count = counts[id] else { return nil }
            return SourceSpan(source: source, eventCount: count.count, sequences: count.first...count.last)
        }
    }

    /// The instance numbers of the app's loggers (``RecordedSource/isLogger``): sources with no
    /// state (a reader takes a logger's state as always empty), whose messages never depend on
    /// the steps before them.
    package var loggerIDs: Set<UInt64> {
        Set(sourceTable.values.lazy.filter(\.isLogger).map(\.instanceID))
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
    package var payloadSizes: (compressed: Int, uncompressed: Int) {
        blocks.reduce((0, 0)) { ($0.0 + $1.compressedLength, $0.1 + $1.uncompressedLength) }
    }

    /// The source with this instance number, if the journal has it.
    public func source(_ instanceID: UInt64) -> RecordedSource? {
        sourceTable[instanceID]
    }
}
