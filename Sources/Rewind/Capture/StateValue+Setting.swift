extension StateValue {
    /// This tree with `value` at `path`, or `nil` if the path does not lead to an existing place.
    ///
    /// ```swift
    /// let state: StateValue = .object(["count": .integer(0)])
    /// state.setting(.integer(1), at: ["count"]) // {count: 1}
    /// state.setting(.integer(1), at: ["missing"]) // nil
    /// ```
    public func setting(_ value: StateValue, at path: StatePath) -> StateValue? {
        guard case .some = self[path] else { return nil }
        return try? apply(StateDiff(changes: [StateChange(path: path, operation: .changed(from: .null, to: value))]), to: self)
    }
}
