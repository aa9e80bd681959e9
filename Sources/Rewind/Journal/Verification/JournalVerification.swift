/// What `rewind verify` reports: every block checked, the index compared with the blocks.
public struct JournalVerification: Sendable, Equatable {
    /// Blocks that read back intact.
    public var goodBlocks: Int
    /// Events in those blocks.
    public var goodEvents: Int
    /// Every stretch that could not be read.
    public var damage: [JournalDamage]
    /// What is wrong with the index, if anything (missing after a crash, damaged, or disagreeing
    /// with the blocks).
    public var indexProblem: String?

    /// Steps whose state cannot be rebuilt although their blocks read back: a state diff that does
    /// not apply to the state before it, or that has no state to apply to. Such a journal was
    /// altered (the writer makes every diff from the very state before it).
    public var unbuildableStates: [UnbuildableState] = []

    /// Whether the block summaries were held against every step (`rewind verify --deep`).
    package var summariesChecked = false
    /// Block summaries that say something untrue of their blocks, when they were checked: a
    /// crafted file's, since a writer never makes one (a query would pass over a real match).
    package var untrueSummaries: [UntrueSummary] = []

    /// How many events the damaged stretches held, as far as their frames said.
    public var lostEventCount: Int { damage.lostEventCount }

    /// Whether the journal is entirely sound: every block reads back, the index agrees, and every
    /// step's state can be rebuilt.
    public var isClean: Bool { damage.isEmpty && indexProblem == nil && unbuildableStates.isEmpty && untrueSummaries.isEmpty }
}

/// A step whose state cannot be rebuilt (see ``JournalVerification/unbuildableStates``).
public struct UnbuildableState: Sendable, Equatable, CustomStringConvertible {
    /// The step.
    public var sequence: UInt64
    /// Its source, as the journal names it.
    public var source: String
    /// Why.
    public var reason: String

    public var description: String { "step #\(sequence) (\(source)): \(reason)" }
}

extension JournalReader {
    /// Checks the whole file: walks every block from the header regardless of the index, checks each
    /// one's CRC, decompresses and decodes it, and compares the index (if any) with what the walk
    /// found; rebuilds every step's state from the records, and lists what cannot be rebuilt.
    public func verify() throws(JournalReadError) -> JournalVerification {
        try verify(holdingSummaries: false)
    }

    @available(*, deprecated, message: "use verify(); rewind verify --deep checks the block summaries, which are not API")
    public func verify(checkingSummaries: Bool) throws(JournalReadError) -> JournalVerification {
        try verify(holdingSummaries: checkingSummaries)
    }

    /// ``verify()``, and with `holdingSummaries` every block summary held against the steps it
    /// describes too (`rewind verify --deep`), which folds every step and takes several times as long.
    package func verify(holdingSummaries: Bool) throws(JournalReadError) -> JournalVerification {
        var states = StateRebuildCheck()
        let walk = try JournalReader(path: path, ignoringIndex: true) { states.check($0) }
        var indexProblem: String?
        if !hasIndex {
            indexProblem = "the index is missing or damaged (the writer did not close the journal); readers rebuild it from the blocks"
        } else {
            // Blocks the walk skipped as damaged are reported as damage, not as an index problem.
            let damaged = walk.damage.map(\.byteRange)
            let indexed = blocks.filter { block in !damaged.contains { $0.contains(block.offset) } }
            if indexed.map(\.offset) != walk.blocks.map(\.offset) || indexed.map(\.frame) != walk.blocks.map(\.frame) {
                indexProblem = "the index disagrees with the blocks in the file"
            } else if let (claimed, found) = zip(indexed, walk.blocks).first(where: { $0.sources != $1.sources }) {
                // Each entry's sources — which units a block holds, how many of their events and
                // which steps — are what `show`, `log --source` and `info` go by: held against
                // the decoded block, entry by entry.
                indexProblem = "the index misstates the units of the block at byte \(claimed.offset) (steps \(claimed.firstSequence)–\(claimed.lastSequence)): "
                    + "it says \(Self.describe(claimed.sources)), the block holds \(Self.describe(found.sources)); readers that trust it answer wrongly — run 'rewind recover'"
            }
        }
        var verification = JournalVerification(
            goodBlocks: walk.blocks.count, goodEvents: walk.eventCount, damage: walk.damage + walk.unreadableSummaries() + walk.blocksOutOfOrder(),
            indexProblem: indexProblem,
            unbuildableStates: states.problems(afterDamage: !walk.damage.isEmpty)
        )
        if holdingSummaries {
            verification.summariesChecked = true
            verification.untrueSummaries = walk.untrueSummaries()
        }
        return verification
    }

    /// A block's units as an index entry lists them: `#2: 7 events, steps 3–40`.
    private static func describe(_ sources: [UInt64: JournalBlock.SourceSpan]) -> String {
        sources.keys.sorted().map { id in
            let summary = sources[id]!
            return "#\(id): \(summary.eventCount) event\(summary.eventCount == 1 ? "" : "s"), steps \(summary.firstSequence)–\(summary.lastSequence)"
        }.joined(separator: "; ")
    }

