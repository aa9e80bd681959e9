import Foundation

/// Any event, and any source's state at any step, by random access: a block found by the index,
/// read and cached.
extension JournalReader {
    /// Where the event with this sequence number is: its block and its index in the block's events.
    package func location(ofSequence sequence: UInt64) throws(JournalReadError) -> (block: Int, index: Int)? {
        for block in candidateBlocks(containing: sequence) {
            if let index = try events(inBlock: block).firstIndex(where: { $0.sequence == sequence }) { return (block, index) }
        }
        return nil
    }

    /// The event with this sequence number, or `nil` if the journal does not hold it.
    public func event(sequence: UInt64) throws(JournalReadError) -> RecordedEvent? {
        for index in candidateBlocks(containing: sequence) {
            if let event = try events(inBlock: index).first(where: { $0.sequence == sequence }) { return event }
        }
        return nil
    }

    /// The state of a source after step `sequence`: its last state record at or before that step,
    /// rebuilt from the block's keyframe and the diffs after it, with the changes recorded since
    /// inside a commit applied — by the one rule every reader folds states with. `nil` if the source has no state
    /// by then (or it was in a damaged block).
    public func state(of sourceID: UInt64, at sequence: UInt64) throws(JournalReadError) -> StateValue? {
        try stateFold(of: sourceID, at: sequence).current
    }

    /// The fold of a source's state after step `sequence` (see ``state(of:at:)``): with the recorded
    /// state too, so that a ``StateWalker`` can go on from there.
    package func stateFold(of sourceID: UInt64, at sequence: UInt64) throws(JournalReadError) -> StateFold {
        try stateFold(of: sourceID, through: sequence, fromBlock: lastBlock(startingAtOrBefore: sequence))
    }

    /// The fold of a source's state just before step `sequence` — after the step before it, the
    /// one answer to "the state before step N" (empty before the first step).
    package func stateFold(of sourceID: UInt64, before sequence: UInt64) throws(JournalReadError) -> StateFold {
        sequence > 0 ? try stateFold(of: sourceID, at: sequence - 1) : StateFold()
    }

    /// The fold of a source's state after all of its steps in blocks `0...block`: where a reader
    /// that skipped blocks picks the source up again.
    package func stateFold(of sourceID: UInt64, throughBlock block: Int) throws(JournalReadError) -> StateFold {
        try stateFold(of: sourceID, through: .max, fromBlock: block < 0 ? nil : block)
    }

    /// The folds of several sources' states after all of their steps in blocks `0...block`
    /// (``stateFold(of:throughBlock:)`` for each), reading each block once for all of them: a
    /// reader that skipped blocks of a thousand units picks them all up with one pass. A source
    /// whose blocks no longer read back gets an empty fold.
    package func stateFolds(of sources: Set<UInt64>, throughBlock block: Int) -> [UInt64: StateFold] {
        var folds: [UInt64: StateFold] = [:]
        // A logger has no state: nothing to look back for (it has no keyframe to stop at).
        var needed = sources.filter { sourceTable[$0]?.isLogger != true }
        for logger in sources.subtracting(needed) { folds[logger] = StateFold() }
        var laterSteps: [UInt64: [[StateStep]]] = [:]
        var index = block
        while index >= 0, !needed.isEmpty {
            defer { index -= 1 }
            let holding = needed.filter { blocks[index].sources[$0] != nil }
            guard !holding.isEmpty else { continue }
            guard let events = try? events(inBlock: index) else {
                for source in holding { folds[source] = StateFold() }
                needed.subtract(holding)
                continue
            }
            var steps: [UInt64: [StateStep]] = [:]
            for event in events where holding.contains(event.source.instanceID) {
                if let step = event.stateStep { steps[event.source.instanceID, default: []].append(step) }
            }
            for (source, sourceSteps) in steps {
                guard let start = sourceSteps.lastIndex(where: \.isKeyframe) else {
                    laterSteps[source, default: []].append(sourceSteps)
                    continue
                }
                var fold = StateFold()
                for step in sourceSteps[start...] { fold.apply(step) }
                for step in (laterSteps[source] ?? []).reversed().joined() { fold.apply(step) }
                folds[source] = fold
                needed.remove(source)
            }
        }
        for source in needed { folds[source] = StateFold() }
        return folds
    }

