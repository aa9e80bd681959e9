import Rewind

extension ViewerModel {
    /// The update: what a key does to the model. Reads the journal through `timeline` (for search,
    /// jumps and blame) but changes nothing outside the model — except applying a filter to the
    /// timeline, which is the timeline's one piece of state.
    public mutating func handle(_ key: Key, timeline: Timeline) {
        message = nil
        if let prompt {
            handlePrompt(prompt, key, timeline: timeline)
            return
        }
        if showingHelp {
            showingHelp = false
            if key == .character("q") || key == .interrupt { quitting = true }
            return
        }
        switch key {
        case .character("q"), .interrupt: quitting = true
        case .character("?"): showingHelp = true
        case .left, .character("h"): move(to: position - 1, timeline)
        case .right, .character("l"): move(to: position + 1, timeline)
        case .up, .character("k"): scrollFocused(by: -1, timeline)
        case .down, .character("j"): scrollFocused(by: 1, timeline)
        case .pageUp: scrollFocused(by: -page, timeline)
        case .pageDown: scrollFocused(by: page, timeline)
        case .wheelUp: scrollFocused(by: -3, timeline)
        case .wheelDown: scrollFocused(by: 3, timeline)
        case .character("g"), .home: move(to: 0, timeline)
        case .character("G"), .end: move(to: timeline.count - 1, timeline)
        case .tab: focus = Pane.allCases[(Pane.allCases.firstIndex(of: focus)! + 1) % Pane.allCases.count]
        case .character(":"): prompt = .jump("")
        case .character("/"): prompt = .search("")
        case .character("f"): prompt = .filter(filterText ?? "")
        case .character("n"): repeatSearch(forward: true, timeline)
        case .character("N"): repeatSearch(forward: false, timeline)
        case .character("p"): togglePin(timeline)
        case .character("b"): blame(forward: false, timeline)
        case .character("B"): blame(forward: true, timeline)
        case .character("F"):
            following.toggle()
            message = following ? "following: new events appear as they are written" : "stopped following"
        case .enter: toggleSelectedNode(timeline)
        default: break
        }
    }

    /// A resize: the layout follows, the step stays.
    public mutating func resize(width: Int, height: Int, timeline: Timeline) {
        self.width = width
        self.height = height
        keepCurrentVisible()
    }

    /// Called now and then while following: picks up new events; moves to the end only if the view
    /// was at the end.
    public mutating func tick(timeline: Timeline) {
        guard following else { return }
        let wasAtEnd = position >= timeline.count - 1
        if timeline.refresh(), wasAtEnd { move(to: timeline.count - 1, timeline) }
    }

    private var page: Int { max(1, bodyHeight - 2) }

    /// Moves to a timeline position. The state pane then selects `path` if given (blame keeps its
    /// key path), otherwise the first value this step changed, so the change is in view.
    mutating func move(to target: Int, _ timeline: Timeline, keeping path: StatePath? = nil) {
        guard timeline.count > 0 else { return }
        position = min(max(0, target), timeline.count - 1)
        diffTop = 0
        let rows = StepView(model: self, timeline: timeline).rows
        if let path, let kept = rows.firstIndex(where: { $0.path == path }) {
            stateSelection = kept
        } else if let changed = rows.firstIndex(where: { $0.changed && !$0.isContainer }) {
            stateSelection = changed
        } else {
            stateSelection = min(stateSelection, max(0, rows.count - 1))
        }
        keepCurrentVisible()
    }

    private mutating func keepCurrentVisible() {
        let visible = bodyHeight - 1
        if position < timelineTop { timelineTop = position }
        if position >= timelineTop + visible { timelineTop = position - visible + 1 }
        timelineTop = max(0, timelineTop)
        let stateVisible = max(1, stateHeight - 1)
        if stateSelection < stateTop { stateTop = stateSelection }
        if stateSelection >= stateTop + stateVisible { stateTop = stateSelection - stateVisible + 1 }
    }

    private mutating func scrollFocused(by amount: Int, _ timeline: Timeline) {
        switch focus {
        case .timeline:
            move(to: position + amount, timeline)
        case .state:
            let rows = StepView(model: self, timeline: timeline).rows.count
            stateSelection = min(max(0, stateSelection + amount), max(0, rows - 1))
            keepCurrentVisible()
        case .diff:
            let lines = StepView(model: self, timeline: timeline).diffLines.count
            diffTop = min(max(0, diffTop + amount), max(0, lines - 1))
        }
    }

