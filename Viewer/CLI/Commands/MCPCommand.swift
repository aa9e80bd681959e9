import ArgumentParser
import Foundation
@_spi(Tooling) import Rewind

struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve recordings to a coding agent over the Model Context Protocol (stdio).",
        discussion: """
            Its tools are rewind's own operations, answering as their --json does: info, log (with \
            filters), show, diff, blame (with the chain that led to each write), query and verify. \
            With FILEs the server reads only those, and one alone is every tool's default. It runs \
            the rewind-mcp tool (built from Rewind's MCP package), found beside rewind or on PATH.
            An agent's configuration:  {"command": "rewind", "args": ["mcp", "/path/to/session.rewind"]}
            """
    )

    @Argument(help: "The recordings the server may read (default: any the agent names).", completion: .file(extensions: ["rewind"])) var files: [String] = []

    func run() throws {
        for file in files where access(file, R_OK) != 0 {
            throw CommandFailure("cannot read \(VisibleText.escaped(file))")
        }
        let tool = CompanionTool(
            name: "rewind-mcp",
            installHint: "build it with 'swift build -c release --package-path MCP' in Rewind's checkout and put MCP/.build/release/rewind-mcp beside rewind or on PATH"
        )
        // The server runs this very rewind for its answers.
        let own = Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
        let status = try tool.run(["--rewind", own] + files)
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