    /// Writes a clean journal at `output` holding every block that reads back intact (blocks are
    /// self-contained, so they are copied as they are), with a fresh index. Returns what was lost.
    ///
    /// The journal is written beside `output` and moved into place once complete, so a failure
    /// leaves `output` as it was; `output` must be a regular file or absent (never a symbolic link,
    /// a device or a FIFO).
    public func recover(to output: String) throws -> JournalVerification {
        let walk = try JournalReader(path: path, ignoringIndex: true)
        let replacement = try FileReplacement(destination: output)
        do {
            // Blocks of every earlier version are blocks of this one; the header says the recording's
            // identity the way this version does.
            var written = header
            written.formatVersion = JournalFormat.version
            let file = try JournalFile(path: replacement.temporaryPath, header: written, replaceExisting: false)
            for (index, block) in walk.blocks.enumerated() {
                let bytes = walk.readBytes(at: block.offset + JournalFormat.frameHeaderLength, count: block.compressedLength)
                let sources = block.sources.keys.sorted().compactMap { walk.source($0) }
                // A summary of format 4 or older does not mark NaN; a version-5 file would be
                // trusted to: it is left out (its block is then read by every query).
                let summary = header.formatVersion >= 5 ? walk.summaryBlockBytes(ofBlock: index) : nil
                try file.append(frame: block.frame, payload: bytes, sources: sources, summaries: block.sources, stepSummary: summary)
            }
            try file.finish(level: 1)
        } catch {
            replacement.discard()
            throw FileReplacementError(path: output, reason: "\(error)")
        }
        try replacement.moveIntoPlace()
        return try verify()
    }
}

/// Folds every source's state through the state records of the readable blocks, in file order
/// (the order the writer made each diff in), and lists the records that do not apply.
private struct StateRebuildCheck {
    private var folds: [UInt64: StateFold] = [:]
    /// The records that did not apply, and whether their source had a state to apply them to.
    private var failures: [(problem: UnbuildableState, hadState: Bool)] = []

    /// Takes in a block's state records, folded where it was decoded: its sources' records before
    /// their first keyframe in it are folded here, onto the states the blocks before left; the
    /// states it ends with replace theirs.
    mutating func check(_ block: BlockOutline) {
        guard let folded = block.states else { return }
        var found = folded.failures.map { failure in (failure.position, failure.sourceIndex, failure.sequence, failure.hadState) }
        for leading in folded.leading {
            // One access to the source's fold, edited where it lies: a diff then edits the state
            // in place rather than a copy of it.
            let (hadState, moved) = folds[block.sources[leading.sourceIndex].instanceID, default: StateFold()].applyNoting(leading.record)
            if !moved { found.append((leading.position, leading.sourceIndex, leading.sequence, hadState)) }
        }
        for (instance, fold) in folded.ends { folds[instance] = fold }
        for (_, sourceIndex, sequence, hadState) in found.sorted(by: { $0.0 < $1.0 }) {
            let reason = hadState ? "its state diff does not apply to the state before it" : "its state diff has no state before it to apply to"
            failures.append((UnbuildableState(sequence: sequence, source: block.sources[sourceIndex].description, reason: reason), hadState))
        }
    }

    /// The steps whose state cannot be rebuilt. After damage, a source's diffs until its next
    /// keyframe have nothing to apply to: that loss is the damage's, already reported, and not
    /// listed again.
    func problems(afterDamage damaged: Bool) -> [UnbuildableState] {
        failures.filter { $0.hadState || !damaged }.map(\.problem)
    }
}

extension JournalReader {
    /// The summary blocks that are in the file but do not read back as their block's summary (a
    /// checksum that fails, a summary made for other bytes): damage like any other, though no
    /// event is lost — a query reads their blocks instead.
    func unreadableSummaries() -> [JournalDamage] {
        blocks.indices.compactMap { index -> JournalDamage? in
            guard let offset = blocks[index].summaryOffset, summary(ofBlock: index) == nil else { return nil }
            let length = BlockFrame.decode(readBytes(at: offset, count: JournalFormat.frameHeaderLength), at: 0)?.totalLength ?? JournalFormat.frameHeaderLength
            return JournalDamage(
                byteRange: offset..<min(offset + length, fileSize), sequences: nil,
                reason: "the summary of the block of steps \(blocks[index].firstSequence)–\(blocks[index].lastSequence) does not read back (no events lost; queries read the block)"
            )
        }
    }

    /// The blocks whose every step comes before the first step of the block before them: a
    /// writer writes its blocks in step order, and readers find a step by that order, so such a
    /// block (a crafted file's, or one moved) is damage — its events read, but a look-up by step
    /// misses them. (Neighbours' ranges may overlap: an event numbered on one thread can reach
    /// the writer just after a later one of another thread, past a block's end.)
    func blocksOutOfOrder() -> [JournalDamage] {
        zip(blocks, blocks.dropFirst()).compactMap { before, block -> JournalDamage? in
            guard block.lastSequence < before.firstSequence else { return nil }
            let steps = "steps \(block.firstSequence)–\(block.lastSequence) come after steps \(before.firstSequence)–\(before.lastSequence)"
            return JournalDamage(
                byteRange: block.offset..<min(block.offset + block.frame.totalLength, fileSize), sequences: nil,
                reason: "blocks out of step order: \(steps) (looking up a step by number misses them)"
            )
        }
    }
}
