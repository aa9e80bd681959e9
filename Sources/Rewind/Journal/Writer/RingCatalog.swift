import DequeModule
import Synchronization

/// What a flight recorder's writer knows about the blocks in its ring: where each is, its frame,
/// and the outline a journal's index needs (its sources and their spans), so that a dump made in
/// the recorder's own process reads each block's bytes once and checks their checksum, without
/// inflating and decoding every block as a reader of an unknown ring must (``RingScan``).
///
/// The writer thread adds a block as it writes it and drops those its write overwrites; a dump
/// takes a copy from any thread. A block the writer overwrites after the copy was taken fails its
/// checksum when the dump reads it, and is left out with every block before it.
package final class RingCatalog: Sendable {
    /// One block in the ring, as written.
    struct Entry: Sendable {
        /// Where its frame starts in the file.
        var offset: Int
        /// Its frame, lap included; its summary block's follows it.
        var frame: BlockFrame
        var sources: [RecordedSource]
        var summaries: [UInt64: JournalBlock.SourceSpan]
        var eventCount: Int
        var summaryFrame: BlockFrame?
        /// The bytes it takes, its summary block's included.
        var length: Int { frame.totalLength + (summaryFrame?.totalLength ?? 0) }
    }

    private let entries = Mutex(Deque<Entry>())

    /// Notes that `range` of the file is being written: the blocks it overlaps are gone.
    func overwriting(_ range: Range<Int>) {
        entries.withLock { entries in
            // The oldest blocks are first, and the writer moves through the ring in order: the
            // blocks a write overlaps are at the front.
            while let first = entries.first, first.offset < range.upperBound, range.lowerBound < first.offset + first.length {
                entries.removeFirst()
            }
        }
    }

    /// Adds a block the writer has written.
    func written(_ entry: Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// The blocks in the ring now, oldest first.
    var snapshot: [Entry] { entries.withLock { Array($0) } }
}
