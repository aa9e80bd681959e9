import Foundation
@_spi(Tooling) import Rewind
import Testing
import TestSupport

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
        try run(arguments).output
    }

    /// Starts a detached session `name`, `width` × `height`, running `command` in a shell. Tried
    /// again when tmux refuses: after a test kills the server's last session the server is still
    /// exiting for a moment, and a `new-session` that reaches it then fails (seen on a loaded CI
    /// machine as a pane that never showed anything).
    static func newSession(_ name: String, width: Int, height: Int, command: String) throws {
        for _ in 0..<50 {
            let started = try run(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command])
            if started.status == 0 { return }
            // `=`: this name exactly, not a session whose name starts with it.
            if try run(["has-session", "-t", "=" + name]).status == 0 { return }
            usleep(100_000)
        }
        throw TmuxRefused(session: name)
    }

    /// tmux would not start a session, tried for five seconds.
    struct TmuxRefused: Error {
        let session: String
    }

    /// Runs tmux with arguments and returns its exit status and standard output.
    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
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
        guard posix_spawn(&pid, tmuxPath!, &actions, nil, argv, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        guard waited == pid else { return (-1, "") }
        // Exited normally: the low seven bits are zero and the status is in the next byte.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        return (exitStatus, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    /// Reads the pane until `condition` holds; tmux redraws asynchronously, so this polls the
    /// screen (bounded: about 15 s, which a loaded machine running the whole suite can need), the
    /// way a person would look again.
    static func screen(session: String = "viewer", until condition: (String) -> Bool) throws -> String {
        var text = ""
        for _ in 0..<750 {
            text = try tmux(["capture-pane", "-p", "-t", session])
            if condition(text) { return text }
            usleep(20_000)
        }
        return text
    }

    /// Opens the viewer on a fixture in a tmux session of its own, `width` × `height`, and waits
    /// for its first frame (`ready` on screen). The caller kills the session.
    static func openViewer(_ fixture: String, session: String, width: Int = 120, height: Int = 40, ready: String) throws {
        try newSession(
            session, width: width, height: height,
            command: "cd '\(ViewerFixtures.root)' && TERM=xterm-256color '\(binary)' Fixtures/\(fixture); sleep 30")
        _ = try screen(session: session) { $0.contains(ready) }
    }

    @Test("a mouse click in the terminal selects the timeline row under it")
    func mouseClick() throws {
        guard Self.tmuxPath != nil else { return }
        defer { _ = try? Self.tmux(["kill-session", "-t", "mouse"]) }
        try Self.openViewer("demo.rewind", session: "mouse", ready: "step 1 of 326")
        // What a terminal sends for a left click at column 5, row 8 (SGR mouse reporting, 1-based).
        try Self.tmux(["send-keys", "-t", "mouse", "-l", "\u{1B}[<0;5;8M\u{1B}[<0;5;8m"])
        var text = try Self.screen(session: "mouse") { $0.contains("step 6 of 326") }
        #expect(text.contains("step 6 of 326"))
        // A click on the overview strip's last cell (the title line, column 119) goes to the end.
        try Self.tmux(["send-keys", "-t", "mouse", "-l", "\u{1B}[<0;119;1M\u{1B}[<0;119;1m"])
        // Waited for whole: the strip's row is drawn before the status line, and a capture can
        // fall between them.
        text = try Self.screen(session: "mouse") { ($0.contains("◆ \n") || $0.contains("◆\n")) && !$0.contains("step 6 of 326") }
        let firstLine = try #require(text.split(separator: "\n").first)
        #expect(firstLine.hasSuffix("◆"))
        #expect(!text.contains("step 6 of 326"))
    }

    @Test("y reaches the terminal's clipboard: tmux (set-clipboard on) receives the selected value through OSC 52")
    func copyReachesTheClipboard() throws {
        guard Self.tmuxPath != nil else { return }
        defer { _ = try? Self.tmux(["kill-session", "-t", "copy"]) }
        try Self.openViewer("todo.rewind", session: "copy", ready: "step 1 of 67")
        try Self.tmux(["set-option", "-g", "set-clipboard", "on"])
        try Self.tmux(["send-keys", "-t", "copy", ":46", "Enter"])
        _ = try Self.screen(session: "copy") { $0.contains("step 46 of 67") }
        try Self.tmux(["send-keys", "-t", "copy", "Tab", "y"])
        _ = try Self.screen(session: "copy") { $0.contains("copied the value") }
        #expect(try Self.tmux(["show-buffer"]) == "true")
    }

    @Test("rewind log on a terminal fits each line to its width, wide or narrow", arguments: [100, 200])
    func logFitsTheTerminal(width: Int) throws {
        guard Self.tmuxPath != nil else { return }
        let root = ViewerFixtures.root
        // A session per width: the cases may run side by side on the one tmux server.
        let session = "log-\(width)"
        try Self.newSession(
            session, width: width, height: 60,
            command: "cd '\(root)' && '\(Self.binary)' log Fixtures/todo.rewind --from 30; echo LOG-DONE; sleep 30")
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }
        _ = try Self.screen(session: session) { $0.contains("LOG-DONE") }
        // -J joins lines the terminal wrapped: a line that did not fit comes back longer than the pane.
        let lines = try Self.tmux(["capture-pane", "-p", "-J", "-t", session]).split(separator: "\n").map(String.init)
        let logged = lines.filter { $0.hasPrefix("#") }
        #expect(logged.count > 10)
        #expect(logged.allSatisfy { $0.count <= width }, "\(logged.filter { $0.count > width })")
        // The room is used: at 100 columns (the call site left out for it) a change cut short is
        // cut near the edge, not at 80; at 200 every line is whole (the longest, a list change
        // said as what changed, takes ~130).
        if width < 130 {
            #expect(logged.filter { $0.hasSuffix("…") }.allSatisfy { $0.count > width - 10 })
            #expect(!logged.contains { $0.contains("TodoSample.swift:") })
        } else {
            #expect(!logged.contains { $0.hasSuffix("…") })
            #expect(logged.contains { $0.count > 120 })
        }
    }

    @Test("the viewer shows what a step did, folds dispatches, searches, shows help, and quits restoring the terminal")
    func endToEnd() throws {
        guard Self.tmuxPath != nil else {
            print("skipped: tmux is not installed (apt-get install tmux); the viewer's frames are still tested without a terminal")
            return
        }
        let root = ViewerFixtures.root
        try Self.newSession(
            "viewer", width: 120, height: 30,
            command: "cd '\(root)' && TERM=xterm-256color '\(Self.binary)' Fixtures/demo.rewind; "
                + "echo VIEWER-EXITED $?; sleep 30")
        defer { _ = try? Self.tmux(["kill-server"]) }

        var text = try Self.screen { $0.contains("step 1 of 326") }
        #expect(text.contains("rewind  Fixtures/demo.rewind"))
        #expect(text.contains("Timeline (326 events)"))

        // A change step: its row has the path and the new value, the state holds it, the diff shows it.
        try Self.tmux(["send-keys", "-t", "viewer", ":", "4", "Enter"])
        text = try Self.screen { $0.contains("step 4 of 326") }
        #expect(text.contains("▶#4") && text.contains("count: 0 → 1"))
        #expect(text.contains("State of CounterSample#1 after #4"))
        #expect(text.contains("+   count: 1"))
        #expect(!text.contains("no change"))

        // Folded, a dispatch's diff is its whole effect.
        try Self.tmux(["send-keys", "-t", "viewer", "z", ":", "1", "3", "6", "Enter"])
        text = try Self.screen { $0.contains("step 136 of 326") }
        #expect(text.contains("▸ dispatch  toggle"))
        #expect(text.contains("after #140 (the dispatch's end)"))
        #expect(text.contains("Diff: before #136 → after #140"))
        #expect(text.contains("+       done: true"))

        try Self.tmux(["send-keys", "-t", "viewer", "z", "/", "J", "a", "m", "Enter"])
        text = try Self.screen { $0.contains("/Jam") }
        #expect(text.contains("/Jam"))

        try Self.tmux(["send-keys", "-t", "viewer", "?"])
        text = try Self.screen { $0.contains("next slice of the top strip") }
        #expect(text.contains("fold / unfold a dispatch or node; z all"))

        try Self.tmux(["send-keys", "-t", "viewer", "Escape", "q"])
        text = try Self.screen { $0.contains("VIEWER-EXITED") }
        #expect(text.contains("VIEWER-EXITED 0"))
        // Back on the normal screen: the viewer's frame is gone.
        #expect(!text.contains("Timeline (326 events)"))
    }

    @Test("q quits at once while a search reads a large journal")
    func quitDuringSearch() throws {
        guard Self.tmuxPath != nil else { return }
        try ViewerFixtures.withJournalPath("large.rewind") { path in
            let journal = try JournalLogger(path: path)
            let channel = EventChannel(source: EventSource(framework: .cycler, typeName: "Ticker"))
            channel.emit(.created(state: LoggedValue(["tick": 0])), callSite: CallSite(), to: journal)
            for tick in 0..<300_000 { channel.emit(.activity(LoggedValue(["tick": tick])), callSite: CallSite(), to: journal) }
            journal.close()

            try Self.newSession(
                "slow", width: 100, height: 30,
                command: "TERM=xterm-256color '\(Self.binary)' '\(path)'; echo VIEWER-EXITED $? $(date +%s%N); sleep 30")
            defer { _ = try? Self.tmux(["kill-session", "-t", "slow"]) }
            _ = try Self.screen(session: "slow") { $0.contains("step 1 of 300001") }
            // Text that matches nothing and is not a plain word: the search reads every block.
            try Self.tmux(["send-keys", "-t", "slow", "-l", "/no such tick 1"])
            try Self.tmux(["send-keys", "-t", "slow", "Enter"])
            let searching = try Self.screen(session: "slow") { $0.contains("searching") }
            #expect(searching.contains("searching"))
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            let pressed = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            try Self.tmux(["send-keys", "-t", "slow", "q"])
            let text = try Self.screen(session: "slow") { $0.contains("VIEWER-EXITED") }
            let fields = text.split(separator: "\n").first { $0.contains("VIEWER-EXITED") }?.split(separator: " ") ?? []
            #expect(fields.count == 3 && fields[1] == "0")
            let exited = fields.count == 3 ? Int64(fields[2]) ?? 0 : 0
            let milliseconds = Double(exited - pressed) / 1e6
            print("quit during a search took \(milliseconds) ms (including tmux delivering the key)")
            // The target is 100 ms (46-58 ms measured in a debug build; the Benchmarks article has the figure).
            // The bound here is what a search run slice by slice cannot miss even under
            // ThreadSanitizer (about 340 ms there); the search was still running when q was pressed.
            #expect(milliseconds < 1_000)
        }
    }

    @Test("the viewer ends when its terminal goes away")
    func hangUp() throws {
        guard Self.tmuxPath != nil else { return }
        let pidFile = NSTemporaryDirectory() + "rewind-viewer-pid-" + UUID().uuidString
        defer { unlink(pidFile) }
        try Self.newSession(
            "hangup", width: 80, height: 24,
            command: "cd '\(ViewerFixtures.root)' && sh -c 'echo $$ > \(pidFile); exec \(Self.binary) Fixtures/todo.rewind'")
        defer { _ = try? Self.tmux(["kill-session", "-t", "hangup"]) }
        _ = try Self.screen(session: "hangup") { $0.contains("step 1 of 67") }
        let pid = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0)
        try Self.tmux(["kill-session", "-t", "hangup"])
        // The terminal is gone: the viewer must not run on (polled, bounded: there is no signal
        // for another process's exit).
        // An exited process stays a zombie until tmux reaps it: read its state, not its existence.
        func running() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return !stat.contains(") Z ")
        }
        var alive = true
        for _ in 0..<250 where alive {
            alive = running()
            if alive { usleep(20_000) }
        }
        #expect(!alive)
    }

    /// Opens the viewer on the todo fixture in tmux (the shell prints its exit status after it),
    /// sends it `signal` once it has drawn, and returns the screen once it ended and the
    /// terminal's modes (alternate screen, cursor, mouse reporting) while it ran and after.
    static func signalViewer(_ signal: Int32, session: String) throws -> (screen: String, running: String, after: String) {
        let pidFile = NSTemporaryDirectory() + "rewind-viewer-pid-" + UUID().uuidString
        defer { unlink(pidFile) }
        try newSession(
            session, width: 80, height: 24,
            // Without the Swift runtime's backtrace, which waits for a key on a terminal.
            command: "cd '\(ViewerFixtures.root)' && SWIFT_BACKTRACE=enable=no "
                + "sh -c 'echo $$ > \(pidFile); exec \(binary) Fixtures/todo.rewind'; echo VIEWER-EXITED $?; sleep 30")
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        _ = try screen(session: session) { $0.contains("step 1 of 67") }
        func modes() throws -> String {
            try tmux(["display-message", "-p", "-t", session, "#{alternate_on} #{cursor_flag} #{mouse_standard_flag} #{mouse_sgr_flag}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let running = try modes()
        let pid = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, signal)
        let text = try screen(session: session) { $0.contains("VIEWER-EXITED") }
        return (text, running, try modes())
    }

    @Test("SIGTERM to a viewer that is waiting for keys: it puts the terminal back itself and exits 143, as a shell says a program SIGTERM ended")
    func terminateAnswered() throws {
        guard Self.tmuxPath != nil else { return }
        let ended = try Self.signalViewer(SIGTERM, session: "terminate")
        #expect(ended.screen.contains("VIEWER-EXITED 143"), "\(ended.screen)")
        #expect(ended.after == "0 1 0 0")
    }

    @Test("a crash leaves the terminal as the viewer found it: the normal screen, the cursor shown, mouse reporting off", arguments: [SIGSEGV, SIGABRT])
    func crashRestoresTheTerminal(signal: Int32) throws {
        guard Self.tmuxPath != nil else { return }
        let ended = try Self.signalViewer(signal, session: "crash-\(signal)")
        #expect(ended.running == "1 0 1 1", "the viewer's modes are on while it runs")
        #expect(!ended.screen.contains("VIEWER-EXITED 0"), "it ended by the signal: \(ended.screen)")
        #expect(ended.after == "0 1 0 0", "\(ended.screen)")
    }

    @Test("a viewer that cannot answer SIGTERM or SIGHUP itself — blocked writing to a terminal that stopped reading, started with those signals blocked — still ends, with the signal's status, and puts the terminal's settings back", arguments: [SIGTERM, SIGHUP])
    func signalEndsABlockedViewer(signal: Int32) throws {
        #if os(Linux)
        // A terminal of our own whose screen side is never read once the viewer has drawn. (Glibc's
        // module leaves out posix_openpt: the ioctls are Linux's, TIOCSPTLCK and TIOCGPTN.)
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        let slave = "/dev/pts/\(number)"
        var size = winsize(ws_row: 60, ws_col: 200, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in 0...2 { posix_spawn_file_actions_addopen(&actions, Int32(descriptor), slave, O_RDWR, 0) }
        let words: [String] = ["/bin/sh", "-c", "cd '\(ViewerFixtures.root)' && exec '\(Self.binary)' Fixtures/demo.rewind"]
        let settings: [String] = ["TERM=xterm-256color", "SWIFT_BACKTRACE=enable=no"]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = settings.map { strdup($0) } + [nil]
        defer { environment.forEach { free($0) } }
        // Started with the signals blocked, as a parent may leave them: the viewer unblocks them.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGHUP)
        posix_spawnattr_setsigmask(&attributes, &blocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment) == 0)
        var ended = false
        defer { if !ended { kill(pid, SIGKILL); waitpid(pid, nil, 0) } }
        // Its first frame.
        var seen = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<500 where !String(decoding: seen, as: UTF8.self).contains("step 1 of 326") {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 30) > 0 {
                let count = read(master, &buffer, buffer.count)
                if count > 0 { seen.append(contentsOf: buffer[0..<count]) }
            }
        }
        try #require(String(decoding: seen, as: UTF8.self).contains("step 1 of 326"))
        // Whole redraws (a resize each) until the viewer's thread blocks writing a frame nobody
        // reads: the kernel's wait for room in the terminal (polled, bounded).
        func waitChannel() -> String? { try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/wchan", encoding: .utf8) }
        func blockedWriting() -> Bool { waitChannel() == "wait_woken" }
        // A kernel that does not say where a thread waits (some containers print 0 always) gives
        // this test nothing to wait for: said, and left. (A thread running when sampled reads 0
        // too: sampled a few times.)
        var visible = false
        for _ in 0..<50 where !visible {
            if let idle = waitChannel(), idle != "0", !idle.isEmpty { visible = true } else { usleep(2_000) }
        }
        guard visible else {
            print("signalEndsABlockedViewer: this kernel hides wait channels; nothing checked")
            return
        }
        var redraws = 0
        while redraws < 5_000, !blockedWriting() {
            kill(pid, SIGWINCH)
            redraws += 1
            usleep(2_000)
        }
        try #require(blockedWriting(), "the viewer never blocked writing (\(redraws) redraws)")
        kill(pid, signal)
        // Its exit, polled (bounded): there is no signal for a child's end that a test can wait on.
        var status: Int32 = 0
        for _ in 0..<500 where !ended {
            ended = waitpid(pid, &status, WNOHANG) == pid
            if !ended { usleep(20_000) }
        }
        #expect(ended, "the viewer ran on after the signal")
        #expect(ChildProcess.Termination(waitStatus: status) == .exited(128 + signal))
        // The terminal's settings are back: line editing and echo on, as before raw mode. (The
        // reset sequence is written too, but whether a terminal nobody reads passes on what was
        // written just before its program ended is the kernel's affair.)
        var modes = termios()
        try #require(tcgetattr(master, &modes) == 0)
        let lineEditing = modes.c_lflag & tcflag_t(ICANON) != 0, echo = modes.c_lflag & tcflag_t(ECHO) != 0
        #expect(lineEditing && echo, "still in raw mode")
        #endif
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
