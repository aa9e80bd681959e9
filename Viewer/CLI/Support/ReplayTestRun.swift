import Foundation
@_spi(Tooling) import Rewind

/// The package's replay tests, run with `swift test` as `rewind replay` and `rewind shrink` need
/// them: the test helpers report each replay's outcome through a file (``ReplayOutcome``), and
/// replay a reduced recording in a recording's place when asked (``ReplayCandidate``).
struct ReplayTestRun {
    /// The package whose tests replay recordings.
    let packagePath: String
    /// Which tests: `swift test --filter`'s argument.
    let filter: String
    /// Whether to show the tool's output; otherwise it goes to a log the failure messages name.
    let verbose: Bool
    /// This command's own directory (``PrivateDirectory``): the log, the replays' outcomes and a
    /// shrink's candidate recording are made in it.
    let directory: String
    /// Where the quiet runs' output goes, one run after another; kept for the user to read.
    var log: String { directory + "/swift-test.log" }

    init(packagePath: String, filter: String, verbose: Bool) throws(CommandFailure) {
        self.packagePath = packagePath
        self.filter = filter
        self.verbose = verbose
        directory = try PrivateDirectory.make("rewind-replay")
    }

    /// Runs `body` with this run, then removes the run's directory — or, when `body` throws (a
    /// divergence, a failure, a refusal: every answer but "same"), keeps only its log, and says
    /// where on standard error, so that nothing is left behind unnamed.
    func finishing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            let result = try body()
            try? FileManager.default.removeItem(atPath: directory)
            return result
        } catch {
            let kept = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for name in kept where directory + "/" + name != log { try? FileManager.default.removeItem(atPath: directory + "/" + name) }
            if FileManager.default.fileExists(atPath: log) {
                Output.error("swift test's output is kept in \(VisibleText.escaped(log))")
            } else {
                try? FileManager.default.removeItem(atPath: directory)
            }
            throw error
        }
    }

    /// Builds the package's tests; `false` when the build fails.
    func build() throws -> Bool {
        try swift(["build", "--build-tests", "--package-path", packagePath]) == 0
    }

    /// Runs the tests (with a reduced recording in place of `candidate`'s, if any), and returns
    /// swift test's exit status and the outcomes of the replays the tests ran.
    func run(candidate: ReplayCandidate? = nil) throws -> (status: Int32, outcomes: [ReplayOutcome]) {
        let outcomes = directory + "/outcomes-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: outcomes) }
        var environment = ProcessInfo.processInfo.environment
        environment[ReplayOutcome.environmentVariable] = outcomes
        environment[ReplayCandidate.environmentVariable] = candidate?.environmentValue
        // Record mode would rewrite the recordings this run judges.
        environment["REWIND_RECORD"] = nil
        let status = try swift(["test", "--skip-build", "--package-path", packagePath, "--filter", filter], environment: environment)
        return (status, ReplayOutcome.read(from: outcomes))
    }

    /// The outcomes of the replays of `journal` among `outcomes`.
    static func outcomes(_ outcomes: [ReplayOutcome], of journal: String) -> [ReplayOutcome] {
        outcomes.filter { FileKind.areSameFile($0.journal, journal) }
    }

    /// Runs `swift` with `arguments`; its output goes to the log unless verbose.
    private func swift(_ arguments: [String], environment: [String: String]? = nil) throws -> Int32 {
        guard let executable = Self.swiftExecutable else {
            throw CommandFailure("swift is not on PATH: the replay tests are run with 'swift test'")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if !verbose {
            let handle = try PrivateDirectory.appending(to: log)
            process.standardOutput = handle
            process.standardError = handle
        }
        do { try process.run() } catch {
            throw CommandFailure("cannot run swift: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// `swift` on `PATH`.
    private static let swiftExecutable: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map { "\($0)/swift" }.first { access($0, X_OK) == 0 }
}
