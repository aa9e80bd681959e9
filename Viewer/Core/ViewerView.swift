import Foundation
import Rewind

/// The view: draws a model into a screen buffer, as a pure function of the model and the journal.
public enum ViewerView {
    static let titleStyle = CellStyle(reverse: true, bold: true)
    static let focusTitle = CellStyle(color: 36, bold: true)
    static let paneTitle = CellStyle(bold: true)
    static let cursor = CellStyle(reverse: true)
    static let changed = CellStyle(color: 33, bold: true)
    static let removed = CellStyle(color: 31)
    static let added = CellStyle(color: 32)
    static let dim = CellStyle(dim: true)
    static let warning = CellStyle(color: 31, bold: true)
    static let laneColors: [UInt8] = [36, 35, 33, 32, 34, 31]

    /// The frame for `model`.
    public static func render(_ model: ViewerModel, timeline: Timeline) -> ScreenBuffer {
        var screen = ScreenBuffer(width: model.width, height: model.height)
        guard model.width >= 20, model.height >= 6 else {
            screen.write("window too small", row: 0, column: 0)
            return screen
        }
        let step = StepView(model: model, timeline: timeline)
        drawTimeline(&screen, model, timeline)
        let left = model.leftWidth
        for row in 1...model.bodyHeight { screen.write("│", row: row, column: left, style: dim) }
        drawState(&screen, model, step, column: left + 1)
        drawDiff(&screen, model, step, column: left + 1, timeline: timeline)
        drawStatus(&screen, model, timeline, step)
        // Last: reading the timeline is what reveals a damaged block in a journal with an index.
        drawTitle(&screen, model, timeline)
        if model.showingHelp { drawHelp(&screen, model) }
        return screen
    }

    private static func drawTitle(_ screen: inout ScreenBuffer, _ model: ViewerModel, _ timeline: Timeline) {
        screen.write(String(repeating: " ", count: model.width), row: 0, column: 0, style: titleStyle)
        var title = " rewind  \(model.title.isEmpty ? timeline.reader.path : model.title)"
        let damage = timeline.reader.damage
        if !damage.isEmpty {
            title += "  ⚠ damaged: \(timeline.reader.lostEventCount) events lost, showing what survived"
        }
        screen.write(title, row: 0, column: 0, style: damage.isEmpty ? titleStyle : CellStyle(color: 31, reverse: true, bold: true))
    }

    private static func drawTimeline(_ screen: inout ScreenBuffer, _ model: ViewerModel, _ timeline: Timeline) {
        let width = model.leftWidth
        let sources = timeline.reader.sources.map(\.source)
        screen.write(" Timeline (\(timeline.count) events)", row: 1, column: 0, limit: width, style: model.focus == .timeline ? focusTitle : paneTitle)
        let start = timeline.reader.timeSpan?.lowerBound ?? 0
        for line in 0..<(model.bodyHeight - 1) {
            let position = model.timelineTop + line
            guard position < timeline.count else { break }
            let row = line + 2
            guard let event = timeline.event(at: position) else {
                screen.write("\(position == model.position ? "▶" : " ")  ⚠ unreadable (damaged block)", row: row, column: 0, limit: width, style: warning)
                if position == model.position { screen.style(row: row, column: 0, length: width, cursor) }
                continue
            }
            let lane = sources.firstIndex { $0.instanceID == event.source.instanceID } ?? 0
            let marker = position == model.position ? "▶" : " "
            let time = EventFormatter.elapsed(nanoseconds: event.wallNanoseconds - start)
            let laneText = "[\(lane + 1)]"
            let text = "\(marker)#\(event.sequence) \(time) "
            screen.write(text, row: row, column: 0, limit: width)
            screen.write(laneText, row: row, column: text.count, limit: width - text.count, style: CellStyle(color: laneColors[lane % laneColors.count], bold: true))
            let rest = " \(event.kind.rawValue) \(event.name)"
            screen.write(rest, row: row, column: text.count + laneText.count, limit: max(0, width - text.count - laneText.count))
            if position == model.position { screen.style(row: row, column: 0, length: width, cursor) }
        }
    }

