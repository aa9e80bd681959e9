import Foundation

/// Runs an executable built beside the test bundle (`swift build` puts products in one folder)
/// and collects its exit status and standard error.
enum Tool {
    static func run(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = folder.appendingPathComponent(arguments[0]).path
        var pipe: [Int32] = [0, 0]
        guard Foundation.pipe(&pipe) == 0 else { throw LocalReceiver.ReceiverError(message: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        var argv = ([executable] + arguments.dropFirst()).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, &argv, environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw LocalReceiver.ReceiverError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(pipe[0])
        var status: Int32 = 0
        waitpid(child, &status, 0)
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}
