import Foundation

/// Writes the blocks that survive in a ring (``RingScan``) as a journal: the same blocks, in the
/// order they were written, each with its summary, then an index — a file every reader opens. A
/// dump is written under a temporary name and linked to its own only when complete, so a reader
/// never sees half of one, and an existing file is never replaced.
package enum RingDump {
    /// Writes `scan`'s blocks with `header` to a new file at `path` (mode 0600), atomically;
    /// returns the number of events written.
    @discardableResult
    static func write(_ scan: RingScan, header: JournalHeader, to path: String) throws(JournalWriteError) -> Int {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary =
            (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).\(getpid())-\(UInt32.random(in: 1...UInt32.max)).partial"
        // The temporary name is gone whether the dump was linked or failed.
        defer { unlink(temporary) }
        let events = try writeJournal(scan, header: header, to: temporary)
        // link(2) fails rather than replace a file already at `path`; rename(2) would replace it.
        guard link(temporary, path) == 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        syncDirectory(of: path)
        return events
    }

    /// Writes the journal to `path` (created with `O_EXCL`, mode 0600) and syncs it.
    static func writeJournal(_ scan: RingScan, header: JournalHeader, to path: String) throws(JournalWriteError) -> Int {
        try writeJournal(scan, into: JournalFile(path: path, header: journalHeader(header), replaceExisting: false))
    }

    /// Writes the journal into `descriptor`, an empty file of the caller's (``AnonymousFile``),
    /// which it closes; `name` names it in errors.
    static func writeJournal(_ scan: RingScan, header: JournalHeader, into descriptor: Int32, name: String) throws(JournalWriteError) -> Int {
        try writeJournal(scan, into: JournalFile(adopting: descriptor, name: name, header: journalHeader(header)))
    }

    /// A ring's header as a journal's: of the format written now.
    private static func journalHeader(_ header: JournalHeader) -> JournalHeader {
        var header = header
        header.formatVersion = JournalFormat.version
        return header
    }

    private static func writeJournal(_ scan: RingScan, into file: JournalFile) throws(JournalWriteError) -> Int {
        var events = 0
        var holes = scan.holes[...]
        for (index, block) in scan.blocks.enumerated() {
            // A hole is written as what a reader reports as damage, with the steps it lost: a dump
            // of a damaged ring is a damaged journal, never one that verifies clean.
            while let hole = holes.first, hole.beforeBlock == index {
                try file.appendLost(hole.sequences, between: scan.blocks[index - 1].frame, and: block.frame)
                holes.removeFirst()
            }
            var frame = block.frame
            frame.lap = 0
            let summary = block.summary.map { summary -> (frame: BlockFrame, payload: [UInt8]) in
                var summaryFrame = summary.frame
                summaryFrame.lap = 0
                return (summaryFrame, summary.payload)
            }
            try file.append(frame: frame, payload: block.payload, sources: block.outline.sources, summaries: block.outline.summaries, stepSummary: summary)
            events += block.outline.eventCount
        }
        try file.finish(level: 1)
        return events
    }

    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// What is at a ring's path.
    package enum Existing: Equatable {
        case none, closed, inUse, other
        /// Left by a process that did not close it; `crashSignal` when it died of one and could
        /// mark the ring (``CrashMarks``).
        case unclosed(crashSignal: Int32?)
        /// A ring this process's recorder may not take (``RingTrust``): never dumped as its
        /// previous run, never recorded into.
        case untrusted(JournalWriteError)
    }

    /// What is at `path`: nothing, a ring (closed or not, trusted or not), or another file. A ring
    /// is known by its signature alone: an empty file or one of zeros is another file.
    package static func existingRing(at path: String) -> Existing {
        // Looked at before opened: opening a device or a FIFO can have effects of its own.
        var before = stat()
        if lstat(path, &before) != 0 { return errno == ENOENT ? .none : .other }
        guard before.st_mode & S_IFMT == S_IFREG else { return .other }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return errno == ENOENT ? .none : .other }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, RingTrust.hasRingSignature(descriptor),
            case .success(let fixed) = JournalHeader.decodeFixedPart(JournalReader.read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength))
        else { return .other }
        if let refusal = RingTrust(status).refusal(path: path) { return .untrusted(refusal) }
        if JournalReader.isHeldByWriter(descriptor) == true { return .inUse }
        return fixed.flags & JournalFormat.RingFlags.closed != 0 ? .closed : .unclosed(crashSignal: JournalFormat.RingFlags.crashSignal(fixed.flags))
    }

    /// Dumps the ring at `path`: its blocks within the configured age, under a fresh name. With
    /// `catalog`, the blocks are the ones its recorder wrote (the recorder's own dumps).
    /// With `output`, the dump is written there (and fails rather than replace a file);
    /// otherwise under a fresh name in `directory` (the ring's by default).
    package static func dump(
        ringAt path: String, catalog: RingCatalog? = nil, age: Duration = .seconds(Int64.max), directory: String? = nil, output: String? = nil,
        number: Int = 0, trigger: JournalHeader.Dump.Trigger, reason: String, step: UInt64?, signal: Int32? = nil
    ) throws(JournalWriteError) -> (path: String, events: Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw JournalWriteError(path: path, operation: "read", code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw JournalWriteError(path: path, operation: "read", code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw JournalWriteError(path: path, operation: "read", code: ENOTSUP) }
        let headerBytes = JournalReader.read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)
        guard case .success(let fixed) = JournalHeader.decodeFixedPart(headerBytes),
            fixed.isRing
        else { throw JournalWriteError(path: path, operation: "read", code: EINVAL) }
        var header = fixed.header
        if fixed.isIntact, fixed.length > JournalFormat.fixedHeaderLength {
            _ = header.decodeExtension(
                JournalReader.read(descriptor, at: JournalFormat.fixedHeaderLength, count: fixed.length - JournalFormat.fixedHeaderLength))
        }
        // The recorder's own dumps know its blocks; anyone else's read finds them.
        let scan =
            if let catalog {
                RingScan(catalog: catalog.snapshot, descriptor: descriptor, size: Int(status.st_size), flags: fixed.flags, age: age)
            } else {
                RingScan.reading(descriptor: descriptor, size: Int(status.st_size), regionStart: fixed.length, flags: fixed.flags, age: age)
            }
        let now = EventTime.now().wallNanoseconds
        // A dump without a step of its own (a crash found at the next start, `rewind dump`) opens
        // at its last one: what happened last is what it was made for.
        let opensAt = step ?? scan.blocks.last.map { $0.outline.sequences?.upperBound ?? $0.frame.lastSequence }
        header.dump = JournalHeader.Dump(trigger: trigger, reason: reason, step: opensAt, signal: signal, dumpedWallNanoseconds: now)
        if let output {
            return (output, try RingDump.write(scan, header: header, to: output))
        }
        // A name another dump took (another process's with this pid, of an earlier boot): the next.
        var attempt = number
        while true {
            let name = dumpName(ring: path, directory: directory, wallNanoseconds: now, number: attempt)
            do {
                return (name, try RingDump.write(scan, header: header, to: name))
            } catch  where error.code == EEXIST && error.path == name && attempt < number + 1_000 {
                attempt += 1
            }
        }
    }

    /// `DIR/RING-20261128-101502.123-PID-N.rewind`.
    static func dumpName(ring path: String, directory: String?, wallNanoseconds: Int64, number: Int) -> String {
        let ringName = (path as NSString).lastPathComponent
        let base = ringName.hasSuffix(".rewind-ring") ? String(ringName.dropLast(12)) : (ringName as NSString).deletingPathExtension
        let folder = directory ?? (path as NSString).deletingLastPathComponent
        var time = time_t(wallNanoseconds / 1_000_000_000)
        var parts = tm()
        gmtime_r(&time, &parts)
        let milliseconds = Int(wallNanoseconds / 1_000_000 % 1_000)
        let stamp = String(
            format: "%04d%02d%02d-%02d%02d%02d.%03d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds
        )
        return (folder.isEmpty ? "." : folder) + "/\(base)-\(stamp)-\(getpid())-\(number).rewind"
    }
}
