import Foundation

/// A flight recorder's file: a header, then a region of fixed size used as a ring of blocks
/// (docs/JOURNAL_FORMAT.md, "Ring file"). Blocks are written one after the other; one that does
/// not fit before the end starts the next lap at the beginning of the region, over the oldest.
/// Every block decodes alone (its own string table, each source's first state a keyframe), so
/// dropping the oldest costs nothing, and each frame carries its lap, which is what orders the
/// blocks that survive. Used by the writer thread only.
///
/// What was written survives `kill -9`: a block is one `pwrite`, a torn one fails its checksum
/// and is passed over by readers (``RingImage``), which read the blocks around it.
final class RingFile: BlockSink {
    let path: String
    private let descriptor: Int32
    /// Where the ring's region starts: the header's length.
    private let regionStart: Int
    let size: Int
    private var position: Int
    private var lap: UInt32 = 1
    private let header: JournalHeader
    private(set) var bytesWritten: Int
    /// Events in blocks too large for the whole region, left out.
    private(set) var eventsLeftOut = 0
    /// This ring's place among those a fatal signal marks (``CrashMarks``).
    private var crashSlot: Int?
    /// The blocks written, for dumps made in this process.
    private let catalog: RingCatalog?

    /// The smallest ring: room for a few blocks of the writer's default size, compressed.
    static let minimumSize = 64 << 10

    /// Creates the ring file (mode 0600), `size` bytes in all, allocated now so that a full disk
    /// is found at start rather than in the middle of a recording.
    ///
    /// The ring is always a new file of this process's own, made under a temporary name beside
    /// `path` and put in place whole: a file at `path` is never written into, so a ring planted
    /// there by another user stays theirs and learns nothing. What is at `path` decides whether
    /// the ring may go there: nothing; a ring this user owns and only this user may write
    /// (``RingTrust``), not held by a running recorder; or, with `replaceExisting`, any other
    /// regular file. A symbolic link is never followed, and a ring another user owns is refused
    /// even with `replaceExisting`.
    init(path: String, header: JournalHeader, size: Int, replaceExisting: Bool, catalog: RingCatalog? = nil) throws(JournalWriteError) {
        self.path = path
        self.header = header
        self.catalog = catalog
        let headerBytes = header.encoded(signature: JournalFormat.ringMagic, flags: 0)
        regionStart = headerBytes.count
        self.size = max(size, Self.minimumSize)
        position = regionStart
        bytesWritten = regionStart
        // The ring being replaced stays locked until the new one has taken its place: a second
        // recorder starting meanwhile finds it held, never a ring about to be renamed over.
        let replaced = try Self.checkExisting(at: path, replaceExisting: replaceExisting)
        defer { if let replaced { close(replaced) } }
        let replacing = replaced != nil
        Self.removeLeftovers(of: path)
        let temporary = Self.temporaryPrefix(of: path) + "\(getpid())-\(UInt32.random(in: 1...UInt32.max)).partial"
        let opened = open(temporary, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        // Held for the recorder's life and let go by the kernel however it ends: a ring that is
        // locked belongs to a running recorder (``RingDump/existingRing(at:)``). Nobody else
        // knows the new file yet. A file system without locks (some network ones) records
        // unlocked.
        _ = flock(opened, LOCK_EX | LOCK_NB)
        descriptor = opened
        do throws(JournalWriteError) {
            // The umask may have taken bits off; nothing adds any. A file system that keeps no
            // modes (vfat, some network ones) would make a ring the next start refuses.
            var made = stat()
            guard fchmod(descriptor, 0o600) == 0, fstat(descriptor, &made) == 0, RingTrust(made) == .trusted else {
                throw JournalWriteError(path: path, operation: "trust", code: EACCES)
            }
            try write(headerBytes, at: 0)
            guard ftruncate(descriptor, off_t(self.size)) == 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
            #if canImport(Glibc)
                let allocated = posix_fallocate(descriptor, 0, off_t(self.size))
                // A file system without fallocate (EOPNOTSUPP) keeps the sparse file: writes may then
                // find the disk full, which the writer reports as for any journal.
                if allocated != 0 && allocated != EOPNOTSUPP && allocated != EINVAL {
                    throw JournalWriteError(path: path, operation: "create", code: allocated)
                }
            #endif
            // In place whole, with its signature: no instant shows a file at `path` that is not a
            // ring. A new ring never replaces a file that came meanwhile. Moved, not linked, so
            // that the descriptor names the ring in /proc (`rewind dump PID` finds it by that).
            let placed = replacing ? rename(temporary, path) : GNUCalls.renameNoReplace(temporary, to: path)
            guard placed == 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        } catch {
            close(opened)
            unlink(temporary)
            throw error
        }
        crashSlot = CrashMarks.register(descriptor: descriptor) { signal in
            header.encoded(signature: JournalFormat.ringMagic, flags: JournalFormat.RingFlags.crashed | UInt32(UInt8(truncatingIfNeeded: signal)) << 8)
        }
    }

    deinit {
        if let crashSlot { CrashMarks.unregister(crashSlot) }
        close(descriptor)
    }

    /// `DIR/.NAME.`: where the temporary names of the rings made for `path` start.
    private static func temporaryPrefix(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent)."
    }

