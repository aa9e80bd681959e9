import Foundation

/// One journal file being written: the header, the blocks, and at close the index and trailer.
/// Used only by the writer thread.
final class JournalFile {
    let path: String
    private let descriptor: Int32
    private(set) var size = 0
    /// The blocks written so far, for the index.
    private(set) var blocks: [JournalBlock] = []
    private var sources: [UInt64: RecordedSource] = [:]
    private var sourceOrder: [UInt64] = []

    /// For tests: writes that would take the file past this many bytes fail with `ENOSPC`, as on
    /// a full disk.
    private let sizeLimit: Int?

    /// Creates the file with mode 0600 and writes the header. An existing file is replaced only
    /// when `replaceExisting` is set; a symbolic link at `path` is never followed.
    init(path: String, header: JournalHeader, replaceExisting: Bool, sizeLimit: Int? = nil) throws(JournalWriteError) {
        self.path = path
        self.sizeLimit = sizeLimit
        // O_NOFOLLOW: a link planted at the path cannot redirect the recording (or truncate the
        // file it points at). O_EXCL: an earlier recording is not lost by accident. O_NONBLOCK:
        // a FIFO at the path fails at once instead of waiting for a reader (no effect on files).
        let flags = O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (replaceExisting ? O_TRUNC : O_EXCL)
        let opened = open(path, flags, 0o600)
        guard opened >= 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            // A device or FIFO opened through replaceExisting: its mode is never changed.
            throw JournalWriteError(path: path, operation: "create", code: ENOTSUP)
        }
        descriptor = opened
        // Held while the file is open, and let go by the kernel however the writer ends (a crash,
        // `kill -9`): how a reader following the file (`rewind watch`) tells a writer that is
        // quiet from one that is gone (``JournalReader/isHeldByWriter``).
        // A reader's probe holds a shared lock for an instant: the writer tries again, a little
        // while, rather than writing its whole life unlocked.
        for _ in 0..<200 where flock(descriptor, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK { usleep(1_000) }
        // A file that already existed keeps its mode through O_TRUNC; recordings are private.
        fchmod(descriptor, 0o600)
        try write(header.encoded())
    }

    /// Writes a journal into `descriptor`, an empty file of the caller's own that nobody else
    /// knows (``AnonymousFile``), named `name` in errors; the file is closed with this one.
    init(adopting descriptor: Int32, name: String, header: JournalHeader) throws(JournalWriteError) {
        path = name
        sizeLimit = nil
        self.descriptor = descriptor
        try write(header.encoded())
    }

    deinit {
        close(descriptor)
    }

