import Foundation
import Rewind
import RewindViewer
import Synchronization

/// Set by the signal handlers, read by the viewer's loop (a handler may only touch atomics).
let terminalResized = Atomic<Bool>(false)
/// The termination signal (SIGTERM, SIGINT, SIGHUP) that asked the viewer to stop; 0 for none.
let terminationSignal = Atomic<Int32>(0)

/// The terminal in raw mode on the alternate screen, with mouse wheel reporting, for as long as the
/// viewer runs. ``restore()`` puts everything back; it runs on quit, on SIGTERM/SIGINT/SIGHUP (through
/// the loop, or ``TerminationWatchdog`` when the loop cannot answer) and on any error (through
/// `defer`). A crash puts it back too (``FatalSignals``).
final class TerminalSession: ViewerTerminal {
    private var saved = termios()
    private var active = false
    private var pending: [UInt8] = []

    init() throws {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw CommandFailure("cannot read the terminal's settings") }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { throw CommandFailure("cannot put the terminal in raw mode") }
        active = true
        // Made now, not first in a handler: a global's first use runs its one-time setup.
        _ = terminalResized.load(ordering: .relaxed)
        signal(SIGWINCH) { _ in terminalResized.store(true, ordering: .relaxed) }
        TerminationWatchdog.start(restoring: saved)
        var asked = sigset_t()
        sigemptyset(&asked)
        for name in [SIGTERM, SIGINT, SIGHUP] {
            signal(name) { signal in
                let savedErrno = errno
                terminationSignal.store(signal, ordering: .relaxed)
                TerminationWatchdog.signalled(signal)
                errno = savedErrno
            }
            sigaddset(&asked, name)
        }
        // A mask inherited from whatever started the viewer must not hold them back.
        pthread_sigmask(SIG_UNBLOCK, &asked, nil)
        FatalSignals.restoreOnCrash(saved)
        // Alternate screen, hidden cursor, mouse buttons and wheel in SGR form.
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h")
    }

    /// What undoes the modes the session turns on: mouse reporting off, colours reset, the cursor
    /// shown, the normal screen back.
    fileprivate static let resetSequence: StaticString = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    deinit { restore() }

    /// Leaves the terminal as it was found. Safe to call more than once.
    func restore() {
        guard active else { return }
        active = false
        // The watchdog is putting the terminal back and ending the process: nothing to add.
        guard TerminationWatchdog.claim() else { while true { pause() } }
        FatalSignals.stopRestoring()
        if terminationRequested {
            // Asked to end: the terminal may have stopped reading (a dropped connection), and
            // nothing here may wait for it.
            TerminationWatchdog.writeResetWithoutWaiting()
            // Keys and mouse reports typed at the viewer are not the shell's.
            tcflush(STDIN_FILENO, TCIFLUSH)
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        } else {
            Self.write(Self.resetSequence.description)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        }
    }

    /// The terminal's size, if stdout is a terminal.
    static func size() -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    var terminationRequested: Bool { terminationSignal.load(ordering: .relaxed) != 0 }

    /// The signal that ended the viewer, if one did: its exit status is then 128 + its number,
    /// as a shell says of a program a signal ended.
    var endingSignal: Int32? {
        let signal = terminationSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    func takeResize() -> (width: Int, height: Int)? {
        terminalResized.exchange(false, ordering: .relaxed) ? Self.size() : nil
    }

    func write(_ text: String) { Self.write(text) }

    /// Waits up to `timeout` milliseconds for input and returns the keys it holds; `nil` when the
    /// terminal has gone away (hung up, or reads fail with EIO). A lone ESC waits a little longer
    /// for the rest of a sequence. `poll` is interrupted by SIGWINCH, so a resize redraws at once.
    func keys(timeout: Int32) -> [Key]? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeout)
        if ready < 0 { return errno == EINTR ? [] : nil }
        guard ready > 0 else { return [] }
        if descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && descriptor.revents & Int16(POLLIN) == 0 { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count == 0 { return nil }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        pending += buffer[0..<count]
        var decoded = KeyDecoder.decode(pending, final: false)
        if !decoded.remainder.isEmpty {
            var more = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            if poll(&more, 1, 30) > 0 {
                let extra = read(STDIN_FILENO, &buffer, buffer.count)
                if extra > 0 { pending = decoded.remainder + buffer[0..<extra] } else { pending = decoded.remainder }
            } else {
                pending = decoded.remainder
            }
            let rest = KeyDecoder.decode(pending, final: true)
            decoded.keys += rest.keys
        }
        pending = []
        return decoded.keys
    }

    /// Writes to the terminal; a write that fails (the terminal is gone) is dropped: the next
    /// read sees the hang-up and the viewer ends.
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written) }
            if result < 0 { if errno == EINTR { continue } else { return } }
            written += result
        }
    }
}

/// Ends the viewer when it does not answer SIGTERM, SIGINT or SIGHUP itself within a second:
/// its loop answers between frames, but a frame may take long, or hang writing to a terminal that
/// stopped reading (a dropped connection). The signal handler only writes a byte to a pipe; a
/// thread of its own waits on it, gives the loop its second, then puts the terminal back without
/// waiting for it and ends the process with the signal's status, 128 + its number. Whichever of
/// the loop and the watchdog comes first restores the terminal (``claim()``); a loop that answered
/// but has not ended ``finishing`` later is ended too.
enum TerminationWatchdog {
    /// The pipe the handler writes the signal's number to. Unsafe: written once by `start`
    /// before any handler is installed.
    nonisolated(unsafe) private static var pipeEnds: (read: Int32, write: Int32) = (-1, -1)
    private static let claimed = Atomic<Bool>(false)
    /// How long the loop has to answer a signal, and then to finish (put the terminal back,
    /// save the search index) once it has.
    static let grace = Duration.seconds(1)
    static let finishing = Duration.seconds(5)

