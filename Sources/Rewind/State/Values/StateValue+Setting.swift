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
    package func setting(_ value: StateValue, at path: StatePath) -> StateValue? {
        settingChange(value, at: path)?.tree
    }

    /// ``setting(_:at:)``, or — where the path ends at a field its object does not have — this
    /// tree with that field added at the end of its object: what a reader does with a change
    /// recorded inside a commit (``StateStep/applied(to:)``), since a capture leaves out an
    /// optional that is `nil` and a change may give it its first value. The field's place among
    /// the others is not known here; the commit's record, which follows, puts it in place.
    ///
    /// ```swift
    /// let state: StateValue = .object(["total": .integer(5)])
    /// state.settingOrAddingField(.string("TENOFF"), at: ["coupon"]) // {total: 5, coupon: "TENOFF"}
    /// state.settingOrAddingField(.integer(1), at: ["receipt", "total"]) // nil: no `receipt`
    /// ```
    package func settingOrAddingField(_ value: StateValue, at path: StatePath) -> StateValue? {
        if let set = setting(value, at: path) { return set }
        guard case .key? = path.components.last, let parent = path.parent, case .object? = self[parent] else { return nil }
        return try? self.applying(StateDiff(changes: [StateChange(path: path, operation: .added(value))]))
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
        return (try? self.applying(StateDiff(changes: [change]))).map { ($0, change) }
    }

    /// Puts `value` at `path`, which must lead to an existing place, changing this tree in place:
    /// when no one else holds the containers along the path, only they are touched, not copied.
    /// Returns the value that was there, or `nil` (the tree unchanged) when the path leads nowhere.
    mutating func exchange(_ value: StateValue, at path: ArraySlice<StatePath.Component>) -> StateValue? {
        guard let component = path.first else {
            defer { self = value }
            return self
        }
        // The tree is never copied into the switch's subject: that copy would keep the
        // containers shared, and changing them would copy them.
        switch component {
        case .index(let index):
            guard isArray else { return nil }
            var elements = takeElements()
            defer { self = .array(elements) }
            return elements.indices.contains(index) ? elements[index].exchange(value, at: path.dropFirst()) : nil
        case .key(let key):
            guard isObject else { return nil }
            var fields = takeFields()
            defer { self = .object(fields) }
            guard let position = fields.index(forKey: key) else { return nil }
            return fields.values[position].exchange(value, at: path.dropFirst())
        }
    }

    private var isArray: Bool {
        if case .array = self { true } else { false }
    }

    private var isObject: Bool {
        if case .object = self { true } else { false }
    }

    /// This array's elements, leaving `null` in its place: the tree lets go of the array, so that
    /// the caller holds it once and can change it in place.
    private mutating func takeElements() -> [StateValue] {
        guard case .array(let elements) = self else { return [] }
        self = .null
        return elements
    }

    /// This object's fields, leaving `null` in its place (see ``takeElements()``).
    private mutating func takeFields() -> StateObjectFields {
        guard case .object(let fields) = self else { return [:] }
        self = .null
        return fields
    }
}
