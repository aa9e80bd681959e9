import Foundation
import Logging
import LoggerProbes
import Synchronization
import TestSupport
import Testing
@_spi(Fuzzing) @_spi(Tooling) import Rewind

/// Nothing recorded leaks: a session that plants a distinct secret in every shape a unit records
/// (``SecretPlantingSession``) shows none of them anywhere a user or a logger can look.
@Suite("No secret leaks", .serialized)
struct SecretLeakTests {
    static func leaked(in text: String) -> [String] {
        SecretPlantingSession.planted.filter { text.contains($0.value) }.map { "\($0.shape) (\($0.value))" }
    }

    @Test("the journal file, every inflated block, and every command's output hold no planted secret")
    func journalAndCommands() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("secrets.rewind")
        let journal = try JournalLogger(path: path)
        SecretPlantingSession.record(to: journal)
        journal.close()

        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Self.leaked(in: String(decoding: raw, as: UTF8.self)).isEmpty)
        let reader = try JournalReader(path: path)
        #expect(reader.sources.count == 6, "every unit of the session was recorded")
        let payloads = try JournalFuzzing.payloads(ofJournalAt: path)
        #expect(!payloads.isEmpty)
        for payload in payloads {
            #expect(Self.leaked(in: String(decoding: payload, as: UTF8.self)).isEmpty)
        }
        // The session did record the shapes: the non-secret values around them are there.
        let log = try CommandRunner.run(["log", path])
        #expect(log.status == 0)
        #expect(log.standardOutput.contains("setPassword") && log.standardOutput.contains("tokenReceived"))
        // The outputs whose names are secret were recorded, hidden: the test would not see a leak
        // from a value that was never recorded.
        let secretOutputs = reader.events().filter { $0.kind == .activity && ["token", "secret"].contains($0.name) }
        #expect(secretOutputs.map(\.source.framework).sorted() == ["Ricemill", "Unio"], "\(secretOutputs.map(\.name))")
        #expect(secretOutputs.allSatisfy { $0.value?.description.contains("<redacted") == true }, "\(secretOutputs.map { $0.value?.description ?? "" })")
        #expect(Self.leaked(in: log.standardOutput).isEmpty)

        var outputs = [log]
        outputs.append(try CommandRunner.run(["log", path, "--json"]))
        outputs.append(try CommandRunner.run(["export", path, "--format", "jsonl"]))
        outputs.append(try CommandRunner.run(["export", path, "--format", "json"]))
        // The Perfetto trace is binary; its strings (names, annotations) are UTF-8 within it.
        outputs.append(try CommandRunner.run(["export", path, "--format", "perfetto"]))
        outputs.append(try CommandRunner.run(["info", path]))
        outputs.append(try CommandRunner.run(["info", path, "--json"]))
        // `show` after every event that leaves a state, for the unit that made it.
        for event in reader.events() where event.carriesState {
            let source = "\(event.source.typeName)#\(event.source.instanceID)"
            outputs.append(try CommandRunner.run(["show", path, "--at", String(event.sequence), "--source", source, "--json"]))
        }
        // The states were recorded around the secrets: their plain neighbours are shown.
        let shown = outputs.map(\.standardOutput).joined()
        #expect(shown.contains("countess") && shown.contains("visible") && shown.contains("main"))
        for output in outputs {
            #expect(Self.leaked(in: output.standardOutput + output.standardError).isEmpty, "\(output.standardOutput.prefix(200))")
        }
    }

    @Test("ConsoleLogger, SwiftLogBridge, hook loggers and a user's own log(_:) see no planted secret")
    func loggers() {
        let printed = Mutex<[String]>([])
        let console = ConsoleLogger { line in printed.withLock { $0.append(line) } }
        let handler = CapturingLogHandler()
        var swiftLogger = Logger(label: "leaks") { _ in handler }
        swiftLogger.logLevel = .trace
        let hooks = PrintingHookLogger()
        let memory = InMemoryLogger()
        SecretPlantingSession.record(to: MultiplexLogger([console, SwiftLogBridge(swiftLogger), hooks, memory]))

        var outputs = printed.withLock { $0 } + handler.lines + hooks.lines
        for event in memory.events {
            switch event.kind {
            case .willDispatch(let input?): outputs.append(input.tree().description)
            case .activity(let value), .change(_, let value, _): outputs.append(value.tree().description)
            default: break
            }
            if let state = event.kind.state { outputs.append(state.tree().description) }
        }
        #expect(outputs.count > 50)
        #expect(outputs.contains { $0.contains("setPassword") })
        #expect(Self.leaked(in: outputs.joined(separator: "\n")).isEmpty)
    }
}
