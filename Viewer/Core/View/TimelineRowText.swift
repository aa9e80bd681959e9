import Logging
@_spi(Tooling) import Rewind

/// How timeline rows are laid out for a width: `#SEQ`, a relative time (shrunk, or hidden when
/// every event shares it or room is short), the source's lane, the kind, and what the event did —
/// width goes to that content first; names are cut last.
struct TimelineRowText {
    /// One run of text in one style.
    struct Piece {
        var text: String
        var style: CellStyle
        /// The `#SEQ` label, which a search does not mark.
        var isSequence = false
    }

    let sequenceWidth: Int
    let timeFormat: TimeFormat?
    let sourceWidth: Int
    /// Each source's name in its lane, by instance number: fitted, and told apart.
    let laneNames: [UInt64: String]
    let width: Int
    let page: Page

    enum TimeFormat { case milliseconds, seconds, minutes }

    static let kindWidth = 9
    /// The cells what an event did keeps before its call site is shown beside it.
    static let contentRoomBeforeCallSite = 40
    static let laneColors: [UInt8] = [36, 35, 33, 32, 34, 31]

    init(page: Page, width: Int) {
        self.page = page
        self.width = width
        let lastSequence = page.rows.compactMap(\.event?.sequence).max() ?? 1
        sequenceWidth = String(lastSequence).count + 1
        if page.spanNanoseconds <= 0 || width < 56 {
            timeFormat = nil
        } else if page.spanNanoseconds < 1_000_000_000 {
            timeFormat = .milliseconds
        } else if page.spanNanoseconds < 60_000_000_000 {
            timeFormat = .seconds
        } else {
            timeFormat = .minutes
        }
        if page.sources.count > 1 {
            let names = page.sources.map { VisibleText.escaped($0.description) }
            let longest = names.map(CellWidth.of).max() ?? 0
            sourceWidth = min(longest, width >= 110 ? 32 : width >= 84 ? 20 : width >= 60 ? 14 : 8)
            laneNames = Dictionary(uniqueKeysWithValues: zip(page.sources.map(\.instanceID), LaneNames.shortened(names, to: sourceWidth)))
        } else {
            sourceWidth = 0
            laneNames = [:]
        }
    }

    /// The lane (colour) of a source.
    static func lane(of source: UInt64, in page: Page) -> Int {
        page.sources.firstIndex { $0.instanceID == source } ?? 0
    }

    /// `+.137`, `+12.137` or `+01:12.137` after the first event.
    func time(_ wall: Int64) -> String? {
        guard let timeFormat else { return nil }
        let milliseconds = max(0, EventTime.wallNanoseconds(from: page.startNanoseconds, to: wall) / 1_000_000)
        switch timeFormat {
        case .milliseconds: return "+." + padded(Int(milliseconds), to: 3)
        case .seconds: return "+" + padded(Int(milliseconds / 1000), to: 2) + "." + padded(Int(milliseconds % 1000), to: 3)
        case .minutes: return EventFormatter.elapsed(nanoseconds: EventTime.wallNanoseconds(from: page.startNanoseconds, to: wall))
        }
    }

    /// `value` with leading zeros to `digits` digits.
    private func padded(_ value: Int, to digits: Int) -> String {
        String(repeating: "0", count: max(0, digits - String(value).count)) + String(value)
    }

    /// The kind as a short word (one vocabulary: the filter and `--kind` accept the same words).
    static func kindWord(_ kind: Event.Category) -> String { kind.word }

    /// The colour of a kind, as `rewind log` paints it.
    static func kindColor(_ kind: Event.Category) -> UInt8? {
        UInt8(TerminalStyle.color(for: kind).rawValue).flatMap { $0 >= 30 ? $0 : nil }
    }

    /// The pieces of a row, left to right.
    func pieces(_ row: Page.Row, isCursor: Bool) -> [Piece] {
        var pieces = [Piece(text: (isCursor ? "▶" : " ") + VisibleText.padded("#\(row.event?.sequence.description ?? "?")", to: sequenceWidth) + " ", style: .plain, isSequence: true)]
        guard let event = row.event else {
            pieces.append(Piece(text: "⚠ unreadable (damaged block)", style: ViewerView.warning))
            return pieces
        }
        if let time = time(event.wallNanoseconds) { pieces.append(Piece(text: time + " ", style: ViewerView.dim)) }
        if sourceWidth > 0 {
            let lane = Self.lane(of: event.source.instanceID, in: page)
            let name = laneNames[event.source.instanceID] ?? CellWidth.fitted(VisibleText.escaped(event.source.description), to: sourceWidth)
            pieces.append(Piece(text: name + String(repeating: " ", count: max(0, sourceWidth - CellWidth.of(name))) + " ", style: CellStyle(color: Self.laneColors[lane % Self.laneColors.count])))
        }
        // A two-cell column for the fold marker; what a dispatch caused is indented under it.
        pieces.append(Piece(text: row.group.map { $0.isFolded ? "▸ " : "▾ " } ?? "  ", style: CellStyle(bold: true)))
        if row.isNested { pieces.append(Piece(text: "  ", style: .plain)) }
        pieces.append(Piece(text: VisibleText.padded(Self.kindWord(event.kind), to: Self.kindWidth) + " ", style: CellStyle(color: Self.kindColor(event.kind))))
        let used = pieces.reduce(0) { $0 + CellWidth.of($1.text) }
        let room = max(0, width - used)
        // A late effect names its cause, when that leaves the content room to say something.
        let cause = row.lateCause.map { "  ← #\($0.sequence) \(VisibleText.escaped($0.name))" } ?? ""
        let causeCells = CellWidth.of(cause)
        guard !cause.isEmpty, room >= causeCells + 12 else {
            // A wide timeline says where each event was sent from, at its right edge, when what
            // the event did keeps room enough.
            let callSite = VisibleText.escaped(event.callSite)
            let callSiteCells = CellWidth.of(callSite) + 3
            guard !callSite.isEmpty, room >= callSiteCells + Self.contentRoomBeforeCallSite else { return pieces + content(row, event, room: room) }
            let shown = content(row, event, room: room - callSiteCells)
            let shownCells = shown.reduce(0) { $0 + CellWidth.of($1.text) }
            return pieces + shown + [Piece(text: String(repeating: " ", count: max(0, room - callSiteCells - shownCells)) + "  " + callSite + " ", style: ViewerView.dim)]
        }
        let shown = content(row, event, room: room - causeCells)
        let shownCells = shown.reduce(0) { $0 + CellWidth.of($1.text) }
        pieces += shown
        pieces.append(Piece(text: String(repeating: " ", count: max(0, room - causeCells - shownCells)) + cause, style: ViewerView.dim))
        return pieces
    }

