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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.merge(environment) { $1 }
        process.environment = env
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let errorData = DataBox()
        let errorRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData.data = error.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self), standardError: String(decoding: errorData.data, as: UTF8.self))
    }

    /// Compares a command's transcript with its golden file; with REWIND_UPDATE_GOLDEN=1 in the
    /// environment, writes the golden file instead.
    static func expectGolden(_ name: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(arguments)
        let path = goldenDirectory + "/" + name + ".txt"
        if ProcessInfo.processInfo.environment["REWIND_UPDATE_GOLDEN"] == "1" {
            try result.transcript.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(result.transcript == expected, "rewind \(arguments.joined(separator: " ")) differs from Golden/\(name).txt (regenerate with REWIND_UPDATE_GOLDEN=1 swift test --filter CommandLineTests)", sourceLocation: sourceLocation)
    }
}

/// Standard error's bytes, handed from the reading thread to the test through a semaphore.
final class DataBox: @unchecked Sendable {
    // Unchecked: written once before the semaphore is signalled, read after it is waited on.
    var data = Data()
}
