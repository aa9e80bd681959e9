@_spi(Tooling) import Rewind

/// Everything the viewer shows, as a value: where the cursor is, the focused pane, scroll positions,
/// what is folded and collapsed, the pinned step, the search, the prompt being typed, and the
/// ``Page`` last read for the screen. ``update(_:)`` changes it and returns the reads it wants as
/// ``ViewerCommand``s; ``ViewerView`` draws it — Bubble Tea's Model/Update/View, the same
/// unidirectional shape as the view models it shows.
public struct ViewerModel: Sendable {
    /// The panes that take ↑/↓, PgUp/PgDn and the mouse wheel.
    package enum Pane: Sendable, CaseIterable {
        case timeline, state, lower
    }

    /// What the lower right pane shows.
    package enum LowerPane: Sendable {
        case diff, detail
    }

    /// A line being typed at the bottom of the screen.
    package enum Prompt: Sendable, Equatable {
        case jump(String)
        case search(String)
        case filter(String)
        case watch(String)
    }

    /// What n/N go to: the last search's matches or the watch's steps, whichever was asked last.
    package enum Find: Sendable {
        case search, watch
    }

    /// The screen size.
    package var width: Int
    package var height: Int
    /// The cursor's position in the (filtered) timeline, and the first row shown.
    package var position = 0
    package var timelineTop = 0
    /// The pane that takes movement keys.
    package var focus = Pane.timeline
    /// Whether the lower right pane shows the diff or the step's details.
    package var lowerPane = LowerPane.diff
    /// The selected row of the state tree, and the first row shown.
    package var stateSelection = 0
    package var stateTop = 0
    /// State tree nodes the user collapsed.
    package var collapsed: Set<StatePath> = []
    /// The first line and column shown in the lower pane (it scrolls both ways).
    package var lowerTop = 0
    package var lowerLeft = 0
    /// Which dispatches are folded.
    package var folding = Folding()
    /// The step the diff compares with, instead of the state before the step.
    package var pinned: UInt64?
    /// Steps marked with `m`, by sequence number, in order: `'` and `` ` `` jump between them.
    package var bookmarks: [UInt64] = []
    /// The unit whose step was pinned: the diff compares the shown unit's state at that step, so
    /// the diff pane says so when the shown unit is another one.
    package var pinnedSource: RecordedSource?
    /// The last search, for n/N and highlighting; its hits once counted.
    package var search: SearchQuery?
    package var hits: HitCount?
    /// The watched condition (`w`) and the steps where it holds, once counted.
    package var watch: WatchMatches?
    /// The steps of the app's errors and warnings, marked on the overview strip, as found so far.
    package var logMarks = LogMarks()
    /// What n/N go to.
    package var find = Find.search
    /// What blame follows, and what it found last.
    package var blame: BlameResult?
    /// The line being typed, if any.
    package var prompt: Prompt?
    /// The active filter, as typed.
    package var filterText: String?
    /// Whether new events of a journal still being written are picked up.
    package var following = false
    /// Whether the key help is shown.
    package var showingHelp = false
    /// A one-line message for the status line (an error, "search wrapped").
    package var message: String?
    /// Long work under way ("searching 42%"), shown until it ends; Esc cancels it.
    package var progress: String?
    /// Whether colour is used (never with NO_COLOR or TERM=dumb).
    package var colors: Bool
    /// The journal's name in the title line, as the user gave it.
    package var title: String
    /// Set when the user quits.
    package var quitting = false
    /// What the journal gave for the screen.
    package var page = Page.empty

    /// The model for a freshly opened journal.
    public init(width: Int, height: Int, colors: Bool, title: String = "") {
        self.width = width
        self.height = height
        self.colors = colors
        self.title = title
    }

    /// Whether the lower pane shows the step's detail: when asked (`d`), and on an app's log
    /// message, which changes no state (what it says is its diff).
    var showsDetail: Bool {
        lowerPane == .detail || page.step?.event.kind == .log
    }

