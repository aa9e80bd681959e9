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
    /// The steps whose recorded state was put back instead of reproduced: dispatches that could not
    /// be re-sent (closures) and states the live units never reached on their own. Nothing about
    /// them was checked.
    public var restoredSteps: [RestoredStep] = []
    /// In a re-record, the steps the live code did not produce and that were not put back either
    /// (a re-record writes only what today's code does): a dispatch that cannot be re-sent is not
    /// in the new journal. Empty in a check.
    public var skippedSteps: [RestoredStep] = []
    /// States compared with the recording.
    public var statesCompared = 0
    /// The first place the live units did not reach the recorded state; `nil` if they always did.
    public var divergence: Divergence?
    /// The first live state that broke one of the replay's invariants.
    public var invariantViolation: InvariantViolation?
    /// How many times an invariant was checked (a live state it applies to).
    public var invariantChecks = 0
    /// Where the recording no longer fits today's types; those paths are left out of comparisons.
    public var schemaProblems: [SchemaProblem] = []
    /// Whether the replay was refused before anything was sent: a recorded input no longer decodes
    /// as today's input type (``schemaProblems`` say which and how), or was redacted with no value
    /// supplied (``missingSecrets``), and a half-run replay would prove nothing.
    public var wasRefused = false
    /// The redacted inputs the replay had no value for (see ``ReplaySecrets``).
    public var missingSecrets: [MissingSecret] = []
    /// Answers the recording has (work an input started, arriving on its own: a server's reply)
    /// that the live app never scheduled: when the replay reached each, the live unit had not
    /// moved and nothing was waiting on the replay's clock.
    public var unscheduledAnswers: [UnscheduledAnswer] = []

    /// Creates an empty report.
    package init() {}

    /// How many steps had their recorded state put back.
    public var stepsRestored: Int { restoredSteps.count }

    /// Whether the replay reached every recorded state it compared.
    public var isFaithful: Bool { divergence == nil }

    /// Whether the replay passes as a regression test: no divergence, no broken invariant, no schema
    /// problem and — unless `allowRestoring` — no recorded state put back without being reproduced.
    public func passes(allowRestoring: Bool = false) -> Bool {
        !wasRefused && divergence == nil && invariantViolation == nil && schemaProblems.isEmpty && unscheduledAnswers.isEmpty
            && (allowRestoring || restoredSteps.isEmpty)
    }

    /// A summary line, then what was put back, the schema problems, and the divergence or broken
    /// invariant: the paragraph the test helpers print.
    public var description: String {
        if !missingSecrets.isEmpty {
            let lines = ["refused to replay: recorded inputs were redacted and no value was supplied for them, and nothing was sent"]
                + missingSecrets.map { "secret: \($0)" }
            return lines.joined(separator: "\n")
        }
        if wasRefused {
            let lines = ["refused to replay: recorded inputs no longer decode as today's types, and nothing was sent"]
                + schemaProblems.map { "schema: \($0)" }
            return lines.joined(separator: "\n")
        }
        var lines = ["replayed \(inputsReplayed) inputs, compared \(statesCompared) states, restored \(stepsRestored) state\(stepsRestored == 1 ? "" : "s") without reproducing \(stepsRestored == 1 ? "it" : "them")"]
        for restored in restoredSteps {
            lines.append("restored: \(restored)")
        }
        for skipped in skippedSteps {
            lines.append("not re-recorded: \(skipped)")
        }
        for problem in schemaProblems {
            lines.append("schema: \(problem)")
        }
        for answer in unscheduledAnswers {
            lines.append(answer.description)
        }
        if let invariantViolation {
            lines.append(invariantViolation.description)
        }
        if let divergence {
            lines.append(divergence.description)
        } else {
            lines.append("no divergence")
        }
        return lines.joined(separator: "\n")
    }
}

/// A recorded answer the live app never scheduled (see ``ReplayReport/unscheduledAnswers``).
public struct UnscheduledAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The answer's step.
    public var step: UInt64
    /// Its unit, as the journal names it.
    public var source: String
    /// What it was (`didDispatch syncFinished`).
    public var event: String
    /// The re-sent input whose work it was, if the replay knows it.
    public var input: RecordedInput?

    /// `answer never scheduled: step 333 (board, didDispatch syncFinished), the work of input startSync (step 302): …`.
    public var description: String {
        "answer never scheduled: step \(step) (\(source), \(event))" + (input.map { ", the work of input \($0.name) (step \($0.step))" } ?? "")
            + ": the live app had nothing waiting on the replay's clock"
    }
}

/// A step whose recorded state a replay put back because the live code did not produce it.
public struct RestoredStep: Sendable, Equatable, CustomStringConvertible {
    /// Why the state was put back.
    public enum Reason: Sendable, Equatable {
        /// The dispatch of this name could not be re-sent: it ran a closure, or its input is unknown
        /// to today's code.
        case notResent(dispatch: String)
        /// The live unit never reached this state on its own (work the recording did outside any
        /// re-sent input, such as a commit from a closure that was not re-run).
        case notReproduced
    }

    /// The step whose state was put back.
    public var step: UInt64
    /// The unit, as the journal names it.
    public var source: String
    /// What the step was (`didDispatch checkout`, `didMutate finish`).
    public var event: String
    /// The state paths the live unit had wrong before the state was put back.
    public var paths: [String]
    /// Why.
    public var reason: Reason

    /// Creates a restored step.
    package init(step: UInt64, source: String, event: String, paths: [String], reason: Reason) {
        self.step = step
        self.source = source
        self.event = event
        self.paths = paths
        self.reason = reason
    }

    /// `step 12 (Cart#1, didMutate finish): orderID — not reproduced by the live unit`.
    public var description: String {
        let why = switch reason {
        case .notResent(let dispatch): "dispatch '\(dispatch)' cannot be re-sent"
        case .notReproduced: "not reproduced by the live unit"
        }
        return "step \(step) (\(source), \(event)): \(paths.joined(separator: ", ")) — \(why)"
    }
}

/// A live state that broke an invariant of the replay.
public struct InvariantViolation: Sendable, CustomStringConvertible {
    /// The step after which the live state broke it.
    public var step: UInt64
    /// What that step was.
    public var event: String
    /// The unit.
    public var source: String
    /// The invariant's description.
    public var invariant: String
    /// The live state that broke it.
    public var state: StateValue

    public var description: String {
        "invariant \(invariant.isEmpty ? "" : "'\(invariant)' ")broken at step \(step) (\(source), \(event)): \(state.compactDescription(limit: 200))"
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
        // What differs, with its context, at a size that scales with the difference: a list of
        // 800 elements that differs in one is not 800 lines of a test's failure message.
        lines += rendered.prefix(Self.shownLines).map { "  " + $0 }
        if rendered.count > Self.shownLines {
            let paths = difference.changedPaths
            lines.append("  … \(rendered.count - Self.shownLines) more lines left out; \(paths.count) path\(paths.count == 1 ? "" : "s") differ in all: "
                + paths.prefix(8).map(\.description).joined(separator: ", ") + (paths.count > 8 ? ", …" : "")
                + " (the whole difference: `difference`, `recorded` and `live` of the report's divergence)")
        }
        return lines.joined(separator: "\n")
    }

    /// The most lines of the rendered difference ``description`` shows.
    package static let shownLines = 60
}
