/// The events of a journal with each source's state walked along (``StateWalker``'s one rule),
/// turned into output a block at a time on every core, and handed back in file order: how
/// `rewind log` and `export` read a whole journal.
///
/// A block's events are walked and formatted on another thread without waiting for the blocks
/// before it, because the writer starts each source in a block with a keyframe: from a source's
/// first keyframe in a block on, its state depends on that block alone. The events of a source
/// up to and including that keyframe (all of them, in a block without one) are its block's
/// *leading* events: they are walked and formatted on the calling thread, in order, from the state
/// the blocks before left; after the block, each source that had a keyframe in it goes on from
/// the state the block's own walk left. Every event is therefore formatted with exactly the state
/// a walk in file order gives it — a crafted file without keyframes is read correctly, only
/// on one thread.
package struct WalkedEvents<Part: Sendable>: Sendable {
    /// Makes an empty part (on the thread that fills it).
    package typealias MakePart = @Sendable () -> Part
    /// Adds one event to a part: the event's record, read in its block (``BlockRecords/Record``:
    /// a writer that needs a ``RecordedEvent`` makes it there), what its change's path held just
    /// before it (read where the change is made: ``StateWalker/advance(_:old:)``), and — when the
    /// event moved its source's state — the state before and after.
    package typealias AddEvent =
        @Sendable (
            _ record: BlockRecords.Record, _ old: ValueBefore, _ change: (before: StateValue?, after: StateValue)?, _ part: inout Part
        ) -> Void

    /// The state a unit's walk starts from, at the first of its events read.
    package enum Start: Sendable {
        /// Its state as the journal has it just before that event (``JournalReader/stateFold(of:before:)``):
        /// for a reader whose filter may start mid-journal (`log --from`).
        case rebuilt
        /// No state: what the events read so far make of it, as a walker from the first event
        /// gives it (`export`).
        case empty
    }

    let reader: JournalReader
    let filter: EventFilter
    let start: Start
    let makePart: MakePart
    let add: AddEvent
    /// Blocks not to read, judged before reading them (by their summaries).
    let passesOver: (@Sendable (_ block: Int) -> Bool)?
    /// The sources with no state (the app's loggers, ``JournalReader/loggerIDs``): their events
    /// without a state step never wait for the blocks before, whatever block they are in.
    let stateless: Set<UInt64>

    /// The events `filter` keeps, walked and added to parts. A filter's ``EventFilter/blockText``
    /// passes over the blocks that cannot hold it (their search filter says so; a block without
    /// one gets one as it is read, and is passed over when that rules the text out): the walk
    /// takes up again after them from states rebuilt, so `start` must be `.rebuilt`. A filter
    /// with a ``EventFilter/text`` is not taken: the caller judges events by their text.
    ///
    /// `passesOver` names blocks not to read at all (`log --kind log --level error` asks each
    /// block's summary whether it may hold such a message). Only a walk of sources without state
    /// (the app's loggers, ``RecordedSource/isLogger``) takes one: no state is walked past a
    /// block left unread.
    package init(
        reader: JournalReader, matching filter: EventFilter, start: Start, passingOver passesOver: (@Sendable (_ block: Int) -> Bool)? = nil,
        makePart: @escaping MakePart, add: @escaping AddEvent
    ) {
        precondition(filter.text == nil, "the caller judges events by their text")
        precondition(filter.blockText == nil || start == .rebuilt, "a walk that passes blocks over rebuilds states after them")
        let stateless = reader.loggerIDs
        precondition(passesOver == nil || filter.sourceIDs.map { $0.isSubset(of: stateless) } == true, "only stateless sources' blocks are passed over")
        self.reader = reader
        self.filter = filter
        self.start = start
        self.passesOver = passesOver
        self.stateless = stateless
        self.makePart = makePart
        self.add = add
    }

    /// Hands every part to `deliver`, in file order, on the calling thread; `progress` is told the
    /// index of each block as reading reaches it, and the number of blocks. At most one block per
    /// core is read ahead, so memory stays flat whatever the journal's length. A block that does
    /// not read back is added to the reader's damage, as ``JournalEvents`` adds it.
    ///
    /// Each part is handed over as its only owner: `deliver` may take its storage for a later
    /// ``MakePart`` to reuse.
    package func forEachPart(progress: ((_ block: Int, _ of: Int) -> Void)? = nil, _ deliver: (inout Part) -> Void) {
        let blocks = reader.blocks
        let candidates = blocks.indices.filter { index in
            filter.mayMatch(blocks[index]) && filter.blockText.flatMap { reader.searchFilter(ofBlock: index, mayContain: $0) } != false
                && passesOver?(index) != true
        }
        var ahead: [WorkAhead<Int, Result<Walked, JournalReadError>>] = []
        var next = candidates.startIndex
        var walker = StateWalker()
        var joined: Set<UInt64> = []
        // The block walked last: after blocks passed over for a text, every source's state is
        // rebuilt where the walk joins it again.
        var lastWalked: Int?
        for index in candidates {
            var held = ahead.reduce(0) { $0 + Int(blocks[$1.key].frame.uncompressedLength) }
            while ahead.count < JournalReader.blocksReadAhead, next < candidates.endIndex,
                JournalReader.mayReadAhead(blocks[candidates[next]].frame, holding: held)
            {
                let block = blocks[candidates[next]]
                held += Int(block.frame.uncompressedLength)
                ahead.append(WorkAhead(candidates[next]) { [self] in walk(block) })
                next += 1
            }
            progress?(index, blocks.count)
            let work = ahead.removeFirst()
            switch work.result() {
            case .success(var walked):
                reader.holdIndexEntry(ofBlock: index, toSpans: walked.records.spans)
                guard !walked.passedOver else { continue }
                if filter.blockText != nil, let last = lastWalked, last != index - 1 { joined = [] }
                lastWalked = index
                // Taken from the end of a reversed list, each part is delivered as its only owner.
                var segments = Array(walked.segments.reversed())
                walked.segments = []
                while let segment = segments.popLast() {
                    switch consume segment {
                    case .part(var part):
                        deliver(&part)
                    case .leading(let position):
                        let record = walked.records[position]
                        let source = record.sourceID
                        if start == .rebuilt, joined.insert(source).inserted {
                            // Where the walk joins the source: its state as the journal has it
                            // just before (the start of the file, unless a filter skipped steps).
                            walker.resume(source, from: (try? reader.stateFold(of: source, before: record.sequence)) ?? StateFold())
                        }
                        var part = makePart()
                        var old = ValueBefore.unknown
                        let change = walker.advance(record, old: &old)
                        add(record, old, change, &part)
                        deliver(&part)
                    }
                }
                for (source, fold) in walked.ends { walker.resume(source, from: fold) }
            case .failure(let error):
                reader.recordDamage(blockAt: index, reason: "\(error)")
                // States go on past a damaged block, as a walk in order takes them (a rebuild
                // would read back into it).
                lastWalked = index
            }
        }
        progress?(blocks.count, blocks.count)
    }

    /// A block's events as its own thread walked them: parts in event order, with each leading
    /// event in its place, and the state each source with a keyframe in the block ends in.
    struct Walked: Sendable {
        enum Segment: Sendable {
            /// Events walked and added on the block's thread.
            case part(Part)
            /// The position of an event whose state before it depends on the blocks before.
            case leading(Int)
        }
        /// The block's records (and what it holds of each source, for the index entry to be held
        /// against).
        var records: BlockRecords
        /// Whether its search filter, made as it was read, ruled the text out: nothing walked.
        var passedOver = false
        var segments: [Segment] = []
        var ends: [UInt64: StateFold] = [:]
    }

    /// Reads, walks and adds one block's events (on a read-ahead thread): see ``Walked``.
    private func walk(_ block: JournalBlock) -> Result<Walked, JournalReadError> {
        switch reader.decodeRecords(at: block.offset, frame: block.frame) {
        case .failure(.damaged(let reason)):
            return .failure(.damagedBlock(reader.path, offset: block.offset, reason: reason))
        case .success(let records):
            var walked = Walked(records: records)
            if let text = filter.blockText, reader.searchFilter(ofBlock: block, mayContain: text) == nil {
                guard reader.recordSearchFilter(of: block, records: records).mayContain(text) else {
                    walked.passedOver = true
                    return .success(walked)
                }
            }
            var walker = StateWalker()
            // Made when its first event is added: a part made and left empty would take a reused
            // buffer and drop it.
            var part: Part?
            for index in 0..<records.count {
                let record = records[index]
                guard filter.matches(record) else { continue }
                let source = record.sourceID
                // A logger's message depends on no state before it (a crafted logger's state
                // record still waits for the blocks before, as any unit's does).
                if walked.ends[source] == nil, !stateless.contains(source) || record.stateStep != nil {
                    // Leading: up to and including the source's first keyframe in the block.
                    if case .keyframe(let state)? = record.stateRecord {
                        walker.resume(source, from: StateFold(state: state))
                        walked.ends[source] = StateFold()
                    }
                    if let filled = part.take() { walked.segments.append(.part(filled)) }
                    walked.segments.append(.leading(index))
                    continue
                }
                var old = ValueBefore.unknown
                let change = walker.advance(record, old: &old)
                // Moved out and back, never copied: this code is generic over the part, and an
                // access through `part!` copied it (and its buffers' references) for every event.
                var filling = part.take() ?? makePart()
                add(record, old, change, &filling)
                part = consume filling
            }
            if let filled = part { walked.segments.append(.part(filled)) }
            for source in walked.ends.keys { walked.ends[source] = walker.fold(of: source) }
            return .success(walked)
        }
    }
}
