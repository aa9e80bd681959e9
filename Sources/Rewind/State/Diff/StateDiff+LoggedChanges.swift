extension StateDiff {
    /// The diff as the change events a unit that compares whole states logs (a Flask substance
    /// after a mix): one `(path, value)` per change, each setting `value` at `path`, so that setting
    /// them in order turns the old tree into `new`.
    ///
    /// A change event says "this path now holds this value"; it cannot say "inserted here" or
    /// "removed here". An element inserted into or removed from a list is therefore logged as the
    /// whole list at its path — once, where its first such change falls, and covering every other
    /// change inside that list — never as a value set at the element's index, which would replace
    /// a neighbour and record a list the app never had (`[5, 1, 2, 3, 4]` read back as
    /// `[5, 2, 3, 4]`). The journal writer records such a list as the changes from the recorded
    /// one, so an insertion costs the inserted element. A removed field is logged as `null`.
    ///
    /// - Parameter new: the tree the diff leads to, where the lists are read.
    package func loggedChanges(in new: StateValue) -> [(path: StatePath, value: StateValue)] {
        let reshapedLists = changes.compactMap { change -> StatePath? in
            guard case .index? = change.path.components.last else { return nil }
            switch change.operation {
            case .added, .removed: return change.path.parent
            case .changed: return nil
            }
        }
        guard !reshapedLists.isEmpty else {
            return changes.map { ($0.path, $0.newValue ?? .null) }
        }
        var logged: [(path: StatePath, value: StateValue)] = []
        var loggedLists = Set<StatePath>()
        for change in changes {
            // The outermost reshaped list holding the change stands for it (a list inside a
            // reshaped list's element goes with that element).
            let list = reshapedLists
                .filter { $0.isPrefix(of: change.path) }
                .min { $0.components.count < $1.components.count }
            guard let list else {
                logged.append((change.path, change.newValue ?? .null))
                continue
            }
            if loggedLists.insert(list).inserted { logged.append((list, new[list] ?? .null)) }
        }
        return logged
    }
}
