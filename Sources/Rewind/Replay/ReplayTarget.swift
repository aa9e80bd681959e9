/// A live unit a recorded session can be replayed into: a Cycler view model, a Ricemill machine, a
/// Unio stream or a Flask substance, each through its framework's `replayTarget`.
///
/// The replay reads the unit's state to compare it with the recording, puts a recorded state back
/// where the recording holds something it cannot re-send (a closure), and re-sends the recorded
/// inputs.
public protocol ReplayTarget: AnyObject {
    /// The unit's state now, captured as a journal records it.
    func currentState() -> StateValue

    /// Puts the unit into `state` (recorded by an earlier run, maybe of older code).
    ///
    /// - Throws: `DecodingError` when the state no longer fits today's type (its coding path says
    ///   where), or ``ReplayError/notRestorable(_:)`` when the unit's state cannot be set from
    ///   outside.
    func restore(to state: StateValue) throws

    /// Sends one recorded input into the unit, as the recording's dispatch did.
    ///
    /// - Returns: `false` when the dispatch cannot be re-sent (it ran a closure, or the input is
    ///   unknown to today's type); the replay then puts back the state the recording reached.
    /// - Throws: `DecodingError` when the recorded value no longer fits the input's type.
    func replay(_ input: RecordedInput) throws -> Bool

    /// Sends the unit's events to `logger` (`nil`: back to the default), as the framework's own
    /// `set(logger:)` does: ``Replay/rerecord(droppingUnboundSources:)`` records the live units through it.
    func set(logger: (any CycleLogging)?)

    /// The shape of the unit's state type today, to compare with the one the journal recorded when
    /// the unit was created. `nil` (the default) leaves the comparison to the recorded values.
    func stateSchema() -> TypeSchema?

    /// What stops `input` from being re-sent on this build — it no longer decodes as today's input
    /// type — checked before anything is sent, so that a replay is refused rather than half run.
    /// `nil` (the default) when it can be sent, or when the target cannot tell.
    func inputProblem(_ input: RecordedInput) -> SchemaProblem?
}

extension ReplayTarget {
    /// No schema: the replay compares the recorded values' fields and kinds instead.
    public func stateSchema() -> TypeSchema? { nil }

    /// No check before sending: an input that does not decode is reported when it is sent.
    public func inputProblem(_ input: RecordedInput) -> SchemaProblem? { nil }


}

/// One input as the journal recorded it: the dispatch's name (the input property, the mixer, the
/// action's case) and the value it carried.
public struct RecordedInput: Sendable, Equatable, CustomStringConvertible {
    /// The dispatch's name.
    public var name: String
    /// The value it carried, if any.
    public var value: StateValue?
    /// The step of the dispatch.
    public var step: UInt64

    /// Creates an input.
    public init(name: String, value: StateValue?, step: UInt64) {
        self.name = name
        self.value = value
        self.step = step
    }

    /// `name value` as the log shows it.
    public var description: String {
        value.map { "\(name) \($0.compactDescription(limit: 80))" } ?? name
    }
}

/// Why a replay could not run (as opposed to running and finding a divergence, which a
/// ``ReplayReport`` tells).
public enum ReplayError: Error, Equatable, CustomStringConvertible {
    /// No source of the journal has this name; `known` lists those it has.
    case unknownSource(String, known: [String])
    /// Several sources match the name; use `Type#id`.
    case ambiguousSource(String, candidates: [String])
    /// The journal has no state for the source at that step.
    case noState(source: String, step: UInt64)
    /// The recorded state does not fit today's type.
    case schemaMismatch([SchemaProblem])
    /// Recorded inputs were redacted and no value was supplied for them (see ``ReplaySecrets``).
    case missingSecrets([MissingSecret])
    /// The unit's state cannot be set from outside.
    case notRestorable(String)
    /// The journal cannot be read.
    case unreadableJournal(String)
    /// Re-recording could not write the new journal.
    case cannotRecord(String)
    /// A shrink could not start: the replay passes, fails in a way it cannot hold on to, or the
    /// output would be the recording itself.
    case cannotShrink(String)

    public var description: String {
        switch self {
        case .unknownSource(let name, let known):
            "no source '\(name)' in the journal; it has: \(known.joined(separator: ", "))"
        case .ambiguousSource(let name, let candidates):
            "'\(name)' matches several sources: \(candidates.joined(separator: ", ")); name one as Type#id"
        case .noState(let source, let step):
            "\(source) has no state at step \(step)"
        case .schemaMismatch(let problems):
            "the recorded state does not fit today's type: " + problems.map(\.description).joined(separator: "; ")
        case .missingSecrets(let missing):
            "recorded inputs were redacted and no value was supplied: " + missing.map(\.description).joined(separator: "; ")
        case .notRestorable(let reason):
            "the state cannot be restored: \(reason)"
        case .unreadableJournal(let reason):
            reason
        case .cannotRecord(let reason):
            "cannot re-record the journal: \(reason)"
        case .cannotShrink(let reason):
            "cannot shrink the recording: \(reason)"
        }
    }
}
