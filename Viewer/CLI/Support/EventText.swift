@_spi(Tooling) import Rewind
import RewindViewer

/// How commands print events: one aligned line for people, one JSON object for scripts.
struct EventText: Sendable {
    /// What every line of one command shares: the columns' widths and the texts that repeat on
    /// every line.
    struct Layout: Sendable {
        let startNanoseconds: Int64
        let sourceWidth: Int
        let style: TerminalStyle
        /// Whether lines show the call site column: not on a line too narrow for it.
        let showsCallSite: Bool
        /// Each listed source's column, made once: they repeat on every line.
        fileprivate let sourceColumns: [UInt64: [UInt8]]
        /// Every kind's column, one after another in one buffer, where ``kindColumnRanges`` (by
        /// the kind's journal code, 0 to 15) says: a lookup and a copy, no array's reference
        /// taken per line.
        fileprivate let kindColumnBytes: [UInt8]
        fileprivate let kindColumnRanges: [Range<Int>]

        /// Lines for `reader`'s events; with `lineWidth`, laid out to fit it: a line too narrow for
        /// every column and a readable value (``minimumValueWidth``) leaves the call site out, then
        /// shortens the source names (so `rewind log` on an 80-column terminal never wraps).
        init(reader: JournalReader, style: TerminalStyle, lineWidth: Int? = nil) {
            startNanoseconds = reader.timeSpan?.lowerBound ?? 0
            var sourceWidth = max(8, reader.sources.map { VisibleText.escaped($0.source.description).count }.max() ?? 8)
            var showsCallSite = true
            if let lineWidth, EventText.columnsWidth(source: sourceWidth, callSite: true) + EventText.minimumValueWidth > lineWidth {
                showsCallSite = false
                sourceWidth = min(sourceWidth, max(8, lineWidth - EventText.columnsWidth(source: 0, callSite: false) - EventText.minimumValueWidth))
            }
            self.sourceWidth = sourceWidth
            self.showsCallSite = showsCallSite
            self.style = style
            // Shortened names stay told apart (`Count…#1`, `Count…#2`), as the viewer's lanes are.
            let names = LaneNames.shortened(reader.sources.map { VisibleText.escaped($0.source.description) }, to: sourceWidth)
            let columns = zip(reader.sources, names).map { summary, name in
                (summary.source.instanceID, Array(style.paint(VisibleText.padded(name, to: sourceWidth), .cyan).utf8))
            }
            sourceColumns = Dictionary(columns, uniquingKeysWith: { first, _ in first })
            var kindBytes: [UInt8] = []
            var kindRanges = [Range<Int>](repeating: 0..<0, count: 16)
            for kind in Event.Category.allCases {
                let start = kindBytes.count
                kindBytes += style.paint(VisibleText.padded(kind.word, to: EventText.kindWidth), TerminalStyle.color(for: kind)).utf8
                kindRanges[kind.code] = start..<kindBytes.count
            }
            kindColumnBytes = kindBytes
            kindColumnRanges = kindRanges
        }
    }

    let layout: Layout
    private var memo = ColumnMemo()

    var startNanoseconds: Int64 { layout.startNanoseconds }
    var sourceWidth: Int { layout.sourceWidth }
    var style: TerminalStyle { layout.style }
    var showsCallSite: Bool { layout.showsCallSite }

    /// Lines in `layout`, with a memo of their own.
    init(layout: Layout) {
        self.layout = layout
    }

    /// Lines for `reader`'s events (see ``Layout/init(reader:style:lineWidth:)``).
    init(reader: JournalReader, style: TerminalStyle, lineWidth: Int? = nil) {
        self.init(layout: Layout(reader: reader, style: style, lineWidth: lineWidth))
    }

