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

        static func open(files: [String]) async throws -> Session {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: RecordingServerTests.server)
            process.arguments = ["--rewind", RecordingServerTests.rewind] + files
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
        #expect(info["events"] as? Int == 67 && info["schema_version"] as? Int == 1)

        let log = try await session.call("log", ["kind": "change", "from": 20, "to": 30]).text
        let changes = try log.split(separator: "\n").map(Self.json)
        #expect(changes.map { $0["seq"] as? Int } == [25, 29, 30])
        #expect(changes.last?["old"] as? Int == 4)

        let state = try Self.json(try await session.call("show", ["at": 60]).text)
        #expect(state["nextID"] as? Int == 6)

        let diff = try Self.json(try await session.call("diff", ["from": 20, "to": 30]).text)
        #expect((diff["changes"] as? [[String: Any]])?.contains { $0["path"] as? String == "items[id: 2].done" } == true)

        let blame = try await session.call("blame", ["path": "items[id: 2].done"]).text.split(separator: "\n").map(Self.json)
        #expect(blame.map { $0["seq"] as? Int } == [11, 25, 50])
        #expect((blame[1]["why"] as? [[String: Any]])?.map { $0["name"] as? String } == ["toggle done", "toggle"])

        let first = try Self.json(try await session.call("query", ["condition": "items.count >= 3 && filter == \"active\"", "answer": "first"]).text)
        #expect(first["seq"] as? Int == 42)
        let count = try Self.json(try await session.call("query", ["condition": "kind == dispatch", "answer": "count"]).text)
        #expect(count["count"] as? Int == 8)

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
}
