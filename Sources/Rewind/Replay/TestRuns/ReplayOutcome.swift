import Foundation

/// What one replay in a test run came to, as the test helpers report it to the command line:
/// `rewind replay` turns a run's outcomes into `git bisect run`'s exit codes, and `rewind shrink`
/// judges each reduced recording by them.
///
/// The helpers append one JSON line per replay to the file the environment variable
/// `REWIND_REPLAY_OUTCOME` names, when it is set; nothing is written otherwise.
package struct ReplayOutcome: Codable, Sendable, Equatable {
    /// What the replay found.
    package enum Verdict: String, Codable, Sendable {
        /// It matched the recording (and met every invariant).
        case passed
        /// It diverged, broke an invariant, or put back states it was told not to.
        case failed
        /// It could not run on this build: the recording no longer fits today's types, or a unit
        /// it names is missing.
        case cannotReplay = "cannot-replay"
    }

    /// The recording the test named, as an absolute path.
    package var journal: String
    package var verdict: Verdict
    /// How it failed, when it diverged or broke an invariant.
    package var failure: ReplayFailure?
    /// The step it failed at.
    package var failedAtStep: UInt64?
    /// The state paths that differed, when it diverged.
    package var divergentPaths: [String] = []
    /// The step of the input it diverged after, when it diverged.
    package var divergedAfterInput: UInt64?
    /// The difference it diverged with (``ShrinkSearch/text(of:)``), when it diverged.
    package var difference: String?
    /// The sources the test bound units to, by instance ID.
    package var boundSources: [UInt64]
    /// The names the test bound its units under.
    package var bindings: [String] = []
    /// The descriptions of the test's invariants, for the test a shrink suggests.
    package var invariants: [String] = []
    /// Whether the test ran its units on a virtual clock (`clock:`), which the suggested test
    /// must pass too.
    package var usesClock = false
    /// The dispatches that could not be re-sent, by the step of their end.
    package var notResentSteps: [UInt64]
    /// The report's first line, or why the replay could not run.
    package var summary: String

    /// The environment variable naming the file outcomes are appended to.
    package static let environmentVariable = "REWIND_REPLAY_OUTCOME"

    package init(
        journal: String, verdict: Verdict, failure: ReplayFailure? = nil, failedAtStep: UInt64? = nil,
        boundSources: [UInt64] = [], notResentSteps: [UInt64] = [], summary: String
    ) {
        self.journal = URL(fileURLWithPath: journal).standardized.path
        self.verdict = verdict
        self.failure = failure
        self.failedAtStep = failedAtStep
        self.boundSources = boundSources
        self.notResentSteps = notResentSteps
        self.summary = summary
    }

    /// The outcome of a replay that ran: `passes` is the test's own judgement of `report`.
    package init(journal: String, report: ReplayReport, passes: Bool, replay: Replay) {
        let notResent = report.restoredSteps.compactMap { restored -> UInt64? in
            if case .notResent = restored.reason { return restored.step }
            return nil
        }
        self.init(
            journal: journal, verdict: passes ? .passed : .failed, failure: ReplayFailure(report),
            failedAtStep: report.invariantViolation?.step ?? report.divergence?.step,
            boundSources: replay.targets.keys.sorted(), notResentSteps: notResent,
            summary: String(report.description.prefix { $0 != "\n" })
        )
        divergentPaths = report.divergence?.difference.changedPaths.map(\.description) ?? []
        divergedAfterInput = report.divergence?.input?.step
        difference = report.divergence.map { ShrinkSearch.text(of: $0.difference) }
        bindings = replay.bindingNames
        invariants = replay.invariants.map(\.description)
        usesClock = replay.clock != nil
    }


    /// Appends the outcome to the file `REWIND_REPLAY_OUTCOME` names, if it is set: one line,
    /// written at once, so that tests running in parallel do not mix their lines.
    package func report(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment[Self.environmentVariable], !path.isEmpty,
              var line = try? JSONEncoder().encode(self) else { return }
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The outcomes a test run appended to `path`; lines that do not decode are skipped.
    package static func read(from path: String) -> [ReplayOutcome] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(ReplayOutcome.self, from: Data($0.utf8)) }
    }
}
