/// One block of events, as the index describes it.
package struct JournalBlock: Sendable, Equatable {
    /// Where the block's frame starts in the file.
    package var offset: Int
    var frame: BlockFrame
    /// Per source: its events in this block.
    package var sources: [UInt64: SourceSpan]
    /// Where the block's summary block starts (see ``BlockSummary``), if it has one.
    package var summaryOffset: Int?

    /// A source's events within one block.
    package struct SourceSpan: Sendable, Equatable {
        /// How many.
        package var eventCount: Int
        /// The lowest sequence number.
        package var firstSequence: UInt64
        /// The highest sequence number.
        package var lastSequence: UInt64

        mutating func add(_ sequence: UInt64) {
            eventCount += 1
            firstSequence = min(firstSequence, sequence)
            lastSequence = max(lastSequence, sequence)
        }

        mutating func merge(_ other: SourceSpan) {
            eventCount += other.eventCount
            firstSequence = min(firstSequence, other.firstSequence)
            lastSequence = max(lastSequence, other.lastSequence)
        }

        /// The lowest and highest sequence numbers of the spans' events (`nil`: no span).
        static func sequences(of spans: some Collection<SourceSpan>) -> ClosedRange<UInt64>? {
            guard let first = spans.map(\.firstSequence).min(), let last = spans.map(\.lastSequence).max() else { return nil }
            return first...last
        }
    }

    /// How many events the block holds.
    package var eventCount: Int { Int(frame.eventCount) }
    /// The lowest sequence number in the block.
    package var firstSequence: UInt64 { frame.firstSequence }
    /// The highest sequence number in the block.
    package var lastSequence: UInt64 { frame.lastSequence }
    /// The earliest wall-clock time in the block.
    package var firstWallNanoseconds: Int64 { frame.firstWallNanoseconds }
    /// The latest wall-clock time in the block.
    package var lastWallNanoseconds: Int64 { frame.lastWallNanoseconds }
    /// The size of the block's payload on disk.
    package var compressedLength: Int { Int(frame.compressedLength) }
    /// The size of the block's payload decompressed.
    package var uncompressedLength: Int { Int(frame.uncompressedLength) }
}
