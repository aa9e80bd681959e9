import Foundation
@_spi(Tooling) import Rewind
import Testing
import TestSupport

/// `rewind shrink` and `rewind replay` refuse what they cannot do before running any test: one line,
/// exit 2, nothing written. (Their runs through a package's tests are checked end to end by
/// Examples/ReplayBisect/run in CI.)
@Suite("rewind shrink and replay refusals")
struct ShrinkCommandTests {
    @Test("shrink never writes over the recording, and says so in one line")
    func refusesToOverwrite() throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: "Fixtures/counter.rewind"))
        let result = try CommandRunner.run(["shrink", "Fixtures/counter.rewind", "--test", "Anything", "-o", "Fixtures/counter.rewind"])
        #expect(result.status == 2)
        #expect(result.standardError == "rewind: cannot shrink the recording: the shrunk recording would be written over Fixtures/counter.rewind; name another output\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "Fixtures/counter.rewind")) == before)
    }

    @Test("shrink of a missing file, or with a negative time limit, is bad input")
    func badInput() throws {
        let missing = try CommandRunner.run(["shrink", "Fixtures/no-such.rewind", "--test", "Anything"])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("rewind: ") && missing.standardError.filter { $0 == "\n" }.count == 1)
        let negative = try CommandRunner.run(["shrink", "Fixtures/counter.rewind", "--test", "Anything", "--max-time", "-1"])
        #expect(negative.status == 2)
        #expect(negative.standardError.contains("--max-time"))
        #expect(!FileManager.default.fileExists(atPath: "Fixtures/counter.shrunk.rewind"))
    }

    @Test("replay and shrink need --test")
    func needTheTest() throws {
        #expect(try CommandRunner.run(["replay"]).status == 2)
        #expect(try CommandRunner.run(["shrink", "Fixtures/counter.rewind"]).status == 2)
    }

    @Test("the test run's log is made in a directory only its user can enter, never at a name another user could plant a link at")
    func privateLog() throws {
        // An empty package directory: swift fails to build it at once, and the message names the log.
        let temporary = TemporaryDirectory()
        let empty = temporary.path
        let result = try CommandRunner.run(["replay", "--test", "Anything", "--package-path", empty])
        let output = result.standardOutput + result.standardError
        let log = try #require(output.split(separator: "(see ").last?.split(separator: ")").first.map(String.init), "\(output)")
        let directory = URL(fileURLWithPath: log).deletingLastPathComponent().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(URL(fileURLWithPath: directory).lastPathComponent.hasPrefix("rewind-replay-") && !directory.contains("\(getpid())"))
        var status = stat()
        #expect(lstat(directory, &status) == 0 && status.st_mode & 0o777 == 0o700 && status.st_uid == getuid())
        #expect(lstat(log, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
    }

    @Test("a replay that fails keeps only its log, and names it; nothing else of its run is left in the temporary directory")
    func failedRunKeepsOnlyItsLog() throws {
        let temporary = TemporaryDirectory()
        let package = TemporaryDirectory()
        let result = try CommandRunner.run(["replay", "--test", "Anything", "--package-path", package.path], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 125, "\(result.transcript)")
        // (swift's own build leaves folders of its own there.)
        let runs = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("rewind-replay-") }
        try #require(runs.count == 1, "\(runs)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: temporary.path + "/" + runs[0])
        #expect(kept == ["swift-test.log"])
        #expect(result.standardError.contains("swift test's output is kept in \(temporary.path)/\(runs[0])/swift-test.log"), "\(result.standardError)")
    }

    @Test("a reduced recording the tests refuse to replay is reported as a refusal with its reason, not as a failure gone")
    func refusedCandidate() throws {
        // A stand-in for swift on PATH: the recording's own replay diverges; every reduction's
        // replay is refused, as a candidate redacted by other rules than the app's would be.
        let tools = TemporaryDirectory()
        let recording = URL(fileURLWithPath: "Fixtures/counter.rewind").standardized.path
        let source = try #require(JournalReader(path: recording).sources.first?.source.instanceID)
        var diverged = ReplayOutcome(
            journal: recording, verdict: .failed, failure: .divergence(path: "count", source: "Counter"),
            failedAtStep: 9, boundSources: [source], summary: "the replay diverged at step 9"
        )
        diverged.divergentPaths = ["count"]
        let refusal = "input 'pin' was recorded redacted; supply its value with secrets:"
        let refused = ReplayOutcome(journal: recording, verdict: .cannotReplay, boundSources: [source], summary: refusal)
        for (name, outcome) in [("recording", diverged), ("candidate", refused)] {
            let line = String(decoding: try JSONEncoder().encode(outcome), as: UTF8.self) + "\n"
            try line.write(toFile: tools.path + "/" + name + ".jsonl", atomically: true, encoding: .utf8)
        }
        let swift = tools.path + "/swift"
        let script = [
            "#!/bin/sh",
            "[ \"$1\" = build ] && exit 0",
            "if [ -n \"$REWIND_REPLAY_CANDIDATE\" ]; then cat '\(tools.path)/candidate.jsonl'; else cat '\(tools.path)/recording.jsonl'; fi >> \"$REWIND_REPLAY_OUTCOME\"",
            "exit 1"
        ]
        try (script.joined(separator: "\n") + "\n").write(toFile: swift, atomically: true, encoding: .utf8)
        #expect(chmod(swift, 0o755) == 0)
        let output = tools.path + "/out.rewind"
        let result = try CommandRunner.run(
            ["shrink", "Fixtures/counter.rewind", "--test", "CounterReplayTests", "--package-path", tools.path, "-o", output],
            environment: ["PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
        )
        #expect(result.status == 2, "\(result.transcript)")
        #expect(result.standardError.contains("a reduced recording cannot be replayed: \(refusal)"), "\(result.standardError)")
        #expect(!result.standardError.contains("no longer ends with"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