    /// Removes the temporary files of rings for `path` that this user's processes began and did
    /// not live to put in place (killed while the ring was allocated): each is as large as a ring.
    private static func removeLeftovers(of path: String) {
        let prefix = temporaryPrefix(of: path)
        let directory = (prefix as NSString).deletingLastPathComponent
        let start = (prefix as NSString).lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let now = time(nil)
        for name in names where name.hasPrefix(start) && name.hasSuffix(".partial") {
            // Exactly `PID-N`: a dump's temporary beside it (`.NAME.more.PID-N.partial`) is not one.
            let parts = name.dropFirst(start.count).dropLast(".partial".count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let pid = Int32(parts[0]), pid != getpid(), kill(pid, 0) != 0 && errno == ESRCH
            else { continue }
            let leftover = directory + "/" + name
            var status = stat()
            // A minute old at least: a process of another PID namespace or host sharing the
            // folder looks dead from here, and allocating a ring takes far less.
            guard lstat(leftover, &status) == 0, status.st_uid == geteuid(), status.st_mode & S_IFMT == S_IFREG,
                now - status.st_mtim.tv_sec >= 60
            else { continue }
            unlink(leftover)
        }
    }

    /// The file at `path` that the new ring replaces, open and locked (`nil`: none); throws when
    /// the file there may not be replaced: a ring held by a running recorder, a ring that is not
    /// this user's own, any other file without `replaceExisting`, something that is not a regular
    /// file (never opened: a device or FIFO can act on being opened).
    private static func checkExisting(at path: String, replaceExisting: Bool) throws(JournalWriteError) -> Int32? {
        let judged = RingDump.existingRing(at: path)
        switch judged {
        case .none: return nil
        case .untrusted(let refusal): throw refusal
        case .inUse: throw JournalWriteError(path: path, operation: "create", code: EBUSY)
        case .other where !replaceExisting: throw JournalWriteError(path: path, operation: "create", code: EEXIST)
        case .other, .closed, .unclosed: break
        }
        var before = stat()
        guard lstat(path, &before) == 0, before.st_mode & S_IFMT == S_IFREG else {
            throw JournalWriteError(path: path, operation: "create", code: ENOTSUP)
        }
        let existing = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard existing >= 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        // Another process's probe holds a shared lock for an instant: tried again a little while.
        var locked = flock(existing, LOCK_EX | LOCK_NB) == 0
        for _ in 0..<200 where !locked && errno == EWOULDBLOCK {
            usleep(1_000)
            locked = flock(existing, LOCK_EX | LOCK_NB) == 0
        }
        // Held by a recorder, it is in use (a file system without locks leaves it unlocked);
        // locked, it must still be the file that was judged, still at the path.
        let heldElsewhere = !locked && errno == EWOULDBLOCK
        var status = stat()
        var now = stat()
        guard !heldElsewhere, fstat(existing, &status) == 0, lstat(path, &now) == 0, status.st_dev == now.st_dev, status.st_ino == now.st_ino,
            status.st_ino == before.st_ino
        else {
            close(existing)
            throw JournalWriteError(path: path, operation: "create", code: EBUSY)
        }
        // What is locked is judged again: a file put in the ring's place meanwhile is no ring of
        // this user's, and is kept unless any file may be replaced.
        if judged != .other, !RingTrust.hasRingSignature(existing) || RingTrust(status) != .trusted {
            close(existing)
            throw JournalWriteError(path: path, operation: "create", code: replaceExisting ? EBUSY : EEXIST)
        }
        return existing
    }

    private func write(_ bytes: [UInt8], at offset: Int) throws(JournalWriteError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, $0.count - written, off_t(offset + written)) }
            if result < 0 {
                if errno == EINTR { continue }
                throw JournalWriteError(path: path, operation: "write", code: errno)
            }
            written += result
        }
    }

    func append(_ block: CompressedBlock) throws(JournalWriteError) {
        var frame = block.frame
        var bytes: [UInt8] = []
        let length = frame.totalLength + (block.summary.map { $0.frame.totalLength } ?? 0)
        guard length <= size - regionStart else {
            eventsLeftOut += Int(frame.eventCount)
            return
        }
        if position + length > size {
            // The rest of this lap's region would still hold blocks of the lap before, older than
            // the ones this lap overwrote: cleared, so the ring holds one run of blocks.
            catalog?.overwriting(position..<size)
            try write([UInt8](repeating: 0, count: size - position), at: position)
            position = regionStart
            lap = lap == 0xFF_FFFF ? 1 : lap + 1
        }
        bytes.reserveCapacity(length)
        frame.lap = lap
        bytes += frame.encoded()
        bytes += block.payload
        if var summary = block.summary {
            summary.frame.lap = lap
            bytes += summary.frame.encoded()
            bytes += summary.payload
        }
        catalog?.overwriting(position..<(position + length))
        try write(bytes, at: position)
        if let catalog {
            var summaryFrame = block.summary?.frame
            summaryFrame?.lap = lap
            let entry = RingCatalog.Entry(
                offset: position, frame: frame, sources: block.sources, summaries: block.summaries, eventCount: block.eventCount, summaryFrame: summaryFrame)
            catalog.written(entry)
        }
        position += length
        bytesWritten += length
    }

    func sync() throws(JournalWriteError) {
        guard fsync(descriptor) == 0 else { throw JournalWriteError(path: path, operation: "sync", code: errno) }
    }

    /// Marks the ring closed (a flag in its header), so that a recorder starting on it later knows
    /// the process before ended as it meant to.
    func finish(level: Int32) throws(JournalWriteError) {
        if let crashSlot { CrashMarks.unregister(crashSlot) }
        crashSlot = nil
        try sync()
        try write(header.encoded(signature: JournalFormat.ringMagic, flags: JournalFormat.RingFlags.closed), at: 0)
        try sync()
        // Nothing more is written: the next recorder may take the ring.
        flock(descriptor, LOCK_UN)
    }
}
