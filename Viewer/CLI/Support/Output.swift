import Foundation
import Rewind

/// Standard output and error for the commands: buffered, colour only on a terminal without
/// `NO_COLOR`, and quiet when the reader of a pipe goes away (`rewind log … | head`).
///
/// Every line passes ``VisibleText/terminalSafe(_:)`` on its way out: whatever a command forgot to
/// escape, nothing it writes can act on a terminal except its own colours.
final class Output {
    let style: TerminalStyle
    private var buffer: [UInt8] = []
    private let descriptor: Int32

    /// Output to `descriptor`, coloured by `style` (by default: on a terminal without `NO_COLOR`).
    init(descriptor: Int32 = STDOUT_FILENO, style: TerminalStyle? = nil) {
        self.descriptor = descriptor
        self.style = style ?? TerminalStyle.automatic(for: descriptor)
        // A closed pipe must end the command quietly, not kill it with SIGPIPE mid-line.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes one line (a newline is added).
    func line(_ text: String = "") {
        buffer.append(contentsOf: VisibleText.terminalSafe(text).utf8)
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes one JSON object as a line. JSON text escapes every control character, so it goes out
    /// as it is, without the check ``line(_:)`` makes. `prefix` (ASCII punctuation, such as the
    /// comma between array elements) goes before it.
    func line(_ object: JSONText.Object, prefix: StaticString = "") {
        prefix.withUTF8Buffer { buffer.append(contentsOf: $0) }
        object.write(to: &buffer)
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes what is buffered; exits quietly with success if the reader has gone.
    func flush() {
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(ExitStatus.success) }
                break
            }
            written += result
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }

    /// Writes one line to standard error at once.
    static func error(_ text: String) {
        let bytes = Array((VisibleText.terminalSafe(text) + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
