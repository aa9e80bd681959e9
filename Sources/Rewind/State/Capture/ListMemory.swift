/// The lists one source's last capture met at named places in its state, with their trees, so that
/// the next capture of that state captures only the elements that changed.
///
/// A list at the same place whose elements have the same bytes front and back as last time takes
/// those elements' trees from last time (``LiveElements``): toggling one item of a 1,000-item list
/// in a commit closure captures one item. Only lists reached through named fields are kept (not
/// lists inside list elements), and only lists whose elements hold no objects. One memory serves
/// one state, on one thread at a time: the journal's writer keeps one per source, a Flask
/// substance one for its committed state.
package final class ListMemory {
    /// Each list by its coding path (`items`, `board.columns`): the live list, and its tree.
    private var lists: [String: (live: Any, tree: StateValue)] = [:]

    /// The lists seen in the capture running now, which replace `lists` when it ends.
    private var seen: [String: (live: Any, tree: StateValue)] = [:]

    package init() {}

    /// The tree of `value` (a list at `path`) from the one captured last time at the same place,
    /// with only its changed elements captured; `nil` when there is none to start from.
    func reusedTree(of value: Any, at path: String, options: CaptureOptions) -> StateValue? {
        guard let elements = value as? any LiveElements, let previous = lists[path] else { return nil }
        return elements.capture(reusing: previous.tree, of: previous.live, options: options)
    }

    /// Remembers the list captured at `path`.
    func remember(_ value: Any, tree: StateValue, at path: String) {
        seen[path] = (value, tree)
    }

    /// Ends a capture: the lists it met are the ones the next capture starts from.
    func captureEnded() {
        lists = seen
        seen.removeAll(keepingCapacity: true)
    }
}
