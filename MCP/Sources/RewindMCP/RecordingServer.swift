import Foundation
import MCP

/// A Model Context Protocol server whose tools are `rewind`'s commands on recordings
/// (``RecordingTools``), so that a coding agent can debug from a recording: it runs the `rewind`
/// executable with `--json` and answers with what it wrote.
///
/// ```swift
/// let server = try await RecordingServer(rewind: "/usr/local/bin/rewind", files: ["session.rewind"]).start(on: WholeMessageStdioTransport())
/// await server.waitUntilCompleted()
/// ```
///
/// What it reaches: only the files it serves (or, started without any, only files that are
/// Rewind journals), through arguments checked against each tool's types (``RecordingTools``);
/// its commands write nothing beside a journal (`REWIND_READ_ONLY=1`). How it answers: each call
/// runs its command in a process of its own, waited for off the concurrency pool, so a slow call
/// never holds up another (or a `ping`); a call that takes longer than ``timeLimit`` or is
/// cancelled ends its command; a command that ends other than with an answer (exit 0, or 1 for
/// "no": differences, damage, no match) is the tool's error, never an answer.
public struct RecordingServer: Sendable {
    /// The `rewind` executable the tools run.
    public let rewind: String
    /// The recordings the server may read (absolute paths); empty: any Rewind journal the agent names.
    public let files: [String]
    /// The most of a command's output one answer carries, whatever budget a call asks for.
    public var outputLimit = 256 * 1024
    /// The most bytes an answer carries unless the call asks for more (its `budget`, up to
    /// ``outputLimit``): a longer answer is cut at a line, with a note saying how many lines it
    /// holds and the `skip` that reads on from there.
    public var answerBudget = 32 * 1024
    /// How long one call may run before its command is ended and the call answers with an error.
    public var timeLimit: Duration = .seconds(120)

    public init(rewind: String, files: [String]) {
        self.rewind = rewind
        self.files = files.map(Self.absolute)
    }

