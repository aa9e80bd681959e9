import Rewind

/// The viewer's access to a journal: events by position in the (filtered) timeline, states by step.
/// It never loads the whole journal: positions map to blocks, and the reader decodes (and caches) a
/// few blocks at a time, so memory does not grow with the journal's length.
public final class Timeline {
    /// The journal.
    public let reader: JournalReader
    /// The active filter, if any.
    public private(set) var filter: EventFilter?
    /// Events before each block, for unfiltered positions.
    private var blockStarts: [Int] = []
    /// With a filter: the matching events, as (block, index in block).
    private var matches: [(block: Int32, index: Int32)]?

    /// Opens the timeline of a journal.
    public init(reader: JournalReader) {
        self.reader = reader
        rebuild()
    }

    /// How many events the timeline shows.
    public var count: Int {
        matches?.count ?? (blockStarts.last.map { $0 + (reader.blocks.last?.eventCount ?? 0) } ?? 0)
    }

    private func rebuild() {
        blockStarts = []
        var total = 0
        for block in reader.blocks {
            blockStarts.append(total)
            total += block.eventCount
        }
    }

    /// Shows only events matching `filter` (`nil`: all). Finding them reads the journal once.
    public func apply(_ filter: EventFilter?) {
        self.filter = filter
        guard let filter else {
            matches = nil
            return
        }
        var found: [(Int32, Int32)] = []
        for blockIndex in reader.blocks.indices where filter.mayMatch(reader.blocks[blockIndex]) {
            guard let events = try? reader.events(inBlock: blockIndex) else { continue }
            for (index, event) in events.enumerated() where filter.matches(event) {
                found.append((Int32(blockIndex), Int32(index)))
            }
        }
        matches = found
    }

    /// Picks up blocks a live writer added since the last look; returns whether there are new events.
    public func refresh() -> Bool {
        let added = reader.refresh()
        guard added > 0 else { return false }
        rebuild()
        if let filter { apply(filter) }
        return true
    }

    /// The event at a position, if it can be read.
    public func event(at position: Int) -> RecordedEvent? {
        guard position >= 0, position < count, let (block, index) = location(of: position) else { return nil }
        guard let events = try? reader.events(inBlock: block) else {
            reader.recordDamage(blockAt: block, reason: "the block does not read back")
            return nil
        }
        return events.indices.contains(index) ? events[index] : nil
    }

    private func location(of position: Int) -> (Int, Int)? {
        if let matches { return (Int(matches[position].block), Int(matches[position].index)) }
        // The last block that starts at or before the position.
        var low = 0, high = blockStarts.count
        while low < high {
            let middle = (low + high) / 2
            if blockStarts[middle] <= position { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        return (low - 1, position - blockStarts[low - 1])
    }

    /// The position of the event with this sequence number, or of the nearest one after it.
    public func position(ofSequence sequence: UInt64) -> Int? {
        // Unfiltered, a step maps straight to its block: one block read instead of a search.
        if matches == nil, let (block, index) = (try? reader.location(ofSequence: sequence)) ?? nil {
            return blockStarts[block] + index
        }
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            guard let event = event(at: middle) else { return nil }
            if event.sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < count ? low : nil
    }

    /// A source's state after a step, if it has one.
    public func state(of source: UInt64, at sequence: UInt64) -> StateValue? {
        try? reader.state(of: source, at: sequence)
    }

    /// The next position after (or before) `position` whose event matches `text`. Blocks whose
    /// string tables show they cannot match are skipped without decoding their events.
    public func search(_ text: String, from position: Int, forward: Bool) -> Int? {
        let matcher = EventFilter(text: text)
        var candidate = position + (forward ? 1 : -1)
        var checkedBlock: Int?
        while candidate >= 0, candidate < count {
            if matches == nil, let (block, _) = location(of: candidate), block != checkedBlock {
                checkedBlock = block
                if !reader.block(block, mayContainWord: text) {
                    // Jump past the block: to the next block's first event, or the previous one's last.
                    candidate = forward ? blockStarts[block] + reader.blocks[block].eventCount : blockStarts[block] - 1
                    continue
                }
            }
            if let event = event(at: candidate), matcher.matches(event) || event.source.description.localizedCaseInsensitiveContains(text) {
                return candidate
            }
            candidate += forward ? 1 : -1
        }
        return nil
    }

    /// The nearest position before (or after) `position` whose event changed `path` in the state of
    /// `source`.
    public func change(of path: StatePath, in source: UInt64, from position: Int, forward: Bool) -> Int? {
        var candidate = position + (forward ? 1 : -1)
        while candidate >= 0, candidate < count {
            if let event = event(at: candidate), event.source.instanceID == source, event.stateStep != nil {
                let after = state(of: source, at: event.sequence)?[path]
                let before = event.sequence > 0 ? state(of: source, at: event.sequence - 1)?[path] : nil
                if after != before { return candidate }
            }
            candidate += forward ? 1 : -1
        }
        return nil
    }
}
