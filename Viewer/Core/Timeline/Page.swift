@_spi(Tooling) import Rewind

/// What one frame needs from the journal, read by the program and handed to the model: the
/// timeline rows on screen and everything about the current step. The view draws only from it.
package struct Page: Sendable {
    /// One timeline row.
    package struct Row: Sendable {
        /// Its position in the timeline.
        package var position: Int
        /// Its event; `nil` when its block does not read back.
        package var event: RecordedEvent?
        /// For a dispatch: whether it is folded, and how many events it covers after its own row.
        package var group: Group?
        /// For a change: the value at its path before it, when known.
        package var oldValue: ValueBefore
        /// Whether it happened inside a dispatch that is shown unfolded (drawn indented).
        package var isNested: Bool
        /// For an event its dispatch caused after that dispatch had finished (a commit made later
        /// through the dispatch's context): the dispatch's step and name, drawn as `← #17 checkout`.
        package var lateCause: (sequence: UInt64, name: String)? = nil
    }

    /// A dispatch row's group.
    package struct Group: Sendable, Equatable {
        /// Whether its effects are folded into its row.
        package var isFolded: Bool
        /// The sequence number of its last event (its `didDispatch`), if it ended.
        package var endSequence: UInt64?
        /// How many timeline positions its effects take (unfiltered timelines only).
        package var effectCount: Int?
    }

    /// The current step.
    package struct Step: Sendable {
        /// Its event.
        package var event: RecordedEvent
        /// The unit whose state the panes show: the step's own source, or for an app's log
        /// message (a logger has no state) the unit of the dispatch it was logged in.
        package var unit: RecordedSource
        /// Its row (group and old value).
        package var row: Row
        /// The unit's state before the step and after it (after a folded dispatch: after its
        /// last effect).
        package var before: StateValue?
        package var after: StateValue?
        /// The sequence number the state is shown after.
        package var afterSequence: UInt64
        /// What the diff compares with: the state before, or at the pinned step.
        package var base: StateValue?
        /// The paths the step changed.
        package var changedPaths: Set<StatePath>
        /// The diff from the base to the state after.
        package var diffLines: [DiffRenderer.Line]
        /// The dispatch it happened inside, if any.
        package var parent: RecordedEvent? { causes.first }
        /// What led to it, nearest first: the dispatch it happened in, the one that one happened
        /// in, … (``Rewind/JournalReader/causes(of:limit:)``).
        package var causes: [RecordedEvent]
        /// Whether the step's own state record does not rebuild (an altered journal), as opposed to
        /// a source that has recorded no state yet.
        package var stateIsUnbuildable = false
    }

    /// The first row's position and the cursor's.
    package var top: Int
    package var cursor: Int
    /// The rows, from the top.
    package var rows: [Row]
    /// The current step, when there is an event under the cursor.
    package var step: Step?
    /// How many events the timeline has (after filtering).
    package var eventCount: Int
    /// The first event's time, for relative times.
    package var startNanoseconds: Int64
    /// The span of the recording in nanoseconds (0: every event at one instant).
    package var spanNanoseconds: Int64
    /// The journal's sources, in order: the lanes.
    package var sources: [RecordedSource]
    /// Whether the journal turned out damaged, and how many events were lost.
    package var isDamaged: Bool
    package var lostEventCount: Int
    /// The journal's path.
    package var path: String
    /// The folding the page was read with (a jump unfolds what hid its step).
    package var folding = Folding()
    /// The whole recording, for the overview strip.
    package var overview = Overview.empty

    /// An empty page (nothing read yet).
    static let empty = Page(top: 0, cursor: 0, rows: [], step: nil, eventCount: 0, startNanoseconds: 0, spanNanoseconds: 0, sources: [], isDamaged: false, lostEventCount: 0, path: "")
}

/// What the program reads to make a page.
struct PageRequest: Sendable, Equatable {
    var cursor: Int
    var top: Int
    var rows: Int
    var folding: Folding
    var pinned: UInt64?
}

extension Timeline {
    /// Reads what a frame shows: the shown rows from `top`, and the step under the cursor with its
    /// states before and after and the diff.
    func page(_ request: PageRequest) -> Page {
        let positions = visiblePositions(from: request.top, limit: request.rows, folding: request.folding)
        var rows = positions.map { row(at: $0, folding: request.folding) }
        fillOldValues(&rows)
        var step: Page.Step?
        if let event = event(at: request.cursor) {
            let row = rows.first { $0.position == request.cursor } ?? self.row(at: request.cursor, folding: request.folding)
            step = self.step(event, row: row, pinned: request.pinned)
        }
        return Page(
            top: positions.first ?? request.top, cursor: request.cursor, rows: rows, step: step, eventCount: count,
            startNanoseconds: reader.timeSpan?.lowerBound ?? 0,
            spanNanoseconds: reader.timeSpan.map { EventTime.wallNanoseconds(from: $0.lowerBound, to: $0.upperBound) } ?? 0,
            sources: sources, isDamaged: !reader.damage.isEmpty, lostEventCount: reader.lostEventCount, path: reader.path,
            folding: request.folding, overview: overview
        )
    }

