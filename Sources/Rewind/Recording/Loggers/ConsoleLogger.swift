import Foundation

/// Prints one compact line per event and, after each mutation, the diff of the state it changed.
///
/// ```
/// #3   20:14:42.120 Counter#1  willDispatch  increment          CounterViewModel.swift:21
/// #5   20:14:42.121 Counter#1  change        increment          count = 1
/// #6   20:14:42.121 Counter#1  didMutate     increment          4.1µs
///   {
/// -   count: 0
/// +   count: 1
///     … 1 unchanged
///   }
/// ```
///
/// Colour is used only on a terminal and never when `NO_COLOR` is set. Values are captured with
/// redaction, so secrets print as `<redacted>`.
public final class ConsoleLogger: CycleLogging {
    private let write: @Sendable (String) -> Void
    private let style: TerminalStyle
    private let formatter: EventFormatter
    private let renderer = DiffRenderer()
    /// Per source: the state before the running commit (or the latest state outside commits), to
    /// diff the next mutation against. The lock also serialises output, so lines from several threads
    /// never interleave.
    private let sources = Locked<[UInt64: SourceState]>([:])

    private struct SourceState {
        var state: StateValue?
        var commitDepth = 0
    }

    /// A logger that writes to standard output.
    public convenience init(captureOptions: CaptureOptions = .current) {
        self.init(style: .automatic(for: STDOUT_FILENO), captureOptions: captureOptions) { text in
            var bytes = Array(text.utf8)
            bytes.append(UInt8(ascii: "\n"))
            bytes.withUnsafeBytes { _ = Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// A logger that hands each printed line (without its newline) to `write`.
    public init(style: TerminalStyle = .plain, captureOptions: CaptureOptions = .current, write: @escaping @Sendable (String) -> Void) {
        self.write = write
        self.style = style
        self.formatter = EventFormatter(captureOptions: captureOptions)
    }

    public func log(_ event: Event) {
        let state = event.kind.state?.tree(options: formatter.captureOptions)
        sources.withLock { sources in
            write(line(for: event))
            let key = event.source.instanceID
            var entry = sources[key] ?? SourceState()
            switch event.kind {
            case .willMutate:
                entry.commitDepth += 1
            case .didMutate:
                entry.commitDepth = max(entry.commitDepth - 1, 0)
                if let previous = entry.state, let state {
                    for line in renderer.lines(from: previous, to: state) { write(style.paint(line)) }
                }
                entry.state = state
            case .released:
                sources[key] = nil
                return
            default:
                // Changes inside a commit are shown as the commit's diff, at its end.
                if entry.commitDepth == 0, let state { entry.state = state }
            }
            sources[key] = entry
        }
    }

    func line(for event: Event) -> String {
        let sequence = VisibleText.padded("#\(event.sequence)", to: 5)
        let source = VisibleText.padded(VisibleText.escaped(event.source.description), to: 12)
        let kind = VisibleText.padded(event.kind.name, to: 13)
        let name = VisibleText.padded(VisibleText.escaped(event.name), to: 18)
        var detail = formatter.detail(of: event)
        if detail.isEmpty { detail = event.callSite.description }
        return [
            style.paint(sequence, .dim), EventFormatter.timeOfDay(event.time), style.paint(source, .cyan),
            style.paint(kind, TerminalStyle.color(for: event.kind.category)), name, detail,
        ].joined(separator: " ")
    }


}
