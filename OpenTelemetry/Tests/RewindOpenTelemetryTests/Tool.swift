import Foundation

/// Child processes for the tests, spawned and reaped with posix_spawn and waitpid: Foundation's
/// `Process.waitUntilExit` can spin forever on Linux when called from a Swift concurrency thread.
enum Tool {
    /// Starts `arguments` (looked up on `PATH` when `searchingPath`) with one of its output
    /// descriptors going to a pipe; returns its process and the pipe's reading end.
    static func spawn(_ arguments: [String], capturing descriptor: Int32, searchingPath: Bool = false) throws -> (process: pid_t, output: Int32) {
        var pipe: [Int32] = [0, 0]
        guard Foundation.pipe(&pipe) == 0 else { throw LocalReceiver.ReceiverError(message: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], descriptor)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = searchingPath
            ? posix_spawnp(&child, arguments[0], &actions, nil, &argv, environ)
            : posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw LocalReceiver.ReceiverError(message: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        return (child, pipe[0])
    }

    /// Waits for a child and gives its exit status (128 + the signal, if a signal ended it).
    static func wait(for process: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(process, &status, 0)
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs an executable built beside the test bundle (`swift build` puts products in one folder)
    /// and collects its exit status and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let (process, output) = try spawn([folder.appendingPathComponent(arguments[0]).path] + arguments.dropFirst(), capturing: STDERR_FILENO)
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(output, &buffer, buffer.count)
            if count <= 0 { break }
            text += buffer[0..<count]
        }
        close(output)
        return (wait(for: process), String(decoding: text, as: UTF8.self))
    }
}
