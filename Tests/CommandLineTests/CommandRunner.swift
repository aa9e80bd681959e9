import Foundation
import Testing
import TestSupport

/// Runs the built `rewind` binary from the repository root, as a user would.
enum CommandRunner {
    static let repositoryRoot = Repository.root.path
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind").path
    }

    struct Result: Equatable {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// The form kept in golden files.
        var transcript: String {
            "exit: \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
        }
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        try run(executable: binary, arguments, environment: environment)
    }

    /// Runs `script` with `/bin/sh` from the repository root, `$REWIND` naming the binary: for
    /// redirections and limits a test needs around a command.
    static func runShell(_ script: String) throws -> Result {
        try run(executable: "/bin/sh", ["-c", script], environment: ["REWIND": binary])
    }

    private static func run(executable: String, _ arguments: [String], environment: [String: String]) throws -> Result {
        let child = try ChildProcess.run(executable, arguments, in: repositoryRoot, environment: ["NO_COLOR": "1"].merging(environment) { $1 })
        return Result(status: child.termination.code, standardOutput: child.standardOutput, standardError: child.standardError)
    }

    /// Compares a command's transcript with its golden file; with REWIND_UPDATE_GOLDEN=1 in the
    /// environment, writes the golden file instead.
    static func expectGolden(_ name: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(arguments)
        try GoldenFile.expect(
            result.transcript, matches: goldenDirectory + "/" + name + ".txt",
            regenerate: "swift test --filter CommandLineTests (for rewind \(arguments.joined(separator: " ")))", sourceLocation: sourceLocation
        )
    }
}
