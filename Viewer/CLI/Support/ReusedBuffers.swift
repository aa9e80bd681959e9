@_spi(Tooling) import Rewind

/// Byte buffers handed back once written, for the next block's output. A block's lines fill a
/// buffer of megabytes on another thread; a new one would be mapped afresh by the allocator and
/// faulted in page by page, which took a sixth of `export`'s time on a 3 M-event journal. As many
/// are kept as can be in flight at once (one per block read ahead, and the one being written), so
/// memory stays what the reading needs anyway.
final class ReusedBuffers: Sendable {
    private let free = Locked<[[UInt8]]>([])
    private let limit = JournalReader.blocksReadAhead + 1

    /// An empty buffer, with the room of one handed back if there is one.
    @Sendable func take() -> [UInt8] {
        free.withLock { $0.popLast() } ?? []
    }

    /// Keeps `buffer`'s room for a later ``take()``, once its bytes are written (`buffer` is left
    /// empty).
    func giveBack(_ buffer: inout [UInt8]) {
        var emptied: [UInt8] = []
        swap(&emptied, &buffer)
        emptied.removeAll(keepingCapacity: true)
        free.withLock { free in
            if free.count < limit { free.append(emptied) }
        }
    }
}