    /// How a log's level is shown: an error or worse in bold red, a warning in yellow, the rest
    /// dimmed.
    static func levelStyle(_ level: Logger.Level?) -> CellStyle {
        switch level {
        case .error?, .critical?: CellStyle(color: 31, bold: true)
        case .warning?: CellStyle(color: 33)
        default: ViewerView.dim
        }
    }

    /// What the event did, fitted to `room` cells.
    private func content(_ row: Page.Row, _ event: RecordedEvent, room: Int) -> [Piece] {
        let name = VisibleText.escaped(event.name)
        switch event.kind {
        case .change:
            // The move from the old value when the row knows it (`RecordedEvent.rowText(valueLimit:old:columns:)`);
            // a write of the value already there is marked, dimmed.
            let text = event.rowText(valueLimit: max(8, room), old: row.oldValue, columns: CellWidth.of)
            guard text.hasSuffix(RecordedEvent.unchangedMark) else { return [Piece(text: CellWidth.fitted(text, to: room), style: .plain)] }
            let assignment = CellWidth.fitted(String(text.dropLast(RecordedEvent.unchangedMark.count)), to: room)
            return [Piece(text: assignment, style: .plain), Piece(text: CellWidth.fitted(RecordedEvent.unchangedMark, to: max(0, room - CellWidth.of(assignment))), style: ViewerView.dim)]
        case .willDispatch:
            var text = name
            if let input = event.value?.payloadDescription(sentAs: event.name, limit: max(8, room)), !input.isEmpty { text += " " + input }
            var pieces = [Piece(text: CellWidth.fitted(text, to: room), style: CellStyle(bold: true))]
            if let group = row.group, group.isFolded, let count = group.effectCount, count > 0 {
                let note = " (+\(count))"
                if CellWidth.of(text) + CellWidth.of(note) <= room {
                    pieces.append(Piece(text: note, style: ViewerView.dim))
                } else {
                    pieces = [Piece(text: CellWidth.fitted(text, to: max(1, room - CellWidth.of(note))), style: CellStyle(bold: true)), Piece(text: note, style: ViewerView.dim)]
                }
            }
            return pieces
        case .didDispatch, .didMutate, .willMutate, .activity, .replace, .dropped:
            let summary = event.kind == .activity || event.kind == .dropped ? event.rowText(valueLimit: max(8, room)) : event.rowText()
            // The name is cut last: the value gives way first.
            let nameCells = CellWidth.of(name)
            if nameCells >= room { return [Piece(text: CellWidth.fitted(name, to: room), style: .plain)] }
            let rest = summary.isEmpty ? "" : CellWidth.fitted((name.isEmpty ? "" : " ") + summary, to: room - nameCells)
            return [Piece(text: name, style: .plain), Piece(text: rest, style: event.kind == .activity ? .plain : ViewerView.dim)]
        case .log:
            // Its level, in colour by how severe it is, then the message and its metadata.
            let level = name + " "
            let levelCells = CellWidth.of(level)
            if levelCells >= room { return [Piece(text: CellWidth.fitted(level, to: room), style: Self.levelStyle(event.logLevel))] }
            let message = CellWidth.fitted(event.rowText(valueLimit: max(8, room - levelCells), columns: CellWidth.of), to: room - levelCells)
            return [Piece(text: level, style: Self.levelStyle(event.logLevel)), Piece(text: message, style: .plain)]
        case .created, .released:
            let unit = "\(event.source.framework) \(VisibleText.escaped(event.source.typeName))#\(event.source.instanceID)" + (event.source.label.map { " \"\(VisibleText.escaped($0))\"" } ?? "")
            return [Piece(text: CellWidth.fitted(unit, to: room), style: ViewerView.dim)]
        }
    }
}
