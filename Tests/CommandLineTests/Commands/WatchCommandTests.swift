import Foundation
@_spi(Tooling) @testable import Rewind
import TestSupport
import Testing

@Suite("rewind watch on a journal being written")
struct WatchCommandTests {
    /// A counter that writes its journal as a live app does: events, then a flush.
    final class LiveCounter {
        let journal: JournalLogger
        let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Counter"))
        private var count = 0

        init(path: String) throws {
            journal = try JournalLogger(path: path)
            channel.emit(.created(state: LoggedValue(["count": 0])), callSite: CallSite(), to: journal)
        }

        func increment(times: Int) throws {
            for _ in 0..<times {
                count += 1
                channel.emit(.change(path: ChangedPath(name: "count"), value: LoggedValue(count), state: LoggedValue(["count": count])), name: "increment", callSite: CallSite(), to: journal)
            }
            try journal.flush()
        }
    }

    /// Reads the child's output until it holds `lines` lines (blocking on the pipe, no sleeping).
    static func read(_ handle: FileHandle, until lines: Int, into text: inout String) {
        while text.split(separator: "\n").count < lines {
            let data = handle.availableData
            guard !data.isEmpty else { return }
            text += String(decoding: data, as: UTF8.self)
        }
    }

    @Test("matches recorded so far come first, then each one as the writer flushes it; it ends when the writer closes")
    func followsTheWriter() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("live.rewind")
        let counter = try LiveCounter(path: path)
        try counter.increment(times: 3)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandRunner.binary)
        process.arguments = ["watch", path, "count >= 3 && changed(count)"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Should the command hang, end it rather than the test run.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        defer { watchdog.cancel() }

        var text = ""
        Self.read(output.fileHandleForReading, until: 1, into: &text)
        #expect(text.contains("count: 2 → 3"))
        try counter.increment(times: 2)
        Self.read(output.fileHandleForReading, until: 3, into: &text)
        #expect(text.contains("count: 3 → 4") && text.contains("count: 4 → 5"))
        try counter.increment(times: 1)
        counter.journal.close()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.split(separator: "\n").count == 4)
        #expect(text.contains("count: 5 → 6"))
        let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("the writer closed") && said.contains("4 steps matched"))
    }

    @Test("on a closed journal it answers at once: exit 1 when nothing matched, 2 for a malformed condition")
    func closedJournal() throws {
        let none = try CommandRunner.run(["watch", "Fixtures/todo.rewind", "nextID > 1000"])
        #expect(none.status == 1 && none.standardOutput.isEmpty)
        let some = try CommandRunner.run(["watch", "Fixtures/todo.rewind", "kind == change && changed(items[id: 2].done)", "--json"])
        #expect(some.status == 0)
        #expect(some.standardOutput.split(separator: "\n").map { $0.contains("\"schema_version\":1") } == [true, true, true])
        let bad = try CommandRunner.run(["watch", "Fixtures/todo.rewind", "nextID >"])
        #expect(bad.status == 2 && bad.standardError.contains("column 9"))
    }

    @Test("watch ends, and says so, when the writer is killed without closing the journal; a writer's journal is held while it writes")
    func endsWhenTheWriterIsGone() throws {
        let recorder = URL(fileURLWithPath: CommandRunner.binary).deletingLastPathComponent().appendingPathComponent("journal-crash-recorder").path
        try #require(FileManager.default.isExecutableFile(atPath: recorder), "build the journal-crash-recorder product first")
        let directory = TemporaryDirectory()
        let path = directory.file("crash.rewind")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: recorder)
        writer.arguments = [path]
        let writerOutput = Pipe()
        writer.standardOutput = writerOutput
        try writer.run()
        var said = ""
        while !said.contains("synced") {
            let data = writerOutput.fileHandleForReading.availableData
            try #require(!data.isEmpty, "the recorder ended before its first sync")
            said += String(decoding: data, as: UTF8.self)
        }
        #expect(try JournalReader(path: path).isHeldByWriter == true)
        // Through a link to it too: the lock is asked of the file the reader has open.
        let link = directory.file("latest.rewind")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try JournalReader(path: link).isHeldByWriter == true)

        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: CommandRunner.binary)
        watch.arguments = ["watch", path, "count == 100"]
        let watchOutput = Pipe(), watchError = Pipe()
        watch.standardOutput = watchOutput
        watch.standardError = watchError
        try watch.run()
        // The match recorded so far comes first: the watch is following the file.
        var seen = ""
        Self.read(watchOutput.fileHandleForReading, until: 1, into: &seen)
        #expect(seen.contains("count"), "\(seen)")
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        let rest = watchOutput.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: watchError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0, "\(message)")
        #expect(message.contains("is gone without closing it") && message.contains("matched"), "\(message) \(String(decoding: rest, as: UTF8.self))")
        #expect(try JournalReader(path: path).isHeldByWriter == false)
    }
}