    /// The rows available to the panes (the screen less the title, status and hint lines).
    var bodyHeight: Int { max(1, height - 3) }
    /// Timeline rows (below its title).
    var timelineRows: Int { max(1, bodyHeight - 1) }
    /// The widths of the two columns. The timeline gets half of a terminal up to 128 columns; on a
    /// wider one the state pane keeps 64 columns and a quarter of what is beyond 128 (its rows are
    /// short: indented fields), and the timeline, whose rows have the most to say, the rest.
    var leftWidth: Int {
        guard width > Self.widePaneStart else { return max(24, min(width - 20, width / 2)) }
        return width - 1 - (Self.widePaneStart / 2 + (width - Self.widePaneStart) / 4)
    }
    /// The width from which the timeline takes more than half.
    static let widePaneStart = 128
    var rightWidth: Int { max(0, width - leftWidth - 1) }
    /// The title line's text: the journal's name, after how much was lost when it is damaged
    /// (first, so that the strip beside it never cuts it off), before why it was dumped when it
    /// is a flight recorder's dump.
    var titleText: String {
        let name = title.isEmpty ? page.path : title
        let why = dumpSummary.map { "  dump: \($0)" } ?? ""
        return page.isDamaged ? " rewind  ⚠ damaged: \(page.lostEventCount) events lost  \(name)\(why)" : " rewind  \(name)\(why)"
    }
    /// Why the journal was dumped (the trigger and the reason), when it is a dump.
    package var dumpSummary: String?
    /// The columns of the title line the overview strip takes: what the title leaves, and at
    /// least half the line (the title is cut for it); none on a very narrow screen.
    var overviewColumns: Range<Int> {
        let start = min(CellWidth.of(titleText) + 2, width / 2)
        return width - 1 - start >= 8 ? start..<(width - 1) : 0..<0
    }
    /// The rows of the state pane and of the lower pane (each with a title row).
    var stateHeight: Int { max(2, bodyHeight * 55 / 100) }
    var lowerHeight: Int { max(1, bodyHeight - stateHeight) }
}

/// How many rows match the search, and which of them the cursor is on.
package struct HitCount: Sendable, Equatable {
    /// Matches found so far, and whether counting is finished.
    package var total: Int
    package var isComplete: Bool
    /// The positions of the first matches (up to a limit), in order, and their steps.
    package var positions: [Int]
    package var sequences: [UInt64] = []

    /// `3/17` for the cursor on the third of 17 matches (`3/17+` while counting).
    func label(at position: Int) -> String {
        let low = positions.indices.partitionPoint { positions[$0] >= position }
        let index = low < positions.count && positions[low] == position ? "\(low + 1)" : "-"
        return "\(index)/\(total)\(isComplete ? "" : "+")"
    }
}

/// The steps where the watched condition holds (the viewer's `w`), as counted so far.
package struct WatchMatches: Sendable, Equatable {
    package var condition: Condition
    /// Matches found so far, and whether counting is finished.
    package var total = 0
    package var isComplete = false
    /// The steps of the first matches (up to a limit), in order.
    package var sequences: [UInt64] = []

    /// Whether the condition holds at a step (among those remembered).
    func contains(_ sequence: UInt64) -> Bool {
        let index = firstIndex(atOrAfter: sequence)
        return index < sequences.count && sequences[index] == sequence
    }

    /// The index of the first remembered match at or after `sequence`.
    func firstIndex(atOrAfter sequence: UInt64) -> Int {
        sequences.indices.partitionPoint { sequences[$0] >= sequence }
    }

    /// `3/17` for a step that is the third of 17 matches (`-/17` between matches, `+` while counting).
    func label(at sequence: UInt64?) -> String {
        let index = sequence.map { contains($0) ? "\(firstIndex(atOrAfter: $0) + 1)" : "-" } ?? "-"
        return "\(index)/\(total)\(isComplete ? "" : "+")"
    }
}
