/// What changed between two ``StateValue`` trees, as a list of changes by path.
///
/// Only what changed is listed. Arrays are aligned by a longest common subsequence rather than index
/// by index, so inserting an item at the front of a list is one change, not one per item. The
/// changes are ordered so that applying them one after another turns the old tree into the new one
/// exactly: `try a.applying(StateDiff(from: a, to: b)) == b`.
///
/// Array indices in paths are positions in the *new* array (for a removal: where the removed element
/// sat among the new elements), which is how a person reads "what is at `items[3]` now".
///
/// ```swift
/// let changes = StateDiff(from: before, to: after)
/// changes.changes.map(\.path.description) // ["items[0]", "title"]
/// let rebuilt = try before.applying(changes) // == after
/// ```
public struct StateDiff: Hashable, Sendable {
    /// The changes, in application order.
    public var changes: [StateChange]

    /// Creates a diff from changes in application order.
    public init(changes: [StateChange] = []) {
        self.changes = changes
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// The paths that changed, in order, without repeats.
    public var changedPaths: [StatePath] {
        var seen = Set<StatePath>()
        return changes.map(\.path).filter { seen.insert($0).inserted }
    }

    /// Where the difference is named — a replay's divergence, the failure a shrink keeps: the
    /// first list element added or removed, else the first path that changed. A list that grew
    /// by an element it should not have (a retry appending twice) is named at that element, not
    /// at a field beside it that differs only because the live unit moved on. (A field added or
    /// removed is not preferred: a field that became `nil` is left out by `Codable`.)
    public var leadingPath: StatePath? {
        let element = changes.first { change in
            guard case .index? = change.path.components.last else { return false }
            return change.values.old == nil || change.values.new == nil
        }
        return element?.path ?? changes.first?.path
    }
}

/// One change at one path.
public struct StateChange: Hashable, Sendable {
    /// What happened at the path.
    public enum Operation: Hashable, Sendable {
        /// A field or element appeared with this value.
        case added(StateValue)
        /// A field or element with this value disappeared.
        case removed(StateValue)
        /// The value was replaced.
        case changed(from: StateValue, to: StateValue)
    }

    /// Where the change happened.
    public var path: StatePath
    /// What happened.
    public var operation: Operation
    /// For a field added to an object: its position among the object's fields, so that applying the
    /// change keeps the new object's field order.
    public var fieldPosition: Int?

    /// Creates a change.
    public init(path: StatePath, operation: Operation, fieldPosition: Int? = nil) {
        self.path = path
        self.operation = operation
        self.fieldPosition = fieldPosition
    }

    /// The value the path held before and after: `old` is `nil` where the path was added, `new`
    /// where it was removed.
    package var values: (old: StateValue?, new: StateValue?) {
        switch operation {
        case .changed(let from, let to): (from, to)
        case .added(let value): (nil, value)
        case .removed(let value): (value, nil)
        }
    }

    /// The path named as blame names it (by id in an identified list), in the state that holds it:
    /// `after`, or `before` for a removal. What `export`'s `changes`, `diff` and a Perfetto trace
    /// call the place.
    package func followedPath(before: StateValue, after: StateValue) -> FollowedPath {
        FollowedPath(path, in: values.new == nil ? before : after)
    }

    /// The value before the change, if there was one.
    public var oldValue: StateValue? {
        switch operation {
        case .added: nil
        case .removed(let value), .changed(let value, _): value
        }
    }

    /// The value after the change, if there is one.
    public var newValue: StateValue? {
        switch operation {
        case .removed: nil
        case .added(let value), .changed(_, let value): value
        }
    }
}
