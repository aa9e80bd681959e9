/// One step of a source's state through a journal: the one rule for "the state after a step".
///
/// An event with a state record sets its source's state (a keyframe) or changes it (a diff). A change
/// recorded inside a commit carries no record — the commit's `didMutate` does — so its new value is
/// put at its path: the state after a change step is the state with that change in it, not the state
/// before the commit.
package enum StateStep: Sendable, Equatable {
    /// A state record: a keyframe or a diff from the previous state.
    case record(StateRecord)
    /// A change without a record: `value` at the recorded `path`.
    case change(path: String, value: StateValue)

    /// The state after this step, given the state before it; `nil` when the step does not apply:
    /// a diff or change with no state before it, or a change whose place the recording could not
    /// name (`items[…].done`: Linux prints subscript key paths without their index), whose place
    /// is not in the state and is not a field missing from an object (a field Codable left out
    /// because it was `nil` is added, at the end of its object: see
    /// ``StateValue/settingOrAddingField(_:at:)``), or that sets a value to `nil` (Codable then
    /// leaves the field out while reflection keeps it as `nil`: only the commit's own record tells
    /// which). A diff that does not apply to the state before it gives `nil` too:
    /// the writer made every diff from that very state, so a diff that does not fit means the file
    /// was altered, and no state is better than a wrong one (the next keyframe brings it back).
    package func applied(to state: StateValue?) -> StateValue? {
        switch self {
        case .record(.keyframe(let tree)):
            return tree
        case .record(.diff(let changes)):
            guard let state else { return nil }
            return try? state.applying(changes)
        case .change(let text, let value):
            guard var state, let path = StatePath(recordedChange: text) else { return nil }
            return Self.apply(value, at: path, to: &state).applied ? state : nil
        }
    }

    /// Applies a change without a record — `value` at `path` — to `state` in place, by
    /// ``applied(to:)``'s rule; returns whether it applied, and what the path held just before
    /// (``ValueBefore``'s rule, `state[path]`, read on the way down rather than by a second walk
    /// of the path). `state` is left as it was when the change does not apply.
    static func apply(_ value: StateValue, at path: StatePath, to state: inout StateValue) -> (applied: Bool, old: ValueBefore) {
        // A scalar at a place the state has is set by an exchange: no diff is built and
        // applied, and the containers along the path are edited in place when no one else holds
        // them. A list or object goes through the diff, which keeps states within the depth a
        // reader accepts.
        if value != .null, !value.isContainer {
            if let old = state.exchange(value, at: path.components[...]) { return (true, .value(old)) }
            // No place there: the exchange left the state as it was.
            guard let added = state.settingOrAddingField(value, at: path) else { return (false, .absent) }
            state = added
            return (true, .absent)
        }
        let old = state[path].map(ValueBefore.value) ?? .absent
        if value == .null { return (old == .absent || old == .value(.null), old) }
        guard let set = state.settingOrAddingField(value, at: path) else { return (false, old) }
        state = set
        return (true, old)
    }

    /// Whether the step states the whole state, so nothing before it matters.
    package var isKeyframe: Bool {
        if case .record(.keyframe) = self { return true }
        return false
    }
}

extension StateStep {
    /// How an event of `kind` moves its source's state, if it does: by its state record, or, for a
    /// change without one, by its value at its path.
    package init?(kind: Event.Category, stateRecord: StateRecord?, path: String?, value: StateValue?) {
        if let stateRecord {
            self = .record(stateRecord)
        } else if kind == .change, let path {
            self = .change(path: path, value: value ?? .null)
        } else {
            return nil
        }
    }
}

extension RecordedEvent {
    /// How this event moves its source's state, if it does.
    package var stateStep: StateStep? {
        StateStep(kind: kind, stateRecord: stateRecord, path: path, value: value)
    }
}

/// Follows every source's state through a journal's events in order, for readers that need the state
/// after each step (blame, export, diffs of two recordings, the viewer's rows), by the one rule
/// every reader of a journal folds states with (see <doc:TheJournal>).
///
/// ```swift
/// var walker = StateWalker()
/// for event in reader.events() {
///     if let (before, after) = walker.advance(event) { print(event.sequence, before ?? .null, after) }
/// }
/// ```
public struct StateWalker: Sendable {
    private var folds: [UInt64: StateFold]

    /// Each source's state after the last event applied.
    public var states: [UInt64: StateValue] { folds.compactMapValues(\.current) }

    /// A walker that starts from these states, each known whole (empty: before the first event).
    public init(states: [UInt64: StateValue] = [:]) {
        folds = states.mapValues { StateFold(state: $0) }
    }

    /// A walker that starts from the folds a reader rebuilt (``JournalReader/stateFold(of:at:)``).
    package init(folds: [UInt64: StateFold]) {
        self.folds = folds
    }

