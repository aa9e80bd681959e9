import CombineOperators
import Foundation
@_exported import Rewind  // a replay test needs `ReplayInvariant` and friends with one import
import Testing
import XCTest

/// Replays a recorded session into live units and records a test failure with the replay's report
/// when they diverge, when the replay cannot run, or — unless `allowRestoring` — when a recorded
/// state had to be put back because the live code did not produce it: one line turns a journal into
/// a regression test.
///
/// ```swift
/// @Test func counterSessionStillReplays() {
///     expectReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget])
/// }
/// ```
///
/// - Parameters:
///   - journal: the journal's path (relative paths start at the working directory, the package root
///     under `swift test`).
///   - bindings: live units by the journal's name for the source whose inputs they receive.
///   - clock: the virtual clock the units' time-based operators run on, if any.
///   - allowRestoring: pass when steps the replay cannot re-send (closures) may be put back
///     unchecked; they are still listed in the report.
///   - invariants: conditions every replayed live state must meet, once each input's work has
///     settled.
///   - secrets: values for the inputs the recording hid, by input name or field path
///     (``ReplaySecrets``); a redacted input without one refuses the replay.
///   - printReport: prints the report when the replay passes too (it is always in a failure).
///   - comparingStates: `false` holds the live units to the invariants only (a shrunk recording of
///     a broken invariant, see `Replay.shrink`): a fix that changes states still passes.
///   - record: re-records the journal from today's code instead of checking it, and fails so that
///     record mode is not left on (as snapshot testing's `record: true`). The environment variable
///     `REWIND_RECORD=1` turns it on for every replay of the run.
///   - droppingUnboundSources: lets a re-record leave out the recorded events of sources no unit
///     is bound to (by default it refuses, naming them).
/// - Returns: the report, for further checks.
@discardableResult
public func expectReplay(
    of journal: String, driving bindings: [String: any ReplayTarget], clock: VirtualTimeScheduler? = nil,
    allowRestoring: Bool = false, invariants: [ReplayInvariant] = [], secrets: ReplaySecrets = [:], printReport: Bool = false,
    comparingStates: Bool = true, record: Bool = ReplayRecordMode.isOnInEnvironment, droppingUnboundSources: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
) -> ReplayReport? {
    let check = ReplayCheck(
        journal: journal, bindings: bindings, clock: clock, allowRestoring: allowRestoring, invariants: invariants,
        secrets: secrets, printReport: printReport, comparingStates: comparingStates, record: record,
        droppingUnboundSources: droppingUnboundSources
    )
    let (report, failure) = check.run()
    if let failure { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    return report
}

/// ``expectReplay(of:driving:clock:allowRestoring:invariants:secrets:printReport:comparingStates:record:droppingUnboundSources:sourceLocation:)``
/// with one invariant over the bound units' state type.
///
/// ```swift
/// expectReplay(of: "Fixtures/cart.rewind", driving: ["Cart": cart.replayTarget],
///              invariant: { (state: Cart.State) in state.quantity >= 0 })
/// ```
@discardableResult
public func expectReplay<State: Decodable & SendableMetatype>(
    of journal: String, driving bindings: [String: any ReplayTarget], clock: VirtualTimeScheduler? = nil,
    allowRestoring: Bool = false, invariant: @escaping @Sendable (State) -> Bool, secrets: ReplaySecrets = [:],
    printReport: Bool = false, comparingStates: Bool = true, record: Bool = ReplayRecordMode.isOnInEnvironment,
    droppingUnboundSources: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) -> ReplayReport? {
    expectReplay(
        of: journal, driving: bindings, clock: clock, allowRestoring: allowRestoring,
        invariants: [ReplayInvariant("\(State.self)", invariant)], secrets: secrets, printReport: printReport,
        comparingStates: comparingStates, record: record, droppingUnboundSources: droppingUnboundSources,
        sourceLocation: sourceLocation
    )
}

/// The XCTest form of
/// ``expectReplay(of:driving:clock:allowRestoring:invariants:secrets:printReport:comparingStates:record:droppingUnboundSources:sourceLocation:)``.
///
/// ```swift
/// func testCounterSessionStillReplays() {
///     XCTAssertReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget])
/// }
/// ```
@discardableResult
public func XCTAssertReplay(
    of journal: String, driving bindings: [String: any ReplayTarget], clock: VirtualTimeScheduler? = nil,
    allowRestoring: Bool = false, invariants: [ReplayInvariant] = [], secrets: ReplaySecrets = [:], printReport: Bool = false,
    comparingStates: Bool = true, record: Bool = ReplayRecordMode.isOnInEnvironment, droppingUnboundSources: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
) -> ReplayReport? {
    let check = ReplayCheck(
        journal: journal, bindings: bindings, clock: clock, allowRestoring: allowRestoring, invariants: invariants,
        secrets: secrets, printReport: printReport, comparingStates: comparingStates, record: record,
        droppingUnboundSources: droppingUnboundSources
    )
    let (report, failure) = check.run()
    if let failure { XCTFail(failure, file: file, line: line) }
    return report
}

extension Replay.Clock {
    /// A virtual clock: the replay advances `scheduler` by recorded time and steps it to its next
    /// action while waiting for a recorded state.
    public static func virtual(_ scheduler: VirtualTimeScheduler) -> Replay.Clock {
        Replay.Clock(
            advance: { nanoseconds in scheduler.advance(by: .nanoseconds(Int(clamping: nanoseconds))) },
            step: { scheduler.runNextAction() },
            untilNextAction: {
                scheduler.nextActionTime.map { UInt64(clamping: max(0, $0.nanoseconds - scheduler.now.nanoseconds)) }
            }
        )
    }
}

extension Replay.Setup {
    /// Fresh live units whose time-based operators run on `scheduler`, for ``Replay/shrink(journal:writingTo:invariants:secrets:maximumTime:setUp:)``.
    ///
    /// ```swift
    /// let scheduler = VirtualTimeScheduler()
    /// return Replay.Setup(driving: ["Search": Search(scheduler: scheduler).replayTarget], scheduler: scheduler)
    /// ```
    public init(driving bindings: [String: any ReplayTarget], scheduler: VirtualTimeScheduler) {
        self.init(driving: bindings, clock: .virtual(scheduler))
    }
}

/// Record mode: the test helpers re-record their journals from today's code instead of checking
/// them.
public enum ReplayRecordMode {
    /// Whether `REWIND_RECORD` is set to `1`, `true` or `yes`: every replay of the run re-records
    /// (`REWIND_RECORD=1 swift test --filter CartReplayTests`).
    public static var isOnInEnvironment: Bool {
        let value = ProcessInfo.processInfo.environment["REWIND_RECORD"]?.lowercased()
        return ["1", "true", "yes"].contains(value ?? "")
    }
}

/// What both test helpers do: run (or re-record) the replay and decide whether it fails.
struct ReplayCheck {
    let journal: String
    let bindings: [String: any ReplayTarget]
    let clock: VirtualTimeScheduler?
    let allowRestoring: Bool
    let invariants: [ReplayInvariant]
    let secrets: ReplaySecrets
    let printReport: Bool
    let comparingStates: Bool
    let record: Bool
    let droppingUnboundSources: Bool

    /// The report (when the replay ran) and the failure message, if the check fails; a passing
    /// report is printed when asked. The outcome goes to `rewind replay` or `rewind shrink` too, when
    /// one of them runs the test (``ReplayOutcome``), and a reduced recording `rewind shrink` names
    /// is replayed in the journal's place (``ReplayCandidate``).
    func run() -> (ReplayReport?, String?) {
        let candidate = ReplayCandidate.forJournal(journal)
        let path = candidate?.candidate ?? journal
        let report: ReplayReport
        let replay: Replay
        do throws(ReplayError) {
            replay = try Replay(journal: path)
            replay.clock = clock.map(Replay.Clock.virtual)
            replay.invariants = invariants
            replay.secrets = secrets
            for (source, target) in bindings.sorted(by: { $0.key < $1.key }) {
                try replay.bind(source, to: target)
            }
            if let destination = candidate?.recordingTo {
                let walk = try replay.record(to: destination, comparingStates: false)
                ReplayOutcome(journal: journal, report: walk, passes: true, replay: replay).report()
                return (walk, nil)
            }
            if record {
                let walk = try replay.rerecord(droppingUnboundSources: droppingUnboundSources)
                return (walk, "\(journal): re-recorded from today's code (record mode is on: turn it off and run again to check it)\n\(walk)")
            }
            report = replay.run(comparingStates: candidate?.comparingStates ?? comparingStates)
        } catch {
            ReplayOutcome(journal: journal, verdict: .cannotReplay, summary: "\(error)").report()
            return (nil, "\(journal): \(error)")
        }
        // A reduced recording of a divergence puts each input's recorded state back first.
        let allowRestoring = candidate.map(\.comparingStates) ?? self.allowRestoring
        var outcome = ReplayOutcome(journal: journal, report: report, passes: report.passes(allowRestoring: allowRestoring), replay: replay)
        if !report.missingSecrets.isEmpty {
            outcome.verdict = .cannotReplay
            outcome.summary = "recorded inputs were redacted and the test supplies no value for them: " + report.missingSecrets.map(\.description).joined(separator: "; ")
        } else if !report.schemaProblems.isEmpty {
            outcome.verdict = .cannotReplay
            outcome.summary = "the recording no longer fits today's types: " + report.schemaProblems.map(\.description).joined(separator: "; ")
        }
        outcome.report()
        if !invariants.isEmpty, report.invariantChecks == 0 {
            return (report, "\(journal): no bound unit's state decodes as the invariants' type, so they were never checked\n\(report)")
        }
        guard report.passes(allowRestoring: allowRestoring) else {
            let advice = !allowRestoring && !report.restoredSteps.isEmpty && report.isFaithful && report.invariantViolation == nil
                ? "\n(recorded states were put back without being reproduced: make those dispatches replayable, or pass allowRestoring: true)"
                : ""
            return (report, "\(journal): \(report)\(advice)")
        }
        if printReport { print("\(journal): \(report)") }
        return (report, nil)
    }
}
