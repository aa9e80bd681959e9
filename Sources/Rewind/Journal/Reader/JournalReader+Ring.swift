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
}

extension JournalReader {
    /// When the file open at `descriptor` is a ring: a journal of its surviving blocks, written to
    /// a private temporary file that is unlinked at once (the reader keeps it open), with what the
    /// ring holds. `nil` for any other file.
    static func ringImage(of descriptor: Int32, path: String, size: Int) throws(JournalReadError) -> (descriptor: Int32, size: Int, window: RingWindow)? {
        guard case .success(let fixed) = JournalHeader.decodeFixedPart(read(descriptor, at: 0, count: JournalFormat.fixedHeaderLength)),
            fixed.isRing
        else { return nil }
        var header = fixed.header
        if fixed.isIntact, fixed.length > JournalFormat.fixedHeaderLength {
            _ = header.decodeExtension(read(descriptor, at: JournalFormat.fixedHeaderLength, count: fixed.length - JournalFormat.fixedHeaderLength))
        }
        let scan = RingScan(descriptor: descriptor, size: size, regionStart: fixed.length, flags: fixed.flags)
        let image = NSTemporaryDirectory() + "/rewind-ring-\(getpid())-\(UInt64.random(in: 1...UInt64.max)).rewind"
        do {
            _ = try RingDump.writeJournal(scan, header: header, to: image)
        } catch {
            unlink(image)
            throw .unreadable(path, code: error.code)
        }
        let opened = open(image, O_RDONLY | O_CLOEXEC)
        unlink(image)
        guard opened >= 0 else { throw .unreadable(path, code: errno) }
        var status = stat()
        fstat(opened, &status)
        let window = RingWindow(
            size: size, blockCount: scan.blocks.count, wasClosed: scan.wasClosed, crashSignal: scan.crashSignal, skippedRegions: scan.skippedRegions)
        return (opened, Int(status.st_size), window)
    }
}
