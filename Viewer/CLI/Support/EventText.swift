import Rewind
import RewindViewer

/// How commands print events: one aligned line for people, one JSON object for scripts.
struct EventText {
    let startNanoseconds: Int64
    let sourceWidth: Int
    let style: TerminalStyle
    /// The source and kind columns, made once: they repeat on every line.
    private let sourceColumns: [UInt64: String]
    private let kindColumns: [Event.Category: String]
    private let callSites = CallSiteMemo()

    init(reader: JournalReader, style: TerminalStyle) {
        startNanoseconds = reader.timeSpan?.lowerBound ?? 0
        let sourceWidth = max(8, reader.sources.map { VisibleText.escaped($0.source.description).count }.max() ?? 8)
        self.sourceWidth = sourceWidth
        self.style = style
        sourceColumns = Dictionary(reader.sources.map { summary in
            (summary.source.instanceID, style.paint(VisibleText.padded(VisibleText.escaped(summary.source.description), to: sourceWidth), .cyan))
        }) { first, _ in first }
        kindColumns = Dictionary(uniqueKeysWithValues: Event.Category.allCases.map { kind in
            (kind, style.paint(VisibleText.padded(kind.word, to: Self.kindWidth), TerminalStyle.color(for: kind)))
        })
    }

    /// The last call site's column: consecutive events mostly share one, and the file name comes
    /// from the block's string table, so comparing is cheap where making it is not.
    private final class CallSiteMemo {
        var file = ""
        var line: UInt = 0
        var column: String?
    }

    private func callSiteColumn(_ event: RecordedEvent) -> String {
        if let column = callSites.column, callSites.line == event.line, callSites.file == event.file { return column }
        let column = VisibleText.padded(VisibleText.escaped(event.callSite), to: Self.callSiteWidth)
        callSites.file = event.file
        callSites.line = event.line
        callSites.column = column
        return column
    }

    /// The widths of the fixed columns: `#SEQ`, relative time, kind, name, call site.
    static let sequenceWidth = 6, timeWidth = 10, kindWidth = 9, nameWidth = 16, callSiteWidth = 26

    /// The columns before an event's summary take this many characters plus the source column
    /// (each column and a space after it).
    static let fixedColumnsWidth = [sequenceWidth, timeWidth, kindWidth, nameWidth, callSiteWidth].reduce(0) { $0 + $1 + 1 } + 1

    /// `#12    +00:00.012  Counter#1  change    add step         Counter.swift:21  count: 0 → 1`,
    /// the kind in the viewer's words, a change with its `old` value when known (see
    /// ``RecordedEvent/summary(valueLimit:old:columns:)``), values cut after `valueLimit` columns. With `highlighting`, the first place the text
    /// occurs is marked (in colour); where the line does not show it (a description, or the cut
    /// part of a value), the matched field is added with the text in its context.
    func line(_ event: RecordedEvent, old: StateValue?? = .none, valueLimit: Int = .max, highlighting match: String? = nil) -> String {
        // One string grown in place: `rewind log` formats millions of these.
        var line = ""
        line.reserveCapacity(160)
        append("#" + String(event.sequence), width: Self.sequenceWidth, color: .dim, to: &line)
        line += " "
        line += relativeTime(event.wallNanoseconds)
        line += " "
        if let column = sourceColumns[event.source.instanceID] {
            line += column
        } else {
            append(VisibleText.escaped(event.source.description), width: sourceWidth, color: .cyan, to: &line)
        }
        line += " "
        line += kindColumns[event.kind] ?? event.kind.word
        line += " "
        append(highlight(VisibleText.escaped(event.name), match), width: Self.nameWidth, color: nil, to: &line)
        line += " "
        line += callSiteColumn(event)
        var summary = event.summary(valueLimit: valueLimit, old: old, columns: CellWidth.of)
        // The value was cut to the limit; a path before it (`items = …`) is cut here, in cells.
        if valueLimit != .max { summary = CellWidth.fitted(summary, to: valueLimit) }
        if !summary.isEmpty {
            line += " "
            line += highlight(summary, match)
        }
        while line.utf8.last == UInt8(ascii: " ") { line.removeLast() }
        if let match, !(VisibleText.escaped(event.name) + " " + summary).localizedCaseInsensitiveContains(match),
           let (field, context) = Self.matchedField(event, match) {
            line += "  (matched in \(field): \(highlight(context, match)))"
        }
        return line
    }

    /// Appends a column: `text` padded to `width` characters, in `color` when colouring.
    private func append(_ text: String, width: Int, color: TerminalStyle.Color?, to line: inout String) {
        if let color, style.usesColor {
            line += style.paint(VisibleText.padded(text, to: width), color)
            return
        }
        line += text
        let missing = width - VisibleText.characterCount(text)
        if missing > 0 { line += String(repeating: " ", count: missing) }
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

    /// One event as a JSON object with stable keys, `schema_version` first (``CommandJSON``); with `old` (a change's value before it, `null`
    /// when the path was missing), `old`; with `state`, the state after it, and with `change` (the
    /// source's state before and after the event), what it changed: `changes`, one object per
    /// changed path — `{"path": "items[id: 2].done", "old": false, "new": true}`, `old` or `new`
    /// left out where the path was added or removed — named as blame names them.
    static func json(_ event: RecordedEvent, old: StateValue?? = .none, state: StateValue? = nil, change: (before: StateValue, after: StateValue)? = nil) -> JSONText.Object {
        CommandJSON.object { object in
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
            if case .some(let old) = old { object.field("old", old ?? .null) }
            if let value = event.value { object.field("value", value) }
            if let dropped = event.dropped {
                object.raw("dropped", JSONText.object {
                    $0.field("count", dropped.count)
                    $0.field("from", dropped.sequences.lowerBound)
                    $0.field("to", dropped.sequences.upperBound)
                })
            }
            if let change { object.raw("changes", CommandJSON.changes(from: change.before, to: change.after)) }
            if let state { object.field("state", state) }
        }
    }
}
