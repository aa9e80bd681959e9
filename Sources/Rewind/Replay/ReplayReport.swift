/// What a replay found: how far it got, the first divergence if there was one, and where the
/// recording no longer fits today's types.
///
/// ```swift
/// let report = try replay.run()
/// if let divergence = report.divergence { print(divergence) }
/// ```
public struct ReplayReport: Sendable, CustomStringConvertible {
    /// The recorded inputs re-sent into live units.
    public var inputsReplayed = 0
    /// Steps whose recorded state was put back because they could not be re-sent (closures).
    public var stepsRestored = 0
    /// States compared with the recording.
    public var statesCompared = 0
    /// The first place the live units did not reach the recorded state; `nil` if they always did.
    public var divergence: Divergence?
    /// Where the recording no longer fits today's types; those paths are left out of comparisons.
    public var schemaProblems: [SchemaProblem] = []

    /// Creates an empty report.
    public init() {}

    /// Whether the replay reached every recorded state.
    public var isFaithful: Bool { divergence == nil }

    /// A summary line, the schema problems and the divergence report, as the test helpers print it.
    public var description: String {
        var lines = ["replayed \(inputsReplayed) inputs, compared \(statesCompared) states, restored \(stepsRestored) steps that could not be re-sent"]
        for problem in schemaProblems {
            lines.append("schema: \(problem)")
        }
        if let divergence {
            lines.append(divergence.description)
        } else {
            lines.append("no divergence")
        }
        return lines.joined(separator: "\n")
    }
}

/// The first step where a live unit's state differed from the recorded one: which step and unit,
/// the input that led there, and what differs.
public struct Divergence: Sendable, CustomStringConvertible {
    /// The step whose recorded state the live unit did not reach.
    public var step: UInt64
    /// What that step was (`didDispatch increment`, `change repositories`).
    public var event: String
    /// The unit, as the journal names it.
    public var source: String
    /// The last input re-sent into the unit before the divergence, if any.
    public var input: RecordedInput?
    /// The state the recording has at the step.
    public var recorded: StateValue
    /// The live unit's state.
    public var live: StateValue
    /// From the recorded state to the live one.
    public var difference: StateDiff

    public var description: String {
        var lines = ["replay diverged at step \(step) (\(source), \(event))"]
        if let input {
            lines.append("  after input \(input) (step \(input.step))")
        }
        lines.append("  recorded → live:")
        let rendered = DiffRenderer().render(from: recorded, to: live).split(separator: "\n", omittingEmptySubsequences: false)
        lines += rendered.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
