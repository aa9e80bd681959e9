/// What the journal's writer remembers about one source between its events.
struct SourceTrack {
    /// The state as of the source's last state record.
    var state: StateValue?
    var stateRecordsSinceKeyframe = 0
    /// State records since the state was last captured rather than derived from changes.
    var stateRecordsSinceCapture = 0
    var keyframedInBlock = false
    var commitDepth = 0
    /// During a commit: the state so far, rebuilt from the state before it and the changes the
    /// commit made; `nil` once a change could not be applied (see ``JournalEncoder/changeStep(_:value:state:track:)``).
    var derivedState: StateValue?
    /// During a commit: the changes that made `derivedState` from the state before it, while they
    /// are known to be all its changes; `nil` once one is not (a captured state, a list).
    var derivedChanges: [StateChange]?
    /// During a commit whose changes were all set in place: `state` was lent to `derivedState`
    /// (one tree, changed in place, instead of a copy of it made at every commit), and these are
    /// the values the changes replaced, to give it back (``reclaimState()``). `nil` when `state`
    /// is the source's own.
    private(set) var lentStateUndo: [(path: StatePath, old: StateValue)]?
    /// The undo list of the last commit, emptied, kept for the next one's: a new list per commit
    /// allocates at its first change.
    private var spareUndo: [(path: StatePath, old: StateValue)] = []
    /// The live state as of the last event that carried one, to resolve a subscript change's
    /// index and to capture a list-valued change by comparing live values rather than trees.
    /// Kept only for sources whose changes need it (`keepsLiveState`): holding a state keeps its
    /// buffers shared, so the app's next in-place write to them copies them.
    var liveState: Any? {
        get { keptLiveState }
        set { if keepsLiveState { keptLiveState = newValue } }
    }
    private var keptLiveState: Any?
    /// Set at the source's first subscript or list-valued change.
    var keepsLiveState = false
    /// The lists the source's last state capture met, to capture the next one by what changed.
    let lists = ListMemory()
    /// State records since the state's size was last measured (see `EventSource.measuredStateBytes`).
    var stateRecordsSinceMeasure = Int.max
    /// The state's size, measured at the last state record, until the encoder hands it on.
    var measuredStateBytes: Int?
    /// What the source's steps in the open block can hold, for the block's summary.
    var summary = SourceSummaryRecorder()

    /// Changes since the source's last state record that carry no record of their own (a reader
    /// puts them on top of that record's state), counted for the next block's summary.
    var changesSinceRecord = 0
    /// The top-level fields those changes set; `nil` when one of them was not a field's (or
    /// named no place). A block that starts between them and the next record notes them as
    /// changed: that record is made from the last recorded state, so it may set them back.
    var fieldsChangedSinceRecord: [String]? = []
    /// Whether `derivedState` is the state a reader folds: the recorded state with the commit's
    /// changes put at their paths by the reader's own rule (``StateValue/setting(_:at:)``, or an
    /// in-place exchange at a place that exists, which gives the same tree). Not when a captured
    /// state took its place.
    var derivedIsReaderView = false
    /// Set when a change outside a commit carried no record, or the source was released (a reader
    /// keeps its last state after that; this writer does not): the next block's summary tracks no
    /// path for the source, until its next record.
    var stateAsReadIsUnknown = false

    /// Notes a step's effect on the state a reader folds: a state record replaces it, a change
    /// without one (at `changedPath`, `.some(nil)` when it named no place) is put on top of it.
    mutating func noteReaderStep(recorded: Bool, changedPath: StatePath??) {
        if recorded {
            changesSinceRecord = 0
            // Kept with its capacity: most commits change a field, and this runs at each of them.
            if fieldsChangedSinceRecord == nil { fieldsChangedSinceRecord = [] } else { fieldsChangedSinceRecord!.removeAll(keepingCapacity: true) }
            stateAsReadIsUnknown = false
        } else if let changedPath {
            changesSinceRecord += 1
            if commitDepth == 0 { stateAsReadIsUnknown = true }
            if case .key(let field)? = changedPath?.components.first {
                if fieldsChangedSinceRecord?.contains(field) == false { fieldsChangedSinceRecord!.append(field) }
            } else {
                fieldsChangedSinceRecord = nil
            }
        }
    }

    /// Starts the source's summary in a new block from the state it enters with, as a reader
    /// folds it: the last recorded state, or while a commit has made changes, the commit's derived
    /// state when it is the reader's view. Otherwise the block tracks no path for the source.
    mutating func startSummary() {
        if stateAsReadIsUnknown {
            summary.start(entering: nil)
        } else if changesSinceRecord == 0 {
            // While a commit borrows the recorded state without having changed it, the derived
            // state is that state.
            if let recorded = state ?? derivedState {
                summary.start(entering: .some(recorded))
            } else {
                summary.start(entering: hasState ? nil : .some(nil))
            }
        } else if commitDepth > 0, derivedIsReaderView, let derivedState {
            summary.start(entering: .some(derivedState))
        } else {
            summary.start(entering: nil)
        }
        if changesSinceRecord > 0 { summary.enteredWithUnrecordedChanges(to: fieldsChangedSinceRecord) }
    }

    /// Whether the source has a recorded state (lent to the running commit or not).
    var hasState: Bool { state != nil || lentStateUndo != nil }

    /// Starts a commit's derived state from the recorded state, lending it rather than sharing it.
    mutating func lendStateToCommit() {
        derivedState = state
        derivedChanges = []
        derivedIsReaderView = true
        guard state != nil else { return }
        state = nil
        lentStateUndo = spareUndo
        spareUndo = []
    }

    /// Sets `value` at `path` in the lent state, in place; `false` (nothing changed) when the
    /// state is not lent or the path leads nowhere.
    mutating func setInPlace(_ value: StateValue, at path: StatePath) -> Bool {
        guard lentStateUndo != nil, derivedState != nil, let old = derivedState!.exchange(value, at: path.components[...]) else { return false }
        lentStateUndo!.append((path, old))
        if old != value { derivedChanges?.append(StateChange(path: path, operation: .changed(from: .null, to: value))) }
        return true
    }

    /// Gives the recorded state back, if it was lent: the derived state with the values its
    /// changes replaced put back (which copies the containers along their paths).
    mutating func reclaimState() {
        guard var undo = lentStateUndo.take() else { return }
        var previous = derivedState
        for (path, old) in undo.reversed() { _ = previous?.exchange(old, at: path.components[...]) }
        state = previous
        undo.removeAll(keepingCapacity: true)
        spareUndo = undo
    }

    /// Ends the lending: the state recorded after the commit replaces the lent one.
    mutating func endLending() {
        guard var undo = lentStateUndo.take() else { return }
        undo.removeAll(keepingCapacity: true)
        spareUndo = undo
    }

    /// The state the source's next change applies to: the commit's so far inside a commit, the
    /// last recorded one outside.
    var stateBeforeChange: StateValue? {
        commitDepth > 0 ? derivedState : state
    }
}

/// What one event adds to its record besides the fields every record has: its body, and the
/// whole state after it when it carries one (from which the state record is made).
struct EncodedStep {
    var body: WireRecord.Body = .none
    var newState: StateValue?
    /// What changed from the source's last state to `newState`, when the step knows it — the
    /// state record is then made from it rather than by comparing the two trees whole.
    var knownChanges: StateDiff?
    /// A change's place and new value, which a reader puts into the state when the event carries
    /// no state record.
    var change: (path: StatePath?, value: StateValue)?
}
