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
    public func mayHold(in steps: BlockSummary.Source, source: String, sequences: ClosedRange<UInt64>) -> Bool {
        SummaryJudge(steps: steps, source: source, sequences: sequences).truth(of: root).canBeTrue
    }
}

/// Judges a condition over every step a summary covers at once: what each node can be at some
/// step (a span of values, or anything), and whether a node can be true or false.
private struct SummaryJudge {
    let steps: BlockSummary.Source
    let source: String
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
            guard case .key(let field)? = path.components.first, let changed = steps.changedFields else { return .unknown }
            return Truth(canBeTrue: changed.contains(field), canBeFalse: true)
        case .compare(let left, let comparison, let right):
            guard let left = span(of: left), let right = span(of: right) else { return .unknown }
            return compare(left, comparison, right)
        case .literal, .path, .old, .step:
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
            for component in path.components {
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
            span.texts = [source]
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
