extension JournalEncoder {
    /// A keyframe at a source's first state in each block, every `keyframeInterval` state records,
    /// and whenever the diff would be larger than the state; otherwise the diff (or nothing, when
    /// nothing changed).
    private func needsKeyframe(_ track: SourceTrack) -> Bool {
        !track.hasState || !track.keyframedInBlock || track.stateRecordsSinceKeyframe >= configuration.keyframeInterval
    }

    /// How many state records may be derived from changes before the real state is captured again.
    static let captureInterval = 1_024

    /// The state record for a source's new state, after the previous one: a keyframe or a diff.
    func stateRecord(for track: inout SourceTrack, newState: StateValue, knownChanges: StateDiff? = nil) -> StateRecord? {
        defer {
            track.state = newState
            track.endLending()
            // A record inside a commit (a nested commit's end, a replacement) moves the state the
            // commit's changes were derived from: the commit's own state is then captured whole.
            if track.commitDepth > 0 {
                track.derivedState = nil
                track.derivedChanges = nil
            }
        }
        measureStateSize(newState, track: &track)
        track.stateRecordsSinceCapture += 1
        // A commit's known changes need no state before it; otherwise the state was given back.
        guard !needsKeyframe(track), let changes = knownChanges ?? track.state.map({ StateDiff(from: $0, to: newState) }) else {
            track.keyframedInBlock = true
            track.stateRecordsSinceKeyframe = 0
            track.summary.recorded(newState, changes: knownChanges, previous: track.state)
            return .keyframe(newState)
        }
        if changes.isEmpty { return nil }
        track.summary.recorded(newState, changes: changes, previous: nil)
        track.stateRecordsSinceKeyframe += 1
        if !newState.weighs(moreThan: changes.weight - 1) {
            track.stateRecordsSinceKeyframe = 0
            return .keyframe(newState)
        }
        return .diff(changes)
    }
}

extension JournalEncoder {
    /// How many state records pass between two measures of a source's state size: measuring walks
    /// the whole tree.
    static let stateMeasureInterval = 256

    /// The bytes a state is counted for in the queue (``JournalConfiguration/queueByteLimit``):
    /// an estimate, per node of its tree.
    static let bytesPerStateNode = 16

    /// Measures the state's size now and then, for the queue's byte bound.
    private func measureStateSize(_ state: StateValue, track: inout SourceTrack) {
        guard track.stateRecordsSinceMeasure >= Self.stateMeasureInterval else {
            track.stateRecordsSinceMeasure += 1
            return
        }
        track.stateRecordsSinceMeasure = 0
        track.measuredStateBytes = state.weight * Self.bytesPerStateNode
    }
}

extension StateValue {
    /// A rough size, in nodes, for choosing between a keyframe and a diff.
    var weight: Int {
        switch self {
        case .array(let elements): 1 + elements.reduce(0) { $0 + $1.weight }
        case .object(let fields): 1 + fields.values.reduce(0) { $0 + 1 + $1.weight }
        default: 1
        }
    }

    /// Whether the tree's rough size, in nodes, is above `limit` — counting only until it is, since
    /// a small diff is compared with a large state on every commit.
    func weighs(moreThan limit: Int) -> Bool {
        var budget = limit
        return exhausts(&budget)
    }

    /// Takes this tree's nodes from `budget`; `true` once it runs out.
    private func exhausts(_ budget: inout Int) -> Bool {
        budget -= 1
        if budget < 0 { return true }
        switch self {
        case .array(let elements):
            return elements.contains { $0.exhausts(&budget) }
        case .object(let fields):
            return fields.values.contains { value in
                budget -= 1
                return budget < 0 || value.exhausts(&budget)
            }
        default:
            return false
        }
    }
}

extension StateDiff {
    /// A rough size, in nodes, for choosing between a keyframe and a diff.
    var weight: Int {
        changes.reduce(0) { $0 + 1 + $1.path.components.count + ($1.newValue?.weight ?? 0) }
    }
}
