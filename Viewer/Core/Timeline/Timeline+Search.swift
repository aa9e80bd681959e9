@_spi(Tooling) import Rewind

extension Timeline {
    /// Looks for the next (or previous) shown row whose event matches a query, a few blocks per
    /// step so that the program stays responsive; wraps around the ends once, as less does.
    struct SearchJob {
        let query: SearchQuery
        let forward: Bool
        let folding: Folding
        let start: Int
        private var candidate: Int
        private(set) var wrapped = false
        private var checkedBlock: Int?
        private var visited = 0

        init(_ query: SearchQuery, from position: Int, forward: Bool, folding: Folding) {
            self.query = query
            self.forward = forward
            self.folding = folding
            start = position
            candidate = position + (forward ? 1 : -1)
        }

        /// Runs for up to `budget` positions; `.some(result)` when done (`nil` result: no match).
        mutating func step(_ timeline: Timeline, budget: Int) -> Int?? {
            let count = timeline.count
            guard count > 0 else { return .some(nil) }
            var work = 0
            while work < budget {
                if candidate < 0 || candidate >= count {
                    guard !wrapped else { return .some(nil) }
                    wrapped = true
                    candidate = forward ? 0 : count - 1
                }
                if wrapped && candidate == start { return .some(timeline.event(at: start).map { timeline.matches(query, $0) } == true ? start : nil) }
                visited += 1
                work += 1
                if let (block, _) = timeline.location(of: candidate), block != checkedBlock {
                    checkedBlock = block
                    let (mayMatch, madeFilter) = timeline.blockMayMatch(block, query)
                    // Making a block's filter decodes every record of it: the rest of this step.
                    if madeFilter { work = budget }
                    if !mayMatch, let first = timeline.firstPosition(ofBlock: block) {
                        // Past the block: to the next block's first event, or the previous one's last.
                        let next = forward ? first + timeline.reader.blocks[block].eventCount : first - 1
                        if wrapped, forward ? (start >= candidate && start < next) : (start <= candidate && start > next) { return .some(nil) }
                        candidate = next
                        continue
                    }
                }
                if let event = timeline.event(at: candidate), timeline.matches(query, event), timeline.isVisible(candidate, folding: folding) {
                    return .some(candidate)
                }
                candidate += forward ? 1 : -1
            }
            return nil
        }

        /// How far it has looked, 0…1.
        func progress(_ timeline: Timeline) -> Double {
            Double(min(visited, timeline.count)) / Double(max(1, timeline.count))
        }
    }

    /// Counts the rows that match a query and remembers where they are (up to a limit), for the
    /// `3/17` beside a search. Runs in the background between keys.
    struct HitCountJob {
        let query: SearchQuery
        /// The next block to read (unfiltered) or the next position to look at (filtered).
        private var next = 0
        private(set) var positions: [Int] = []
        /// The steps of the remembered matches, for the overview strip.
        private(set) var sequences: [UInt64] = []
        private(set) var total = 0
        static let rememberedPositions = 100_000

        init(_ query: SearchQuery) { self.query = query }

        /// Reads up to `budget` blocks (or about as many events, filtered); returns whether the
        /// whole timeline has been counted.
        mutating func step(_ timeline: Timeline, budget: Int) -> Bool {
            if timeline.isFiltered {
                let end = budget >= Int.max / 1024 ? timeline.count : min(timeline.count, next + budget * 512)
                while next < end {
                    if let event = timeline.event(at: next), timeline.matches(query, event) { record(next, event.sequence) }
                    next += 1
                }
                return next >= timeline.count
            }
            var read = 0
            while next < timeline.reader.blocks.count, read < budget {
                defer { next += 1 }
                read += 1
                if !timeline.blockMayMatch(next, query).mayMatch { continue }
                guard let events = timeline.events(inBlock: next), let first = timeline.firstPosition(ofBlock: next) else { continue }
                for (index, event) in events.enumerated() where timeline.matches(query, event) { record(first + index, event.sequence) }
            }
            return next >= timeline.reader.blocks.count
        }

        private mutating func record(_ position: Int, _ sequence: UInt64) {
            total += 1
            if positions.count < Self.rememberedPositions {
                positions.append(position)
                sequences.append(sequence)
            }
        }
    }

    /// Finds the nearest step before (or after) a position that changed a key path in a source's
    /// state, by blame's one rule (``Rewind/PathWalker/verdict(_:)``: elements followed by `id`
    /// wherever they move, an index shift not counted); a few hundred steps per call. Each step
    /// looked at is judged from the state just before it, so the answer does not depend on the
    /// steps a filter hides.
    package struct BlameJob {
        let path: FollowedPath
        let source: UInt64
        let forward: Bool
        private var candidate: Int

        package init(_ path: FollowedPath, source: UInt64, from position: Int, forward: Bool) {
            self.path = path
            self.source = source
            self.forward = forward
            candidate = position + (forward ? 1 : -1)
        }

        /// `.some(found)` when done; the result has the step's position and the value before and
        /// after it.
        package mutating func step(_ timeline: Timeline, budget: Int) -> BlameResult?? {
            var work = 0
            while candidate >= 0, candidate < timeline.count, work < budget {
                defer { candidate += forward ? 1 : -1 }
                work += 1
                guard let event = timeline.event(at: candidate), event.source.instanceID == source, event.stateStep != nil else { continue }
                guard let fold = try? timeline.reader.stateFold(of: source, before: event.sequence) else { continue }
                var walker = PathWalker(path: path, from: [source: fold])
                if case .changed(let old, let new)? = walker.verdict(event) {
                    return .some(BlameResult(position: candidate, sequence: event.sequence, path: path, old: old, new: new))
                }
            }
            return candidate < 0 || candidate >= timeline.count ? .some(nil) : nil
        }
    }
}

extension Timeline {
    /// Whether an event matches a query as its row reads: a change's row as its move from the old
    /// value (`nextID: 1 → 2`) when the query asks for one, the state before it rebuilt only for
    /// the changes that may match.
    func matches(_ query: SearchQuery, _ event: RecordedEvent) -> Bool {
        query.matchesRow(event) { valueBefore(event) }
    }

    /// The value a change's path held before it (``ValueBefore``), from the state the journal
    /// has just before the change.
    func valueBefore(_ event: RecordedEvent) -> ValueBefore {
        let source = event.source.instanceID
        guard event.kind == .change, event.sequence > 0, let fold = try? reader.stateFold(of: source, before: event.sequence) else { return .unknown }
        return StateWalker(folds: [source: fold]).value(before: event)
    }

    /// Whether a block may hold an event the query matches: its search filter decides for the text
    /// every match contains (the literal, or a regular expression's required run) when the block
    /// has one; without one, a plain word is first looked for in the block's string table (no
    /// decoding), and a block that may hold it is read and given a filter (`madeFilter`), for this
    /// search and the next. A query with no such text may match anywhere.
    func blockMayMatch(_ block: Int, _ query: SearchQuery) -> (mayMatch: Bool, madeFilter: Bool) {
        guard let required = query.requiredText else { return (true, false) }
        if let verdict = reader.searchFilter(ofBlock: block, mayContain: required) { return (verdict, false) }
        if !reader.block(block, mayContainWord: required) { return (false, false) }
        reader.recordSearchFilter(ofBlock: block)
        return (reader.searchFilter(ofBlock: block, mayContain: required) ?? true, true)
    }
}

/// What blame found: the step, and the followed value before and after it.
package struct BlameResult: Sendable, Equatable {
    package var position: Int
    package var sequence: UInt64
    package var path: FollowedPath
    package var old: StateValue?
    package var new: StateValue?
}
