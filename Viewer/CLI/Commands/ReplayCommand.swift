import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

/// `rewind replay --test FILTER`: runs a package's replay tests and answers with `git bisect
/// run`'s exit codes.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a package's replay tests; exit 0 same, 1 diverged, 125 cannot replay on this build (for git bisect run).",
        discussion: """
            Builds the package's tests, then runs 'swift test --filter FILTER'. The tests' expectReplay \
            and XCTAssertReplay calls report each replay: exit 0 when every one matches its recording, 1 when \
            one diverges or breaks an invariant (or the tests fail otherwise), 125 when a recording cannot be \
            replayed on this build (the build fails, a recorded input or state no longer fits today's \
            types, a unit is missing, or no test replays a recording), so that 'git bisect run' skips it.

            Example:  git bisect start HEAD v1.0 && git bisect run rewind replay --test CartReplayTests
            """
    )

    @OptionGroup var tests: ReplayTestOptions

    func run() throws {
        let testRun = try tests.makeTestRun()
        try testRun.finishing { try judge(testRun) }
    }

    /// Runs the tests and answers, by the exit code.
    private func judge(_ testRun: ReplayTestRun) throws {
        let output = Output()
        guard try testRun.build() else {
            output.line("cannot replay on this build: the tests do not build (see \(testRun.log))")
            output.flush()
            throw ExitCode(ExitStatus.cannotReplay)
        }
        let (status, outcomes) = try testRun.run()
        for outcome in outcomes {
            let name = VisibleText.escaped(outcome.journal)
            switch outcome.verdict {
            case .passed: output.line("replay matches: \(name) (\(outcome.summary))")
            case .failed: output.line("replay diverged: \(name): \(outcome.failure.map(String.init(describing:)) ?? outcome.summary)" + (outcome.failedAtStep.map { " at step \($0)" } ?? ""))
            case .cannotReplay: output.line("cannot replay on this build: \(name): \(VisibleText.escaped(outcome.summary))")
            }
        }
        let verdicts = Set(outcomes.map(\.verdict))
        if verdicts.contains(.cannotReplay) || outcomes.isEmpty {
            if outcomes.isEmpty { output.line("cannot replay on this build: no test matching '\(VisibleText.escaped(tests.test))' replays a recording") }
            output.flush()
            throw ExitCode(ExitStatus.cannotReplay)
        }
        if verdicts.contains(.failed) {
            output.flush()
            throw ExitCode(ExitStatus.no)
        }
        if status != 0 {
            output.line("the replays match, but the tests fail otherwise (swift test exited \(status); see \(testRun.log))")
            output.flush()
            throw ExitCode(ExitStatus.no)
        }
        output.flush()
    }
}

/// The tests `rewind replay` and `rewind shrink` run.
struct ReplayTestOptions: ParsableArguments {
    @Option(help: "The tests that replay the recording: swift test's --filter.") var test: String
    @Option(help: "The package whose tests replay it.", completion: .directory) var packagePath = "."
    @Flag(help: "Show swift's output (by default it goes to a log file, named when something fails).") var verbose = false

    /// A run of these tests, with a private directory of its own.
    func makeTestRun() throws(CommandFailure) -> ReplayTestRun {
        try ReplayTestRun(packagePath: packagePath, filter: test, verbose: verbose)
    }
}
