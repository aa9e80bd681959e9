import Foundation
import TestSupport
import Testing

/// `rewind export --format perfetto` as a user runs it. What the trace holds is checked against
/// the JSON Lines export with Perfetto's own protos in CI (.ci/perfetto-check.py).
@Suite("rewind export --format perfetto")
struct PerfettoExportTests {
    @Test("the trace goes to a file or a pipe, the same bytes either way, and starts with a Trace packet")
    func fileOrPipe() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("todo.pftrace")
        let toFile = try CommandRunner.run(["export", "Fixtures/todo.rewind", "--format", "perfetto", "-o", path])
        #expect(toFile.status == 0 && toFile.standardOutput.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.first == 0x0A, "field 1 (Trace.packet), length-delimited")
        let piped = try CommandRunner.runShell("\"$REWIND\" export Fixtures/todo.rewind --format perfetto | od -An -tx1 | tr -d ' \\n'")
        #expect(piped.standardOutput == bytes.map { String(format: "%02x", $0) }.joined())
    }

    @Test("a trace never goes to a terminal, and never over the journal")
    func refusals() throws {
        let terminal = try CommandRunner.runShell("script -qec '\"$REWIND\" export Fixtures/todo.rewind --format perfetto' /dev/null")
        #expect(terminal.standardOutput.contains("a Perfetto trace is binary: write it to a file with -o FILE.pftrace"))
        let overJournal = try CommandRunner.run(["export", "Fixtures/todo.rewind", "--format", "perfetto", "-o", "Fixtures/todo.rewind"])
        #expect(overJournal.status == 2)
    }
}
