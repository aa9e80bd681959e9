import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// `rewind shrink FILE --test FILTER`: shrinks a recording whose replay test fails to the fewest
/// inputs that still fail the same way, replaying each reduction through the test.
struct ShrinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink",
        abstract: "Shrink a recording whose replay test fails to the fewest inputs that fail the same way.",
        discussion: """
            Runs the tests that replay FILE ('swift test --filter TEST'); they must fail on it, with a \
            divergence or a broken invariant. Then it removes recorded inputs by delta debugging, replaying \
            each reduction through the same tests in FILE's place, and keeps a removal only when the replay \
            fails the same way. The result goes beside FILE (NAME.shrunk.rewind), never over it, with the \
            expectReplay test that replays it. In-process, Replay.shrink does the same in a fraction of the time.

            Example:  rewind shrink Recordings/cart.rewind --test CartReplayTests
            """
    )

    @Argument(help: "The recording whose replay fails.", completion: .file(extensions: ["rewind"])) var file: String
    @OptionGroup var tests: ReplayTestOptions
    @Option(name: .shortAndLong, help: "Where to write the shrunk recording (default: beside FILE, NAME.shrunk.rewind).", completion: .file(extensions: ["rewind"])) var output: String?
    @Option(help: "How long to try removing inputs, in seconds; the result says when it was cut short.") var maxTime: Double = 300

    func run() throws {
        let started = ContinuousClock.now
        let destination = output ?? ShrinkSearch.defaultOutput(for: file)
        do { try ShrinkSearch.refuseToOverwrite(file, with: destination) } catch { throw CommandFailure(error.description) }
        guard maxTime >= 0, maxTime.isFinite else { throw CommandFailure("--max-time must be a number of seconds, 0 or more") }
        let reader = try JournalOpening.open(file, warnAboutDamage: true)
        let testRun = try tests.makeTestRun()
        try testRun.finishing { try shrink(reader, with: testRun, destination: destination, startedAt: started) }
    }

    /// Shrinks the recording `reader` reads with the tests of `testRun`, into `destination`.
    private func shrink(_ reader: JournalReader, with testRun: ReplayTestRun, destination: String, startedAt started: ContinuousClock.Instant) throws {
        guard try testRun.build() else {
            throw CommandFailure("the tests do not build (see \(testRun.log))")
        }
        let first = try outcomes(of: file, in: testRun.run(), log: testRun.log)
        guard let failed = first.first(where: { $0.verdict == .failed }), let failure = failed.failure else {
            if let cannot = first.first(where: { $0.verdict == .cannotReplay }) {
                throw CommandFailure("the recording cannot be replayed on this build: \(cannot.summary)")
            }
            throw CommandFailure("the replay of \(VisibleText.escaped(file)) passes; there is nothing to shrink")
        }
        let search = ShrinkSearch(
            events: Array(reader.events()).sorted { $0.sequence < $1.sequence }, header: reader.header,
            bound: Set(failed.boundSources), failure: failure, failedAt: failed.failedAtStep,
            divergence: failed.divergedAfterInput.flatMap { step in failed.difference.map { (step, $0) } },
            notResentSteps: Set(failed.notResentSteps)
        )
        let candidatePath = testRun.directory + "/candidate.rewind"
        defer { try? FileManager.default.removeItem(atPath: candidatePath) }
        func candidate(recordingTo destination: String? = nil) -> ReplayCandidate {
            ReplayCandidate(recording: file, candidate: candidatePath, comparingStates: search.comparesStates, recordingTo: destination)
        }
        let out = Output()
        let untouched = search.inputCount - search.candidateCount
        out.line("shrinking \(search.candidateCount) of the \(search.inputCount) inputs of \(VisibleText.escaped(file))"
            + (untouched == 0 ? "" : " (\(untouched) come after the failure or cannot be re-sent)") + ": \(failure)")
        out.flush()
        let deadline = started.advanced(by: .milliseconds(Int64(maxTime * 1000)))
        var problem: Error?
        let reduction: DeltaDebugging.Result, replays: Int
        do {
            (reduction, replays) = try search.search(until: deadline) { events in
                guard problem == nil else { return false }
                do {
                    try search.write(events, to: candidatePath)
                    let replayed = try outcomes(of: file, in: testRun.run(candidate: candidate()), log: testRun.log)
                    if replayed.contains(where: { search.isReproduced(byFailure: $0.failure, divergentPaths: $0.divergentPaths, afterInputAt: $0.divergedAfterInput, difference: $0.difference) }) {
                        return true
                    }
                    // A refusal is not a passing replay: the reductions after it would be refused
                    // for the same reason (a secret, a type), and the search would end with a
                    // failure it never saw.
                    if let refused = replayed.first(where: { $0.verdict == .cannotReplay }) {
                        problem = CommandFailure("a reduced recording cannot be replayed: \(refused.summary)")
                    }
                    return false
                } catch {
                    problem = error
                    return false
                }
            }
            if search.comparesStates {
                try search.writeRecordedEvents(keeping: reduction.kept, to: destination)
            } else {
                try search.write(search.events(keeping: reduction.kept), to: candidatePath)
            }
        } catch {
            throw problem ?? CommandFailure(error.description)
        }
        if let problem { throw problem }
        if !search.comparesStates {
            // A broken invariant's shrunk recording is re-recorded by the tests' own live units.
            _ = try testRun.run(candidate: candidate(recordingTo: destination))
            guard FileManager.default.fileExists(atPath: destination) else {
                throw CommandFailure("the tests did not re-record the shrunk recording (see \(testRun.log))")
            }
        }
        let result = search.result(
            recording: file, output: destination, reduction: reduction, replays: replays + 1,
            elapsed: ContinuousClock.now - started, bindings: failed.bindings, invariants: failed.invariants,
            usesClock: failed.usesClock
        )
        out.line(result.description)
        out.line("")
        out.line("A test that replays it (fill in the units as \(VisibleText.escaped(tests.test)) makes them):")
        out.line(result.suggestedTest)
    }

    /// The outcomes of `file`'s replays in a test run; none is an error (the tests do not replay it).
    private func outcomes(of file: String, in run: (status: Int32, outcomes: [ReplayOutcome]), log: String) throws -> [ReplayOutcome] {
        let mine = ReplayTestRun.outcomes(run.outcomes, of: file)
        guard !mine.isEmpty else {
            throw CommandFailure("no test matching '\(VisibleText.escaped(tests.test))' replays \(VisibleText.escaped(file)) (swift test exited \(run.status); see \(log))")
        }
        return mine
    }
}
