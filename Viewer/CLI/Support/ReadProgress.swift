import Foundation
@_spi(Tooling) import Rewind

/// How far a long read through a journal has got, on standard error when that is a terminal and
/// the output goes elsewhere (a file, a pipe: on the same terminal it would tangle with the
/// output's lines): `reading session.rewind: 45% (block 320 of 712)`, from one second into the
/// read, redrawn at most ten times a second and erased at the end.
final class ReadProgress {
    private let label: String
    private let shows = isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) == 0
    private let start = EventTime.monotonicNow()
    private var lastDrawn: UInt64 = 0
    private var drawn = false

    init(reading path: String) {
        label = "reading \(VisibleText.escaped(path))"
    }

    /// Notes that reading has reached `block` of `count`.
    func update(block: Int, of count: Int) {
        guard shows, count > 0 else { return }
        let now = EventTime.monotonicNow()
        guard now - start >= 1_000_000_000, now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        drawn = true
        draw("\(label): \(100 * block / count)% (block \(block) of \(count))")
    }

    /// Erases the display, if it was drawn.
    func finish() {
        if drawn { draw("") }
        drawn = false
    }

    /// Replaces the line with `text` (already escaped): carriage return, text, erase to the end.
    private func draw(_ text: String) {
        let bytes = Array(("\r" + text + "\u{1B}[K").utf8)
        bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
