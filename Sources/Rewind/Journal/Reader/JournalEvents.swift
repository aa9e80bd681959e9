import Dispatch

/// The events of a journal that match a filter, read lazily, one block at a time.
///
/// While the caller works through one block's events, the next block that may match is read,
/// checked, decompressed and decoded on another thread: reading through a journal (`blame` reads
/// records the same way, `JournalRecords`) uses two of a machine's cores, in file order, and
/// holds at most two blocks' events at once. (`log`, `log --grep` and `export`, the Perfetto
/// trace included, walk blocks on every core: `WalkedEvents`.) With a text to find,
/// blocks whose search filter rules the text out are not read at all, and blocks read without a
/// filter get one (kept beside the journal in `FILE.rewind.search`).
public struct JournalEvents: Sequence {
    let reader: JournalReader
    let filter: EventFilter
    /// Told the index of each block as reading reaches it, and the number of blocks.
    var progress: ((_ block: Int, _ of: Int) -> Void)?
    /// Says which blocks need not be read at all (a condition their summary rules out); asked on
    /// the caller's thread, once per block.
    var skipsBlock: ((_ block: Int) -> Bool)?
    /// Whether blocks are read as records (``BlockRecords``: ``JournalRecords``) rather than events.
    var readsRecords = false

    public func makeIterator() -> Iterator {
        Iterator(reader: reader, filter: filter, progress: progress, skipsBlock: skipsBlock, readsRecords: readsRecords)
    }

    /// The same events, with `progress` told the index of each block as reading reaches it (read
    /// or skipped) and the number of blocks: for a progress display on long reads.
    package func reportingProgress(_ progress: @escaping (_ block: Int, _ of: Int) -> Void) -> JournalEvents {
        var copy = self
        copy.progress = progress
        return copy
    }

    /// Walks blocks in file order and events within them.
    public struct Iterator: IteratorProtocol {
        let reader: JournalReader
        let filter: EventFilter
        let progress: ((Int, Int) -> Void)?
        let skipsBlock: ((Int) -> Bool)?
        let readsRecords: Bool
        /// The next block to start on.
        var blockIndex = 0
        /// The last candidate search: where it started and what it found (the same search is
        /// made for the block decoded ahead and again when reading reaches it).
        private var lastSearch: (start: Int, found: Int?)?
        /// The block the last event returned came from.
        var currentBlock: Int { blockIndex - 1 }
        /// Blocks `skipsBlock` ruled out, not yet taken by ``takeSkippedBlocks(before:)``.
        private var skippedBlocks = Set<Int>()
        var current: [RecordedEvent] = []
        /// The block's records, when reading records.
        var currentRecords: BlockRecords?
        var position = 0
        /// The block being decoded ahead, if any.
        var ahead: WorkAhead<Int, Result<Decoded, JournalReadError>>?

        init(reader: JournalReader, filter: EventFilter, progress: ((Int, Int) -> Void)?, skipsBlock: ((Int) -> Bool)?, readsRecords: Bool = false) {
            self.reader = reader
            self.filter = filter
            self.progress = progress
            self.skipsBlock = skipsBlock
            self.readsRecords = readsRecords
        }

        /// The blocks before `block` passed over because `skipsBlock` ruled them out, since the
        /// last call (the search for the block read ahead may have passed over later ones already).
        mutating func takeSkippedBlocks(before block: Int) -> Set<Int> {
            let taken = skippedBlocks.filter { $0 < block }
            skippedBlocks.subtract(taken)
            return taken
        }

        public mutating func next() -> RecordedEvent? {
            precondition(!readsRecords, "a sequence of records hands out records (nextRecord())")
            while true {
                while position < current.count {
                    defer { position += 1 }
                    if filter.matches(current[position]) { return current[position] }
                }
                guard readNextBlock() else { return nil }
            }
        }

        /// The next record the filter keeps, read in its block (for ``JournalRecords``).
        mutating func nextRecord() -> BlockRecords.Record? {
            while true {
                if let records = currentRecords {
                    while position < records.count {
                        defer { position += 1 }
                        let record = records[position]
                        if filter.matches(record) { return record }
                    }
                }
                guard readNextBlock() else { return nil }
            }
        }

        /// Moves to the next block that may hold a match, read (or reported damaged) and with the
        /// one after it being read ahead; `false` past the last.
        private mutating func readNextBlock() -> Bool {
            guard let index = nextCandidate(from: blockIndex) else {
                progress?(reader.blocks.count, reader.blocks.count)
                return false
            }
            progress?(index, reader.blocks.count)
            blockIndex = index + 1
            position = 0
            // The block read last is let go before the next is decoded: two large ones are never
            // held at once.
            current = []
            currentRecords = nil
            let decoded: Result<Decoded, JournalReadError>
            if let ahead, ahead.key == index {
                decoded = ahead.result()
            } else {
                decoded = Self.decode(reader, block: reader.blocks[index], filteringFor: filter.text ?? filter.blockText, asRecords: readsRecords)
            }
            // Decoding reads the file with pread, and the search index behind its lock: safe
            // beside the caller's thread. It is handed the block, not the index into the
            // reader's block list, which a live reader's refresh may grow meanwhile.
            let held = Int(reader.blocks[index].frame.uncompressedLength)
            ahead = nextCandidate(from: blockIndex).flatMap { [reader, text = filter.text ?? filter.blockText, readsRecords] index in
                let block = reader.blocks[index]
                guard JournalReader.mayReadAhead(block.frame, holding: held) else { return nil }
                return WorkAhead(index) { Self.decode(reader, block: block, filteringFor: text, asRecords: readsRecords) }
            }
            switch decoded {
            case .success(let decoded):
                current = decoded.events
                currentRecords = decoded.records
                // On the iterating thread: the entry may be corrected in the block list.
                reader.holdIndexEntry(ofBlock: index, toSpans: decoded.spans)
            case .failure(let error):
                current = []
                currentRecords = nil
                reader.recordDamage(blockAt: index, reason: "\(error)")
            }
            return true
        }