    /// Appends `bytes` whole, or throws and cuts the file back to where it was: a block half
    /// written (a full disk) is taken away, so the file ends with its last good block.
    private func write(_ bytes: [UInt8]) throws(JournalWriteError) {
        var written = 0
        while written < bytes.count {
            let room = sizeLimit.map { max(0, $0 - size - written) } ?? Int.max
            let result = room == 0 ? -1 : bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + written, min($0.count - written, room))
            }
            if result < 0 {
                let code = room == 0 ? ENOSPC : errno
                if code == EINTR { continue }
                if written > 0 { _ = ftruncate(descriptor, off_t(size)) }
                throw JournalWriteError(path: path, operation: "write", code: code)
            }
            written += result
        }
        size += bytes.count
    }

    /// Appends a block of events compressed by ``CompressedBlock/init(_:level:)``.
    func append(_ block: CompressedBlock) throws(JournalWriteError) {
        try append(frame: block.frame, payload: block.payload, sources: block.sources, summaries: block.summaries, stepSummary: block.summary)
    }

    /// Appends a block that is already compressed and framed — a block copied from another journal
    /// by recovery, which checked it — with its summary block after it, in one write.
    func append(
        frame: BlockFrame, payload: [UInt8], sources blockSources: [RecordedSource], summaries: [UInt64: JournalBlock.SourceSpan],
        stepSummary: (frame: BlockFrame, payload: [UInt8])?
    ) throws(JournalWriteError) {
        let offset = size
        var bytes = frame.encoded() + payload
        if let stepSummary { bytes += stepSummary.frame.encoded() + stepSummary.payload }
        try write(bytes)
        for source in blockSources where sources[source.instanceID] == nil {
            sources[source.instanceID] = source
            sourceOrder.append(source.instanceID)
        }
        let summaryOffset = stepSummary.map { _ in offset + frame.totalLength }
        blocks.append(JournalBlock(offset: offset, frame: frame, sources: summaries, summaryOffset: summaryOffset))
    }

    /// Marks steps lost before this file was written — a hole in the flight recorder's ring it is
    /// dumped from — with a frame that claims them and holds no events: readers report it as
    /// damage with exactly those steps lost (``JournalFormat/lostBlockReason``), and the index
    /// leaves it out.
    /// With `sequences` unknown (`nil`), the frame claims no event.
    func appendLost(_ sequences: ClosedRange<UInt64>?, between before: BlockFrame, and after: BlockFrame) throws(JournalWriteError) {
        let claimed = sequences ?? before.lastSequence...before.lastSequence
        let frame = BlockFrame(
            type: .events, compressedLength: 1, uncompressedLength: 1,
            eventCount: sequences.map { UInt32(clamping: $0.upperBound - $0.lowerBound + 1) } ?? 0,
            firstSequence: claimed.lowerBound, lastSequence: claimed.upperBound,
            firstWallNanoseconds: min(before.lastWallNanoseconds, after.firstWallNanoseconds),
            lastWallNanoseconds: max(before.lastWallNanoseconds, after.firstWallNanoseconds),
            payloadCRC: JournalFormat.lostBlockCRC)
        try write(frame.encoded() + [0])
    }

    /// Forces what was written to the disk; the disk's own failure (`EIO`, or `ENOSPC` on file
    /// systems that allocate late) is reported here.
    func sync() throws(JournalWriteError) {
        guard fsync(descriptor) == 0 else { throw JournalWriteError(path: path, operation: "sync", code: errno) }
    }

    /// Writes the index block and the trailer that points at it; the file is complete afterwards.
    func finish(level: Int32) throws(JournalWriteError) {
        let payload = JournalIndex.encode(sources: sourceOrder.map { sources[$0]! }, blocks: blocks)
        let compressed = Zlib.deflate(payload, level: level)
        let frame = BlockFrame(
            type: .index, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(payload.count),
            eventCount: UInt32(blocks.reduce(0) { $0 + Int($1.frame.eventCount) }),
            firstSequence: blocks.map(\.frame.firstSequence).min() ?? 0, lastSequence: blocks.map(\.frame.lastSequence).max() ?? 0,
            firstWallNanoseconds: blocks.map(\.frame.firstWallNanoseconds).min() ?? 0, lastWallNanoseconds: blocks.map(\.frame.lastWallNanoseconds).max() ?? 0,
            payloadCRC: Zlib.crc32(compressed)
        )
        let indexOffset = size
        try write(frame.encoded() + compressed + JournalIndex.trailer(indexOffset: indexOffset))
        try sync()
    }
}

/// A journal file could not be written.
public struct JournalWriteError: Error, CustomStringConvertible, Equatable {
    /// The file.
    public var path: String
    /// What failed: `create`, `write`, `sync`, `read`, or `trust` (a flight recorder's ring that
    /// another user owns or may write).
    public var operation: String
    /// The system error number.
    public var code: Int32

    public var description: String {
        switch (operation, code) {
        case ("create", EEXIST): "cannot create journal '\(path)': a file is already there (set JournalConfiguration.replaceExisting to replace it)"
        case ("create", ELOOP): "cannot create journal '\(path)': it is a symbolic link, and journals are never written through one"
        case ("create", ENOTSUP): "cannot create journal '\(path)': it is not a regular file"
        case ("read", EINVAL): "'\(path)' is not a flight recorder's ring (its first bytes are not the ring signature)"
        case ("read", ENOTSUP): "'\(path)' is not a regular file, not a flight recorder's ring"
        case ("trust", EPERM):
            "refusing ring '\(path)': it belongs to another user (a file planted in a shared folder?); neither dumped nor recorded into: remove it, or record in a directory only you can write"
        case ("trust", EACCES):
            "refusing ring '\(path)': group or others may write it, so its events may not be this process's; neither dumped nor recorded into: remove it, or chmod 600 it"
        case ("create", EBUSY): "cannot create journal '\(path)': a flight recorder in another running process records into it"
        default: "cannot \(operation) journal '\(path)': \(String(cString: strerror(code)))"
        }
    }
}
