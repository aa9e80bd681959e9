import Rewind

/// How commands print events: one aligned line for people, one JSON object for scripts.
struct EventText {
    let startNanoseconds: Int64
    let sourceWidth: Int
    let style: TerminalStyle

    init(reader: JournalReader, style: TerminalStyle) {
        startNanoseconds = reader.timeSpan?.lowerBound ?? 0
        sourceWidth = max(8, reader.sources.map { VisibleText.escaped($0.source.description).count }.max() ?? 8)
        self.style = style
    }

    /// `#12    +00:00.012  Counter#1  didMutate     add step         Counter.swift:21  count = 1`
    func line(_ event: RecordedEvent) -> String {
        var columns = [
            style.paint(VisibleText.padded("#\(event.sequence)", to: 6), .dim),
            relativeTime(event.wallNanoseconds),
            style.paint(VisibleText.padded(VisibleText.escaped(event.source.description), to: sourceWidth), .cyan),
            style.paint(VisibleText.padded(event.kind.rawValue, to: 13), TerminalStyle.color(for: event.kind)),
            VisibleText.padded(VisibleText.escaped(event.name), to: 16),
            VisibleText.padded(VisibleText.escaped(event.callSite), to: 26),
        ]
        let detail = Self.detail(event)
        if !detail.isEmpty { columns.append(detail) }
        return columns.joined(separator: " ").trimmingTrailingSpaces()
    }

    /// What an event carries, on one line.
    static func detail(_ event: RecordedEvent) -> String {
        switch event.kind {
        case .change:
            return "\(VisibleText.escaped(event.path ?? "")) = \((event.value ?? .null).compactDescription(limit: 80))"
        case .activity:
            return (event.value ?? .null).compactDescription(limit: 80)
        case .willDispatch:
            return event.value.map { $0.compactDescription(limit: 80) } ?? ""
        case .didDispatch, .didMutate:
            return event.duration.map(EventFormatter.format) ?? ""
        case .dropped:
            return event.dropped.map { "\($0.count) events dropped (steps \($0.sequences.lowerBound)–\($0.sequences.upperBound))" } ?? ""
        default:
            return ""
        }
    }

    /// `+MM:SS.mmm` from the first event.
    func relativeTime(_ wall: Int64) -> String {
        EventFormatter.elapsed(nanoseconds: wall - startNanoseconds)
    }

    /// The event as one JSON object with stable keys; `state` is added by export.
    static func json(_ event: RecordedEvent, state: StateValue? = nil) -> String {
        JSONText.object { object in
            object.field("seq", event.sequence)
            object.field("time", EventTime.iso8601(wallNanoseconds: event.wallNanoseconds))
            object.field("monotonic_ns", event.monotonicNanoseconds)
            object.field("source", event.source.description)
            object.field("source_id", event.source.instanceID)
            object.field("framework", event.source.framework)
            object.field("type", event.source.typeName)
            object.field("kind", event.kind.rawValue)
            object.field("name", event.name)
            object.field("description", event.description)
            object.field("file", event.file)
            object.field("function", event.function)
            object.field("line", event.line)
            object.field("parent", event.parent)
            if let duration = event.duration {
                object.field("duration_ns", duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
            }
            if let path = event.path { object.field("path", path) }
            if let value = event.value { object.field("value", value) }
            if let dropped = event.dropped {
                object.raw("dropped", JSONText.object {
                    $0.field("count", dropped.count)
                    $0.field("from", dropped.sequences.lowerBound)
                    $0.field("to", dropped.sequences.upperBound)
                })
            }
            if let state { object.field("state", state) }
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