    static func start(restoring terminal: termios) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        pipeEnds = (ends[0], ends[1])
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        // Made now, not first in a handler: a global's first use runs its one-time setup.
        _ = TerminalSession.resetSequence.utf8CodeUnitCount
        _ = claimed.load(ordering: .relaxed)
        _ = terminationSignal.load(ordering: .relaxed)
        let readEnd = ends[0]
        Thread.detachNewThread {
            var signal: UInt8 = 0
            while read(readEnd, &signal, 1) < 0 && errno == EINTR {}
            // The loop answered (it claimed the restoring): it ends the process itself, within
            // `finishing` unless it hangs on the way.
            guard !wait(grace), claim() else {
                sleep(until: ContinuousClock.now + finishing)
                _exit(128 + Int32(signal))
            }
            writeResetWithoutWaiting()
            var settings = terminal
            tcflush(STDIN_FILENO, TCIFLUSH)
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
            _exit(128 + Int32(signal))
        }
    }

    /// Sleeps until `deadline`, whatever happens meanwhile (the process ending ends it).
    private static func sleep(until deadline: ContinuousClock.Instant) {
        while ContinuousClock.now < deadline { usleep(10_000) }
    }

    /// Waits up to `duration` for the loop to claim the terminal's restoring; whether it has.
    private static func wait(_ duration: Duration) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            if claimed.load(ordering: .acquiring) { return true }
            usleep(10_000)
        }
        return claimed.load(ordering: .acquiring)
    }

    /// Writes the reset to a terminal that may have stopped reading, without ever blocking: a
    /// write blocked on it returns (the descriptor is non-blocking meanwhile), what is not yet
    /// sent is dropped — again while another thread may still be writing — and the reset is
    /// retried briefly while there is no room. The descriptor's flags, which the shell shares,
    /// are put back.
    static func writeResetWithoutWaiting() {
        let flags = fcntl(STDOUT_FILENO, F_GETFL)
        _ = fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK)
        TerminalSession.resetSequence.withUTF8Buffer { bytes in
            var sent = 0, attempts = 0
            while sent < bytes.count, attempts < 100 {
                if sent == 0 { tcflush(STDOUT_FILENO, TCOFLUSH) }
                let result = write(STDOUT_FILENO, bytes.baseAddress! + sent, bytes.count - sent)
                if result > 0 {
                    sent += result
                } else if errno == EAGAIN || errno == EINTR {
                    attempts += 1
                    usleep(2_000)
                } else {
                    return  // the terminal is gone
                }
            }
        }
        _ = fcntl(STDOUT_FILENO, F_SETFL, flags)
    }

    /// From the signal handler: only a `write`, which a handler may do.
    static func signalled(_ signal: Int32) {
        var number = UInt8(truncatingIfNeeded: signal)
        _ = write(pipeEnds.write, &number, 1)
    }

    /// Takes the restoring of the terminal: `true` for the first caller, the loop's ``TerminalSession/restore()``
    /// or the watchdog; the other leaves it alone.
    static func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Puts the terminal back when the viewer crashes (a stack overflow, a trap, an abort) or is
/// killed by a signal that cannot be waited for, so that the shell is not left on the alternate
/// screen with the cursor hidden and mouse reporting on. The handler uses only what a signal
/// handler may (`write`, `tcsetattr`, `sigaction`, `raise`) and static storage; it then hands the
/// signal on to the handler that was there before (the Swift runtime's backtrace, or the default).
enum FatalSignals {
    static let signals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// The settings to put back and the handlers that were there, by signal number. Unsafe:
    /// written only by `restoreOnCrash` and `stopRestoring` on the viewer's thread, while no
    /// handler of ours is installed; read only by the handler.
    nonisolated(unsafe) private static let settings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    /// Installs the handler for ``signals``, to put back `terminal` (the settings before raw mode).
    static func restoreOnCrash(_ terminal: termios) {
        settings.pointee = terminal
        // Made now, not first in the handler: a static's first use runs its one-time setup.
        _ = TerminalSession.resetSequence.utf8CodeUnitCount
        let handler: @convention(c) (Int32) -> Void = { signal in
            TerminalSession.resetSequence.withUTF8Buffer { bytes in _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
            // TCSANOW: a crashing process must not wait for a stalled terminal to drain.
            tcsetattr(STDIN_FILENO, TCSANOW, FatalSignals.settings)
            SignalHandling.handOn(signal, to: FatalSignals.previous)
        }
        // On a stack of its own: a stack overflow leaves none for the handler otherwise (on this
        // thread, the viewer's, where its work runs).
        SignalHandling.giveThreadAlternateStack()
        SignalHandling.install(handler, for: signals, flags: SA_ONSTACK, previous: previous)
        // A mask inherited from whatever started the viewer must not hold them back.
        SignalHandling.unblock(signals)
    }

    /// Puts the handlers that were there before back: the terminal is restored already.
    static func stopRestoring() {
        for signal in signals { sigaction(signal, previous + Int(signal), nil) }
    }
}
