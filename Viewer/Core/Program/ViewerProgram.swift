@_spi(Tooling) import Rewind

/// Where the program reads keys and writes frames: the real terminal in the `rewind` command, a
/// script in tests.
package protocol ViewerTerminal: AnyObject {
    /// Waits up to `timeout` milliseconds for keys; `nil` when the terminal is gone (hung up, EIO).
    func keys(timeout milliseconds: Int32) -> [Key]?
    /// Writes terminal output.
    func write(_ text: String)
    /// The size, if it changed since the last call.
    func takeResize() -> (width: Int, height: Int)?
    /// Whether a signal (SIGTERM, SIGINT, SIGHUP) asked the viewer to stop.
    var terminationRequested: Bool { get }
}

/// Runs the viewer: feeds messages to ``ViewerModel/update(_:)``, runs the commands it returns
/// against the journal, and draws each new model — as Bubble Tea's program does. Long commands
/// (search, filter, counting matches, blame) run a slice at a time with the terminal polled in
/// between, so `q` and Ctrl-C are answered within a slice (a few milliseconds), and Esc cancels.
public final class ViewerProgram {
    /// The model, after every message so far.
    package private(set) var model: ViewerModel
    /// The journal.
    package let timeline: Timeline

    private enum Job {
        case search(Timeline.SearchJob)
        case filter(Timeline.FilterJob, text: String?)
        case blame(Timeline.BlameJob)
    }

    private var foreground: Job?
    private var hitCount: Timeline.HitCountJob?
    private var watchJob: Timeline.WatchJob?
    /// Finds the app's errors and warnings from the start, and in blocks a live writer adds.
    private var logMarksJob = Timeline.LogMarksJob()
    private var pending: [ViewerMessage] = []
    /// What the command being run answers with, handled before the next message in `pending`.
    private var replies: [ViewerMessage] = []
    /// Texts `y` copied, until the run loop writes them to the terminal (OSC 52).
    package private(set) var copied: [String] = []

    /// A program over a journal, with the first page read.
    public init(timeline: Timeline, model: ViewerModel) {
        self.timeline = timeline
        self.model = model
        // The first frame waits for nothing: the strip's marks are found between keys.
        send(.resize(width: model.width, height: model.height), background: false)
    }

    /// A program over a journal as `rewind FILE` opens it: a flight recorder's dump opens at the
    /// step its trigger fired at, with why it was made in the title.
    package convenience init(reader: JournalReader, title: String, width: Int, height: Int, colors: Bool) {
        var model = ViewerModel(width: width, height: height, colors: colors, title: title)
        model.dumpSummary = reader.header.dump?.headline
        self.init(timeline: Timeline(reader: reader), model: model)
        if let step = reader.header.dump?.step { send(.open(at: step), background: false) }
    }

    /// The frame for the current model.
    public func frame() -> ScreenBuffer {
        ViewerView.render(model)
    }

    /// Handles one message and runs every command it leads to, to the end: what tests and the
    /// benchmark use to drive the viewer without a terminal. With `background: false`, work the
    /// viewer does between keys (counting a search's matches) is left for later: the frame is then
    /// what the user sees first.
    package func send(_ message: ViewerMessage, background: Bool = true) {
        pending.append(message)
        drain()
        while foreground != nil {
            runSlice(budget: .max, background: false)
            drain()
        }
        if background { finishBackgroundWork() }
    }

    /// Sends keys (``send(_:background:)``).
    public func press(_ keys: Key..., background: Bool = true) {
        for key in keys { send(.key(key), background: background) }
    }

    /// Finishes the work left for between keys.
    public func finishBackgroundWork() {
        while isBusy {
            runSlice(budget: .max)
            drain()
        }
    }

