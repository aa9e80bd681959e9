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

    /// Puts `value` at `path`, which must lead to an existing place, changing this tree in place:
    /// when no one else holds the containers along the path, only they are touched, not copied.
    /// Returns the value that was there, or `nil` (the tree unchanged) when the path leads nowhere.
    mutating func exchange(_ value: StateValue, at path: ArraySlice<StatePath.Component>) -> StateValue? {
        guard let component = path.first else {
            defer { self = value }
            return self
        }
        switch self {
        case .array(var elements):
            guard case .index(let index) = component, elements.indices.contains(index) else { return nil }
            // The tree lets go of its array first, so that the array is held once and changes in place.
            self = .null
            let old = elements[index].exchange(value, at: path.dropFirst())
            self = .array(elements)
            return old
        case .object(var fields):
            guard case .key(let key) = component, let position = fields.index(forKey: key) else { return nil }
            self = .null
            let old = fields.values[position].exchange(value, at: path.dropFirst())
            self = .object(fields)
            return old
        default:
            return nil
        }
    }
}
