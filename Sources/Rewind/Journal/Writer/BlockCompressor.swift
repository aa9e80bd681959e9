import Foundation

/// A block of events framed and compressed, ready to append to a file.
struct CompressedBlock: Sendable {
    let frame: BlockFrame
    let payload: [UInt8]
    let sources: [RecordedSource]
    let summaries: [UInt64: JournalBlock.SourceSpan]
    /// The events it holds (a dropped-events record is not an event).
    let eventCount: Int
    /// The summary block that follows it, framed and compressed (see ``BlockSummary``).
    let summary: (frame: BlockFrame, payload: [UInt8])?

    /// Builds the block's payload, compresses it and frames it.
    init(_ builder: consuming BlockBuilder, level: Int32) {
        let payload = builder.payload()
        let compressed = Zlib.deflate(payload, level: level)
        frame = BlockFrame(
            type: .events, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(payload.count),
            eventCount: UInt32(builder.eventCount), firstSequence: builder.firstSequence, lastSequence: builder.lastSequence,
            firstWallNanoseconds: builder.firstWall, lastWallNanoseconds: builder.lastWall, payloadCRC: Zlib.crc32(compressed)
        )
        self.payload = compressed
        sources = builder.sources
        summaries = builder.sourceSummaries
        eventCount = builder.eventCount - builder.droppedRecordCount
        summary = builder.isSummarized
            ? BlockSummary(eventsPayloadCRC: frame.payloadCRC, sources: builder.stepSummaries).framed(describing: frame)
            : nil
    }
}

/// Compresses sealed blocks on a thread of its own — the machine's second core — while the
/// journal's writer encodes the next block. One block at a time: the writer collects a block
/// (``finish()``) before it hands over the next, and appends it to the file itself, so blocks
/// keep their order and a write error reaches the writer as before.
final class BlockCompressor: @unchecked Sendable {
    // Unchecked: `job`, `done` and `stopping` are guarded by `condition`; a builder handed over is
    // not touched by the writer again.

    private let condition = NSCondition()
    private var job: (builder: BlockBuilder, level: Int32)?
    private var done: CompressedBlock?
    private var stopping = false

    /// Whether a block was handed over and not collected yet.
    private(set) var isBusy = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "Rewind journal compressor"
        thread.start()
    }

    /// Hands a sealed block over. Call only when not busy.
    func start(_ builder: consuming BlockBuilder, level: Int32) {
        precondition(!isBusy, "a block is already being compressed")
        isBusy = true
        condition.withLock {
            job = (builder, level)
            condition.broadcast()
        }
    }

    /// Waits for the block handed over, and returns it compressed.
    func finish() -> CompressedBlock {
        precondition(isBusy, "no block is being compressed")
        isBusy = false
        condition.lock()
        defer { condition.unlock() }
        while done == nil { condition.wait() }
        defer { done = nil }
        return done!
    }

    /// Ends the thread once it has nothing to do. Called when the journal closes.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while job == nil && !stopping { condition.wait() }
            guard let (builder, level) = job else {
                condition.unlock()
                return
            }
            job = nil
            condition.unlock()
            let block = CompressedBlock(builder, level: level)
            condition.withLock {
                done = block
                condition.broadcast()
            }
        }
    }
}
