import Foundation

/// A program run to its end by a test, its output read in full and its end decoded once: how the
/// command-line and terminal tests run `rewind`, shells and tools as a user would.
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// Decodes a status from `waitpid` (`WIFEXITED`, `WEXITSTATUS`, `WTERMSIG`).
        public init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        }

        /// The status a golden transcript records: the exit status, or the signal's number.
        public var code: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// What a child left.
    public struct Result: Sendable {
        public var termination: Termination
        public var standardOutput: String
        public var standardError: String
    }

    /// Runs `executable` with `arguments` in `directory`, the environment this process has with
    /// `environment` on top, and waits for it: both pipes are read to their end before waiting, so
    /// a child that writes a lot cannot block.
    public static func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let errorData = DataBox()
        let errorRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData.data = error.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        let termination: Termination = process.terminationReason == .uncaughtSignal
            ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
        return Result(
            termination: termination,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.data, as: UTF8.self)
        )
    }
}

extension ChildProcess {
    /// A child read line by line while it runs, for tests that act on what it says — kill it
    /// after its tenth report, read the file it names: the crash tests' recorders.
    public final class Running {
        /// The process, to signal and wait for.
        public let process = Process()
        private let output = Pipe()
        private var buffer = ""

        /// Starts `executable` with `arguments`, the environment this process has with
        /// `environment` on top; its standard output is read by ``line()``.
        public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = output
            try process.run()
        }

        /// The next line the child prints; `nil` once it has ended.
        public func line() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: "\n") {
                    defer { buffer.removeSubrange(...newline) }
                    return String(buffer[..<newline])
                }
                let data = output.fileHandleForReading.availableData
                guard !data.isEmpty else { return nil }
                buffer += String(decoding: data, as: UTF8.self)
            }
        }
    }
}

/// Standard error's bytes, handed from the reading thread to the test through a semaphore.
private final class DataBox: @unchecked Sendable {
    // Unchecked: written once before the semaphore is signalled, read after it is waited on.
    var data = Data()
}

/// Whether this process — and the test children built with it — runs under ThreadSanitizer
/// (`swift test --sanitize=thread`), which takes SIGSEGV over: a child that faults then reports
/// and exits rather than dying of the signal.
public let isThreadSanitized: Bool = dlsym(nil, "__tsan_init") != nil
