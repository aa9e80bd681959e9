import Foundation

/// Formats events as compact one-line summaries; shared by the console logger and the swift-log
/// bridge so both describe an event the same way.
package struct EventFormatter: Sendable {
    /// How the captured values are turned into trees.
    package var captureOptions: CaptureOptions
    /// How wide a value may be before it is cut with `…`.
    package var valueWidth: Int

    /// Creates a formatter.
    package init(captureOptions: CaptureOptions = .current, valueWidth: Int = 80) {
        self.captureOptions = captureOptions
        self.valueWidth = valueWidth
    }

    /// What the event carries, on one line: the changed path and value, the activity, the duration.
    package func detail(of event: Event) -> String {
        switch event.kind {
        case .willDispatch(let input):
            return input.map { $0.tree(options: captureOptions).payloadDescription(sentAs: event.name, limit: valueWidth) } ?? ""
        case .willMutate, .released:
            return ""
        case .didDispatch(let duration), .didMutate(let duration, _):
            return Self.format(duration)
        case .change(let path, let value, _):
            return "\(VisibleText.escaped(path.description)) = \(value.tree(options: captureOptions).compactDescription(limit: valueWidth))"
        case .replace(let state), .created(.some(let state)):
            return state.tree(options: captureOptions).compactDescription(limit: valueWidth)
        case .activity(let activity):
            return activity.tree(options: captureOptions).payloadDescription(sentAs: event.name, limit: valueWidth)
        case .created(.none):
            return ""
        case .log(let message):
            let metadata = message.metadataTree(options: captureOptions).map { " " + $0.compactDescription(limit: valueWidth) } ?? ""
            return VisibleText.escaped(message.message) + metadata
        }
    }

    /// A duration in the most readable unit: `850ns`, `12.4µs`, `3.2ms`, `1.25s`.
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds % 1_000_000_000 == 0, seconds >= 0, seconds < Int64.max / 1_000_000_000 else {
            return formatWithFoundation(duration)
        }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<1_000_000: return DecimalText.fixed(nanoseconds, dividedBy: 1_000, places: 1) + "µs"
        case ..<1_000_000_000: return DecimalText.fixed(nanoseconds, dividedBy: 1_000_000, places: 1) + "ms"
        default: return DecimalText.fixed(nanoseconds, dividedBy: 1_000_000_000, places: 2) + "s"
        }
    }

    /// ``format(_:)`` for what the whole-nanosecond path does not cover (fractions of a
    /// nanosecond, negative or enormous durations): the definition the fast path must match.
    static func formatWithFoundation(_ duration: Duration) -> String {
        let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        switch nanoseconds {
        case ..<1_000: return "\(Int(nanoseconds))ns"
        case ..<1_000_000: return String(format: "%.1fµs", nanoseconds / 1e3)
        case ..<1_000_000_000: return String(format: "%.1fms", nanoseconds / 1e6)
        default: return String(format: "%.2fs", nanoseconds / 1e9)
        }
    }

    /// Time since the start of a recording: `+MM:SS.mmm`.
    package static func elapsed(nanoseconds: Int64) -> String {
        let milliseconds = Int(max(0, nanoseconds / 1_000_000))
        return "+" + DecimalText.zeroPadded(milliseconds / 60_000, width: 2) + ":" + DecimalText.zeroPadded(milliseconds / 1000 % 60, width: 2)
            + "." + DecimalText.zeroPadded(milliseconds % 1000, width: 3)
    }

    /// The wall-clock time of day in UTC with milliseconds: `20:14:42.123`.
    package static func timeOfDay(_ time: EventTime) -> String {
        let milliseconds = time.wallNanoseconds / 1_000_000
        let secondsOfDay = (milliseconds / 1000) % 86_400
        return String(format: "%02d:%02d:%02d.%03d", Int(secondsOfDay / 3600), Int(secondsOfDay / 60 % 60), Int(secondsOfDay % 60), Int(milliseconds % 1000))
    }
}