    /// The last columns made: consecutive events mostly share their source, name, call site and
    /// millisecond, so comparing is cheap where making a column is not. A pure cache: a name or
    /// call site column is used again for the same text only — the same reference into one
    /// block's string table (a record read in its block), or the same bytes (a name spelled with a
    /// decomposed `é` gets its own column) — and a source column for the source number the
    /// layout made it for, so a line reads the same whichever lines a memo saw before it: `log`
    /// writes each part of a journal with its own.
    private struct ColumnMemo {
        /// The last few call sites' columns: a commit's events alternate between the line that
        /// mutates and the line that changes a field.
        var callSites: [CallSite] = [], nextCallSite = 0
        var name = "", nameMatch: String?, nameColumn: [UInt8] = [], nameAt: TextReference?
        var sourceID: UInt64 = 0, sourceColumn: [UInt8] = []

        struct CallSite {
            let file: String, line: UInt
            var fileAt: TextReference?
            let column: [UInt8]
        }
        static let callSiteCount = 4
        // No line's millisecond: a time before the journal's start is negative.
        var millisecond = Int64.min, time: [UInt8] = []
    }

    /// A text's place in a block's string table: in one block, one place is one text.
    private struct TextReference {
        let block: BlockRecords
        let index: Int

        func isSame(as other: TextReference) -> Bool { block === other.block && index == other.index }
    }

    /// Appends the call site column: `File.swift:42`, escaped, padded to ``callSiteWidth``.
    /// Columns are appended in place, not returned: a line is millions of times a few columns,
    /// and an array handed back is a reference counted each time.
    mutating func appendCallSiteColumn(_ event: some LineEvent, to bytes: inout [UInt8]) {
        let line = event.line
        let at = event.textReferences.map { TextReference(block: $0.block, index: $0.file) }
        for slot in memo.callSites.indices where memo.callSites[slot].line == line {
            if Self.isSame(memo.callSites[slot].file, from: &memo.callSites[slot].fileAt, as: event.file, from: at) {
                bytes += memo.callSites[slot].column
                return
            }
        }
        let column = Array(VisibleText.padded(VisibleText.escaped(event.callSite), to: Self.callSiteWidth).utf8)
        let made = ColumnMemo.CallSite(file: event.file, line: line, fileAt: at, column: column)
        if memo.callSites.count < ColumnMemo.callSiteCount {
            memo.callSites.append(made)
        } else {
            memo.callSites[memo.nextCallSite] = made
            memo.nextCallSite = (memo.nextCallSite + 1) % ColumnMemo.callSiteCount
        }
        bytes += column
    }

    /// Appends the name column: the event's name, escaped, padded to ``nameWidth`` (with `match`
    /// marked, when colouring).
    mutating func appendNameColumn(_ event: some LineEvent, highlighting match: String? = nil, to bytes: inout [UInt8]) {
        let at = event.textReferences.map { TextReference(block: $0.block, index: $0.name) }
        if memo.nameColumn.isEmpty || memo.nameMatch != match || !Self.isSame(memo.name, from: &memo.nameAt, as: event.name, from: at) {
            var column = ""
            append(highlight(VisibleText.escaped(event.name), match), width: Self.nameWidth, color: nil, to: &column)
            memo.name = event.name
            memo.nameMatch = match
            memo.nameColumn = Array(column.utf8)
            memo.nameAt = at
        }
        bytes += memo.nameColumn
    }

    /// Appends the source column: its name, escaped, padded to ``sourceWidth``.
    mutating func appendSourceColumn(_ event: some LineEvent, to bytes: inout [UInt8]) {
        // Consecutive lines mostly share their source: the last layout column used is kept, by
        // the source's number, which the layout's columns are made for.
        let id = event.sourceID
        if !memo.sourceColumn.isEmpty, memo.sourceID == id {
            bytes += memo.sourceColumn
        } else if let column = layout.sourceColumns[id] {
            memo.sourceColumn = column
            memo.sourceID = id
            bytes += column
        } else {
            // A source the journal's table does not list (a crafted file): its own text, each time.
            var column = ""
            append(VisibleText.escaped(event.sourceDescription), width: sourceWidth, color: .cyan, to: &column)
            bytes += column.utf8
        }
    }

