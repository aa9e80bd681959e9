extension JournalEncoder {
    /// `willMutate`: a commit starts from the state recorded before it.
    func mutationBegins(track: inout SourceTrack) -> EncodedStep {
        if track.commitDepth == 0 { track.lendStateToCommit() }
        track.commitDepth += 1
        return EncodedStep()
    }

    /// `didMutate`: the commit's duration, and the state after it.
    ///
    /// Capturing a whole state is the writer's biggest cost, and grows with the state. The state
    /// after a commit is the state before it with the commit's changes applied, when every change
    /// named a stored property: Swift key paths to computed properties and to properties with
    /// observers do not name themselves (they print as `<computed …>`), so a named write has no
    /// side effects — keyframes included, which a large state needs at the start of every block.
    /// Every ``captureInterval`` state records the real state is captured all the same: writes the
    /// changes did not show (inside a class instance the state holds) are then in the journal too.
    func mutationEnds(duration: Duration, state: LoggedValue, track: inout SourceTrack) -> EncodedStep {
        track.commitDepth = max(0, track.commitDepth - 1)
        track.liveState = state.value
        var step = EncodedStep(body: .duration(duration))
        if track.commitDepth == 0, let derived = track.derivedState, track.stateRecordsSinceCapture < Self.captureInterval {
            step.newState = derived
            step.knownChanges = track.derivedChanges.flatMap(Self.stateDiff)
        } else {
            step.newState = state.tree(options: configuration.captureOptions, reusing: track.lists)
            track.stateRecordsSinceCapture = 0
        }
        // Without the commit's changes, its state record compares the states before and after.
        if step.knownChanges == nil { track.reclaimState() }
        if track.commitDepth == 0 {
            track.derivedState = nil
            track.derivedChanges = nil
        }
        return step
    }
}

extension JournalEncoder {
    /// A commit's changes as a diff a reader applies in one go, when they are one change (or
    /// none): several changes would need the order a diff keeps (by index within a list), so their
    /// state is compared whole instead.
    static func stateDiff(_ changes: [StateChange]) -> StateDiff? {
        changes.count <= 1 ? StateDiff(changes: changes) : nil
    }
}

extension WireRecord.Body {
    /// A `didDispatch`'s or `didMutate`'s duration, in whole nanoseconds (a negative one as 0).
    static func duration(_ duration: Duration) -> Self {
        .duration(UInt64(max(0, duration.nanoseconds)))
    }
}