    func stateFold(of sourceID: UInt64, through sequence: UInt64, fromBlock start: Int?) throws(JournalReadError) -> StateFold {
        // A logger has no state: nothing to look back for (it has no keyframe to stop at).
        guard sourceTable[sourceID]?.isLogger != true else { return StateFold() }
        // Steps found in later blocks before any keyframe: applied once an earlier block gives one.
        var laterSteps: [[StateStep]] = []
        var index = start
        while let current = index, current >= 0 {
            let block = blocks[current]
            if let summary = block.sources[sourceID], summary.firstSequence <= sequence {
                let steps = try stateSteps(of: sourceID, through: sequence, inBlock: current)
                if let start = steps.lastIndex(where: \.isKeyframe) {
                    var fold = StateFold()
                    for step in steps[start...] { fold.apply(step) }
                    for step in laterSteps.reversed().joined() { fold.apply(step) }
                    return fold
                }
                if !steps.isEmpty { laterSteps.append(steps) }
            }
            index = current == 0 ? nil : current - 1
        }
        return StateFold()
    }

    /// One block's state steps for a source up to `sequence`, from the cached events when the
    /// block is cached, else from a scan that decodes only the source's state records and changes.
    func stateSteps(of sourceID: UInt64, through sequence: UInt64, inBlock index: Int) throws(JournalReadError) -> [StateStep] {
        let block = blocks[index]
        if let cached = cache.withLock({ $0.first { $0.offset == block.offset }?.events }) {
            return cached.filter { $0.source.instanceID == sourceID && $0.sequence <= sequence }.compactMap(\.stateStep)
        }
        guard case .success(let payload) = payload(at: block.offset, frame: block.frame) else {
            throw .damagedBlock(path, offset: block.offset, reason: "it no longer reads back")
        }
        do {
            return try BlockDecoding.stateSteps(in: payload, source: sourceID, through: sequence, formatVersion: header.formatVersion)
        } catch {
            throw .damagedBlock(path, offset: block.offset, reason: "its events cannot be decoded: \(error)")
        }
    }

    /// The blocks whose sequence range may hold `sequence` (ranges of neighbouring blocks can overlap
    /// slightly when several threads log at once).
    func candidateBlocks(containing sequence: UInt64) -> [Int] {
        guard let last = lastBlock(startingAtOrBefore: sequence) else { return [] }
        var result: [Int] = []
        var index = last
        while index >= 0 && index >= last - 2 {
            if blocks[index].firstSequence <= sequence && sequence <= blocks[index].lastSequence { result.append(index) }
            index -= 1
        }
        return result
    }

    /// The last block whose first sequence number is at or before `sequence` (binary search).
    func lastBlock(startingAtOrBefore sequence: UInt64) -> Int? {
        let after = blocks.indices.partitionPoint { blocks[$0].firstSequence > sequence }
        return after == 0 ? nil : after - 1
    }

    /// The events of one block, decoded (and cached: the viewer steps within a block).
    package func events(inBlock index: Int) throws(JournalReadError) -> [RecordedEvent] {
        let block = blocks[index]
        if let cached = cache.withLock({ $0.first { $0.offset == block.offset }?.events }) { return cached }
        let decoded: [RecordedEvent]
        switch decodeBlock(at: block.offset, frame: block.frame) {
        case .success(let result):
            decoded = result.events
            holdIndexEntry(ofBlock: index, toSpans: result.spans)
        case .failure(.damaged(let reason)): throw .damagedBlock(path, offset: block.offset, reason: reason)
        }
        // Kept as blocks are read ahead (``mayReadAhead(_:holding:)``): only while the blocks
        // kept hold ``readAheadPayloadBytes`` together. A block of millions of values is decoded
        // again when asked for, rather than held beside the blocks a walk reads.
        let size = Int(block.frame.uncompressedLength)
        guard size <= Self.readAheadPayloadBytes else { return decoded }
        cache.withLock { cache in
            cache.removeAll { $0.offset == block.offset }
            while !cache.isEmpty, cache.count >= Self.cacheSize || !Self.mayReadAhead(block.frame, holding: cache.reduce(0) { $0 + $1.size }) {
                cache.removeFirst()
            }
            cache.append((block.offset, size, decoded))
        }
        return decoded
    }
}
