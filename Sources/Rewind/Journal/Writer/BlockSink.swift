/// Where the journal's writer puts sealed blocks: a journal file (``JournalFile``), or a flight
/// recorder's ring (``RingFile``). Used by the writer thread only.
protocol BlockSink: AnyObject {
    /// The file's path.
    var path: String { get }
    /// The bytes written so far: a journal's size; in a ring, every lap's, including the blocks
    /// overwritten since.
    var bytesWritten: Int { get }
    /// Events in blocks the sink could not keep: in a ring, blocks larger than its whole region.
    var eventsLeftOut: Int { get }
    /// Writes a block and its summary block.
    func append(_ block: CompressedBlock) throws(JournalWriteError)
    /// Forces what was written to the disk.
    func sync() throws(JournalWriteError)
    /// Ends the file: a journal's index and trailer, a ring's mark that it was closed.
    func finish(level: Int32) throws(JournalWriteError)
}

extension JournalFile: BlockSink {
    var bytesWritten: Int { size }
    /// A journal keeps every block.
    var eventsLeftOut: Int { 0 }
}
