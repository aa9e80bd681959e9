@_spi(Tooling) import Rewind

/// The viewer's access to a journal: events by position in the (filtered) timeline, states by step,
/// what each dispatch caused. It never loads the whole journal: positions map to blocks, and the
/// reader decodes (and caches) a few blocks at a time, so memory does not grow with its length.
///
/// Only the program (``ViewerProgram``) uses it: the update asks for reads as commands, and the
/// view draws what they brought back.
public final class Timeline {
    /// The journal.
    public let reader: JournalReader
    /// The active filter, if any.
    package private(set) var filter: TimelineFilter?
    /// Events before each block, for unfiltered positions.
    private var blockStarts: [Int] = []
    /// With a filter: the matching events, as (block, index in block).
    private var matches: [(block: Int32, index: Int32)]?
    /// The last event of each dispatch (its `didDispatch`), by the dispatch's sequence number.
    private var groupEnds: [UInt64: UInt64] = [:]
    /// The journal's sources, in order of appearance.
    package private(set) var sources: [RecordedSource] = []
    /// The overview strip, made again when blocks are added or found damaged.
    private var overviewCache: (blocks: Int, damage: Int, overview: Overview)?

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
        sources = reader.sources.map(\.source)
    }

    /// Picks up blocks a live writer added since the last look; returns whether there are new events.
    package func refresh() -> Bool {
        let added = reader.refresh()
        guard added > 0 else { return false }
        rebuild()
        if let filter {
            var job = FilterJob(filter)
            while !job.step(self, budget: .max) {}
            matches = job.found
        }
        return true
    }

    /// The whole recording as the overview strip shows it (from the block index alone).
    var overview: Overview {
        if let cache = overviewCache, cache.blocks == reader.blocks.count, cache.damage == reader.damage.count { return cache.overview }
        let overview = Overview(reader: reader)
        overviewCache = (reader.blocks.count, reader.damage.count, overview)
        return overview
    }

    // MARK: Filtering

    /// Shows only the events `filter` matches (`nil`: all), as found by a finished ``FilterJob``.
    func apply(_ filter: TimelineFilter?, matches found: [(block: Int32, index: Int32)]?) {
        self.filter = filter
        matches = filter == nil ? nil : (found ?? [])
    }

    /// Reads blocks to find the events a filter shows, a few blocks per step, so that the program
    /// can answer keys (and cancel) in between.
    struct FilterJob {
        let filter: TimelineFilter
        private var matcher: TimelineFilter.Matcher
        var block = 0
        var found: [(block: Int32, index: Int32)] = []

        init(_ filter: TimelineFilter) {
            self.filter = filter
            matcher = TimelineFilter.Matcher(filter)
        }

        /// Reads up to `budget` blocks; returns whether the whole journal has been read.
        mutating func step(_ timeline: Timeline, budget: Int) -> Bool {
            var read = 0
            while block < timeline.reader.blocks.count, read < budget {
                defer { block += 1 }
                guard filter.mayMatch(timeline.reader.blocks[block]) else { continue }
                read += 1
                guard let events = timeline.events(inBlock: block) else { continue }
                for (index, event) in events.enumerated() where matcher.shows(event) {
                    found.append((Int32(block), Int32(index)))
                }
            }
            return block >= timeline.reader.blocks.count
        }

        /// How far it has read, 0…1.
        func progress(_ timeline: Timeline) -> Double {
            timeline.reader.blocks.isEmpty ? 1 : Double(block) / Double(timeline.reader.blocks.count)
        }
    }

    // MARK: Events

    /// The events of a block, or `nil` (and the block recorded as damaged) when it does not read.
    func events(inBlock block: Int) -> [RecordedEvent]? {
        do {
            return try reader.events(inBlock: block)
        } catch {
            reader.recordDamage(blockAt: block, reason: "the block does not read back")
            return nil
        }
    }

    /// The event at a position, if it can be read.
    package func event(at position: Int) -> RecordedEvent? {
        guard position >= 0, position < count, let (block, index) = location(of: position) else { return nil }
        guard let events = events(inBlock: block) else { return nil }
        return events.indices.contains(index) ? events[index] : nil
    }

    /// The block and index in it of a position.
    func location(of position: Int) -> (block: Int, index: Int)? {
        if let matches { return (Int(matches[position].block), Int(matches[position].index)) }
        // The last block that starts at or before the position.
        let low = blockStarts.indices.partitionPoint { blockStarts[$0] > position }
        guard low > 0 else { return nil }
        return (low - 1, position - blockStarts[low - 1])
    }

    /// Whether a filter picks the events (positions are then the filter's, not the journal's).
    var isFiltered: Bool { matches != nil }

    /// The first position of a block's events, when the timeline is not filtered.
    func firstPosition(ofBlock block: Int) -> Int? {
        matches == nil && blockStarts.indices.contains(block) ? blockStarts[block] : nil
    }

    /// The position of the event with this sequence number, or of the nearest one after it.
    /// Whether the journal has the step but the filter hides it.
    package func isHiddenByFilter(sequence: UInt64) -> Bool {
        matches != nil && ((try? reader.location(ofSequence: sequence)) ?? nil) != nil
    }

    package func position(ofSequence sequence: UInt64) -> Int? {
        // Unfiltered, a step maps straight to its block: one block read instead of a search.
        if matches == nil, let (block, index) = (try? reader.location(ofSequence: sequence)) ?? nil {
            return blockStarts[block] + index
        }
        struct Unreadable: Error {}
        guard let low = try? (0..<count).partitionPoint(where: { position in
            guard let event = event(at: position) else { throw Unreadable() }
            return event.sequence >= sequence
        }) else { return nil }
        return low < count ? low : nil
    }

    /// A source's state after a step, if it has one.
    package func state(of source: UInt64, at sequence: UInt64) -> StateValue? {
        try? reader.state(of: source, at: sequence)
    }

    /// A source's state before a step: after the step before it.
    func state(of source: UInt64, before sequence: UInt64) -> StateValue? {
        (try? reader.stateFold(of: source, before: sequence))?.current
    }

    /// The event with this sequence number (a parent dispatch), looked for near `position` first:
    /// a parent is almost always a few events before its children.
    func event(sequence: UInt64, near position: Int) -> RecordedEvent? {
        if matches == nil, let (block, index) = location(of: position), let events = events(inBlock: block) {
            var cursor = min(index, events.count - 1)
            while cursor >= 0, index - cursor < 4_096 {
                if events[cursor].sequence == sequence { return events[cursor] }
                cursor -= 1
            }
        }
        return try? reader.event(sequence: sequence)
    }

    // MARK: Dispatch groups

    /// The sequence number of the last event a dispatch caused before it ended: its `didDispatch`
    /// (found by reading forward from the dispatch, then remembered). A dispatch still running when
    /// the journal ends extends to the end.
    func groupEnd(ofDispatch dispatch: RecordedEvent, at position: Int) -> UInt64 {
        if let known = groupEnds[dispatch.sequence] { return known }
        var end = UInt64.max
        var candidate = position + 1
        let unfiltered = matches == nil
        // Reading the raw journal: a filter may hide the didDispatch itself.
        if unfiltered {
            while candidate < count, candidate - position < 200_000 {
                guard let event = event(at: candidate) else { break }
                if event.kind == .didDispatch, event.parent == dispatch.sequence {
                    end = event.sequence
                    break
                }
                candidate += 1
            }
        } else if let (block, _) = location(of: position) {
            search: for blockIndex in block..<min(reader.blocks.count, block + 64) {
                guard let events = events(inBlock: blockIndex) else { continue }
                for event in events where event.sequence > dispatch.sequence && event.kind == .didDispatch && event.parent == dispatch.sequence {
                    end = event.sequence
                    break search
                }
            }
        }
        if groupEnds.count > 100_000 { groupEnds = [:] }
        groupEnds[dispatch.sequence] = end
        return end
    }

    /// ``groupEnd(ofDispatch:at:)`` for a dispatch whose position is not at hand.
    func groupEnd(of dispatch: RecordedEvent) -> UInt64 {
        if let known = groupEnds[dispatch.sequence] { return known }
        guard let position = position(ofSequence: dispatch.sequence) else { return .max }
        return groupEnd(ofDispatch: dispatch, at: position)
    }

    /// The folded dispatch that hides `event`, if any: the outermost ancestor that is folded and
    /// has not ended before the event.
    func foldedAncestor(of event: RecordedEvent, at position: Int, folding: Folding) -> RecordedEvent? {
        guard !folding.isEmpty else { return nil }
        var hiding: RecordedEvent?
        var parent = event.parent
        var depth = 0
        while let sequence = parent, depth < 16 {
            guard let ancestor = self.event(sequence: sequence, near: position) else { break }
            if folding.isFolded(ancestor.sequence), event.sequence <= groupEnd(of: ancestor) {
                hiding = ancestor
            }
            parent = ancestor.parent
            depth += 1
        }
        return hiding
    }
}