    /// Starts serving on `transport` (``WholeMessageStdioTransport`` for standard input and output).
    public func start(on transport: any Transport) async throws -> Server {
        let server = Server(
            name: "rewind", version: "0.1.0",
            instructions: "Tools over Rewind recordings (.rewind journals of view models): info, log, show, diff, blame (with the chain of dispatches that led to each write), query (conditions over the state after each step) and verify. Steps are sequence numbers; key paths follow list elements by id as items[id: 3].done.",
            capabilities: .init(tools: .init(listChanged: false))
        )
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: RecordingTools.tools) }
        await server.withMethodHandler(CallTool.self) { parameters in
            await self.call(parameters.name, arguments: parameters.arguments ?? [:])
        }
        try await server.start(transport: transport)
        return server
    }

    /// Runs one tool.
    public func call(_ name: String, arguments: [String: Value]) async -> CallTool.Result {
        guard let definition = RecordingTools.definitions.first(where: { $0.name == name }) else {
            return Self.failure("unknown tool '\(name)'; the tools are \(RecordingTools.definitions.map(\.name).joined(separator: ", "))")
        }
        let file: String
        switch arguments["file"] {
        case .string(let given)?: file = given
        case nil where files.count == 1: file = files[0]
        case nil, .null?: return Self.failure(files.isEmpty ? "file is required: the path of a .rewind journal" : "file is required: one of \(files.joined(separator: ", "))")
        default: return Self.failure("file must be text: the path of a .rewind journal")
        }
        let served: String
        if files.isEmpty {
            // Any journal the agent names, but nothing else: the answer says the same for a
            // missing file, a directory, a file it may not read and one that is not a journal.
            guard Self.isJournal(file) else { return Self.failure("not a Rewind journal this server can read: \(file)") }
            served = Self.absolute(file)
        } else {
            guard let match = files.first(where: { $0 == Self.absolute(file) }) else {
                return Self.failure("this server reads only \(files.joined(separator: ", "))")
            }
            served = match
        }
        let invocation: RecordingTools.Invocation
        let page: Page
        do {
            let checked = try ToolArguments(arguments, for: definition)
            invocation = try definition.invocation(checked)
            page = Page(skip: checked["skip"].flatMap { Int($0) } ?? 0,
                        budget: max(1024, min(outputLimit, checked["budget"].flatMap { Int($0) } ?? answerBudget)))
        } catch {
            return Self.failure(error.description)
        }
        return await run(invocation.arguments(file: served), page: page)
    }

    /// The part of a command's output one answer carries: from line `skip`, at most `budget` bytes.
    struct Page: Sendable {
        var skip: Int
        var budget: Int
    }

    /// Runs `rewind` with `arguments` in a process of its own and waits for it off the
    /// concurrency pool; ends it when the call is cancelled or runs past ``timeLimit``.
    private func run(_ arguments: [String], page: Page) async -> CallTool.Result {
        let command = Command(executable: rewind, arguments: arguments)
        let timeLimit = timeLimit
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Command.Outcome, Never>) in
                Thread.detachNewThread { done.resume(returning: command.run(timeLimit: timeLimit, skippingLines: page.skip, outputLimit: page.budget)) }
            }
        } onCancel: {
            command.end(because: .cancelled)
        }
        return answer(outcome, page: page)
    }

    /// The answer for a command's outcome: exit 0 and 1 are answers; anything else is the tool's
    /// error, with rewind's one line where it said one.
    private func answer(_ outcome: Command.Outcome, page: Page) -> CallTool.Result {
        let said = String(decoding: outcome.standardError, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch outcome.ending {
        case .launchFailed(let reason): return Self.failure("cannot run \(rewind): \(reason)")
        case .ended(.timedOut): return Self.failure("the command took longer than \(timeLimit); narrow it with source, kind, from/to or a condition")
        case .ended(.cancelled): return Self.failure("cancelled")
        case .ended(.outputFull): break
        case .signal(let signal): return Self.failure("rewind stopped on signal \(signal)\(said.isEmpty ? "" : ": " + said.prefix(400))")
        case .exit(let status) where status != 0 && status != 1:
            return Self.failure(said.isEmpty ? "rewind exited with status \(status)" : String(said.prefix(2000)))
        case .exit:
            break
        }
        var text = Self.fitted(outcome.standardOutput, page: page, limit: outputLimit)
        if text.isEmpty { text = page.skip > 0 ? "(nothing after line \(page.skip))" : said.isEmpty ? "(nothing)" : said }
        return .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: false)
    }

    /// `output` (the page's part of a command's output, up to one byte more than its budget) as
    /// the answer's text: whole lines within the budget, and when it is cut, a note with the
    /// `skip` that reads on; a single line longer than the budget is cut inside, and says so.
    static func fitted(_ output: Data, page: Page, limit: Int) -> String {
        var kept = output.prefix(page.budget)
        let isCut = output.count > page.budget
        if isCut, let lastNewline = kept.lastIndex(of: UInt8(ascii: "\n")) {
            kept = kept[..<lastNewline]
            let lines = kept.count { $0 == UInt8(ascii: "\n") } + 1
            return String(decoding: kept, as: UTF8.self)
                + "\n(cut at \(page.budget / 1024) KiB after \(lines) lines: for the next, ask again with skip: \(page.skip + lines); or narrow it with source, kind, from/to or a condition)"
        }
        var text = String(decoding: kept, as: UTF8.self)
        guard isCut else {
            while text.hasSuffix("\n") { text.removeLast() }
            return text
        }
        // The budget ended inside a character: what is left of it is not shown.
        while text.hasSuffix("\u{FFFD}") { text.removeLast() }
        let larger = page.budget < limit ? "ask again with a larger budget (at most \(limit)), or " : ""
        return text + "…\n(one line longer than \(page.budget / 1024) KiB, cut: \(larger)skip: \(page.skip + 1) for what follows it, or narrow it with source, kind, from/to or a condition)"
    }

    private static func failure(_ text: String) -> CallTool.Result {
        .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: true)
    }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether `path` is a regular file this process may read that starts as a Rewind journal or
    /// a flight recorder's ring does (their signatures, docs/JOURNAL_FORMAT.md: `rewind` reads a
    /// ring as the journal of its blocks).
    static func isJournal(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        var magic = [UInt8](repeating: 0, count: 8)
        let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 8) }
        return count == 8 && (magic == [0x89, 0x52, 0x57, 0x4E, 0x44, 0x0D, 0x0A, 0x1A] || magic == [0x89, 0x52, 0x57, 0x52, 0x47, 0x0D, 0x0A, 0x1A])
    }
}

