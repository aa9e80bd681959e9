import Foundation

/// A journal's per-block ``NGramFilter``s, which let a text search skip blocks that cannot
/// match without decompressing them. Filters are made as a search reads blocks and kept in a
/// file beside the journal (`session.rewind` → `session.rewind.search`), so a journal is read in
/// full by its first search only; a journal recorded since, or one without the file, still reads
/// (its new blocks are read and filtered as before).
///
/// Each filter is stored with its block's offset and payload checksum and is used only for a
/// block that still has both; a file that does not parse is ignored — it can only make a search
/// read more, never miss a match.
///
/// The file says what words a recording holds, so it is as private as the journal: written with
/// the journal's permission bits and owner. A filter that wrongly says "not here" hides matches,
/// so a file someone else could have written is not used: it must be a regular file (not a link)
/// with the journal's owner, writable by nobody the journal is not writable by.
final class SearchIndex: Sendable {
    /// The file it is kept in.
    let path: String
    private let state = Locked<State>(State())

    private struct State {
        var loaded = false
        var filters: [Int: (checksum: UInt32, filter: NGramFilter)] = [:]
        var unsaved = false
    }

    init(journalPath: String) {
        path = journalPath + ".search"
    }

    /// The block's filter, if one is known for it (from the file or made since).
    func filter(for block: JournalBlock) -> NGramFilter? {
        state.withLock { state in
            if !state.loaded {
                state.loaded = true
                state.filters = isTrusted() ? Self.load(path) ?? [:] : [:]
            }
            guard let entry = state.filters[block.offset], entry.checksum == block.frame.payloadCRC else { return nil }
            return entry.filter
        }
    }

    /// Keeps a filter made for `block`.
    func record(_ filter: NGramFilter, for block: JournalBlock) {
        state.withLock { state in
            state.filters[block.offset] = (block.frame.payloadCRC, filter)
            state.unsaved = true
        }
    }

    /// Writes the filters beside the journal if any were made since it was read; quietly does
    /// nothing where that cannot be written (a read-only folder), or when the environment says
    /// `REWIND_READ_ONLY=1`: the next search reads more.
    func save() {
        // A reader told to write nothing (`REWIND_READ_ONLY=1`: the MCP server's commands) keeps
        // its filters in memory only.
        if ProcessInfo.processInfo.environment["REWIND_READ_ONLY"] == "1" { return }
        let data: [UInt8]? = state.withLock { state in
            guard state.unsaved else { return nil }
            state.unsaved = false
            return Self.encode(state.filters)
        }
        guard let data, let journal = Self.status(of: journalPath, followingLinks: true) else { return }
        let temporary = path + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, journal.st_mode & 0o666)
        guard descriptor >= 0 else { return }
        // The journal's owner, when this process may give it (root reading someone's journal).
        _ = fchown(descriptor, journal.st_uid, journal.st_gid)
        _ = fchmod(descriptor, journal.st_mode & 0o666)
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
    }

    private var journalPath: String { String(path.dropLast(".search".count)) }

    /// Whether the file at `path` can be trusted as this journal's: see the type's documentation.
    private func isTrusted() -> Bool {
        guard let journal = Self.status(of: journalPath, followingLinks: true),
              let index = Self.status(of: path, followingLinks: false) else { return false }
        guard index.st_mode & S_IFMT == S_IFREG, index.st_uid == journal.st_uid else { return false }
        let writableByOthers = index.st_mode & 0o022, journalWritableByOthers = journal.st_mode & 0o022
        return writableByOthers & ~journalWritableByOthers == 0
    }

    private static func status(of path: String, followingLinks: Bool) -> stat? {
        var status = stat()
        return (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 ? status : nil
    }

    // MARK: The file

    /// `RWSX`, a version byte and three zero bytes, the entry count (UInt32), then per entry the
    /// block offset (UInt64), its payload checksum (UInt32), the filter's word count (UInt32) and
    /// its words (UInt64 each); then the CRC-32 of everything before it; little-endian. The
    /// checksum matters: a filter bit cleared by damage would make a search skip a block that
    /// holds a match.
    /// Version 2: rows show a dispatch's or activity's enum case as its payload (`setEnabled true`),
    /// so filters made from version 1's texts could skip a block that now matches.
    private static let magic: [UInt8] = Array("RWSX".utf8) + [2, 0, 0, 0]

    static func encode(_ filters: [Int: (checksum: UInt32, filter: NGramFilter)]) -> [UInt8] {
        var writer = ByteWriter()
        for byte in magic { writer.byte(byte) }
        writer.fixed(UInt32(filters.count))
        for (offset, entry) in filters.sorted(by: { $0.key < $1.key }) {
            writer.fixed(UInt64(offset))
            writer.fixed(entry.checksum)
            writer.fixed(UInt32(entry.filter.words.count))
            for word in entry.filter.words { writer.fixed(word) }
        }
        writer.fixed(Zlib.crc32(writer.bytes))
        return writer.bytes
    }

    /// The filters in `bytes`, or `nil` if they are not a whole, well-formed index file.
    static func decode(_ bytes: [UInt8]) -> [Int: (checksum: UInt32, filter: NGramFilter)]? {
        guard bytes.count >= magic.count + 8 else { return nil }
        var trailer = ByteReader(bytes, offset: bytes.count - 4)
        guard let crc = try? trailer.fixed(UInt32.self), crc == Zlib.crc32(Array(bytes.dropLast(4))) else { return nil }
        var reader = ByteReader(bytes, end: bytes.count - 4)
        guard magic.allSatisfy({ (try? reader.byte()) == $0 }), let count = try? reader.fixed(UInt32.self) else { return nil }
        var filters: [Int: (checksum: UInt32, filter: NGramFilter)] = [:]
        for _ in 0..<count {
            guard let offset = try? reader.fixed(UInt64.self), offset <= UInt64(Int.max),
                  let checksum = try? reader.fixed(UInt32.self), let wordCount = try? reader.fixed(UInt32.self),
                  Int(wordCount) <= reader.remaining / 8 else { return nil }
            var words: [UInt64] = []
            words.reserveCapacity(Int(wordCount))
            for _ in 0..<wordCount {
                guard let word = try? reader.fixed(UInt64.self) else { return nil }
                words.append(word)
            }
            guard let filter = NGramFilter(words: words) else { return nil }
            filters[Int(offset)] = (checksum, filter)
        }
        return reader.remaining == 0 ? filters : nil
    }

    private static func load(_ path: String) -> [Int: (checksum: UInt32, filter: NGramFilter)]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return decode([UInt8](data))
    }
}
