@_spi(Tooling) import Rewind

/// What reaches the update: a key, a resize, a tick of the clock, or the result of a command.
package enum ViewerMessage: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    /// Time passed with no key (follow mode looks for new events).
    case tick
    /// Go to a place in the recording as the viewer opens: a dump's trigger step
    /// (``JournalHeader/Dump/step``), or the last step when the dump ends before it.
    case open(at: UInt64)
    /// The journal read for the screen.
    case pageLoaded(Page)
    /// A search ended: the match (or none), and whether it went round an end of the timeline.
    case searchFinished(SearchQuery, found: Int?, wrapped: Bool)
    /// Counting a search's matches went on (or ended).
    case hitsCounted(SearchQuery, HitCount)
    /// Finding the watched condition's steps went on (or ended).
    case watchCounted(WatchMatches)
    /// Finding the app's errors and warnings for the overview strip went on (or ended).
    case logMarksFound(LogMarks)
    /// A filter is in place (`nil`: cleared) and shows this many events; `cursor` is where the step
    /// shown before now is (or the next one the filter keeps).
    case filterApplied(text: String?, count: Int, cursor: Int)
    /// Blame ended with the step it found, or none.
    case blameFinished(FollowedPath, forward: Bool, BlameResult?)
    /// Long work moved on: a line for the status bar.
    case progress(String)
    /// Follow mode found new events.
    case journalGrew
    /// Follow mode found that the writer closed the journal: nothing more will come.
    case journalClosed
    /// A command could not be done: a line for the status bar.
    case failed(String)
}

/// The reads the update asks for; the program runs them against the journal and answers with
/// messages. Long ones run a little at a time, so keys are answered in between.
package enum ViewerCommand: Sendable, Equatable {
    /// Read the page for a cursor, as it stands (after folding, a pin, a resize).
    case load(cursor: Int, top: Int, rows: Int, folding: Folding, pinned: UInt64?)
    /// Move the cursor `rows` shown rows, then load. With `rows` 0 it lands on `from` or, when a
    /// folded dispatch hides it, on that dispatch's row.
    case move(from: Int, rows: Int, top: Int, screenRows: Int, folding: Folding, pinned: UInt64?)
    /// Jump to a step by sequence number; whatever folded dispatch hides it unfolds.
    case jump(sequence: UInt64, top: Int, screenRows: Int, folding: Folding, pinned: UInt64?)
    /// Go to a place in the recording (from the overview strip): the first shown step at or after
    /// `sequence`, or the last one.
    case jumpToPlace(sequence: UInt64, top: Int, screenRows: Int, folding: Folding, pinned: UInt64?)
    case search(SearchQuery, from: Int, forward: Bool, folding: Folding)
    case countHits(SearchQuery)
    /// Find every step where a condition holds (`nil`: stop watching).
    case watch(Condition?)
    case filter(TimelineFilter?, text: String?)
    case blame(FollowedPath, source: UInt64, from: Int, forward: Bool)
    /// Stop the long work under way.
    case cancel
    /// Put text on the clipboard of the terminal's owner (OSC 52: it works over SSH and in tmux).
    case copy(String)
    /// Look for events a live writer added.
    case refresh
}