    private func row(at position: Int, folding: Folding) -> Page.Row {
        let event = self.event(at: position)
        var group: Page.Group?
        if let event, event.kind == .willDispatch {
            let end = groupEnd(ofDispatch: event, at: position)
            let endPosition = end == .max || filter != nil ? nil : self.position(ofSequence: end)
            group = Page.Group(isFolded: folding.isFolded(event.sequence), endSequence: end == .max ? nil : end, effectCount: endPosition.map { $0 - position })
        }
        return Page.Row(position: position, event: event, group: group, oldValue: .unknown, isNested: event?.parent != nil, lateCause: event.flatMap { lateCause(of: $0, at: position) })
    }

    /// The dispatch that caused `event` when it had already finished: the recorded parent link
    /// puts a late commit with its cause, though the timeline shows it where it happened.
    private func lateCause(of event: RecordedEvent, at position: Int) -> (sequence: UInt64, name: String)? {
        guard let parent = event.parent, let dispatch = self.event(sequence: parent, near: position), dispatch.kind == .willDispatch else { return nil }
        let end = groupEnd(of: dispatch)
        guard end != .max, end < event.sequence else { return nil }
        return (dispatch.sequence, dispatch.name)
    }

    /// Old values of the change rows, so that a row says `items[id: 2].quantity: -4 → -5` rather
    /// than the whole new list: one walk over the events the rows span, from each source's state
    /// before the first row; on a filtered timeline, whose rows skip events, each row's state
    /// before it, rebuilt.
    private func fillOldValues(_ rows: inout [Page.Row]) {
        guard filter == nil else {
            for index in rows.indices {
                guard let event = rows[index].event, event.kind == .change else { continue }
                rows[index].oldValue = ValueBefore(of: event, in: state(of: event.source.instanceID, before: event.sequence))
            }
            return
        }
        guard let first = rows.first?.position, let last = rows.last?.position, last - first < 5_000 else { return }
        let changed = Set(rows.compactMap { $0.event?.kind == .change ? $0.event?.source.instanceID : nil })
        guard !changed.isEmpty, let firstEvent = rows.first?.event else { return }
        // The folds, not only the states: a walk that starts inside a commit applies the commit's
        // diff to the recorded state, not to the state with the commit's changes on top.
        var walker = StateWalker(folds: Dictionary(uniqueKeysWithValues: changed.compactMap { id in
            guard firstEvent.sequence > 0, let fold = try? reader.stateFold(of: id, before: firstEvent.sequence) else { return nil }
            return (id, fold)
        }))
        var rowIndex = 0
        for position in first...last {
            guard let event = event(at: position) else { continue }
            // Read where the walk makes each change (a source not walked has no state: unknown).
            var old = ValueBefore.unknown
            if changed.contains(event.source.instanceID) { walker.advance(event, old: &old) }
            while rowIndex < rows.count, rows[rowIndex].position < position { rowIndex += 1 }
            if rowIndex < rows.count, rows[rowIndex].position == position { rows[rowIndex].oldValue = old }
        }
    }

    private func step(_ event: RecordedEvent, row: Page.Row, pinned: UInt64?) -> Page.Step {
        // Parents are almost always a few events back: looked for near the row first.
        let causes = JournalReader.causes(of: event, limit: 16) { self.event(sequence: $0, near: row.position) }
        let unit = event.source.isLogger ? causes.first?.source ?? event.source : event.source
        let source = unit.instanceID
        let afterSequence = row.group?.isFolded == true ? (row.group?.endSequence ?? reader.sequenceRange?.upperBound ?? event.sequence) : event.sequence
        let after = state(of: source, at: afterSequence)
        let before = state(of: source, before: event.sequence)
        let base = pinned.map { state(of: source, at: $0) } ?? before
        let changed = (before == nil || after == nil) ? [] : Set(StateDiff(from: before!, to: after!).changedPaths)
        var row = row
        if event.kind == .change, row.oldValue == .unknown {
            // A change with no state before it moved its path from nothing.
            let pathReads = event.path.flatMap(StatePath.init(recordedChange:)) != nil
            row.oldValue = before == nil ? (pathReads ? .absent : .unknown) : ValueBefore(of: event, in: before)
        }
        return Page.Step(
            event: event, unit: unit, row: row, before: before, after: after, afterSequence: afterSequence, base: base,
            changedPaths: changed, diffLines: DiffRenderer(valueWidth: 400).lines(from: base ?? .null, to: after ?? .null),
            causes: causes, stateIsUnbuildable: after == nil && (event.carriesState || before != nil)
        )
    }
}
