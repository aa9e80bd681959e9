import Foundation
import MCP
import RewindMCP

// rewind-mcp [--rewind PATH] [--time-limit SECONDS] [FILE…]: a Model Context Protocol server over standard input and
// output whose tools read Rewind recordings. `rewind mcp [FILE…]` runs it with `--rewind` set to
// itself; run alone, it looks for `rewind` beside itself, then on PATH. With FILEs it reads only
// those (and one alone is the default for every tool).
var arguments = Array(CommandLine.arguments.dropFirst())
var rewind: String?
if let index = arguments.firstIndex(of: "--rewind"), index + 1 < arguments.count {
    rewind = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
var timeLimit: Duration?
if let index = arguments.firstIndex(of: "--time-limit"), index + 1 < arguments.count {
    guard let seconds = Double(arguments[index + 1]), seconds > 0, seconds <= 86_400 else {
        FileHandle.standardError.write(Data("rewind-mcp: --time-limit takes a number of seconds, up to 86400\n".utf8))
        exit(2)
    }
    timeLimit = .milliseconds(Int64(seconds * 1000))
    arguments.removeSubrange(index...(index + 1))
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: rewind-mcp [--rewind PATH] [--time-limit SECONDS] [FILE…]   (a Model Context Protocol server on stdio; see 'rewind mcp --help')")
    exit(0)
}
let beside = Bundle.main.executableURL.map { $0.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("rewind").path }
let candidates = [rewind, beside].compactMap { $0 } + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/rewind" }
guard let executable = candidates.first(where: { access($0, X_OK) == 0 }) else {
    FileHandle.standardError.write(Data("rewind-mcp: cannot find the rewind executable; pass --rewind PATH\n".utf8))
    exit(2)
}
for file in arguments where access(file, R_OK) != 0 {
    FileHandle.standardError.write(Data("rewind-mcp: cannot read \(file)\n".utf8))
    exit(2)
}
var recordingServer = RecordingServer(rewind: executable, files: arguments)
if let timeLimit { recordingServer.timeLimit = timeLimit }
let server = try await recordingServer.start(on: WholeMessageStdioTransport())
await server.waitUntilCompleted()