    /// Applies the event's step; returns its source's state before and after it when the event moves
    /// the state (a change that does not apply, or a diff of an altered file, does not).
    @discardableResult
    public mutating func advance(_ event: RecordedEvent) -> (before: StateValue?, after: StateValue)? {
        guard let step = event.stateStep else { return nil }
        // One access to the source's fold, in place.
        return Self.advance(&folds[event.source.instanceID, default: StateFold()], by: step)
    }

    /// Applies a record's step, read in its block (see ``advance(_:)``).
    @discardableResult
    package mutating func advance(_ record: BlockRecords.Record) -> (before: StateValue?, after: StateValue)? {
        guard let step = record.stateStep else { return nil }
        return Self.advance(&folds[record.sourceID, default: StateFold()], by: step)
    }

    /// Applies a record's step, as ``advance(_:)-(BlockRecords.Record)`` does, and gives what its
    /// change's path held just before it, whether or not the change applied (``ValueBefore``, as
    /// `ValueBefore(of:in:)` gives it from the state before): read where the change is made
    /// rather than by a second walk of its path.
    @discardableResult
    package mutating func advance(
        _ record: BlockRecords.Record, old: inout ValueBefore
    ) -> (before: StateValue?, after: StateValue)? {
        advance(record.stateStep, of: record.sourceID, isChange: record.kind == .change, old: &old) { record.value(before: $0) }
    }

    /// The same for an event.
    @discardableResult
    package mutating func advance(
        _ event: RecordedEvent, old: inout ValueBefore
    ) -> (before: StateValue?, after: StateValue)? {
        advance(event.stateStep, of: event.source.instanceID, isChange: event.kind == .change, old: &old) { ValueBefore(of: event, in: $0) }
    }

    /// Applies `step` to `source`'s state, giving what its change's path held before it: read
    /// where a change inside a commit is made, and otherwise by `lookUp` in the state before (a
    /// change that carries a state record of its own; no other step has a path to look up).
    private mutating func advance(
        _ step: StateStep?, of source: UInt64, isChange: Bool, old: inout ValueBefore, lookUp: (StateValue?) -> ValueBefore
    ) -> (before: StateValue?, after: StateValue)? {
        old = .unknown
        guard let step else { return nil }
        if isChange, case .record = step { old = lookUp(folds[source]?.current) }
        return Self.advance(&folds[source, default: StateFold()], by: step, old: &old)
    }

    private static func advance(
        _ fold: inout StateFold, by step: StateStep, old: inout ValueBefore
    ) -> (before: StateValue?, after: StateValue)? {
        let before = fold.current
        guard fold.apply(step, old: &old), let after = fold.current else { return nil }
        return (before, after)
    }

    private static func advance(_ fold: inout StateFold, by step: StateStep) -> (before: StateValue?, after: StateValue)? {
        var old = ValueBefore.unknown
        return advance(&fold, by: step, old: &old)
    }

    /// Applies one step to one source's state; returns whether the state moved (a record that
    /// does not apply leaves the source without a state: see ``StateFold``). For readers that
    /// hold steps without their events, such as a shrunk session's.
    @discardableResult
    package mutating func apply(_ step: StateStep, to source: UInt64) -> Bool {
        // In place: the fold's trees are edited, not copied (a diff of one field would
        // otherwise copy every field).
        folds[source, default: StateFold()].apply(step)
    }

    /// Goes on for one source from a fold a reader rebuilt (``JournalReader/stateFold(of:at:)``),
    /// in place of what the walker had for it — for readers that skip steps and pick a source up
    /// again where they join it.
    package mutating func resume(_ source: UInt64, from fold: StateFold) {
        folds[source] = fold
    }

    /// The value a change's path holds now, before the change is applied: what the change moved
    /// it from (``ValueBefore``).
    ///
    /// ```swift
    /// let old = walker.value(before: event)   // .value(.integer(0)) for "count: 0 → 1"
    /// walker.advance(event)
    /// ```
    public func value(before event: RecordedEvent) -> ValueBefore {
        ValueBefore(of: event, in: folds[event.source.instanceID]?.current)
    }

    @available(*, deprecated, renamed: "value(before:)")
    public func valueBefore(_ event: RecordedEvent) -> StateValue?? {
        value(before: event).optional
    }

    @available(*, deprecated, message: "use ValueBefore(of:in:)")
    public static func valueBefore(_ event: RecordedEvent, in state: StateValue?) -> StateValue?? {
        ValueBefore(of: event, in: state).optional
    }

    /// A source's state now, if it has one.
    public func state(of source: UInt64) -> StateValue? {
        folds[source]?.current
    }

    /// A source's fold now — its recorded state and its current one — for a walker that goes on
    /// from it (``resume(_:from:)``).
    package func fold(of source: UInt64) -> StateFold? {
        folds[source]
    }

    /// A source's state as its state records left it, without the changes recorded inside a commit
    /// since: what the next diff applies to, and what replay compares a live unit with.
    package func recordedState(of source: UInt64) -> StateValue? {
        folds[source]?.recorded
    }
}
