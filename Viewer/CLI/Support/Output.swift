import Foundation
@_spi(Tooling) import Rewind

/// Standard output and error for the commands: buffered, colour only on a terminal without
/// `NO_COLOR`, and quiet when the reader of a pipe goes away (`rewind log … | head`).
///
/// Every line passes ``VisibleText/terminalSafe(_:)`` on its way out: whatever a command forgot to
/// escape, nothing it writes can act on a terminal except its own colours.
///
/// A write that fails (a full disk, `> /dev/full`) ends the command with exit 2 and one line naming
/// the output and the error; an `-o` file (``init(file:)``) is written beside its destination and
/// moved into place only by ``finish()``, so a failed command leaves no half-written file.
final class Output {
    let style: TerminalStyle
    private var buffer: [UInt8] = []
    private let descriptor: Int32
    /// What the error line calls the output.
    private let name: String
    /// For an `-o` file: where its content goes until ``finish()``.
    private let replacement: FileReplacement?
    private var isFinished = false

    /// Output to `descriptor`, coloured by `style` (by default: on a terminal without `NO_COLOR`).
    init(descriptor: Int32 = STDOUT_FILENO, style: TerminalStyle? = nil) {
        self.descriptor = descriptor
        self.style = style ?? TerminalStyle.automatic(for: descriptor)
        self.name = "standard output"
        self.replacement = nil
        // A closed pipe must end the command quietly, not kill it with SIGPIPE mid-line.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Output to the file at `path` (never coloured), which appears only when ``finish()`` is
    /// called. `path` must be a regular file or absent: a device, FIFO or symbolic link is refused.
    init(file path: String) throws {
        do {
            let replacement = try FileReplacement(destination: path)
            descriptor = try replacement.createTemporary()
            self.replacement = replacement
        } catch {
            throw CommandFailure(VisibleText.escaped(error.description))
        }
        style = TerminalStyle(usesColor: false)
        name = VisibleText.escaped(path)
    }

    /// Writes what is buffered and, for a file, moves it into place.
    func finish() {
        flush()
        guard let replacement, !isFinished else { return }
        isFinished = true
        do {
            try replacement.sync(descriptor)
            try replacement.moveIntoPlace()
        } catch {
            Self.fail(VisibleText.escaped(error.description))
        }
    }

    /// Writes one line (a newline is added).
    func line(_ text: String = "") {
        buffer.append(contentsOf: VisibleText.terminalSafe(text).utf8)
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes one line given as UTF-8 bytes (a newline is added), with the check ``line(_:)``
    /// makes: for commands that build their lines as bytes.
    func line(utf8 bytes: [UInt8]) {
        Self.appendLine(utf8: bytes, to: &buffer)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes one line given as UTF-8 bytes already made safe for a terminal (a newline is
    /// added): a line written many times over, checked once when it was made.
    func line(terminalSafeUTF8 bytes: [UInt8]) {
        buffer += bytes
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Appends one line given as UTF-8 bytes and a newline to `buffer`, made safe for a terminal
    /// as ``line(_:)`` makes it: for lines written on other threads, then handed to ``bytes(_:)``.
    static func appendLine(utf8 bytes: [UInt8], to buffer: inout [UInt8]) {
        if VisibleText.mayHoldControl(utf8: bytes) {
            buffer += VisibleText.terminalSafe(String(decoding: bytes, as: UTF8.self)).utf8
        } else {
            buffer += bytes
        }
        buffer.append(0x0A)
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

    /// Writes bytes as they are: a Perfetto trace (only for an `-o` file or a pipe, never a
    /// terminal, which the caller makes sure of), or lines already made safe for a terminal by
    /// ``appendLine(utf8:to:)``, or JSON, on the threads that wrote them.
    func bytes(_ data: [UInt8]) {
        if data.count >= 64 * 1024 {
            // A block's rows: written as they are, not copied into the buffer first.
            flush()
            if let ending = writeAll(data) { ending.end() }
            return
        }
        buffer += data
        if buffer.count >= 64 * 1024 { flush() }
    }

    /// Writes what is buffered; exits quietly with success if the reader of standard output has
    /// gone, and with exit 2 and one line if the write fails otherwise.
    func flush() {
        if let ending = writeBuffer() { ending.end() }
    }

    /// Writes what is buffered; returns how the command must end if a write failed.
    private func writeBuffer() -> Ending? {
        defer { buffer.removeAll(keepingCapacity: true) }
        return writeAll(buffer)
    }

    /// Writes `bytes`; returns how the command must end if the write failed.
    private func writeAll(_ bytes: [UInt8]) -> Ending? {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EPIPE, replacement == nil { return .readerGone }
                replacement?.discard()
                return .failed("cannot write \(name): \(String(cString: strerror(code)))")
            }
            written += result
        }
        return nil
    }

    deinit {
        // Not exiting from here (a command's outputs are released as its `run()` returns): the
        // ending is kept for `Main` to carry out.
        if let ending = writeBuffer() { Self.pendingEnding = Self.pendingEnding ?? ending }
        // An `-o` file never finished (the command failed) is not left behind.
        if let replacement, !isFinished {
            close(descriptor)
            replacement.discard()
        }
    }

    /// How a command ends when writing its output failed.
    enum Ending {
        /// The reader of a pipe went away (`rewind log … | head`): a quiet success.
        case readerGone
        /// A write failed: one line, exit 2.
        case failed(String)

        func end() -> Never {
            switch self {
            case .readerGone:
                exit(ExitStatus.success)
            case .failed(let message):
                Output.error("rewind: \(message)")
                exit(ExitStatus.badInput)
            }
        }
    }

    /// An ending met while an output was released, carried out by `Main` once the command returns.
    /// The command line is single-threaded.
    nonisolated(unsafe) static var pendingEnding: Ending?

    private static func fail(_ message: String) -> Never {
        Ending.failed(message).end()
    }

    /// Writes one line to standard error at once. It stays one line whatever it quotes (a path
    /// typed with a newline or an escape sequence in it): control characters are shown escaped.
    static func error(_ text: String) {
        let bytes = Array((VisibleText.escaped(text) + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

extension JSONText.Object {
    /// Closes the object and hands its buffer back with a newline after it (see
    /// ``JSONText/Object/init(continuing:)``): a line of JSON written in place. JSON text escapes
    /// every control character, so the line goes out as it is, without the check
    /// ``Output/line(_:)`` makes.
    mutating func closeLine(into buffer: inout [UInt8]) {
        close(into: &buffer)
        buffer.append(0x0A)
    }
}
