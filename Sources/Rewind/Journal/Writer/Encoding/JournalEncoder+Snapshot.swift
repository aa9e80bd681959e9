extension JournalEncoder {
    /// `replace` and `created` with a state: the whole state, captured.
    func snapshotStep(_ state: LoggedValue, track: inout SourceTrack) -> EncodedStep {
        track.reclaimState()
        track.liveState = state.value
        let tree = state.tree(options: configuration.captureOptions, reusing: track.lists)
        if track.commitDepth > 0 {
            track.derivedState = tree
            track.derivedChanges = nil
        }
        return EncodedStep(newState: tree)
    }
}
