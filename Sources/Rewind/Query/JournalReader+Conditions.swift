extension JournalReader {
    /// The steps where a condition holds, in order, each with its source's state before and after
    /// it — read lazily, so `first` stops at the first one. Each source's state is walked by the
    /// one rule of ``StateWalker``.
    ///
    /// ```swift
    /// let negative = try Condition(parsing: "cart.total < 0")
    /// if let step = reader.steps(where: negative).first { print(step.event.sequence) }
    /// ```
    public func steps(where condition: Condition, source: UInt64? = nil) -> ConditionSteps {
        var events = events(matching: EventFilter(sourceIDs: source.map { [$0] }))
        events.skipsBlock = { [self] index in !mayHold(condition, inBlock: index, source: source) }
        return ConditionSteps(events: events, condition: condition)
    }

    /// Whether some step in a block may satisfy a condition, judged from the block's summary
    /// alone (see ``BlockSummary``); `true` when the block has no summary, or a source there has
    /// none. With `only`, just that source's steps count.
    package func mayHold(_ condition: Condition, inBlock index: Int, source only: UInt64? = nil) -> Bool {
        let block = blocks[index]
        guard let summary = summary(ofBlock: index) else { return true }
        return block.sources.contains { id, events in
            guard only == nil || only == id else { return false }
            guard let steps = summary.sources[id], let source = source(id) else { return true }
            return condition.mayHold(in: steps, source: source.description, sequences: events.firstSequence...events.lastSequence)
        }
    }
}

/// The steps where a condition holds (``JournalReader/steps(where:source:)``).
public struct ConditionSteps: Sequence {
    let events: JournalEvents
    let condition: Condition

    /// The same steps, with `progress` told each block reading reaches (see
    /// ``JournalEvents/reportingProgress(_:)``).
    package func reportingProgress(_ progress: @escaping (_ block: Int, _ of: Int) -> Void) -> ConditionSteps {
        ConditionSteps(events: events.reportingProgress(progress), condition: condition)
    }

    public struct Iterator: IteratorProtocol {
        var events: JournalEvents.Iterator
        var scan: ConditionScan

        /// The block the last event came from.
        var lastBlock = -1

        public mutating func next() -> ConditionStep? {
            while let event = events.next() {
                if events.currentBlock != lastBlock {
                    lastBlock = events.currentBlock
                    for skipped in events.takeSkippedBlocks(before: lastBlock) { scan.skip(block: skipped, of: events.reader) }
                    scan.enter(block: lastBlock, of: events.reader, only: events.filter.sourceIDs)
                }
                if let step = scan.step(event) { return step }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(events: events.makeIterator(), scan: ConditionScan(condition))
    }
}

/// Judges a condition at each step of a journal given in order, walking each source's state: for
/// readers that take events as they come (`rewind watch` on a journal being written).
///
/// ```swift
/// var scan = ConditionScan(try Condition(parsing: "count > 10"))
/// for event in newEvents { if let step = scan.step(event) { print(step.event.sequence) } }
/// ```
package struct ConditionScan: Sendable {
    package let condition: Condition
    private var walker = StateWalker()

    package init(_ condition: Condition) {
        self.condition = condition
    }

    /// Sources whose steps were in blocks passed over: their states are picked up from the
    /// reader when a block that is read holds them.
    private var skippedSources = Set<UInt64>()

    /// Passes over a block of `reader` without its events — one whose summary rules the
    /// condition out (``JournalReader/mayHold(_:inBlock:source:)``).
    package mutating func skip(block: Int, of reader: JournalReader) {
        skippedSources.formUnion(reader.blocks[block].sources.keys)
        openings.forget(reader.blocks[block].sources.keys)
    }

    /// Call before the events of a block of `reader` that is read after blocks were skipped: its
    /// sources whose steps were passed over continue from the state the reader rebuilds. With
    /// `only`, just those sources' steps will be given to the scan.
    package mutating func enter(block: Int, of reader: JournalReader, only: Set<UInt64>? = nil) {
        guard !skippedSources.isEmpty else { return }
        let resuming = Set(reader.blocks[block].sources.keys.filter { skippedSources.contains($0) && (only?.contains($0) ?? true) })
        guard !resuming.isEmpty else { return }
        skippedSources.subtract(resuming)
        // All at once, each earlier block read once for all of them (a block that no longer reads
        // back leaves its sources without a state, as a damaged block does when read in order).
        for (source, fold) in reader.stateFolds(of: resuming, throughBlock: block - 1) {
            walker.resume(source, from: fold)
        }
    }

    /// Takes the next event; the step, with its source's state before and after, when the
    /// condition holds there.
    package mutating func step(_ event: RecordedEvent) -> ConditionStep? {
        let source = event.source.instanceID
        var before = walker.state(of: source)
        walker.advance(event)
        if condition.readsBefore { before = openings.before(event, stateNow: before) }
        let step = ConditionStep(event: event, before: before, after: walker.state(of: source))
        return condition.isTrue(at: step) ? step : nil
    }

    /// The state each source's open commits began from.
    private var openings = Openings()

    /// Each source's commits that have begun and not ended, with the state each began from:
    /// "before" at their end (``ConditionStep``).
    struct Openings: Sendable {
        private var open: [UInt64: [StateValue?]] = [:]
        /// More open than this on one source means their ends were lost (a damaged block): the oldest go.
        static let limit = 1_000

        /// The state before `event` as a condition sees it: at a commit's end (`mutated`), the
        /// state its beginning saw (the state just before it when that beginning was not seen).
        mutating func before(_ event: RecordedEvent, stateNow: StateValue?) -> StateValue? {
            let source = event.source.instanceID
            switch event.kind {
            case .willMutate:
                open[source, default: []].append(stateNow)
                if open[source]!.count > Self.limit { open[source]!.removeFirst() }
                return stateNow
            case .didMutate:
                guard let began = open[source]?.popLast() else { return stateNow }
                return began
            case .released:
                open[source] = nil
                return stateNow
            case .dropped:
                // Lost events may be commits' starts or ends, of any unit: what was open is not
                // known any more, and a later end must not take an earlier commit's start.
                open.removeAll()
                return stateNow
            default:
                return stateNow
            }
        }

        /// Forgets what was open on `sources`, whose steps were passed over.
        mutating func forget(_ sources: some Sequence<UInt64>) {
            for source in sources { open[source] = nil }
        }
    }
}
