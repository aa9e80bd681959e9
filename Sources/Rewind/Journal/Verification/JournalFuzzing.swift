/// What the reader's fuzzer (`Fuzz/`) needs to reach the block decoder: block payloads sit behind
/// a CRC and zlib, so bytes mutated in a file almost never get past the checksum. Not API.
@_spi(Fuzzing) public enum JournalFuzzing {
    /// A journal file holding one events block whose uncompressed payload is `payload`, framed with
    /// correct checksums; the frame's count and sequence range are the decoder's own reading of the
    /// payload, so that a decodable payload is read as a good block.
    ///
    /// A payload that does not decode claims no events, unless `claimingEvents` says how many it
    /// claims (steps 1 to that): a frame a reader must decode to find it damaged.
    public static func journal(wrappingPayload payload: [UInt8], claimingEvents claimed: Int? = nil) -> [UInt8] {
        let header = JournalHeader(formatVersion: JournalFormat.version, createdWallNanoseconds: 0, createdMonotonicNanoseconds: 0, writerVersion: "fuzz")
        let events = claimed == nil ? (try? BlockDecoding.events(in: payload).events) ?? [] : []
        let sequences = claimed.map { $0 > 0 ? [1, UInt64($0)] : [] } ?? events.map(\.sequence)
        let compressed = Zlib.deflate(payload, level: 1)
        let frame = BlockFrame(
            type: .events, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(max(1, payload.count)),
            eventCount: UInt32(claimed ?? events.count), firstSequence: sequences.min() ?? 0, lastSequence: sequences.max() ?? 0,
            firstWallNanoseconds: 0, lastWallNanoseconds: 0, payloadCRC: Zlib.crc32(compressed)
        )
        return header.encoded() + frame.encoded() + compressed
    }

    /// The payloads of the summary blocks of the journal at `path`: seeds for ``readSummary(payload:)``.
    public static func summaryPayloads(ofJournalAt path: String) throws -> [[UInt8]] {
        let reader = try JournalReader(path: path)
        return reader.blocks.indices.compactMap { reader.summaryBlockBytes(ofBlock: $0)?.payload }
    }

    /// The uncompressed payloads of the readable events blocks of the journal at `path`: seeds for
    /// ``journal(wrappingPayload:)``.
    public static func payloads(ofJournalAt path: String) throws -> [[UInt8]] {
        let reader = try JournalReader(path: path)
        return reader.blocks.compactMap { block in try? reader.payload(at: block.offset, frame: block.frame).get() }
    }
}