        /// The first block at or after `start` that may hold a match, judged from the index (and
        /// the blocks' search filters and summaries).
        private mutating func nextCandidate(from start: Int) -> Int? {
            if let lastSearch, lastSearch.start == start, lastSearch.found.map({ $0 < reader.blocks.count }) ?? false {
                return lastSearch.found
            }
            var index = start
            var found: Int?
            while index < reader.blocks.count {
                if filter.mayMatch(reader.blocks[index]),
                   (filter.text ?? filter.blockText).flatMap({ reader.searchFilter(ofBlock: index, mayContain: $0) }) != false {
                    guard skipsBlock?(index) == true else {
                        found = index
                        break
                    }
                    skippedBlocks.insert(index)
                }
                index += 1
            }
            lastSearch = (start, found)
            return found
        }

        /// A block's events, and what it holds of each source.
        struct Decoded: Sendable {
            /// Its events (none when it is read as records).
            var events: [RecordedEvent]
            var records: BlockRecords?
            var spans: [UInt64: JournalBlock.SourceSpan]
        }

        /// The block's events, or its records. With a text being searched for, a block with no
        /// search filter yet gets one, made from its records; when that filter rules the text
        /// out, no event is made (a text is judged on events, so a search reads events).
        /// Takes the block itself, not its index: it runs on another thread, which must not read
        /// the reader's block list while a live reader's refresh may grow it.
        static func decode(
            _ reader: JournalReader, block: JournalBlock, filteringFor text: String?, asRecords: Bool = false
        ) -> Result<Decoded, JournalReadError> {
            let makesFilter = !asRecords && text.map { NGramFilter.judgeableGrams(of: $0) != nil && reader.searchIndex.filter(for: block) == nil } == true
            if asRecords || makesFilter {
                switch reader.decodeRecords(at: block.offset, frame: block.frame) {
                case .success(let records):
                    guard makesFilter, let text else { return .success(Decoded(events: [], records: records, spans: records.spans)) }
                    let filter = reader.recordSearchFilter(of: block, records: records)
                    return .success(Decoded(events: filter.mayContain(text) ? records.events : [], spans: records.spans))
                case .failure(.damaged(let reason)):
                    return .failure(.damagedBlock(reader.path, offset: block.offset, reason: reason))
                }
            }
            switch reader.decodeBlock(at: block.offset, frame: block.frame) {
            case .success(let decoded):
                return .success(Decoded(events: decoded.events, spans: decoded.spans))
            case .failure(.damaged(let reason)):
                return .failure(.damagedBlock(reader.path, offset: block.offset, reason: reason))
            }
        }
    }
}

/// Work done on another thread while the caller does its own — the next block decoded while this
/// one is used; ``result()`` waits for it. `key` says which work it is.
final class WorkAhead<Key: Equatable & Sendable, Value: Sendable>: @unchecked Sendable {
    // Unchecked: `value` is written once, on the working thread, before `done` is signalled, and
    // taken (read and cleared) only after waiting for `done`, by the one caller of `result()`.
    let key: Key
    private var value: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ key: Key, _ work: @escaping @Sendable () -> Value) {
        self.key = key
        DispatchQueue.global().async { [self] in
            value = work()
            done.signal()
        }
    }

    /// Waits for the work, and hands its value over: asked once, so that the caller is the
    /// value's only owner (a part's buffer can then be reused without being copied).
    func result() -> Value {
        done.wait()
        return value.take()!
    }
}

/// The records of a journal that match a filter, read lazily in file order as ``JournalEvents``
/// reads its events — a block read ahead on another thread, damage reported, index entries held
/// to their blocks — but each handed out in its block (``BlockRecords/Record``), with no event
/// made: for readers that look at every step and print few (`blame`).
package struct JournalRecords: Sequence {
    var events: JournalEvents

    /// The records `filter` keeps: a filter without a text (a text is judged on events).
    init(reader: JournalReader, filter: EventFilter) {
        precondition(!filter.searchesText, "a text is judged on events")
        events = JournalEvents(reader: reader, filter: filter, readsRecords: true)
    }

    package func makeIterator() -> Iterator { Iterator(events: events.makeIterator()) }

    /// The same records, with `progress` told of each block (``JournalEvents/reportingProgress(_:)``).
    package func reportingProgress(_ progress: @escaping (_ block: Int, _ of: Int) -> Void) -> JournalRecords {
        var copy = self
        copy.events = events.reportingProgress(progress)
        return copy
    }

    /// Walks blocks in file order and records within them.
    package struct Iterator: IteratorProtocol {
        var events: JournalEvents.Iterator

        /// The next record the filter keeps.
        package mutating func next() -> BlockRecords.Record? { events.nextRecord() }
    }
}
