import Logging

extension Condition {
    /// Whether the condition may hold at some step of one source in a block, judged from the
    /// block's summary alone (``JournalReader/summary(ofBlock:)``): `false` only when no step of
    /// the source there can match, so the block need not be read for it.
    ///
    /// ```swift
    /// let condition = try Condition(parsing: "count == 2999000")
    /// if let summary = reader.summary(ofBlock: 7), let counter = summary.sources[1],
    ///    !condition.mayHold(in: counter, source: "CounterSample#1", sequences: 700...799) {
    ///     // skip block 7
    /// }
    /// ```
    ///
    /// A condition that reads the state before a step (`old(…)`, `changed(…)`) and may hold at a
    /// commit's end (`mutated`) may hold in any block: there, "before" is where the commit began,
    /// which can be blocks earlier. (`kind == change && changed(total)` is judged by its summary.)
    package func mayHold(in steps: BlockSummary.Source, source: String, sequences: ClosedRange<UInt64>) -> Bool {
        guard !readsBeforeACommit else { return true }
        return SummaryJudge(steps: steps, source: source, sequences: sequences).truth(of: root).canBeTrue
    }
}

extension Condition {
    /// Whether a condition may hold at a commit's end, as far as the step's kind tells.
    static func mayHoldAtACommitsEnd(_ root: Node) -> Bool {
        var commitEnd = BlockSummary.Source()
        commitEnd.kinds = [.didMutate]
        commitEnd.names = nil
        commitEnd.changedFields = nil
        return SummaryJudge(steps: commitEnd, source: nil, sequences: 0...UInt64.max).truth(of: root).canBeTrue
    }
}

/// Judges a condition over every step a summary covers at once: what each node can be at some
/// step (a span of values, or anything), and whether a node can be true or false.
private struct SummaryJudge {
    let steps: BlockSummary.Source
    /// The source's name; `nil` when any.
    let source: String?
    let sequences: ClosedRange<UInt64>

    struct Truth {
        var canBeTrue: Bool
        var canBeFalse: Bool
        static let unknown = Truth(canBeTrue: true, canBeFalse: true)
    }

    func truth(of node: Condition.Node) -> Truth {
        switch node {
        case .not(let inner):
            let truth = truth(of: inner)
            return Truth(canBeTrue: truth.canBeFalse, canBeFalse: truth.canBeTrue)
        case .and(let left, let right):
            let (left, right) = (truth(of: left), truth(of: right))
            return Truth(canBeTrue: left.canBeTrue && right.canBeTrue, canBeFalse: left.canBeFalse || right.canBeFalse)
        case .or(let left, let right):
            let (left, right) = (truth(of: left), truth(of: right))
            return Truth(canBeTrue: left.canBeTrue || right.canBeTrue, canBeFalse: left.canBeFalse && right.canBeFalse)
        case .changed(let path):
            // At a commit's end, never judged here: see `Condition.mayHold(in:source:sequences:)`.
            guard !path.hasWildcard, case .key(let field)? = path.segments[0].components.first, let changed = steps.changedFields else { return .unknown }
            return Truth(canBeTrue: changed.contains(field), canBeFalse: true)
        case .compare(let left, let comparison, let right):
            guard let left = span(of: left), let right = span(of: right) else { return .unknown }
            return compare(left, comparison, right)
        case .literal, .path, .old, .step, .count:
            guard let span = span(of: node) else { return .unknown }
            return Truth(canBeTrue: span.holdsTrue, canBeFalse: true)
        }
    }

    /// The values a node can take at the steps; `nil` when it can take any.
    private func span(of node: Condition.Node) -> ValueSpan? {
        var span = ValueSpan()
        switch node {
        case .literal(let value):
            span.add(value)
        case .path(let path), .old(let path):
            // The summary covers the state each step starts from too, so `old` reads the same.
            var keys: [String] = []
            guard !path.hasWildcard else { return nil }
            for component in path.segments[0].components {
                guard case .key(let key) = component else { return nil }
                keys.append(key)
            }
            return steps.values[keys]
        case .step(.kind):
            span.texts = Set(steps.kinds.map(\.word))
        case .step(.name):
            guard let names = steps.names else { return nil }
            span.texts = names
        case .step(.seq):
            span.numbers = Double(sequences.lowerBound).nextDown...Double(sequences.upperBound).nextUp
        case .step(.source):
            guard let source else { return nil }
            span.texts = [source]
        case .step(.level):
            // A log's name is its level: the ranks of the levels among the block's names, and
            // `nil` for the block's other steps.
            guard steps.kinds.contains(.log) else {
                span.holdsNil = true
                break
            }
            guard let names = steps.names else { return nil }
            let ranks = names.compactMap { Logger.Level(rawValue: $0)?.rank }
            // A name that is no level (a crafted record) reads as no level.
            span.holdsNil = steps.kinds != [.log] || ranks.count < names.count
            if let low = ranks.min(), let high = ranks.max() { span.numbers = Double(low)...Double(high) }
        case .count:
            return nil
        case .not, .and, .or, .changed, .compare:
            let truth = truth(of: node)
            span.holdsTrue = truth.canBeTrue
            span.holdsFalse = truth.canBeFalse
        }
        return span
    }

    private func compare(_ left: ValueSpan, _ comparison: Condition.Comparison, _ right: ValueSpan) -> Truth {
        switch comparison {
        case .equal, .notEqual:
            let mayBeEqual = left.overlaps(right)
            var mayDiffer = true
            if let one = left.onlyValue, let other = right.onlyValue { mayDiffer = !Condition.compare(one, .equal, other) }
            return comparison == .equal
                ? Truth(canBeTrue: mayBeEqual, canBeFalse: mayDiffer) : Truth(canBeTrue: mayDiffer, canBeFalse: mayBeEqual)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            var possible = false
            if let mine = left.numbers, let theirs = right.numbers {
                possible = comparison == .less || comparison == .lessOrEqual
                    ? mine.lowerBound <= theirs.upperBound : mine.upperBound >= theirs.lowerBound
            }
            // Texts order by their characters; judged only when both sides list all of theirs.
            let leftTexts = left.holdsOtherTexts || !left.texts.isEmpty, rightTexts = right.holdsOtherTexts || !right.texts.isEmpty
            if leftTexts && rightTexts {
                if left.holdsOtherTexts || right.holdsOtherTexts {
                    possible = true
                } else {
                    possible = possible || left.texts.contains { mine in
                        right.texts.contains { Condition.compare(.string(mine), comparison, .string($0)) }
                    }
                }
            }
            return Truth(canBeTrue: possible, canBeFalse: true)
        }
    }
}
