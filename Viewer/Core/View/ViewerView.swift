import Foundation
@_spi(Tooling) import Rewind

/// The view: draws a model into a screen buffer, as a pure function of the model (the journal was
/// read into ``ViewerModel/page`` by the program).
package enum ViewerView {
    static let titleStyle = CellStyle(reverse: true, bold: true)
    static let focusTitle = CellStyle(color: 36, bold: true)
    static let paneTitle = CellStyle(bold: true)
    static let cursor = CellStyle(reverse: true)
    static let changed = CellStyle(color: 33, bold: true)
    static let removed = CellStyle(color: 31)
    static let added = CellStyle(color: 32)
    static let dim = CellStyle(dim: true)
    static let warning = CellStyle(color: 31, bold: true)
    static let match = CellStyle(color: 30, reverse: true, bold: true)
    /// A match on the cursor's (reversed) row: bold yellow on the normal background.
    static let matchOnCursor = CellStyle(color: 33, bold: true)

    /// The frame for `model`.
    package static func render(_ model: ViewerModel) -> ScreenBuffer {
        var screen = ScreenBuffer(width: model.width, height: model.height)
        guard model.width >= 20, model.height >= 6 else {
            screen.write("window too small", row: 0, column: 0)
            return screen
        }
        drawTitle(&screen, model)
        drawTimeline(&screen, model)
        let left = model.leftWidth
        for row in 1...model.bodyHeight { screen.write("│", row: row, column: left, style: dim) }
        drawState(&screen, model, column: left + 1)
        if model.showsDetail {
            drawDetail(&screen, model, column: left + 1)
        } else {
            drawDiff(&screen, model, column: left + 1)
        }
        drawStatus(&screen, model)
        if model.showingHelp { drawHelp(&screen, model) }
        return screen
    }

    private static func drawTitle(_ screen: inout ScreenBuffer, _ model: ViewerModel) {
        let page = model.page
        let style = page.isDamaged ? CellStyle(color: 31, reverse: true, bold: true) : titleStyle
        screen.write(String(repeating: " ", count: model.width), row: 0, column: 0, style: titleStyle)
        let strip = model.overviewColumns
        let titleRoom = strip.isEmpty ? model.width : strip.lowerBound - 1
        screen.write(CellWidth.fitted(model.titleText, to: titleRoom), row: 0, column: 0, limit: titleRoom, style: style)
        drawOverview(&screen, model, columns: strip)
    }

    /// The overview strip (``Overview``) on the title line, on the normal background so that the
    /// sparkline reads.
    private static func drawOverview(_ screen: inout ScreenBuffer, _ model: ViewerModel, columns: Range<Int>) {
        guard !columns.isEmpty else { return }
        let marks = model.page.overview.marks(
            cells: columns.count, cursor: model.page.step?.event.sequence,
            hits: [model.hits?.sequences ?? [], model.watch?.sequences ?? []], bookmarks: model.bookmarks, logged: model.logMarks
        )
        for (offset, mark) in marks.enumerated() {
            screen.write(Overview.glyph(mark), row: 0, column: columns.lowerBound + offset, limit: 1, style: overviewStyle(mark))
        }
    }

    private static func overviewStyle(_ mark: Overview.Mark) -> CellStyle {
        switch mark {
        case .cursor: CellStyle(color: 33, reverse: true, bold: true)
        case .damage: warning
        case .bookmark: CellStyle(color: 35, bold: true)
        case .error: CellStyle(color: 31, bold: true)
        case .hit: CellStyle(color: 33, bold: true)
        case .density(_, let warning): CellStyle(color: warning ? 33 : 36)
        }
    }

    /// Writes text with the search's matches marked.
    private static func writeMarked(_ screen: inout ScreenBuffer, _ text: String, row: Int, column: Int, limit: Int, style: CellStyle, search: SearchQuery?, onCursor: Bool = false) -> Int {
        let style = onCursor ? CellStyle(color: style.color, reverse: true, bold: style.bold, dim: style.dim) : style
        let match = onCursor ? matchOnCursor : match
        guard let search else { return screen.write(text, row: row, column: column, limit: limit, style: style) }
        var x = column
        var start = text.startIndex
        for range in search.ranges(in: text) {
            x = screen.write(String(text[start..<range.lowerBound]), row: row, column: x, limit: column + limit - x, style: style)
            x = screen.write(String(text[range]), row: row, column: x, limit: column + limit - x, style: match)
            start = range.upperBound
        }
        return screen.write(String(text[start...]), row: row, column: x, limit: column + limit - x, style: style)
    }

    private static func drawTimeline(_ screen: inout ScreenBuffer, _ model: ViewerModel) {
        let width = model.leftWidth
        let page = model.page
        var heading = " Timeline (\(page.eventCount) events)"
        if model.folding.foldsAll { heading += "  dispatches folded" }
        screen.write(heading, row: 1, column: 0, limit: width, style: model.focus == .timeline ? focusTitle : paneTitle)
        let layout = TimelineRowText(page: page, width: width)
        for (line, row) in page.rows.prefix(model.timelineRows).enumerated() {
            let isCursor = row.position == model.position
            if isCursor { screen.write(String(repeating: " ", count: width), row: line + 2, column: 0, style: cursor) }
            var x = 0
            for piece in layout.pieces(row, isCursor: isCursor) {
                x = writeMarked(&screen, piece.text, row: line + 2, column: x, limit: width - x, style: piece.style, search: piece.isSequence ? nil : model.search, onCursor: isCursor)
            }
            // A step where the watched condition holds is marked where the cursor's ▶ goes.
            if !isCursor, let sequence = row.event?.sequence, model.watch?.contains(sequence) == true {
                screen.write("•", row: line + 2, column: 0, limit: 1, style: CellStyle(color: 33, bold: true))
            }
        }
        if page.rows.isEmpty {
            screen.write("  (no events)", row: 2, column: 0, limit: width, style: dim)
        }
    }

    /// Said where a step's state record does not rebuild.
    private static let unbuildableNote = "  (this step's state cannot be rebuilt: the journal was altered; see 'rewind verify')"

    private static func drawState(_ screen: inout ScreenBuffer, _ model: ViewerModel, column: Int) {
        let width = model.rightWidth
        let step = model.page.step
        var heading = " State"
        if let step {
            // The step number is what the title is for: on a narrow pane the source's name
            // shortens first, then the note goes, never the number.
            var tail = " after #\(step.afterSequence)"
            if step.afterSequence != step.event.sequence, CellWidth.of(heading + " of " + tail + " (the dispatch's end)") + 4 <= width {
                tail += " (the dispatch's end)"
            }
            let name = CellWidth.fitted(step.unit.description, to: max(4, width - CellWidth.of(heading + " of " + tail)))
            heading += " of \(name)\(tail)"
        }
        screen.write(heading, row: 1, column: column, limit: width, style: model.focus == .state ? focusTitle : paneTitle)
        let rows = StateRows.rows(step?.after, collapsed: model.collapsed, changed: step?.changedPaths ?? [])
        guard !rows.isEmpty else {
            screen.write(step?.stateIsUnbuildable == true ? Self.unbuildableNote : "  (no state recorded for this source yet)", row: 2, column: column, limit: width, style: dim)
            return
        }
        for line in 0..<(model.stateHeight - 1) {
            let index = model.stateTop + line
            guard index < rows.count else { break }
            let row = rows[index]
            let selected = index == model.stateSelection
            // The selected row (what b/B follow) is marked; reversed when the pane has the focus.
            let text = (selected ? "›" : " ") + String(repeating: "  ", count: row.depth) + row.text
            let style = row.changed ? changed : CellStyle.plain
            screen.write(text, row: line + 2, column: column, limit: width, style: style)
            if selected && model.focus == .state {
                screen.style(row: line + 2, column: column, length: width, CellStyle(color: style.color, reverse: true, bold: style.bold))
            }
        }
    }

    private static func drawDiff(_ screen: inout ScreenBuffer, _ model: ViewerModel, column: Int) {
        let width = model.rightWidth
        let top = 1 + model.stateHeight
        let step = model.page.step
        // A step of another unit pinned: the diff is this unit's state then, and the title says so.
        let otherUnit = model.pinnedSource.flatMap { pinned in step.map { $0.unit.instanceID != pinned.instanceID } } == true
        let base = model.pinned.map { otherUnit ? "this unit at pinned #\($0) (a step of \(model.pinnedSource!.description))" : "pinned #\($0)" }
            ?? step.map { "before #\($0.event.sequence)" } ?? "before"
        let title = " Diff: \(base) → after #\(step?.afterSequence ?? 0)" + (model.lowerLeft > 0 ? "  ◂\(model.lowerLeft)" : "")
        screen.write(title, row: top, column: column, limit: width, style: model.focus == .lower ? focusTitle : paneTitle)
        guard let step, !step.diffLines.isEmpty else {
            var note = "  no change"
            if let step, step.event.kind == .change {
                note = "  no change: \(VisibleText.escaped(step.event.path ?? "")) already held \((step.event.value ?? .null).compactDescription(limit: 40))"
            } else if let step, step.after == nil {
                note = step.stateIsUnbuildable ? Self.unbuildableNote : "  (no state recorded for this source yet)"
            }
            screen.write(note, row: top + 1, column: column, limit: width, style: dim)
            return
        }
        for line in 0..<(model.lowerHeight - 1) {
            let index = model.lowerTop + line
            guard index < step.diffLines.count else { break }
            let diffLine = step.diffLines[index]
            let style: CellStyle = switch diffLine.marker {
            case .context: .plain
            case .removed: removed
            case .added: added
            }
            screen.write(CellWidth.dropping(model.lowerLeft, from: diffLine.rendered), row: top + 1 + line, column: column, limit: width, style: style)
        }
    }

    private static func drawDetail(_ screen: inout ScreenBuffer, _ model: ViewerModel, column: Int) {
        let width = model.rightWidth
        let top = 1 + model.stateHeight
        let lines = DetailLines.lines(model.page.step, page: model.page, bookmarks: model.bookmarks)
        let title = " Detail of #\(model.page.step?.event.sequence ?? 0)" + (model.lowerLeft > 0 ? "  ◂\(model.lowerLeft)" : "")
        screen.write(title, row: top, column: column, limit: width, style: model.focus == .lower ? focusTitle : paneTitle)
        for line in 0..<(model.lowerHeight - 1) {
            let index = model.lowerTop + line
            guard index < lines.count else { break }
            let text = " " + CellWidth.dropping(model.lowerLeft, from: lines[index])
            _ = writeMarked(&screen, text, row: top + 1 + line, column: column, limit: width, style: .plain, search: model.search)
        }
    }

    private static func drawStatus(_ screen: inout ScreenBuffer, _ model: ViewerModel) {
        let row = model.height - 2
        let page = model.page
        var status = " step \(page.eventCount == 0 ? 0 : model.position + 1) of \(page.eventCount)"
        if let event = page.step?.event {
            status += "  #\(event.sequence)  \(EventTime.iso8601(wallNanoseconds: event.wallNanoseconds))  \(event.source.description)  \(event.kind.word) \(event.name)"
            if !event.callSite.isEmpty { status += "  \(event.callSite)" }
        }
        if let filter = model.filterText { status += "  filter: \(filter)" }
        if let pinned = model.pinned { status += "  pinned: \(pinned)" }
        if model.following { status += "  following" }
        screen.write(String(repeating: " ", count: model.width), row: row, column: 0, style: cursor)
        screen.write(status, row: row, column: 0, style: cursor)
        let hintRow = model.height - 1
        switch model.prompt {
        case .jump(let text)?: screen.write(":\(text)▏  step number, Enter to jump, Esc to cancel", row: hintRow, column: 0)
        case .search(let text)?: screen.write("/\(text)▏  text, or ~regex; Enter, Esc", row: hintRow, column: 0)
        case .filter(let text)?: screen.write("filter: \(text)▏  kinds, sources, !excluded, path:KEYPATH, level>=LEVEL; empty clears", row: hintRow, column: 0)
        case .watch(let text)?: screen.write("watch: \(text)▏  a condition: count > 10, changed(items), kind == dispatch; empty stops", row: hintRow, column: 0)
        case nil:
            if let message = model.message {
                screen.write(" \(message)", row: hintRow, column: 0, style: changed)
            } else if let progress = model.progress {
                screen.write(" \(progress)", row: hintRow, column: 0, style: changed)
            } else if let answers = answers(model) {
                screen.write(" " + answers, row: hintRow, column: 0, style: changed)
            } else {
                screen.write(KeyMap.hintLine, row: hintRow, column: 0, style: dim)
            }
        }
    }

    /// What the last question answered — the search's hit count, blame's change at this step — on
    /// the message line, where it is not cut by the status line's other fields.
    private static func answers(_ model: ViewerModel) -> String? {
        var answers: [String] = []
        if let search = model.search {
            answers.append("/\(search.text)" + (model.hits.map { " \($0.label(at: model.position))" } ?? ""))
        }
        if let watch = model.watch {
            answers.append("watch \(watch.condition.text) \(watch.label(at: model.page.step?.event.sequence))")
        }
        if let blame = model.blame, blame.position == model.position {
            let path = blame.path.description
            let room = max(12, (model.width - 8 - CellWidth.of(path)) / 2)
            answers.append("\(path): \(blame.old?.compactDescription(limit: room) ?? "(absent)") → \(blame.new?.compactDescription(limit: room) ?? "(absent)")")
        }
        return answers.isEmpty ? nil : answers.joined(separator: "   ")
    }

    /// Every key, in the `?` overlay (``KeyMap/help``).
    static let helpLines = KeyMap.help.map(\.text)

    private static func drawHelp(_ screen: inout ScreenBuffer, _ model: ViewerModel) {
        let width = min(model.width - 2, 54)
        let height = min(model.height - 2, helpLines.count + 2)
        let left = max(0, (model.width - width) / 2), top = max(0, (model.height - height) / 2)
        for row in 0..<height {
            screen.write(String(repeating: " ", count: width), row: top + row, column: left, style: cursor)
        }
        for (index, line) in helpLines.prefix(height - 2).enumerated() {
            screen.write(" " + line, row: top + 1 + index, column: left, limit: width, style: index == 0 ? CellStyle(reverse: true, bold: true) : cursor)
        }
    }
}
