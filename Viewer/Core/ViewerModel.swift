import Rewind

/// Everything the viewer shows, as a value: the step, the focused pane, scroll positions, what is
/// collapsed, the pinned step, the prompt being typed. Keys change it in ``ViewerModel/handle(_:timeline:)``
/// (the update); ``ViewerView`` draws it (the view) — Bubble Tea's Model/Update/View, the same
/// unidirectional shape as the view models it shows.
public struct ViewerModel: Sendable {
    /// The panes that take ↑/↓, PgUp/PgDn and the mouse wheel.
    public enum Pane: Sendable, CaseIterable {
        case timeline, state, diff
    }

    /// A line being typed at the bottom of the screen.
    public enum Prompt: Sendable, Equatable {
        case jump(String)
        case search(String)
        case filter(String)
    }

    /// The screen size.
    public var width: Int
    public var height: Int
    /// The current position in the (filtered) timeline.
    public var position = 0
    /// The first timeline row shown.
    public var timelineTop = 0
    /// The pane that takes movement keys.
    public var focus = Pane.timeline
    /// The selected row of the state tree, and the first row shown.
    public var stateSelection = 0
    public var stateTop = 0
    /// State tree nodes the user collapsed.
    public var collapsed: Set<StatePath> = []
    /// The first diff line shown.
    public var diffTop = 0
    /// The step the diff compares with, instead of the previous step of the same source.
    public var pinned: UInt64?
    /// The last search, for n/N.
    public var lastSearch: String?
    /// The line being typed, if any.
    public var prompt: Prompt?
    /// The active filter, as typed.
    public var filterText: String?
    /// Whether new events of a journal still being written are picked up.
    public var following = false
    /// Whether the key help is shown.
    public var showingHelp = false
    /// A one-line message for the status line (an error, "no more matches").
    public var message: String?
    /// Whether colour is used (never with NO_COLOR or TERM=dumb).
    public var colors: Bool
    /// The journal's name in the title line, as the user gave it.
    public var title: String
    /// Set when the user quits.
    public var quitting = false

    /// The model for a freshly opened journal.
    public init(width: Int, height: Int, colors: Bool, title: String = "") {
        self.width = width
        self.height = height
        self.colors = colors
        self.title = title
    }

    /// The rows available to the timeline (the screen less the title, status and hint lines).
    var bodyHeight: Int { max(1, height - 3) }
    /// The widths of the two columns.
    var leftWidth: Int { max(24, min(width - 20, width * 45 / 100)) }
    var rightWidth: Int { max(0, width - leftWidth - 1) }
    /// The rows of the state pane and of the diff pane (each with a title row).
    var stateHeight: Int { max(2, bodyHeight * 55 / 100) }
    var diffHeight: Int { max(1, bodyHeight - stateHeight) }
}
