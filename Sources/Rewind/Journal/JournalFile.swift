import Foundation

/// One journal file being written: the header, the blocks, and at close the index and trailer.
/// Used only by the writer thread.
final class JournalFile {
    let path: String
    private let descriptor: Int32
    private(set) var size = 0
    private(set) var entries: [IndexEntry] = []
    private var sources: [UInt64: RecordedSource] = [:]
    private var sourceOrder: [UInt64] = []

    /// What the index keeps about one block.
    struct IndexEntry: Equatable {
        var offset: Int
        var frame: BlockFrame
        var sources: [(id: UInt64, summary: JournalBlock.SourceSummary)]

        static func == (lhs: IndexEntry, rhs: IndexEntry) -> Bool {
            lhs.offset == rhs.offset && lhs.frame == rhs.frame && lhs.sources.map(\.id) == rhs.sources.map(\.id)
        }
    }

    /// Creates (or truncates) the file with mode 0600 and writes the header.
    init(path: String, header: JournalHeader) throws(JournalWriteError) {
        self.path = path
        let opened = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw JournalWriteError(path: path, operation: "create", code: errno) }
        descriptor = opened
        // A file that already existed keeps its mode through O_TRUNC; recordings are private.
        fchmod(descriptor, 0o600)
        try write(header.encoded())
    }

    deinit {
        close(descriptor)
    }

    private func write(_ bytes: [UInt8]) throws(JournalWriteError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw JournalWriteError(path: path, operation: "write", code: errno)
            }
            written += result
        }
        size += bytes.count
    }

    /// Compresses and appends one block of events.
    func writeBlock(_ builder: inout BlockBuilder, sources blockSources: [(id: UInt64, source: EventSource)], level: Int32) throws(JournalWriteError) {
        let payload = builder.payload()
        let compressed = Zlib.deflate(payload, level: level)
        let frame = BlockFrame(
            type: .events, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(payload.count),
            eventCount: UInt32(builder.eventCount), firstSequence: builder.firstSequence, lastSequence: builder.lastSequence,
            firstWallNanoseconds: builder.firstWall, lastWallNanoseconds: builder.lastWall, payloadCRC: Zlib.crc32(compressed)
        )
        let summaries = builder.sourceSummaries.sorted { $0.key < $1.key }.map { (id: $0.key, summary: $0.value) }
        let recorded = blockSources.map {
            RecordedSource(instanceID: $0.id, framework: $0.source.framework.rawValue, typeName: $0.source.typeName, label: $0.source.label)
        }
        try append(frame: frame, payload: compressed, sources: recorded, summaries: summaries)
    }

    /// Appends a block that is already compressed and framed — a block copied from another journal
    /// by recovery, which checked it.
    func append(frame: BlockFrame, payload: [UInt8], sources blockSources: [RecordedSource], summaries: [(id: UInt64, summary: JournalBlock.SourceSummary)]) throws(JournalWriteError) {
        let offset = size
        try write(frame.encoded() + payload)
        for source in blockSources where sources[source.instanceID] == nil {
            sources[source.instanceID] = source
            sourceOrder.append(source.instanceID)
        }
        entries.append(IndexEntry(offset: offset, frame: frame, sources: summaries))
    }

    func sync() {
        fsync(descriptor)
    }

    /// Writes the index block and the trailer that points at it; the file is complete afterwards.
    func finish(level: Int32) throws(JournalWriteError) {
        var payload = ByteWriter()
        payload.varint(sourceOrder.count)
        var position: [UInt64: Int] = [:]
        for (index, id) in sourceOrder.enumerated() {
            let source = sources[id]!
            position[id] = index
            payload.varint(id)
            payload.string(source.framework)
            payload.string(source.typeName)
            if let label = source.label {
                payload.byte(1)
                payload.string(label)
            } else {
                payload.byte(0)
            }
        }
        payload.varint(entries.count)
        for entry in entries {
            payload.varint(entry.offset)
            payload.fixed(entry.frame.encoded())
            payload.varint(entry.sources.count)
            for (id, summary) in entry.sources {
                payload.varint(position[id] ?? 0)
                payload.varint(summary.eventCount)
                payload.varint(summary.firstSequence)
                payload.varint(summary.lastSequence)
            }
        }
        let compressed = Zlib.deflate(payload.bytes, level: level)
        let frame = BlockFrame(
            type: .index, compressedLength: UInt32(compressed.count), uncompressedLength: UInt32(payload.count),
            eventCount: UInt32(entries.reduce(0) { $0 + Int($1.frame.eventCount) }),
            firstSequence: entries.map(\.frame.firstSequence).min() ?? 0, lastSequence: entries.map(\.frame.lastSequence).max() ?? 0,
            firstWallNanoseconds: entries.map(\.frame.firstWallNanoseconds).min() ?? 0, lastWallNanoseconds: entries.map(\.frame.lastWallNanoseconds).max() ?? 0,
            payloadCRC: Zlib.crc32(compressed)
        )
        let indexOffset = size
        var trailer = ByteWriter()
        trailer.append(JournalFormat.trailerMagic)
        trailer.fixed(UInt64(indexOffset))
        trailer.fixed(Zlib.crc32(trailer.bytes))
        try write(frame.encoded() + compressed + trailer.bytes)
        fsync(descriptor)
    }
}

extension ByteWriter {
    mutating func fixed(_ bytes: [UInt8]) {
        append(bytes)
    }
}

/// A journal file could not be written.
public struct JournalWriteError: Error, CustomStringConvertible, Equatable {
    /// The file.
    public var path: String
    /// What failed: `create` or `write`.
    public var operation: String
    /// The system error number.
    public var code: Int32

    public var description: String {
        "cannot \(operation) journal '\(path)': \(String(cString: strerror(code)))"
    }
}
