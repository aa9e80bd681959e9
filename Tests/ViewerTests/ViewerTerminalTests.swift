import Foundation
import Testing

/// The real binary in a real terminal: tmux runs it, types keys, and reads the screen.
@Suite("Viewer in a terminal", .serialized)
struct ViewerTerminalTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("rewind").path
    static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs tmux with arguments on a private server and returns its standard output. Spawned and
    /// reaped by hand: `new-session` forks a server that lives on, which Foundation's `Process`
    /// does not cope with.
    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "rewind-tmux-\(getpid())-\(UUID().uuidString)"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([tmuxPath!, "-L", "rewind-tests-\(getpid())"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, tmuxPath!, &actions, nil, argv, environ) == 0 else { return "" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Reads the pane until `condition` holds; tmux redraws asynchronously, so this polls the
    /// screen (bounded), the way a person would look again.
    static func screen(until condition: (String) -> Bool) throws -> String {
        var text = ""
        for _ in 0..<200 {
            text = try tmux(["capture-pane", "-p", "-t", "viewer"])
            if condition(text) { return text }
            usleep(20_000)
        }
        return text
    }

    @Test("the viewer steps, searches, shows help, and quits restoring the terminal")
    func endToEnd() throws {
        guard Self.tmuxPath != nil else {
            print("skipped: tmux is not installed (apt-get install tmux); the viewer's frames are still tested without a terminal")
            return
        }
        let root = ViewerFixtures.root
        try Self.tmux(["new-session", "-d", "-s", "viewer", "-x", "100", "-y", "30",
                       "cd '\(root)' && TERM=xterm-256color '\(Self.binary)' Fixtures/todo.rewind; echo VIEWER-EXITED $?; sleep 30"])
        defer { _ = try? Self.tmux(["kill-server"]) }

        var text = try Self.screen { $0.contains("step 1 of 67") }
        #expect(text.contains("rewind  Fixtures/todo.rewind"))
        #expect(text.contains("Timeline (67 events)"))

        // Step 5 is the commit's second change: the state holds it and the diff shows it.
        try Self.tmux(["send-keys", "-t", "viewer", "Right", "Right", "Right", "l"])
        text = try Self.screen { $0.contains("step 5 of 67") }
        #expect(text.contains("step 5 of 67"))
        #expect(text.contains("nextID: 2"))
        #expect(text.contains("+   nextID: 2"))

        try Self.tmux(["send-keys", "-t", "viewer", ":", "4", "6", "Enter"])
        text = try Self.screen { $0.contains("#46  ") }
        #expect(text.contains("change toggle done"))
        #expect(text.contains("+       done: true"))

        try Self.tmux(["send-keys", "-t", "viewer", "/", "J", "a", "m", "Enter"])
        // The first match is the dispatch whose description names the new item.
        text = try Self.screen { $0.contains("step 52 of 67") }
        #expect(text.contains("/Jam"))
        // Once the item is in the state, its title's escape sequence is shown, not sent.
        try Self.tmux(["send-keys", "-t", "viewer", ":", "5", "4", "Enter"])
        text = try Self.screen { $0.contains("step 54 of 67") }
        #expect(text.contains("Jam \\u{1B}[31m(red)"))

        try Self.tmux(["send-keys", "-t", "viewer", "?"])
        text = try Self.screen { $0.contains("this help") }
        #expect(text.contains("last / next step that changed"))

        try Self.tmux(["send-keys", "-t", "viewer", "Escape", "q"])
        text = try Self.screen { $0.contains("VIEWER-EXITED") }
        #expect(text.contains("VIEWER-EXITED 0"))
        // Back on the normal screen: the viewer's frame is gone.
        #expect(!text.contains("Timeline (67 events)"))
    }

    @Test("outside a terminal the viewer says so and points to log and show")
    func notATerminal() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["Fixtures/todo.rewind"]
        process.currentDirectoryURL = URL(fileURLWithPath: ViewerFixtures.root)
        let error = Pipe()
        process.standardOutput = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("needs a terminal") && message.contains("rewind log") && message.contains("rewind show"))
    }
}