    private static func drawState(_ screen: inout ScreenBuffer, _ model: ViewerModel, _ step: StepView, column: Int) {
        let width = model.rightWidth
        let source = step.event.map { " of \($0.source.description)" } ?? ""
        screen.write(" State\(source)", row: 1, column: column, limit: width, style: model.focus == .state ? focusTitle : paneTitle)
        guard !step.rows.isEmpty else {
            screen.write("  (no state recorded for this source yet)", row: 2, column: column, limit: width, style: dim)
            return
        }
        for line in 0..<(model.stateHeight - 1) {
            let index = model.stateTop + line
            guard index < step.rows.count else { break }
            let row = step.rows[index]
            let selected = index == model.stateSelection
            // The selected row (what b/B look for) is marked; reversed when the pane has the focus.
            let text = (selected ? "›" : " ") + String(repeating: "  ", count: row.depth) + row.text
            let style = row.changed ? changed : CellStyle.plain
            screen.write(text, row: line + 2, column: column, limit: width, style: style)
            if selected && model.focus == .state {
                screen.style(row: line + 2, column: column, length: width, CellStyle(color: style.color, reverse: true, bold: style.bold))
            }
        }
    }

    private static func drawDiff(_ screen: inout ScreenBuffer, _ model: ViewerModel, _ step: StepView, column: Int, timeline: Timeline) {
        let width = model.rightWidth
        let top = 1 + model.stateHeight
        let base = model.pinned.map { "pinned step \($0)" } ?? "previous step"
        screen.write(" Diff against \(base)", row: top, column: column, limit: width, style: model.focus == .diff ? focusTitle : paneTitle)
        guard !step.diffLines.isEmpty else {
            screen.write("  no change", row: top + 1, column: column, limit: width, style: dim)
            return
        }
        for line in 0..<(model.diffHeight - 1) {
            let index = model.diffTop + line
            guard index < step.diffLines.count else { break }
            let diffLine = step.diffLines[index]
            let style: CellStyle = switch diffLine.marker {
            case .context: .plain
            case .removed: removed
            case .added: added
            }
            screen.write(diffLine.rendered, row: top + 1 + line, column: column, limit: width, style: style)
        }
    }

    private static func drawStatus(_ screen: inout ScreenBuffer, _ model: ViewerModel, _ timeline: Timeline, _ step: StepView) {
        let row = model.height - 2
        var status = " step \(timeline.count == 0 ? 0 : model.position + 1) of \(timeline.count)"
        if let event = step.event {
            status += "  #\(event.sequence)  \(EventTime.iso8601(wallNanoseconds: event.wallNanoseconds))  \(event.source.description)  \(event.kind.rawValue) \(event.name)"
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
        case .search(let text)?: screen.write("/\(text)▏  search names, values and paths; Enter, Esc", row: hintRow, column: 0)
        case .filter(let text)?: screen.write("filter: \(text)▏  kinds (change,activity) and/or a source; empty clears", row: hintRow, column: 0)
        case nil:
            if let message = model.message {
                screen.write(" \(message)", row: hintRow, column: 0, style: changed)
            } else {
                screen.write(" ←/→ step  ↑/↓ move  Tab pane  / search  : jump  f filter  b/B blame  p pin  ? help  q quit", row: hintRow, column: 0, style: dim)
            }
        }
    }

    static let helpLines = [
        "Keys",
        "←/→  h/l     step backward / forward",
        "↑/↓  j/k     move in the focused pane",
        "PgUp/PgDn    page in the focused pane",
        "g/G          first / last step",
        ":N Enter     jump to step N",
        "/text Enter  search names, values, paths",
        "n/N          next / previous match",
        "f            filter by kind and source",
        "b/B          last / next step that changed",
        "             the selected key path",
        "p            pin / unpin the diff base",
        "Tab          switch pane",
        "Enter        fold / unfold a state node",
        "F            follow a journal being written",
        "?            this help      q  quit",
    ]

    private static func drawHelp(_ screen: inout ScreenBuffer, _ model: ViewerModel) {
        let width = min(model.width - 2, 48)
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
