/// A recording cut into the inputs a replay re-sends and the events each one caused, so that a
/// shrink can take inputs out and replay the rest.
///
/// An input is a top-level dispatch of a bound unit (as ``ReplayRun`` re-sends them). It owns its
/// dispatch, everything its unit did inside it, and every later event whose parent link leads back
/// to it (a commit made through the dispatch's context, a dispatch it made in another unit).
/// Events no input owns — units being created and released, work the units did on their own — are
/// the background every candidate keeps.
struct ShrinkableSession {
    /// One input and where it stands.
    struct Input {
        /// The input's dispatch.
        let dispatch: RecordedEvent
        /// The units whose state it changes, its own first: those a reduction puts back before it.
        var units: [UInt64]

        var recordedInput: RecordedInput {
            RecordedInput(name: dispatch.name, value: dispatch.value, step: dispatch.sequence)
        }
    }

    /// The recording's events in step order; each state record is the whole state (a keyframe), so
    /// that any subset of them folds to the recorded states.
    let events: [RecordedEvent]
    /// The inputs, in step order.
    let inputs: [Input]
    /// For each event, the input that owns it (an index into ``inputs``), or `nil`.
    private let owners: [Int?]

    /// Cuts `events` (in step order) into inputs of the `bound` units.
    init(events recorded: [RecordedEvent], bound: Set<UInt64>) {
        var events: [RecordedEvent] = []
        var inputs: [Input] = []
        var owners: [Int?] = []
        events.reserveCapacity(recorded.count)
        owners.reserveCapacity(recorded.count)
        var ownerByStep: [UInt64: Int] = [:]
        var open: [UInt64: (input: Int, depth: Int)] = [:]
        var states = StateWalker()
        for var event in recorded {
            let id = event.source.instanceID
            var owner = event.parent.flatMap { ownerByStep[$0] } ?? open[id]?.input
            if event.kind == .willDispatch {
                if var window = open[id] {
                    window.depth += 1
                    open[id] = window
                } else if let owner {
                    open[id] = (owner, 1)
                } else if bound.contains(id) {
                    owner = inputs.count
                    inputs.append(Input(dispatch: event, units: [id]))
                    open[id] = (owner!, 1)
                }
            } else if event.kind == .didDispatch, var window = open[id] {
                window.depth -= 1
                open[id] = window.depth == 0 ? nil : window
            }
            if let step = event.stateStep {
                if let owner, !inputs[owner].units.contains(id) { inputs[owner].units.append(id) }
                states.apply(step, to: id)
                if event.stateRecord != nil { event.stateRecord = states.recordedState(of: id).map(StateRecord.keyframe) }
            }
            if let owner { ownerByStep[event.sequence] = owner }
            events.append(event)
            owners.append(owner)
        }
        self.events = events
        self.inputs = inputs
        self.owners = owners
    }

    /// The input that owns the event at `step`, if any.
    func owner(ofStep step: UInt64) -> Int? {
        let low = events.indices.partitionPoint { events[$0].sequence >= step }
        guard low < events.count, events[low].sequence == step else { return nil }
        return owners[low]
    }

    /// The events of a recording that keeps only the inputs `kept` (indices into ``inputs``),
    /// numbered afresh from 1 with their parent links renumbered — or, `keepingSteps`, each at
    /// ``candidateStep(of:)`` (the states put back just before), so that a replay's report of a
    /// reduction still tells which recorded step it speaks of (``recordedStep(of:)``).
    ///
    /// - Parameter restoringBeforeInputs: puts back, before each kept input, the recorded state of
    ///   every unit it changes (its own, and units its effects reach: a reaction's recount) where
    ///   the reduction left that unit elsewhere (a `replace` named `restore`), so that each input is
    ///   judged from the states it had in the recording, and every state the reduction records is
    ///   one the app had: how a divergence is shrunk.
    func events(keeping kept: Set<Int>, restoringBeforeInputs: Bool, keepingSteps: Bool = false) -> [RecordedEvent] {
        var result: [RecordedEvent] = []
        var renumbered: [UInt64: UInt64] = [:]
        // Each unit's state as the reduction leaves it, and as the recording had it.
        var lastState: [UInt64: StateValue] = [:]
        var recordedState: [UInt64: StateValue] = [:]
        var sources: [UInt64: RecordedSource] = [:]
        var inputIndex = 0
        for (position, original) in events.enumerated() {
            let id = original.source.instanceID
            sources[id] = sources[id] ?? original.source
            defer { if case .keyframe(let state) = original.stateRecord { recordedState[id] = state } }
            let startsInput = inputIndex < inputs.count && inputs[inputIndex].dispatch.sequence == original.sequence
            if startsInput { inputIndex += 1 }
            if let owner = owners[position], !kept.contains(owner) { continue }
            var event = original
            if restoringBeforeInputs, startsInput {
                var slot = UInt64(min(inputs[inputIndex - 1].units.count, Self.restoreSlots))
                for unit in inputs[inputIndex - 1].units.prefix(Self.restoreSlots) {
                    guard let before = recordedState[unit], lastState[unit] != before, let source = sources[unit] else { continue }
                    var restore = original
                    restore.source = source
                    restore.sequence = keepingSteps ? Self.candidateStep(of: original.sequence) &- slot : UInt64(result.count + 1)
                    slot -= 1
                    restore.kind = .replace
                    restore.name = "restore"
                    restore.description = "the recorded state before step \(original.sequence)"
                    restore.parent = nil
                    restore.file = ""
                    restore.function = ""
                    restore.line = 0
                    restore.value = nil
                    restore.duration = nil
                    restore.stateRecord = .keyframe(before)
                    lastState[unit] = before
                    result.append(restore)
                }
            }
            let sequence = keepingSteps ? Self.candidateStep(of: event.sequence) : UInt64(result.count + 1)
            renumbered[event.sequence] = sequence
            event.sequence = sequence
            event.parent = event.parent.flatMap { renumbered[$0] }
            if case .keyframe(let state) = event.stateRecord { lastState[id] = state }
            result.append(event)
        }
        return result
    }

    /// How many units' states a reduction may put back before one input, each at a step of its
    /// own below the input's (``candidateStep(of:)``); an input that changes more units is judged
    /// from the recorded states of its first ones.
    static let restoreSlots = 255

    /// The step of a reduction's event (made `keepingSteps`) for recorded step `step`: room for
    /// ``restoreSlots`` states put back below it. Wrapping: a file may number its steps up to 2⁶⁴;
    /// such a step is told apart less well, never a crash.
    static func candidateStep(of step: UInt64) -> UInt64 {
        step &<< 8
    }

    /// The recorded step a reduction's event (made `keepingSteps`) at `step` stands for: its own,
    /// or for a state put back, the input's it comes before.
    static func recordedStep(of step: UInt64) -> UInt64 {
        (step >> 8) &+ (step & 0xFF == 0 ? 0 : 1)
    }
}
