import Foundation

/// All events, lazily and filtered, and what a reader that meets damage records.
extension JournalReader {
    /// All events that match `filter`, in file order, decoded one block at a time: memory stays
    /// constant however long the journal is. A block that turns out damaged is skipped and added to
    /// ``damage``.
    public func events(matching filter: EventFilter = EventFilter()) -> JournalEvents {
        JournalEvents(reader: self, filter: filter)
    }

    /// The same, each read in its block as a record, with no event made (``JournalRecords``); the
    /// filter has no text.
    package func records(matching filter: EventFilter = EventFilter()) -> JournalRecords {
        JournalRecords(reader: self, filter: filter)
    }

    /// Adds a block that failed to read back to ``damage`` (readers with an index find damaged blocks
    /// only when they read them).
    package func recordDamage(blockAt index: Int, reason: String) {
        let block = blocks[index]
        let entry = JournalDamage(byteRange: block.offset..<(block.offset + block.frame.totalLength), sequences: block.firstSequence...block.lastSequence, reason: reason)
        if !damage.contains(entry) { damage.append(entry) }
    }

    /// Checks every block's checksum without decompressing it, adding the blocks that fail to
    /// ``damage``: how a command that reads one step learns whether the journal is damaged
    /// elsewhere (the index lists blocks without vouching for them). Reads the whole file, at
    /// checksum speed.
    package func checkBlockChecksums() {
        for (index, block) in blocks.enumerated() {
            let compressed = readBytes(at: block.offset + JournalFormat.frameHeaderLength, count: block.compressedLength)
            if compressed.count != block.compressedLength || Zlib.crc32(compressed) != block.frame.payloadCRC {
                recordDamage(blockAt: index, reason: "the block's checksum does not match")
            }
        }
    }
}
