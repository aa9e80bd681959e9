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

    /// The widths of the fixed columns: `#SEQ`, relative time, kind, name, call site.
    static let sequenceWidth = 6, timeWidth = 10, kindWidth = 13, nameWidth = 16, callSiteWidth = 26

    /// The columns before an event's summary take this many characters plus the source column
    /// (each column and a space after it).
    static let fixedColumnsWidth = [sequenceWidth, timeWidth, kindWidth, nameWidth, callSiteWidth].reduce(0) { $0 + $1 + 1 } + 1

    /// `#12    +00:00.012  Counter#1  didMutate     add step         Counter.swift:21  count = 1`,
    /// values cut after `valueLimit` characters. With `highlighting`, the first place the text
    /// occurs is marked (in colour); where the line does not show it (a description, or the cut
    /// part of a value), the matched field is added with the text in its context.
    func line(_ event: RecordedEvent, valueLimit: Int = .max, highlighting match: String? = nil) -> String {
        var columns = [
            style.paint(VisibleText.padded("#\(event.sequence)", to: Self.sequenceWidth), .dim),
            relativeTime(event.wallNanoseconds),
            style.paint(VisibleText.padded(VisibleText.escaped(event.source.description), to: sourceWidth), .cyan),
            style.paint(VisibleText.padded(event.kind.rawValue, to: Self.kindWidth), TerminalStyle.color(for: event.kind)),
            VisibleText.padded(highlight(VisibleText.escaped(event.name), match), to: Self.nameWidth),
            VisibleText.padded(VisibleText.escaped(event.callSite), to: Self.callSiteWidth),
        ]
        let summary = event.summary(valueLimit: valueLimit)
        if !summary.isEmpty { columns.append(highlight(summary, match)) }
        var line = columns.joined(separator: " ").trimmingTrailingSpaces()
        if let match, !(VisibleText.escaped(event.name) + " " + summary).localizedCaseInsensitiveContains(match),
           let (field, context) = Self.matchedField(event, match) {
            line += "  (matched in \(field): \(highlight(context, match)))"
        }
        return line
    }

    /// The first occurrence of `match` in `text` marked in colour; unchanged without colour.
    private func highlight(_ text: String, _ match: String?) -> String {
        guard style.usesColor, let match, !match.isEmpty, let range = text.range(of: match, options: .caseInsensitive) else { return text }
        return text[..<range.lowerBound] + style.paint(String(text[range]), .red) + text[range.upperBound...]
    }

    /// Where a `--grep` text matched an event, with up to 30 characters of context either side.
    static func matchedField(_ event: RecordedEvent, _ match: String) -> (field: String, context: String)? {
        let fields = [("description", event.description), ("path", event.path ?? ""), ("value", event.value?.description ?? "")]
        for (field, text) in fields {
            let visible = VisibleText.escaped(text)
            guard let range = visible.range(of: match, options: .caseInsensitive) else { continue }
            let start = visible.index(range.lowerBound, offsetBy: -30, limitedBy: visible.startIndex) ?? visible.startIndex
            let end = visible.index(range.upperBound, offsetBy: 30, limitedBy: visible.endIndex) ?? visible.endIndex
            return (field, (start > visible.startIndex ? "…" : "") + visible[start..<end] + (end < visible.endIndex ? "…" : ""))
        }
        return nil
    }

    /// `+MM:SS.mmm` from the first event.
    func relativeTime(_ wall: Int64) -> String {
        EventFormatter.elapsed(nanoseconds: EventTime.wallNanoseconds(from: startNanoseconds, to: wall))
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
