extension StateValue {
    /// This tree with `value` at `path`, or `nil` if the path does not lead to an existing place —
    /// or to the place just past a list's last element, where the value is appended (a change
    /// `items[0] = "hello"` recorded inside a commit that appended to an empty list).
    ///
    /// ```swift
    /// let state: StateValue = .object(["count": .integer(0), "items": .array([])])
    /// state.setting(.integer(1), at: ["count"]) // {count: 1, items: []}
    /// state.setting(.string("a"), at: try StatePath(parsing: "items[0]")) // {count: 0, items: ["a"]}
    /// state.setting(.integer(1), at: ["missing"]) // nil
    /// ```
    public func setting(_ value: StateValue, at path: StatePath) -> StateValue? {
        settingChange(value, at: path)?.tree
    }

    /// ``setting(_:at:)``, and the one change that makes it — `nil` as the change when the place
    /// already held `value`.
    func settingChange(_ value: StateValue, at path: StatePath) -> (tree: StateValue, change: StateChange?)? {
        let operation: StateChange.Operation
        if let old = self[path] {
            if old == value { return (self, nil) }
            operation = .changed(from: .null, to: value)
        } else if case .index(let index)? = path.components.last, let parent = path.parent,
                  case .array(let elements)? = self[parent], index == elements.count {
            operation = .added(value)
        } else {
            return nil
        }
        let change = StateChange(path: path, operation: operation)
        return (try? apply(StateDiff(changes: [change]), to: self)).map { ($0, change) }
    }
}
