import Foundation
import RewindViewer
import Synchronization

/// Set by the signal handlers, read by the viewer's loop (a handler may only touch atomics).
let terminalResized = Atomic<Bool>(false)
let terminationSignalled = Atomic<Bool>(false)

/// The terminal in raw mode on the alternate screen, with mouse wheel reporting, for as long as the
/// viewer runs. ``restore()`` puts everything back; it runs on quit, on SIGTERM/SIGINT/SIGHUP (through
/// the loop) and on any error (through `defer`).
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
        signal(SIGWINCH) { _ in terminalResized.store(true, ordering: .relaxed) }
        for name in [SIGTERM, SIGINT, SIGHUP] {
            signal(name) { _ in terminationSignalled.store(true, ordering: .relaxed) }
        }
        // Alternate screen, hidden cursor, mouse buttons and wheel in SGR form.
        Self.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h")
    }

    deinit { restore() }

    /// Leaves the terminal as it was found. Safe to call more than once.
    func restore() {
        guard active else { return }
        active = false
        Self.write("\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    }

    /// The terminal's size, if stdout is a terminal.
    static func size() -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    var terminationRequested: Bool { terminationSignalled.load(ordering: .relaxed) }

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