    /// Appends the kind column: the kind in the viewer's words, padded to ``kindWidth``.
    func appendKindColumn(_ kind: Event.Category, to bytes: inout [UInt8]) {
        let range = layout.kindColumnRanges[kind.code]
        layout.kindColumnBytes.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The widths of the fixed columns: `#SEQ`, relative time, kind, name, call site.
    static let sequenceWidth = 6, timeWidth = 10, kindWidth = 9, nameWidth = 16, callSiteWidth = 26

    /// The narrowest value a line fitted to a width keeps room for.
    static let minimumValueWidth = 24

    /// The width of the columns before an event's summary (each column and a space after it).
    static func columnsWidth(source: Int, callSite: Bool) -> Int {
        [sequenceWidth, timeWidth, source, kindWidth, nameWidth].reduce(0) { $0 + $1 + 1 } + (callSite ? callSiteWidth + 1 : 0)
    }

    /// The width of this layout's columns before an event's summary.
    var columnsWidth: Int { Self.columnsWidth(source: sourceWidth, callSite: showsCallSite) }

    /// `#12    +00:00.012  Counter#1  change    add step         Counter.swift:21  count: 0 → 1`,
    /// the kind in the viewer's words, a change with its `old` value when known (see
    /// ``RecordedEvent/rowText(valueLimit:old:columns:)``), values cut after `valueLimit` columns. With `highlighting`, the first place the text
    /// occurs is marked (in colour); where the line does not show it (a description, or the cut
    /// part of a value), the matched field is added with the text in its context.
    mutating func line(_ event: some LineEvent, old: ValueBefore = .unknown, valueLimit: Int = .max, highlighting match: String? = nil) -> String {
        var bytes: [UInt8] = []
        write(event, old: old, valueLimit: valueLimit, highlighting: match, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``line(_:old:valueLimit:highlighting:)``'s text appended to `bytes` as UTF-8: `rewind log`
    /// writes millions of lines, and bytes grow for less than a string does.
    mutating func write(
        _ event: some LineEvent, old: ValueBefore = .unknown, valueLimit: Int = .max, highlighting match: String? = nil, to bytes: inout [UInt8]
    ) {
        let start = bytes.count
        if style.usesColor {
            bytes += style.paint(VisibleText.padded("#" + String(event.sequence), to: Self.sequenceWidth), .dim).utf8
        } else {
            bytes.append(UInt8(ascii: "#"))
            let digitsStart = bytes.count
            DecimalText.append(magnitude: event.sequence, to: &bytes)
            while bytes.count - digitsStart < Self.sequenceWidth - 1 { bytes.append(UInt8(ascii: " ")) }
        }
        bytes.append(UInt8(ascii: " "))
        appendRelativeTimeColumn(event.wallNanoseconds, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendSourceColumn(event, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendKindColumn(event.kind, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendNameColumn(event, highlighting: match, to: &bytes)
        if showsCallSite {
            bytes.append(UInt8(ascii: " "))
            appendCallSiteColumn(event, to: &bytes)
        }
        // The row text as a string only where it is cut or marked; otherwise written straight
        // into the line (an empty one leaves a space the trimming takes off).
        var summary: String?
        if valueLimit == .max, match == nil {
            bytes.append(UInt8(ascii: " "))
            event.writeRowText(valueLimit: .max, old: old, columns: CellWidth.of, to: &bytes)
        } else {
            var text = event.rowText(valueLimit: valueLimit, old: old, columns: CellWidth.of)
            // The value was cut to the limit; a path before it (`items = …`) is cut here, in cells.
            if valueLimit != .max { text = CellWidth.fitted(text, to: valueLimit) }
            if !text.isEmpty {
                bytes.append(UInt8(ascii: " "))
                bytes += highlight(text, match).utf8
            }
            summary = text
        }
        while bytes.count > start, bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        if let match, let summary, !(VisibleText.escaped(event.name) + " " + summary).localizedCaseInsensitiveContains(match),
           let (field, context) = Self.matchedField(event, match) {
            bytes += "  (matched in \(field): \(highlight(context, match)))".utf8
        }
    }

    /// Whether the text a column was made of (`known`, from `knownPlace` when it came from a
    /// block) is `text` (from `place`): the same place in one block's string table, or else the
    /// same bytes — not only equal as Swift compares text: a memo must not stand for a
    /// differently spelled name. Texts found the same by their bytes take the new place, so the
    /// next comparison is by place.
    private static func isSame(
        _ known: String, from knownPlace: inout TextReference?, as text: @autoclosure () -> String, from place: TextReference?
    ) -> Bool {
        if let place, let knownPlace, knownPlace.isSame(as: place) { return true }
        var (known, text) = (known, text())
        guard known.withUTF8({ a in text.withUTF8 { b in a.elementsEqual(b) } }) else { return false }
        knownPlace = place
        return true
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
    static func matchedField(_ event: some LineEvent, _ match: String) -> (field: String, context: String)? {
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

    /// Appends `+MM:SS.mmm` from the first event.
    mutating func appendRelativeTimeColumn(_ wall: Int64, to bytes: inout [UInt8]) {
        let nanoseconds = EventTime.wallNanoseconds(from: startNanoseconds, to: wall)
        // The text shows milliseconds, and thousands of events may share one.
        let millisecond = nanoseconds / 1_000_000
        if millisecond != memo.millisecond {
            memo.millisecond = millisecond
            memo.time = Array(EventFormatter.elapsed(nanoseconds: nanoseconds).utf8)
        }
        bytes += memo.time
    }

    /// One event as a JSON object with stable keys, `schema_version` first (``CommandJSON``): its
    /// columns (``EventColumns/log``), then its `path`, with `old` (a change's value before it,
    /// `null` when the path was missing) `old`, its `value`, `dropped`, and for the step a flight
    /// recorder's dump was made at, `dump`.
    static func json(_ event: some EventFields, old: ValueBefore = .unknown, dump: JournalHeader.Dump? = nil) -> JSONText.Object {
        CommandJSON.object { object in
            addJSON(of: event, old: old, dump: dump, to: &object)
        }
    }

    /// Writes ``json(_:old:dump:)``'s object as a line at the end of `buffer`, in place: `log
    /// --json`'s lines.
    static func writeJSONLine(_ event: some EventFields, old: ValueBefore, dump: JournalHeader.Dump?, to buffer: inout [UInt8]) {
        CommandJSON.writeLine(to: &buffer) { object in
            addJSON(of: event, old: old, dump: dump, to: &object)
        }
    }

    private static func addJSON(of event: some EventFields, old: ValueBefore, dump: JournalHeader.Dump?, to object: inout JSONText.Object) {
        EventColumns.add(EventColumns.log, of: event, to: &object)
        if let path = event.path { object.field("path", path) }
        if old.isKnown { object.field("old", old.held ?? .null) }
        if let value = event.value { object.field("value", value) }
        if let dropped = event.dropped { object.raw("dropped", CommandJSON.dropped(dropped)) }
        if let dump { object.raw("dump", CommandJSON.dump(dump)) }
    }
}

/// What a line of ``EventText`` shows of an event: a ``RecordedEvent``, or a record read in its
/// block (``BlockRecords/Record``), which `rewind log` writes without making an event.
protocol LineEvent: EventFields {
    /// Its source's instance number, and how the source prints itself.
    var sourceID: UInt64 { get }
    var sourceDescription: String { get }
    var callSite: String { get }
    /// Where its name and call site's file are in its block's string table, if it was read there:
    /// in one block, equal references are equal texts.
    var textReferences: (block: BlockRecords, name: Int, file: Int)? { get }
}

extension RecordedEvent: LineEvent {
    var sourceID: UInt64 { source.instanceID }
    var sourceDescription: String { source.description }
    var textReferences: (block: BlockRecords, name: Int, file: Int)? { nil }
}

extension BlockRecords.Record: LineEvent {
    var sourceDescription: String { source.description }
    var textReferences: (block: BlockRecords, name: Int, file: Int)? { (block, nameReference, fileReference) }
}
