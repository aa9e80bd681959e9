extension JournalReader {
    /// What a block's steps can hold, from the summary block the writer put after it — read
    /// without decompressing the block itself. `nil` when the block has none (a journal of format
    /// 2 or older, a block with dropped events, a writer killed between the two), or when it does
    /// not read back intact or was made for other bytes: a summary is trusted only for the very
    /// block it describes, and no summary means the block is read.
    package func summary(ofBlock index: Int) -> BlockSummary? {
        let block = blocks[index]
        guard let offset = block.summaryOffset,
              let frame = BlockFrame.decode(readBytes(at: offset, count: JournalFormat.frameHeaderLength), at: 0),
              frame.type == .summary, frame.firstSequence == block.firstSequence, frame.lastSequence == block.lastSequence,
              frame.compressedLength == frame.uncompressedLength, offset + frame.totalLength <= fileSize
        else { return nil }
        // Stored as it is, not deflated.
        let payload = readBytes(at: offset + JournalFormat.frameHeaderLength, count: Int(frame.compressedLength))
        guard payload.count == Int(frame.compressedLength), Zlib.crc32(payload) == frame.payloadCRC,
              let summary = try? BlockSummary.decode(payload, formatVersion: header.formatVersion), summary.eventsPayloadCRC == block.frame.payloadCRC
        else { return nil }
        return summary
    }

    /// The summary block after block `index`, framed and stored as it is in the file, when it
    /// reads back as the summary of that block (for recovery, which copies blocks as they are).
    func summaryBlockBytes(ofBlock index: Int) -> (frame: BlockFrame, payload: [UInt8])? {
        guard summary(ofBlock: index) != nil, let offset = blocks[index].summaryOffset,
              let frame = BlockFrame.decode(readBytes(at: offset, count: JournalFormat.frameHeaderLength), at: 0) else { return nil }
        return (frame, readBytes(at: offset + JournalFormat.frameHeaderLength, count: Int(frame.compressedLength)))
    }
}