    /// Runs until the user quits or the terminal goes away.
    package func run(on terminal: ViewerTerminal) {
        var previous: ScreenBuffer?
        while !model.quitting {
            if terminal.terminationRequested { return }
            if let size = terminal.takeResize() {
                pending.append(.resize(width: size.width, height: size.height))
                previous = nil
            }
            drain()
            for text in copied { terminal.write(Clipboard.osc52(text)) }
            copied.removeAll()
            let frame = self.frame()
            terminal.write(frame.changes(from: previous, colors: model.colors))
            previous = frame
            let busy = isBusy
            guard let keys = terminal.keys(timeout: busy ? 0 : (model.following ? 250 : 1000)) else { return }
            for key in keys { pending.append(.key(key)) }
            if keys.isEmpty && !busy { pending.append(.tick) }
            drain()
            if model.quitting { return }
            // Long work goes on for a few milliseconds, then keys are read again.
            runSlice(budget: 16)
        }
    }

    /// Whether long work is under way, or left for between keys.
    private var isBusy: Bool {
        foreground != nil || hitCount != nil || watchJob != nil || !logMarksJob.isDone(timeline)
    }

    private func drain() {
        while !pending.isEmpty {
            handle(pending.removeFirst())
        }
    }

    /// Handles a message and, before the next one, every message its commands answer with (a
    /// page loaded for a move): each key acts on the state the key before it left, so five `l`
    /// that arrive in one read move five steps.
    private func handle(_ message: ViewerMessage) {
        for command in model.update(message) {
            run(command)
            let answers = replies
            replies.removeAll()
            for answer in answers { handle(answer) }
        }
    }

    private func run(_ command: ViewerCommand) {
        switch command {
        case .load(let cursor, let top, let rows, let folding, let pinned):
            replies.append(.pageLoaded(timeline.page(PageRequest(cursor: clamped(cursor), top: top, rows: rows, folding: folding, pinned: pinned))))
        case .move(let from, let rows, let top, let screenRows, let folding, let pinned):
            var cursor = timeline.position(clamped(from), movedBy: rows, folding: folding)
            // A hidden step is stood for by the folded dispatch row above it.
            if rows == 0, let shown = timeline.visiblePosition(from: cursor, forward: false, folding: folding) ?? timeline.visiblePosition(from: cursor, forward: true, folding: folding) {
                cursor = shown
            }
            let newTop = timeline.top(showing: cursor, previousTop: top, rows: screenRows, folding: folding)
            replies.append(.pageLoaded(timeline.page(PageRequest(cursor: cursor, top: newTop, rows: screenRows, folding: folding, pinned: pinned))))
        case .jump(let sequence, let top, let screenRows, let folding, let pinned):
            guard let cursor = timeline.position(ofSequence: sequence), timeline.event(at: cursor)?.sequence == sequence else {
                replies.append(.failed(timeline.isHiddenByFilter(sequence: sequence)
                    ? "step \(sequence) is hidden by the filter (f, then Enter on nothing, shows every step)"
                    : "step \(sequence) is not in the timeline"))
                return
            }
            show(cursor, top: top, screenRows: screenRows, folding: folding, pinned: pinned)
        case .jumpToPlace(let sequence, let top, let screenRows, let folding, let pinned):
            guard timeline.count > 0 else { return }
            show(timeline.position(ofSequence: sequence) ?? timeline.count - 1, top: top, screenRows: screenRows, folding: folding, pinned: pinned)
        case .search(let query, let from, let forward, let folding):
            foreground = .search(Timeline.SearchJob(query, from: from, forward: forward, folding: folding))
        case .countHits(let query):
            hitCount = Timeline.HitCountJob(query)
        case .watch(let condition):
            watchJob = condition.map(Timeline.WatchJob.init)
        case .filter(let filter, let text):
            guard let filter else {
                timeline.apply(nil, matches: nil)
                replies.append(.filterApplied(text: nil, count: timeline.count, cursor: positionOfShownStep()))
                return
            }
            foreground = .filter(Timeline.FilterJob(filter), text: text)
        case .blame(let path, let source, let from, let forward):
            foreground = .blame(Timeline.BlameJob(path, source: source, from: from, forward: forward))
        case .cancel:
            foreground = nil
            hitCount = nil
        case .copy(let text):
            copied.append(text)
        case .refresh:
            if timeline.refresh() { replies.append(.journalGrew) }
            if timeline.reader.isClosedByWriter { replies.append(.journalClosed) }
        }
    }