    private mutating func handlePrompt(_ current: Prompt, _ key: Key, timeline: Timeline) {
        func edit(_ text: String) -> String? {
            switch key {
            case .character(let character): return text + String(character)
            case .backspace: return String(text.dropLast())
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
                return
            }
            guard let target = timeline.position(ofSequence: sequence), timeline.event(at: target)?.sequence == sequence else {
                message = "step \(sequence) is not in the timeline"
                return
            }
            move(to: target, timeline)
        case (.search(let text), .enter):
            prompt = nil
            guard !text.isEmpty else { return }
            lastSearch = text
            repeatSearch(forward: true, timeline)
        case (.filter(let text), .enter):
            prompt = nil
            applyFilter(text, timeline)
        case (.jump(let text), _):
            if let edited = edit(text), edited.allSatisfy(\.isNumber) { prompt = .jump(edited) }
        case (.search(let text), _):
            if let edited = edit(text) { prompt = .search(edited) }
        case (.filter(let text), _):
            if let edited = edit(text) { prompt = .filter(edited) }
        }
    }

    private mutating func repeatSearch(forward: Bool, _ timeline: Timeline) {
        guard let text = lastSearch else {
            message = "no search yet: press / to search"
            return
        }
        if let found = timeline.search(text, from: position, forward: forward) {
            move(to: found, timeline)
            message = "/\(text)"
        } else {
            message = "no more matches for \"\(text)\""
        }
    }

    /// `f`: a filter typed as words: kind names (comma-separated) and a source; empty clears it.
    private mutating func applyFilter(_ text: String, _ timeline: Timeline) {
        let current = timeline.event(at: position)?.sequence
        let words = text.split(separator: " ").map(String.init)
        guard !words.isEmpty else {
            filterText = nil
            timeline.apply(nil)
            move(to: current.flatMap(timeline.position(ofSequence:)) ?? 0, timeline)
            return
        }
        var filter = EventFilter()
        for word in words {
            let kinds = word.split(separator: ",").compactMap { Event.Category(rawValue: String($0)) }
            if !kinds.isEmpty && kinds.count == word.split(separator: ",").count {
                filter.kinds = (filter.kinds ?? []).union(kinds)
            } else if let source = timeline.reader.sources.map(\.source).first(where: { $0.matches(word) }) {
                filter.sourceIDs = (filter.sourceIDs ?? []).union([source.instanceID])
            } else {
                message = "'\(word)' is neither a kind nor a source"
                return
            }
        }
        filterText = text
        timeline.apply(filter)
        if timeline.count == 0 { message = "no events match \(text)" }
        move(to: current.flatMap(timeline.position(ofSequence:)) ?? 0, timeline)
    }

    private mutating func togglePin(_ timeline: Timeline) {
        if pinned != nil {
            pinned = nil
            message = "unpinned: the diff compares with the previous step"
        } else if let event = timeline.event(at: position) {
            pinned = event.sequence
            message = "pinned step \(event.sequence) as the diff base"
        }
    }

    private mutating func blame(forward: Bool, _ timeline: Timeline) {
        let step = StepView(model: self, timeline: timeline)
        guard let event = step.event, step.rows.indices.contains(stateSelection) else {
            message = "select a key path in the state pane first (Tab, then ↑/↓)"
            return
        }
        let path = step.rows[stateSelection].path
        if let found = timeline.change(of: path, in: event.source.instanceID, from: position, forward: forward) {
            move(to: found, timeline, keeping: path)
            message = "\(forward ? "next" : "last") change of \(path.isRoot ? "the state" : path.description)"
        } else {
            message = "no \(forward ? "later" : "earlier") step changed \(path.isRoot ? "the state" : path.description)"
        }
    }

    private mutating func toggleSelectedNode(_ timeline: Timeline) {
        let rows = StepView(model: self, timeline: timeline).rows
        guard focus == .state, rows.indices.contains(stateSelection), rows[stateSelection].isContainer else { return }
        let path = rows[stateSelection].path
        if collapsed.contains(path) { collapsed.remove(path) } else { collapsed.insert(path) }
    }
}
