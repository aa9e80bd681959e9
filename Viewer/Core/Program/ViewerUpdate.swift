@_spi(Tooling) import Rewind

extension ViewerModel {
    /// The update: what a message does to the model, and the reads it wants next. Pure: it touches
    /// nothing but the model; the journal is read by the program running the commands.
    package mutating func update(_ incoming: ViewerMessage) -> [ViewerCommand] {
        switch incoming {
        case .key(let key):
            return handle(key)
        case .resize(let width, let height):
            self.width = width
            self.height = height
            return [reload()]
        case .tick:
            return following ? [.refresh] : []
        case .open(let sequence):
            // A narrow screen cuts the title: the message line says why once, until a key.
            if let dumpSummary { message = "dump: \(dumpSummary) · opened at the trigger's step" }
            return [.jumpToPlace(sequence: sequence, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
        case .journalGrew:
            let wasAtEnd = position >= page.eventCount - 1
            return wasAtEnd ? [move(toEnd: true)] : [reload()]
        case .journalClosed:
            guard following else { return [] }
            following = false
            message = "the writer closed the journal: following stopped"
            return []
        case .pageLoaded(let page):
            accept(page)
            return []
        case .searchFinished(let query, let found, let wrapped):
            progress = nil
            guard let found else {
                message = "no match for \(Self.quoted(query.text))"
                return []
            }
            if wrapped { message = "search wrapped around the end" }
            return [load(cursor: found)]
        case .hitsCounted(let query, let count):
            if query == search { hits = count }
            return []
        case .logMarksFound(let marks):
            logMarks = marks
            return []
        case .watchCounted(let matches):
            if matches.condition == watch?.condition { watch = matches }
            return []
        case .filterApplied(let text, let count, let cursor):
            progress = nil
            filterText = text
            if count == 0, let text { message = "no events match \(text)" }
            hits = nil
            timelineTop = 0
            return [load(cursor: cursor)] + (search.map { [.countHits($0)] } ?? [])
        case .blameFinished(let path, let forward, let result):
            progress = nil
            guard let result else {
                message = "no \(forward ? "later" : "earlier") step changed \(path)"
                return []
            }
            blame = result
            return [load(cursor: result.position)]
        case .progress(let text):
            progress = text
            return []
        case .failed(let text):
            message = text
            return []
        }
    }

    // MARK: Keys

    private mutating func handle(_ key: Key) -> [ViewerCommand] {
        message = nil
        if let prompt { return handlePrompt(prompt, key) }
        if progress != nil, key == .escape {
            progress = nil
            message = "cancelled"
            return [.cancel]
        }
        if showingHelp {
            showingHelp = false
            if KeyMap.action(for: key) == .quit { quitting = true }
            return []
        }
        switch key {
        // The pointer's events carry where they happened: not bindings.
        case .wheelUp: return scrollFocused(by: -3)
        case .wheelDown: return scrollFocused(by: 3)
        case .wheel(let up, let column, let row):
            focus = pane(atColumn: column, row: row) ?? focus
            return scrollFocused(by: up ? -3 : 3)
        case .click(let column, let row):
            return click(column: column, row: row)
        default:
            guard let action = KeyMap.action(for: key) else {
                message = "\(Self.describe(key)) does nothing here: press ? for the keys"
                return []
            }
            return perform(action)
        }
    }

    /// Does what a key's action asks (``KeyMap``).
    private mutating func perform(_ action: KeyMap.Action) -> [ViewerCommand] {
        switch action {
        case .quit:
            quitting = true
            return [.cancel]
        case .help: showingHelp = true
        case .stepBack: return [move(by: -1)]
        case .stepForward: return [move(by: 1)]
        case .moveUp: return scrollFocused(by: -1)
        case .moveDown: return scrollFocused(by: 1)
        case .pageUp: return scrollFocused(by: -pageSize)
        case .pageDown: return scrollFocused(by: pageSize)
        case .first: return [move(toEnd: false)]
        case .last: return [move(toEnd: true)]
        case .switchPane: focus = Pane.allCases[(Pane.allCases.firstIndex(of: focus)! + 1) % Pane.allCases.count]
        case .jump: prompt = .jump("")
        case .search: prompt = .search("")
        case .watch: prompt = .watch(watch?.condition.text ?? "")
        case .filter: prompt = .filter(filterText ?? "")
        case .logLevel: return stepLogLevel()
        case .nextMatch: return repeatSearch(forward: true)
        case .previousMatch: return repeatSearch(forward: false)
        case .pin: return togglePin()
        case .bookmark: toggleBookmark()
        case .copyValue: return copySelected(path: false)
        case .copyPath: return copySelected(path: true)
        case .nextBookmark: return jumpToBookmark(forward: true)
        case .previousBookmark: return jumpToBookmark(forward: false)
        case .previousSlice: return moveInOverview(forward: false)
        case .nextSlice: return moveInOverview(forward: true)
        case .blameBack: return startBlame(forward: false)
        case .blameForward: return startBlame(forward: true)
        case .lowerPane:
            lowerPane = lowerPane == .diff ? .detail : .diff
            lowerTop = 0
            lowerLeft = 0
        case .foldAll:
            folding.toggleAll()
            message = folding.foldsAll ? "dispatches folded: each shows its whole effect (z unfolds)" : "dispatches unfolded"
            return [load(cursor: position)]
        case .panLeft: lowerLeft = max(0, lowerLeft - 8)
        case .panRight: lowerLeft += 8
        case .expandAll: collapsed = []
        case .collapseAll: collapsed = Set(StateRows.containers(page.step?.after).filter { !$0.isRoot })
        case .follow:
            following.toggle()
            message = following ? "following: new events appear as they are written" : "stopped following"
            // Following starts at the newest event, as `tail -f` does.
            if following { return [.refresh, move(toEnd: true)] }
        case .fold:
            return focus == .state ? toggleSelectedNode() : toggleFold()
        }
        return []
    }

    private var pageSize: Int { max(1, timelineRows - 1) }

    private static func describe(_ key: Key) -> String {
        if case .character(let character) = key { return "'\(VisibleText.escaped(String(character)))'" }
        return "that key"
    }

    private static func quoted(_ text: String) -> String { "\"\(VisibleText.escaped(text))\"" }

    // MARK: Moving

    /// Reads the page again for the same cursor (after folding, a pin, a resize).
    func reload() -> ViewerCommand {
        .load(cursor: position, top: timelineTop, rows: timelineRows, folding: folding, pinned: pinned)
    }

    private func load(cursor: Int) -> ViewerCommand {
        .move(from: cursor, rows: 0, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)
    }

    private func move(by rows: Int) -> ViewerCommand {
        .move(from: position, rows: rows, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)
    }

    private func move(toEnd: Bool) -> ViewerCommand {
        .move(from: toEnd ? Int.max / 2 : 0, rows: 0, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)
    }

    /// Takes a page in: the cursor, the rows, and a state selection that shows what the step changed.
    private mutating func accept(_ page: Page) {
        let moved = page.cursor != position || page.step?.event.sequence != self.page.step?.event.sequence
        self.page = page
        position = page.cursor
        timelineTop = page.top
        folding = page.folding
        guard moved else {
            keepSelectionVisible(rowCount: StateRows.rows(page.step?.after, collapsed: collapsed, changed: []).count)
            return
        }
        lowerTop = 0
        let rows = StateRows.rows(page.step?.after, collapsed: collapsed, changed: page.step?.changedPaths ?? [])
        // Blame keeps its key path selected; otherwise the first value the step changed is.
        if let blame, let after = page.step?.after,
           let index = rows.firstIndex(where: { FollowedPath($0.path, in: after).description == blame.path.description }) {
            stateSelection = index
        } else if let changed = rows.firstIndex(where: { $0.changed && !$0.isContainer }) {
            stateSelection = changed
        } else {
            stateSelection = min(stateSelection, max(0, rows.count - 1))
        }
        keepSelectionVisible(rowCount: rows.count)
    }

    /// Scrolls the state pane so the selection shows — and no further: a state that fits is
    /// shown from its first line, and a pane that grew shows no space below the state's end.
    private mutating func keepSelectionVisible(rowCount: Int) {
        let visible = max(1, stateHeight - 1)
        if stateSelection < stateTop { stateTop = stateSelection }
        if stateSelection >= stateTop + visible { stateTop = stateSelection - visible + 1 }
        stateTop = max(0, min(stateTop, rowCount - visible))
    }

    private mutating func scrollFocused(by amount: Int) -> [ViewerCommand] {
        switch focus {
        case .timeline:
            return [move(by: amount)]
        case .state:
            let count = StateRows.rows(page.step?.after, collapsed: collapsed, changed: []).count
            stateSelection = min(max(0, stateSelection + amount), max(0, count - 1))
            keepSelectionVisible(rowCount: count)
        case .lower:
            let count = showsDetail ? DetailLines.lines(page.step, page: page).count : page.step?.diffLines.count ?? 0
            lowerTop = min(max(0, lowerTop + amount), max(0, count - 1))
        }
        return []
    }

    // MARK: Prompts

    private mutating func handlePrompt(_ current: Prompt, _ key: Key) -> [ViewerCommand] {
        func edit(_ text: String) -> String? {
            switch key {
            case .character(let character): return text + String(character)
            case .backspace: return String(text.dropLast())
            case .clearLine: return ""
            case .deleteWord:
                // As a shell's Ctrl-W: the spaces before the cursor, then the word before them.
                let trimmed = text.reversed().drop { $0 == " " }
                return String(trimmed.drop { $0 != " " }.reversed())
            default: return nil
            }
        }
        switch (current, key) {
        case (_, .escape), (_, .interrupt):
            prompt = nil
        case (.jump(let text), .enter):
            prompt = nil
            guard let sequence = UInt64(text) else {
                message = "type a step number"
                return []
            }
            return [.jump(sequence: sequence, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
        case (.search(let text), .enter):
            prompt = nil
            guard !text.isEmpty else { return [] }
            do {
                let query = try SearchQuery(text)
                if query != search { hits = nil }
                search = query
                find = .search
                return [.search(query, from: position, forward: true, folding: folding)] + (hits == nil ? [.countHits(query)] : [])
            } catch {
                message = error.description
            }
        case (.filter(let text), .enter):
            prompt = nil
            let trimmed = text.trimmingSpaces
            guard !trimmed.isEmpty else { return [.filter(nil, text: nil)] }
            do {
                return [.filter(try TimelineFilter(parsing: trimmed, sources: page.sources), text: trimmed)]
            } catch {
                message = error.description
            }
        case (.watch(let text), .enter):
            prompt = nil
            let trimmed = text.trimmingSpaces
            guard !trimmed.isEmpty else {
                if watch != nil { message = "stopped watching" }
                watch = nil
                find = .search
                return [.watch(nil)]
            }
            do {
                let condition = try Condition(parsing: trimmed)
                watch = WatchMatches(condition: condition)
                find = .watch
                return [.watch(condition)]
            } catch {
                message = error.description
            }
        case (.jump(let text), _):
            if let edited = edit(text), edited.allSatisfy(\.isNumber) { prompt = .jump(edited) }
        case (.search(let text), _):
            if let edited = edit(text) { prompt = .search(edited) }
        case (.filter(let text), _):
            if let edited = edit(text) { prompt = .filter(edited) }
        case (.watch(let text), _):
            if let edited = edit(text) { prompt = .watch(edited) }
        }
        return []
    }

    private mutating func repeatSearch(forward: Bool) -> [ViewerCommand] {
        if find == .watch, let watch { return jumpToWatched(watch, forward: forward) }
        guard let search else {
            message = "no search yet: press / to search"
            return []
        }
        return [.search(search, from: position, forward: forward, folding: folding)]
    }

    /// n/N while watching: to the next (previous) step where the condition holds, round the ends
    /// once every step has been looked at.
    private mutating func jumpToWatched(_ watch: WatchMatches, forward: Bool) -> [ViewerCommand] {
        let steps = watch.sequences
        let current = page.step?.event.sequence ?? 0
        let index = watch.firstIndex(atOrAfter: current)
        let next = index < steps.count && steps[index] == current ? index + 1 : index
        var target = forward ? (next < steps.count ? steps[next] : nil) : (index > 0 ? steps[index - 1] : nil)
        if target == nil {
            guard watch.isComplete, let wrapped = forward ? steps.first : steps.last else {
                message = watch.isComplete ? "no step where \(watch.condition.text)" : "no \(forward ? "later" : "earlier") step found yet: still looking"
                return []
            }
            target = wrapped
            message = "watch wrapped around the end"
        }
        return [.jump(sequence: target!, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
    }

    // MARK: Overview

    /// `L`: the app's log messages shown from all levels, to warnings and errors up, to none, and
    /// back, by the filter's `level>=` and `!log` words (``TimelineFilter/nextLogLevel(after:)``).
    private mutating func stepLogLevel() -> [ViewerCommand] {
        guard page.sources.contains(where: \.isLogger) else {
            message = "no log messages in this recording (RecordingLogHandler records an app's swift-log messages)"
            return []
        }
        guard let text = TimelineFilter.nextLogLevel(after: filterText, sources: page.sources) else {
            message = "log messages: all levels shown"
            return [.filter(nil, text: nil)]
        }
        do {
            let filter = try TimelineFilter(parsing: text, sources: page.sources)
            message =
                switch (filter.excludedKinds.contains(.log), filter.lowestLevel) {
                case (true, _): "log messages hidden (L shows them all)"
                case (false, let lowest?): "log messages: \(lowest.rawValue) and above shown (L for fewer)"
                case (false, nil): "log messages: all levels shown"
                }
            return [.filter(filter, text: text)]
        } catch {
            message = error.description
            return []
        }
    }

    /// To the first step of a cell of the overview strip.
    private func jumpToOverviewCell(_ cell: Int, of cells: Int) -> [ViewerCommand] {
        guard let sequence = page.overview.sequence(atFraction: Double(cell) / Double(cells)) else { return [] }
        return [.jumpToPlace(sequence: sequence, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
    }

    /// `{` and `}`: to the first step of the previous or next cell of the overview strip that
    /// holds events — a slice of the recording at a time, whatever its length.
    private mutating func moveInOverview(forward: Bool) -> [ViewerCommand] {
        let cells = overviewColumns.count
        guard cells > 0, let cursor = page.step?.event.sequence else { return [] }
        let counts = page.overview.eventCounts(cells: cells)
        let here = page.overview.cell(ofSequence: cursor, cells: cells)
        let candidates = forward ? Array((here + 1)..<cells) : Array((0..<here).reversed())
        guard let target = candidates.first(where: { counts[$0] > 0 }) else {
            message = forward ? "at the recording's last slice" : "at the recording's first slice"
            return []
        }
        return jumpToOverviewCell(target, of: cells)
    }

    // MARK: Pin, blame, folding

    /// The pane under a cell: the timeline on the left, the state and the lower pane on the right
    /// (the title and header rows are none).
    private func pane(atColumn column: Int, row: Int) -> Pane? {
        guard row >= 2, row < height - 2 else { return nil }
        if column < leftWidth { return .timeline }
        return row < 1 + stateHeight ? .state : .lower
    }

    /// A click selects what is under it: a timeline row (the step), a state row (for blame and
    /// copy), or the lower pane.
    private mutating func click(column: Int, row: Int) -> [ViewerCommand] {
        let strip = overviewColumns
        if row == 0, strip.contains(column) {
            return jumpToOverviewCell(column - strip.lowerBound, of: strip.count)
        }
        guard let pane = pane(atColumn: column, row: row) else { return [] }
        focus = pane
        switch pane {
        case .timeline:
            let line = row - 2
            guard line < min(page.rows.count, timelineRows),
                  let cursorLine = page.rows.firstIndex(where: { $0.position == position }) else { return [] }
            return line == cursorLine ? [] : [move(by: line - cursorLine)]
        case .state:
            let count = StateRows.rows(page.step?.after, collapsed: collapsed, changed: []).count
            let index = stateTop + row - 2
            guard index < count else { return [] }
            stateSelection = index
            keepSelectionVisible(rowCount: count)
        case .lower:
            break
        }
        return []
    }

    private mutating func toggleBookmark() {
        guard let sequence = page.step?.event.sequence else { return }
        if let index = bookmarks.firstIndex(of: sequence) {
            bookmarks.remove(at: index)
            message = "removed the bookmark on step \(sequence)"
        } else {
            bookmarks.insert(sequence, at: bookmarks.firstIndex { $0 > sequence } ?? bookmarks.endIndex)
            message = "bookmarked step \(sequence) (' next, ` previous bookmark; listed in the detail pane)"
        }
    }

    /// The next bookmark after the step shown (or the previous one before it), round the ends.
    private mutating func jumpToBookmark(forward: Bool) -> [ViewerCommand] {
        guard let first = bookmarks.first, let last = bookmarks.last else {
            message = "no bookmarks yet: m marks the step shown"
            return []
        }
        let current = page.step?.event.sequence ?? 0
        let target = forward ? (bookmarks.first { $0 > current } ?? first) : (bookmarks.last { $0 < current } ?? last)
        return [.jump(sequence: target, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
    }

    private mutating func togglePin() -> [ViewerCommand] {
        if pinned != nil {
            pinned = nil
            pinnedSource = nil
            message = "unpinned: the diff compares with the state before the step"
        } else if let step = page.step {
            let event = step.event
            pinned = event.sequence
            pinnedSource = step.unit
            message = "pinned step \(event.sequence) as the diff base"
        }
        return [reload()]
    }

    private mutating func startBlame(forward: Bool) -> [ViewerCommand] {
        let rows = StateRows.rows(page.step?.after, collapsed: collapsed, changed: [])
        guard let step = page.step, let state = step.after, rows.indices.contains(stateSelection) else {
            message = "select a key path in the state pane first (Tab, then ↑/↓)"
            return []
        }
        let path = FollowedPath(rows[stateSelection].path, in: state)
        return [.blame(path, source: step.unit.instanceID, from: position, forward: forward)]
    }

    /// Copies the selected state value (or, with `path`, its key path as blame names it); in the
    /// timeline, the step's value. The text is as the screen shows it — control characters
    /// escaped — never the recorded bytes, so nothing recorded can reach a terminal through it.
    /// A value as copied: a container as its indented lines, anything else on one line.
    private static func copyText(_ value: StateValue) -> String {
        value.isContainer ? value.indentedDescription() : value.description
    }

    private mutating func copySelected(path: Bool) -> [ViewerCommand] {
        guard let step = page.step else { return [] }
        let rows = StateRows.rows(step.after, collapsed: collapsed, changed: [])
        let text: String
        let what: String
        if focus == .state, let state = step.after, rows.indices.contains(stateSelection) {
            let selected = FollowedPath(rows[stateSelection].path, in: state)
            if path {
                text = selected.description
                what = "the path"
            } else {
                text = Self.copyText(state[rows[stateSelection].path] ?? .null)
                what = "the value of \(selected.description)"
            }
        } else if path, let changed = step.event.path {
            text = changed
            what = "the path"
        } else {
            text = step.event.value.map(Self.copyText) ?? (step.event.name + " " + step.event.rowText())
            what = "step \(step.event.sequence)'s value"
        }
        // Line by line: a container's lines stay lines, anything else a control character is escaped.
        let visible = text.split(separator: "\n", omittingEmptySubsequences: false).map { VisibleText.escaped(String($0)) }.joined(separator: "\n")
        message = "copied \(what) (\(visible.count) characters) to the clipboard"
        return [.copy(visible)]
    }

    private mutating func toggleSelectedNode() -> [ViewerCommand] {
        let rows = StateRows.rows(page.step?.after, collapsed: collapsed, changed: [])
        guard rows.indices.contains(stateSelection), rows[stateSelection].isContainer else { return [] }
        let path = rows[stateSelection].path
        if collapsed.contains(path) { collapsed.remove(path) } else { collapsed.insert(path) }
        return []
    }

    private mutating func toggleFold() -> [ViewerCommand] {
        guard let step = page.step else { return [] }
        let dispatch = step.row.group != nil ? step.event.sequence : step.event.parent
        guard let dispatch else {
            message = "not a dispatch: Enter folds a dispatch with what it caused (z folds them all)"
            return []
        }
        folding.toggle(dispatch)
        // Folding from inside a dispatch puts the cursor on the dispatch's row.
        if step.row.group == nil, folding.isFolded(dispatch) {
            return [.jump(sequence: dispatch, top: timelineTop, screenRows: timelineRows, folding: folding, pinned: pinned)]
        }
        return [reload()]
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
