import CombineOperators
import Foundation
import Rewind
import Testing
import XCTest

/// Replays a recorded session into live units and records a test failure with the replay's report
/// if they diverge (or if the replay cannot run): one line turns a journal into a regression test.
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
/// - Returns: the report, for further checks.
@discardableResult
public func expectReplay(
    of journal: String, driving bindings: [String: any ReplayTarget], clock: VirtualTimeScheduler? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) -> ReplayReport? {
    switch ReplayCheck.run(journal, bindings, clock) {
    case .success(let report):
        if !report.isFaithful || !report.schemaProblems.isEmpty {
            Issue.record("\(journal): \(report)", sourceLocation: sourceLocation)
        }
        return report
    case .failure(let error):
        Issue.record("\(journal): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The XCTest form of ``expectReplay(of:driving:clock:sourceLocation:)``.
///
/// ```swift
/// func testCounterSessionStillReplays() {
///     XCTAssertReplay(of: "Fixtures/ricemill.rewind", driving: ["RicemillCounterSample": RicemillCounterSample().replayTarget])
/// }
/// ```
@discardableResult
public func XCTAssertReplay(
    of journal: String, driving bindings: [String: any ReplayTarget], clock: VirtualTimeScheduler? = nil,
    file: StaticString = #filePath, line: UInt = #line
) -> ReplayReport? {
    switch ReplayCheck.run(journal, bindings, clock) {
    case .success(let report):
        if !report.isFaithful || !report.schemaProblems.isEmpty {
            XCTFail("\(journal): \(report)", file: file, line: line)
        }
        return report
    case .failure(let error):
        XCTFail("\(journal): \(error)", file: file, line: line)
        return nil
    }
}

extension Replay.Clock {
    /// A virtual clock: the replay advances `scheduler` by recorded time and steps it to its next
    /// action while waiting for a recorded state.
    public static func virtual(_ scheduler: VirtualTimeScheduler) -> Replay.Clock {
        Replay.Clock(
            advance: { nanoseconds in scheduler.advance(by: .nanoseconds(Int(clamping: nanoseconds))) },
            step: { scheduler.runNextAction() }
        )
    }
}

/// What both test helpers do.
enum ReplayCheck {
    static func run(_ journal: String, _ bindings: [String: any ReplayTarget], _ clock: VirtualTimeScheduler?) -> Result<ReplayReport, ReplayError> {
        do throws(ReplayError) {
            let replay = try Replay(journal: journal)
            replay.clock = clock.map(Replay.Clock.virtual)
            for (source, target) in bindings.sorted(by: { $0.key < $1.key }) {
                try replay.bind(source, to: target)
            }
            return .success(replay.run())
        } catch {
            return .failure(error)
        }
    }
}
