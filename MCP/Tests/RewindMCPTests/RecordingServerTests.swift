import Foundation
import MCP
import RewindMCP
import SystemPackage
import Testing

/// The server as an agent meets it: `rewind-mcp` in a process of its own, spoken to over its
/// standard input and output by the MCP SDK's own client.
@Suite("rewind-mcp over stdio")
struct RecordingServerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The `rewind` built by the root package (`swift build` there, as CI's `swift test` does).
    static let rewind = ProcessInfo.processInfo.environment["REWIND"] ?? repository.appendingPathComponent(".build/debug/rewind").path
    static let server = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind-mcp").path
    static let todo = repository.appendingPathComponent("Fixtures/todo.rewind").path
    static let demo = repository.appendingPathComponent("Fixtures/demo.rewind").path

    /// A connected client and the server's process, ended by `close`.
    struct Session {
        let client: Client
        let process: Process

        static func open(files: [String], rewind: String = RecordingServerTests.rewind, options: [String] = []) async throws -> Session {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: RecordingServerTests.server)
            process.arguments = ["--rewind", rewind] + options + files
            let toServer = Pipe(), fromServer = Pipe()
            process.standardInput = toServer
            process.standardOutput = fromServer
            try process.run()
            let transport = StdioTransport(
                input: FileDescriptor(rawValue: fromServer.fileHandleForReading.fileDescriptor),
                output: FileDescriptor(rawValue: toServer.fileHandleForWriting.fileDescriptor)
            )
            let client = Client(name: "rewind-tests", version: "1.0.0")
            try await client.connect(transport: transport)
            return Session(client: client, process: process)
        }

        func call(_ tool: String, _ arguments: [String: Value]) async throws -> (text: String, isError: Bool) {
            let (content, isError) = try await client.callTool(name: tool, arguments: arguments)
            let text = content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
            return (text, isError ?? false)
        }

        func close() async {
            await client.disconnect()
            process.terminate()
            process.waitUntilExit()
        }
    }

    static func json(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("the tools are the command line's operations, read-only, each with its arguments' schema")
    func listsTheTools() async throws {
        let session = try await Session.open(files: [])
        let (tools, _) = try await session.client.listTools()
        #expect(Set(tools.map(\.name)) == ["info", "log", "show", "diff", "blame", "query", "verify"])
        #expect(tools.allSatisfy { $0.annotations.readOnlyHint == true })
        let query = try #require(tools.first { $0.name == "query" })
        #expect(query.inputSchema.objectValue?["required"] == .array(["condition"]))
        await session.close()
    }

    @Test("each tool answers as rewind's --json does: info, log, show, diff, blame with its chain, query, verify")
    func answers() async throws {
        let session = try await Session.open(files: [Self.todo])
        let info = try Self.json(try await session.call("info", [:]).text)
        #expect(info["events"] as? Int == 72 && info["schema_version"] as? Int == 1)

        let log = try await session.call("log", ["kind": "change", "from": 20, "to": 30]).text
        let changes = try log.split(separator: "\n").map(Self.json)
        #expect(changes.map { $0["seq"] as? Int } == [25, 29, 30])
        #expect(changes.last?["old"] as? Int == 4)

        // A state's fields one a line, so that a large one is read in parts with skip.
        let fields = try await session.call("show", ["at": 60]).text.split(separator: "\n").map(Self.json)
        #expect(fields.first { $0["key"] as? String == "nextID" }?["value"] as? Int == 6, "\(fields)")
        let items = try await session.call("show", ["at": 60, "path": "items"]).text.split(separator: "\n").map(Self.json)
        #expect(!items.isEmpty && items.map { $0["index"] as? Int } == Array(0..<items.count), "\(items)")
        let rest = try await session.call("show", ["at": 60, "path": "items", "skip": 1]).text.split(separator: "\n").map(Self.json)
        #expect(rest.map { $0["index"] as? Int } == Array(1..<items.count), "\(rest)")
        let one = try Self.json(try await session.call("show", ["at": 60, "path": "nextID"]).text)
        #expect(one["value"] as? Int == 6)

        let diff = try Self.json(try await session.call("diff", ["from": 20, "to": 30]).text)
        #expect((diff["changes"] as? [[String: Any]])?.contains { $0["path"] as? String == "items[id: 2].done" } == true)

        let blame = try await session.call("blame", ["path": "items[id: 2].done"]).text.split(separator: "\n").map(Self.json)
        #expect(blame.map { $0["seq"] as? Int } == [11, 25, 50])
        #expect((blame[1]["why"] as? [[String: Any]])?.map { $0["name"] as? String } == ["toggle done", "toggle"])

        let first = try Self.json(try await session.call("query", ["condition": "items.count >= 3 && filter == \"active\"", "answer": "first"]).text)
        #expect(first["seq"] as? Int == 42)
        let count = try Self.json(try await session.call("query", ["condition": "kind == dispatch", "answer": "count"]).text)
        #expect(count["count"] as? Int == 9, "eight and the sync")

        let verify = try Self.json(try await session.call("verify", [:]).text)
        #expect(verify["clean"] as? Bool == true)
        await session.close()
    }

    @Test("mistakes are the tool's errors, in rewind's words; a server given files reads no others")
    func errors() async throws {
        let session = try await Session.open(files: [Self.todo])
        let malformed = try await session.call("query", ["condition": "count > && x"])
        #expect(malformed.isError && malformed.text.contains("column 9"))
        let missing = try await session.call("show", [:])
        #expect(missing.isError && missing.text == "at is required")
        let outOfRange = try await session.call("show", ["at": 100_000])
        #expect(outOfRange.isError && outOfRange.text.contains("out of range"))
        let other = try await session.call("info", ["file": .string(Self.demo)])
        #expect(other.isError && other.text.contains("reads only"))
        let unknown = try await session.call("export", [:])
        #expect(unknown.isError)
        // No match is an answer, not an error.
        let none = try await session.call("query", ["condition": "nextID > 1000"])
        #expect(!none.isError && none.text.contains("no step where"))
        await session.close()
    }

    @Test("arguments are typed values: a path or an option in a step, an option in a text, an argument no tool takes, a file not served — none reaches a command line")
    func noInjection() async throws {
        let session = try await Session.open(files: [Self.todo])
        for (tool, arguments) in [("diff", ["from": Value.string(Self.demo), "to": 30]), ("diff", ["from": 20, "to": "--json"]), ("show", ["at": "60"]), ("show", ["at": -1])] {
            let answer = try await session.call(tool, arguments)
            #expect(answer.isError && answer.text.contains("must be a step number"), "\(tool) \(arguments): \(answer.text)")
        }
        // Text that looks like an option stays a value: rewind reads it as the condition, the key
        // path or the source it is, and says so.
        let condition = try await session.call("query", ["condition": "--version"])
        #expect(condition.isError && condition.text.contains("column"), "\(condition.text)")
        let path = try await session.call("blame", ["path": "--help"])
        #expect(!path.text.contains("USAGE") && !path.text.contains("OVERVIEW"), "\(path.text)")
        let source = try await session.call("show", ["at": 60, "source": "--json"])
        #expect(source.isError && source.text.contains("--json"), "\(source.text)")
        let extra = try await session.call("show", ["at": 60, "files": .string(Self.demo)])
        #expect(extra.isError && extra.text.contains("takes no argument 'files'"), "\(extra.text)")
        for file in ["/etc/shadow", "/etc", Self.demo] {
            let other = try await session.call("info", ["file": .string(file)])
            #expect(other.isError && other.text.hasPrefix("this server reads only"), "\(other.text)")
        }
        await session.close()

        // Started without files, it reads journals the agent names, and says the same of every
        // path that is not one: no way to learn what exists.
        let open = try await Session.open(files: [])
        let answers = try await ["/etc/shadow", "/etc", "/no/such/file", "/etc/hostname"].asyncMap { file in
            try await open.call("info", ["file": .string(file)])
        }
        #expect(answers.allSatisfy { $0.isError && $0.text.hasPrefix("not a Rewind journal this server can read") }, "\(answers)")
        #expect(try await open.call("info", ["file": .string(Self.todo)]).isError == false)
        await open.close()
    }

    @Test("the log tool writes nothing beside the journal it reads")
    func readOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mcp-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("todo.rewind").path
        try FileManager.default.copyItem(atPath: Self.todo, toPath: journal)
        let session = try await Session.open(files: [journal])
        let found = try await session.call("log", ["grep": "toggle"])
        #expect(!found.isError && found.text.contains("toggle"))
        // The level filter reaches `rewind log`: a word that is no level is refused by it.
        let loud = try await session.call("log", ["kind": "log", "level": "loud"])
        #expect(loud.isError && loud.text.contains("unknown level 'loud'"), "\(loud)")
        let errors = try await session.call("log", ["kind": "log", "level": "error"])
        #expect(!errors.isError, "\(errors)")
        await session.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["todo.rewind"])
    }

    @Test("answers to parallel calls arrive whole: every line of each is JSON, and each equals the call's answer alone")
    func parallelAnswersAreWhole() async throws {
        let session = try await Session.open(files: [Self.demo])
        let whole: [String: Value] = ["budget": 262_144]
        let alone = try await session.call("log", whole).text
        #expect(alone.utf8.count > 64 * 1024, "each answer fills a pipe: \(alone.utf8.count) bytes")
        for _ in 0..<3 {
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 { group.addTask { try await session.call("log", whole).text } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 6 && answers.allSatisfy { $0 == alone })
        }
        _ = try alone.split(separator: "\n").map(Self.json)
        await session.close()
    }

    @Test("an answer keeps to its budget, cut at a line with a note whose skip reads on; the parts put together are the whole answer")
    func answersInParts() async throws {
        let session = try await Session.open(files: [Self.demo])
        let whole = try await session.call("log", ["budget": 262_144]).text
        #expect(!whole.contains("(cut at"), "the whole log fits 256 KiB")
        var parts: [String] = []
        var skip = 0
        while parts.count < 20 {
            let answer = try await session.call("log", ["skip": .int(skip)])
            #expect(!answer.isError && answer.text.utf8.count <= 32 * 1024 + 200, "\(answer.text.utf8.count) bytes")
            guard let note = answer.text.range(of: "\n(cut at 32 KiB after ") else {
                parts.append(answer.text)
                break
            }
            parts.append(String(answer.text[..<note.lowerBound]))
            let next = try #require(answer.text[note.upperBound...].firstMatch(of: /skip: (\d+)/)).output.1
            #expect(Int(next)! > skip)
            skip = Int(next)!
        }
        #expect(parts.count > 2 && parts.joined(separator: "\n") == whole, "\(parts.count) parts")
        // Past the end, the answer says so; a line longer than the budget is cut inside, and says so.
        let past = try await session.call("log", ["skip": 1_000_000])
        #expect(!past.isError && past.text == "(nothing after line 1000000)")
        let tiny = try await session.call("info", ["budget": 1024])
        #expect(tiny.text.contains("(one line longer than 1 KiB, cut: ask again with a larger budget"), "\(tiny.text.suffix(200))")
        #expect(tiny.text.contains("skip: 1 for what follows it"))
        let wrong = try await session.call("log", ["skip": "2"])
        #expect(wrong.isError && wrong.text.contains("skip must be a whole number"))
        let small = try await session.call("log", ["budget": 100])
        #expect(small.isError && small.text.contains("budget must be a whole number, at least 1024"))
        await session.close()
    }

    /// A stand-in for `rewind` written as a shell script.
    static func script(_ body: String) throws -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mcp-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("rewind").path
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return (path, directory)
    }

    @Test("slow calls hold up nothing else, and end at the time limit; a command that crashes is an error, never an answer")
    func slowAndCrashingCommands() async throws {
        let slow = try Self.script("exec sleep 600")
        defer { try? FileManager.default.removeItem(at: slow.directory) }
        let session = try await Session.open(files: [Self.todo], rewind: slow.path, options: ["--time-limit", "3"])
        let finished = Finished()
        let calls = Task {
            try await withThrowingTaskGroup(of: (text: String, isError: Bool).self) { group in
                for _ in 0..<4 { group.addTask { try await session.call("blame", ["path": "items.count"]) } }
                let answers = try await group.reduce(into: []) { $0.append($1) }
                await finished.mark()
                return answers
            }
        }
        // Answered while the four slow calls still run (they end only at the time limit).
        try await session.client.ping()
        #expect(await finished.isMarked == false)
        let answers = try await calls.value
        #expect(answers.count == 4 && answers.allSatisfy { $0.isError && $0.text.contains("took longer than") }, "\(answers)")
        await session.close()

        let crashing = try Self.script("echo '{\"partial\": ' ; kill -SEGV $$")
        defer { try? FileManager.default.removeItem(at: crashing.directory) }
        let crashed = try await Session.open(files: [Self.todo], rewind: crashing.path)
        let answer = try await crashed.call("query", ["condition": "count > 1"])
        #expect(answer.isError && answer.text.contains("signal"), "\(answer)")
        await crashed.close()
    }
}

/// Whether the slow calls have all answered.
private actor Finished {
    private(set) var isMarked = false
    func mark() { isMarked = true }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
