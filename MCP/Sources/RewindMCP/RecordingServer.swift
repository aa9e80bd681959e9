import Foundation
import MCP

/// A Model Context Protocol server whose tools are `rewind`'s commands on recordings
/// (``RecordingTools``), so that a coding agent can debug from a recording: it runs the `rewind`
/// executable with `--json` and answers with what it wrote.
///
/// ```swift
/// let server = try await RecordingServer(rewind: "/usr/local/bin/rewind", files: ["session.rewind"]).start(on: StdioTransport())
/// await server.waitUntilCompleted()
/// ```
public struct RecordingServer: Sendable {
    /// The `rewind` executable the tools run.
    public let rewind: String
    /// The recordings the server may read (absolute paths); empty: any the agent names.
    public let files: [String]
    /// The most of a command's output one answer carries; the rest is cut with a note.
    public var outputLimit = 256 * 1024

    public init(rewind: String, files: [String]) {
        self.rewind = rewind
        self.files = files.map(Self.absolute)
    }

    /// Starts serving on `transport`.
    public func start(on transport: any Transport) async throws -> Server {
        let server = Server(
            name: "rewind", version: "0.1.0",
            instructions: "Tools over Rewind recordings (.rewind journals of view models): info, log, show, diff, blame (with the chain of dispatches that led to each write), query (conditions over the state after each step) and verify. Steps are sequence numbers; key paths follow list elements by id as items[id: 3].done.",
            capabilities: .init(tools: .init(listChanged: false))
        )
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: RecordingTools.tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            self.call(parameters.name, arguments: parameters.arguments ?? [:])
        }
        try await server.start(transport: transport)
        return server
    }

    /// Runs one tool.
    public func call(_ name: String, arguments: [String: Value]) -> CallTool.Result {
        guard let definition = RecordingTools.definitions.first(where: { $0.name == name }) else {
            return Self.failure("unknown tool '\(name)'; the tools are \(RecordingTools.definitions.map(\.name).joined(separator: ", "))")
        }
        let file: String
        switch arguments["file"] {
        case .string(let given)?: file = given
        case nil where files.count == 1: file = files[0]
        default: return Self.failure(files.isEmpty ? "file is required: the path of a .rewind journal" : "file is required: one of \(files.joined(separator: ", "))")
        }
        guard files.isEmpty || files.contains(Self.absolute(file)) else {
            return Self.failure("this server reads only \(files.joined(separator: ", "))")
        }
        let command: [String]
        do { command = try definition.command(file, arguments) } catch { return Self.failure(error.description) }
        return run(command + ["--json"])
    }

    /// Runs `rewind` with `arguments`: exit 0 and 1 (the answer "no": differences, damage, no
    /// match) are answers; exit 2 (bad input) is the tool's error, with rewind's one line.
    private func run(_ arguments: [String]) -> CallTool.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: rewind)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Self.failure("cannot run \(rewind): \(error)") }
        // Both pipes are read to the end before waiting, so a large output cannot block the child.
        let errorText = ErrorText()
        let errorRead = DispatchGroup()
        errorRead.enter()
        DispatchQueue.global().async {
            errorText.set(error.fileHandleForReading.readDataToEndOfFile())
            errorRead.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        let said = errorText.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus != 2 else { return Self.failure(said.isEmpty ? "rewind exited with status 2" : said) }
        var text = String(decoding: data.prefix(outputLimit), as: UTF8.self)
        if data.count > outputLimit {
            text = String(text[..<(text.lastIndex(of: "\n") ?? text.endIndex)])
            text += "\n(cut after \(outputLimit / 1024) KiB of \(data.count / 1024) KiB: narrow it with source, kind, from/to or a condition)"
        }
        while text.hasSuffix("\n") { text.removeLast() }
        if text.isEmpty { text = said.isEmpty ? "(nothing)" : said }
        return .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: false)
    }

    private static func failure(_ text: String) -> CallTool.Result {
        .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: true)
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// What the child wrote on standard error, handed from the thread that read it. Unchecked: the
/// one write happens before the group's `leave`, the one read after its `wait`.
private final class ErrorText: @unchecked Sendable {
    private(set) var data = Data()
    func set(_ data: Data) { self.data = data }
    var text: String { String(decoding: data, as: UTF8.self) }
}
