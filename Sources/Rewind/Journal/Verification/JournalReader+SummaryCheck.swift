extension JournalReader {
    /// The block summaries that say something untrue of their blocks: every step's state is folded
    /// (by ``StateWalker``) and held against its block's summary — the kinds, names and changed
    /// fields it lists, and the values of its tracked paths before and after each step. A writer
    /// never makes such a summary; a crafted one would make a query pass over a real match.
    /// Blocks that do not read back are left to ``verify(holdingSummaries:)``'s damage report.
    ///
    /// It reads and folds every event: several times the cost of ``verify(holdingSummaries:)`` alone.
    package func untrueSummaries() -> [UntrueSummary] {
        var walker = StateWalker()
        var untrue: [UntrueSummary] = []
        for index in blocks.indices {
            guard let events = try? events(inBlock: index) else { continue }
            let checks = summary(ofBlock: index)?.sources.mapValues(SummaryCheck.init)
            var started = Set<UInt64>(), reported = Set<UInt64>()
            for event in events {
                let id = event.source.instanceID
                let before = walker.state(of: id)
                walker.advance(event)
                guard let check = checks?[id], !reported.contains(id) else { continue }
                // The state a source enters the block with is covered too; later steps start from
                // the state the step before left, checked already.
                let isFirst = started.insert(id).inserted
                if let reason = check.contradiction(by: event, before: before, after: walker.state(of: id), checkingBefore: isFirst) {
                    reported.insert(id)
                    untrue.append(UntrueSummary(blockOffset: blocks[index].offset, sequence: event.sequence, source: event.source.description, reason: reason))
                }
            }
        }
        return untrue
    }
}

/// One source's summary in one block, with its tracked paths made ready to follow once rather
/// than at every step.
private struct SummaryCheck {
    let steps: BlockSummary.Source
    let paths: [(path: FollowedPath, span: ValueSpan)]

    init(_ steps: BlockSummary.Source) {
        self.steps = steps
        paths = steps.values.map { (FollowedPath(components: $0.key.map { .key($0) }), $0.value) }
    }

    /// What the summary says that the step contradicts, if anything. The values of the state
    /// before the step are held against it only with `checkingBefore` (the source's first step in
    /// the block: the state it entered with). A state the file does not tell (`nil`: no keyframe
    /// of the source before it, as at the start of a flight recorder's window or of a rotated
    /// file) contradicts nothing: the writer, which knew it, summarised it.
    func contradiction(by event: RecordedEvent, before: StateValue?, after: StateValue?, checkingBefore: Bool) -> String? {
        if !steps.kinds.contains(event.kind) { return "it lists no \(event.kind.word) step" }
        if let names = steps.names, !names.contains(event.name) { return "it lists no step named \"\(VisibleText.escaped(event.name))\"" }
        for (path, span) in paths {
            for state in checkingBefore ? [before, after] : [after] where state != nil {
                let value = path.lookUp(in: state)
                if !span.mayEqual(value) { return "it says \(path) never holds \(value.compactDescription(limit: 40))" }
            }
        }
        if let changedFields = steps.changedFields {
            switch (before, after) {
            case (.object(let old)?, .object(let new)?):
                // A field removed counts as one that changed, as a field added does.
                for field in Set(old.keys).union(new.keys) where !changedFields.contains(field) {
                    let path = FollowedPath(components: [.key(field)])
                    if path.lookUp(in: before) != path.lookUp(in: after) { return "it says \(path) never changes" }
                }
            case (let old?, let new?) where old != new:
                // A state that is not an object (a root list) has no fields to list: a writer
                // says "any field may change" for it.
                return "it lists the fields that changed, yet the whole state (not an object) changed"
            default:
                break
            }
        }
        return nil
    }
}

/// A block summary that says something untrue of its block (see ``JournalReader/untrueSummaries()``).
package struct UntrueSummary: Sendable, Equatable, CustomStringConvertible {
    /// Where the block starts in the file.
    package var blockOffset: Int
    /// The step that contradicts it.
    package var sequence: UInt64
    /// That step's source, as the journal names it.
    package var source: String
    /// What the summary says that the step contradicts.
    package var reason: String

    package var description: String { "the summary of the block at byte \(blockOffset) is untrue at step #\(sequence) (\(source)): \(reason)" }
}