/// One run of `rewind`: started, read to the end of both outputs, waited for — or ended early,
/// when its call is cancelled or runs out of time. Unchecked: `process` and `reason` are guarded
/// by `lock`; the outputs are written by their reading threads before the group's `leave` and
/// read after its `wait`.
final class Command: @unchecked Sendable {
    /// Why a command was ended early: out of time, cancelled, or its output past what an
    /// answer carries (the answer is then what it wrote until there).
    enum Reason: Sendable { case timedOut, cancelled, outputFull }
    enum Ending: Sendable {
        case exit(Int32)
        case signal(Int32)
        case ended(Reason)
        case launchFailed(String)
    }
    struct Outcome: Sendable {
        var ending: Ending
        var standardOutput = Data()
        var standardError = Data()
    }

    private let executable: String
    private let arguments: [String]
    private let lock = NSLock()
    private var process: Process?
    private var reason: Reason?

    init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Ends the command, if it runs, and says why; one that has not started yet will not.
    func end(because reason: Reason) {
        lock.lock()
        defer { lock.unlock() }
        // A command that already ended on its own keeps its own ending.
        guard process?.isRunning ?? true, self.reason == nil else { return }
        self.reason = reason
        // SIGKILL: the commands only read, so there is nothing for them to finish, and a child
        // may have inherited SIGTERM ignored.
        if let process { kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs the command to its end (on the calling thread, which it blocks). At most
    /// `outputLimit` + 1 bytes of its output are kept: past that the command is ended, so that an
    /// answer never holds a whole journal's log in memory.
    func run(timeLimit: Duration, skippingLines skip: Int = 0, outputLimit: Int) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // A read-only server leaves nothing beside the journals it reads (no search index).
        environment["REWIND_READ_ONLY"] = "1"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        lock.lock()
        if let reason {
            lock.unlock()
            return Outcome(ending: .ended(reason))
        }
        do {
            try process.run()
        } catch {
            lock.unlock()
            return Outcome(ending: .launchFailed("\(error)"))
        }
        self.process = process
        lock.unlock()
        let timer = DispatchWorkItem { [self] in end(because: .timedOut) }
        let nanoseconds = timeLimit.components.seconds * 1_000_000_000 + timeLimit.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: timer)
        // Both pipes are read to the end before waiting, so a large output cannot block the child.
        var outcome = Outcome(ending: .exit(0))
        let errorRead = DispatchGroup()
        errorRead.enter()
        let standardError = ErrorText()
        DispatchQueue.global().async {
            standardError.set(Self.read(error.fileHandleForReading, keeping: 64 * 1024))
            errorRead.leave()
        }
        outcome.standardOutput = Self.read(output.fileHandleForReading, skippingLines: skip, keeping: outputLimit + 1) { [self] in end(because: .outputFull) }
        process.waitUntilExit()
        errorRead.wait()
        timer.cancel()
        outcome.standardError = standardError.data
        lock.lock()
        defer { lock.unlock() }
        if let reason {
            outcome.ending = .ended(reason)
        } else if process.terminationReason == .uncaughtSignal {
            outcome.ending = .signal(process.terminationStatus)
        } else {
            outcome.ending = .exit(process.terminationStatus)
        }
        return outcome
    }
}

extension Command {
    /// Reads `handle` to its end, leaving out its first `skip` lines and keeping the first `limit`
    /// bytes after them; calls `full` once when more come (the rest is read and dropped, so the
    /// writer never blocks on a full pipe).
    static func read(_ handle: FileHandle, skippingLines skip: Int = 0, keeping limit: Int, full: () -> Void = {}) -> Data {
        var kept = Data()
        var saidFull = false
        var toSkip = skip
        while true {
            var chunk = handle.availableData
            if chunk.isEmpty { return kept }
            while toSkip > 0, let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                chunk = chunk[(newline + 1)...]
                toSkip -= 1
            }
            if toSkip > 0 { continue }
            if kept.count < limit { kept += chunk.prefix(limit - kept.count) }
            if kept.count >= limit, !saidFull {
                saidFull = true
                full()
            }
        }
    }
}

/// What the child wrote on standard error, handed from the thread that read it. Unchecked: the
/// one write happens before the group's `leave`, the one read after its `wait`.
private final class ErrorText: @unchecked Sendable {
    private(set) var data = Data()
    func set(_ data: Data) { self.data = data }
}