    /// Where the step on screen is in the timeline as it is now (after a filter changed it), or
    /// the next step it keeps.
    /// Loads the page with the cursor on `cursor`, unfolding whatever folded dispatch hides it.
    private func show(_ cursor: Int, top: Int, screenRows: Int, folding: Folding, pinned: UInt64?) {
        var folding = folding
        while let event = timeline.event(at: cursor), let hiding = timeline.foldedAncestor(of: event, at: cursor, folding: folding) {
            folding.unfold(hiding.sequence)
        }
        let newTop = timeline.top(showing: cursor, previousTop: top, rows: screenRows, folding: folding)
        replies.append(.pageLoaded(timeline.page(PageRequest(cursor: cursor, top: newTop, rows: screenRows, folding: folding, pinned: pinned))))
    }

    private func positionOfShownStep() -> Int {
        model.page.step.flatMap { timeline.position(ofSequence: $0.event.sequence) } ?? 0
    }

    private func clamped(_ position: Int) -> Int {
        min(max(0, position), max(0, timeline.count - 1))
    }

    /// Runs the long work for about `budget` units (blocks or a few hundred events each).
    private func runSlice(budget: Int, background: Bool = true) {
        switch foreground {
        case .search(var job)?:
            if let result = job.step(timeline, budget: budget == .max ? .max : budget * 256) {
                foreground = nil
                pending.append(.searchFinished(job.query, found: result, wrapped: job.wrapped))
            } else {
                foreground = .search(job)
                pending.append(.progress("searching \(Self.percent(job.progress(timeline)))  Esc cancels"))
            }
        case .filter(var job, let text)?:
            if job.step(timeline, budget: budget == .max ? .max : max(1, budget / 4)) {
                foreground = nil
                timeline.apply(job.filter, matches: job.found)
                pending.append(.filterApplied(text: text, count: timeline.count, cursor: positionOfShownStep()))
            } else {
                foreground = .filter(job, text: text)
                pending.append(.progress("filtering \(Self.percent(job.progress(timeline)))  Esc cancels"))
            }
        case .blame(var job)?:
            if let result = job.step(timeline, budget: budget == .max ? .max : budget * 16) {
                foreground = nil
                pending.append(.blameFinished(job.path, forward: job.forward, result))
            } else {
                foreground = .blame(job)
                pending.append(.progress("looking for the step that changed \(job.path)  Esc cancels"))
            }
        case nil:
            break
        }
        // Counting matches runs only when nothing in the foreground does.
        if foreground == nil, background, var job = hitCount {
            let done = job.step(timeline, budget: budget == .max ? .max : max(1, budget / 4))
            hitCount = done ? nil : job
            pending.append(.hitsCounted(job.query, HitCount(total: job.total, isComplete: done, positions: job.positions, sequences: job.sequences)))
        }
        if foreground == nil, background, var job = watchJob {
            let done = job.step(timeline, budget: budget == .max ? .max : max(1, budget / 4))
            watchJob = done ? nil : job
            pending.append(.watchCounted(WatchMatches(condition: job.condition, total: job.total, isComplete: done, sequences: job.sequences)))
        }
        if foreground == nil, background, !logMarksJob.isDone(timeline) {
            let before = (logMarksJob.marks.errors.count, logMarksJob.marks.warnings.count)
            _ = logMarksJob.step(timeline, budget: budget == .max ? .max : max(1, budget / 4))
            if (logMarksJob.marks.errors.count, logMarksJob.marks.warnings.count) != before { pending.append(.logMarksFound(logMarksJob.marks)) }
        }
    }

    private static func percent(_ fraction: Double) -> String {
        "\(Int(fraction * 100))%"
    }
}
