/// Judges a flight recorder's conditions (``FlightRecorder/Configuration/conditions``) on the
/// journal's writer thread, at each state a unit settles in — a commit's end, a replaced state, a
/// unit's first state, a change made outside any commit — from the state the writer has just
/// recorded: the app's thread does nothing for them.
///
/// A condition fires when it becomes true on a unit: at the first state where it holds after one
/// where it did not (or the unit's first), not again while it goes on holding. A condition that
/// can hold only at one of the app's log messages (``Condition/holdsOnlyAtLogMessages``:
/// `level >= error`) is judged at each message instead, and fires at every message it holds at —
/// a message is an event, not a state that goes on holding (the recorder's rate limit keeps a
/// burst to one dump). Of a condition with both kinds of terms in its top-level `||`
/// (`level >= error || count > 1000000`), each term is judged where it can hold
/// (``Condition/atLogMessages``).
final class StateWatch: @unchecked Sendable {
    // Unchecked: `previous` and `holding` are used only by the journal's writer thread, the one
    // thread that encodes; `conditions` and `fired` are immutable.
    let conditions: [Condition]
    private let fired: @Sendable (_ condition: Condition, _ step: UInt64, _ source: String) -> Void
    private let readsBefore: Bool
    /// Each unit's state at its previous judged step, for conditions that read `old(…)` or `changed(…)`.
    private var previous: [UInt64: StateValue] = [:]
    /// Each unit's conditions that held at its previous judged step.
    private var holding: [UInt64: [Bool]] = [:]

    /// What of each condition is judged at the app's log messages, with the condition it is of.
    private let messageConditions: [(judged: Condition, condition: Condition)]

    init(conditions: [Condition], fired: @escaping @Sendable (_ condition: Condition, _ step: UInt64, _ source: String) -> Void) {
        self.conditions = conditions
        self.fired = fired
        readsBefore = conditions.contains(where: \.readsBefore)
        messageConditions = conditions.compactMap { condition in condition.atLogMessages.map { ($0, condition) } }
    }

    /// Whether any condition is judged at the app's log messages.
    var judgesMessages: Bool { !messageConditions.isEmpty }

    /// Judges the conditions that speak of log messages at one (`event`, of a logger: no state).
    func judgeMessage(_ event: RecordedEvent) {
        let step = ConditionStep(event: event, before: nil, after: nil)
        for (judged, condition) in messageConditions where judged.isTrue(at: step) {
            fired(condition, event.sequence, event.source.description)
        }
    }

    /// Judges the conditions at `event`, whose unit (`sourceID` in the journal) is now in `state`.
    func judge(_ event: RecordedEvent, sourceID: UInt64, state: StateValue) {
        let before = readsBefore ? previous[sourceID] : nil
        let step = ConditionStep(event: event, before: before, after: state)
        var held = holding[sourceID] ?? Array(repeating: false, count: conditions.count)
        for (index, condition) in conditions.enumerated() {
            let holds = condition.isTrue(at: step)
            if holds && !held[index] { fired(condition, event.sequence, event.source.description) }
            held[index] = holds
        }
        holding[sourceID] = held
        if readsBefore { previous[sourceID] = state }
    }

    /// Forgets a unit that was released.
    func forget(_ sourceID: UInt64) {
        previous[sourceID] = nil
        holding[sourceID] = nil
    }
}
