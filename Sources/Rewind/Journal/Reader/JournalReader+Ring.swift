import Foundation

/// What a flight recorder's ring file holds (``FlightRecorder``): read as a journal of the blocks
/// that survive in it, in the order they were written.
public struct RingWindow: Sendable, Equatable {
    /// The ring's size in bytes.
    public var size: Int
    /// The blocks that survive in it.
    public var blockCount: Int
    /// Whether the recorder closed it; `false` while its process runs, and after a crash or
    /// `kill -9`.
    public var wasClosed: Bool
    /// The fatal signal the recorder's process died of, when it could mark the ring on its way
    /// (``FlightRecorder``); `nil` for a ring closed, still written, or left by `kill -9`.
    public var crashSignal: Int32?
    /// Regions where no whole block could be read: the one being written when the process died,
    /// the remains of blocks the next lap overwrote in part. Expected in a ring, not damage.
    public var skippedRegions: Int
    /// Stretches lost between two blocks that survive — a block, or only a block's summary:
    /// damage, which the journal read from the ring reports (``JournalReader/damage``) with the
    /// steps lost, when the blocks around it tell them.
    public var holes: Int = 0
}

extension JournalReader {
    /// When the file open at `descriptor` is a ring: a journal of its surviving blocks, written to
    /// a file in memory with no name (``AnonymousFile``), with what the ring holds. Nothing is left
    /// behind when the reader is killed, and no `$TMPDIR` is needed where the system has
    /// `memfd_create`. `nil` for any other file.
    static func ringImage(of descriptor: Int32, path: String, size: Int) throws(JournalReadError) -> (descriptor: Int32, size: Int, window: RingWindow)? {
        guard case .success(let fixed) = JournalHeader.decodeFixedPart(read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)),
            fixed.isRing
        else { return nil }
        var header = fixed.header
        if fixed.isIntact, fixed.length > JournalFormat.fixedHeaderLength {
            _ = header.decodeExtension(read(descriptor, at: JournalFormat.fixedHeaderLength, count: fixed.length - JournalFormat.fixedHeaderLength))
        }
        let scan = RingScan.reading(descriptor: descriptor, size: size, regionStart: fixed.length, flags: fixed.flags)
        guard let image = AnonymousFile.create(name: "rewind-ring") else { throw .ringImage(path, code: errno) }
        // The reader keeps its own descriptor (closed on exec, as the image's: no child process
        // inherits the recording); the writer's copy closes with it.
        let reading = fcntl(image, F_DUPFD_CLOEXEC, 0)
        guard reading >= 0 else {
            let code = errno
            close(image)
            throw .ringImage(path, code: code)
        }
        do {
            _ = try RingDump.writeJournal(scan, header: header, into: image, name: path)
        } catch {
            close(reading)
            throw .ringImage(path, code: error.code)
        }
        var status = stat()
        fstat(reading, &status)
        let window = RingWindow(
            size: size, blockCount: scan.blocks.count, wasClosed: scan.wasClosed, crashSignal: scan.crashSignal, skippedRegions: scan.skippedRegions,
            holes: scan.holes.count)
        return (reading, Int(status.st_size), window)
    }
}
