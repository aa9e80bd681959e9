import Foundation
@_spi(Tooling) import Rewind

/// A tool of Rewind's that ships on its own, run in `rewind`'s place, git-style: `rewind export
/// --otlp` runs `rewind-otlp`, which links swift-otel and its networking stack so that `rewind`
/// never does. Looked for beside the running `rewind` first, then on `PATH`.
struct CompanionTool {
    let name: String
    /// What to tell a user who does not have it.
    let installHint: String

    /// Runs the tool with `arguments`, sharing this process's standard input, output and error,
    /// and returns its exit status.
    func run(_ arguments: [String]) throws -> Int32 {
        guard let executable = locate() else {
            throw CommandFailure("\(name) is not installed: \(installHint)")
        }
        var argv = ([name] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, nil, nil, &argv, environ)
        guard spawned == 0 else {
            throw CommandFailure("cannot run \(VisibleText.escaped(executable)): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Beside the running executable (the usual case: both built into one `.build/release`, or
    /// installed into one folder), then each `PATH` folder.
    func locate() -> String? {
        var folders: [String] = []
        if let running = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(running.deletingLastPathComponent().path)
        }
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.lazy.map { ($0 as NSString).appendingPathComponent(name) }.first { access($0, X_OK) == 0 }
    }
}
