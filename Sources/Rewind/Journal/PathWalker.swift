/// Follows one path's value through a journal's events, for `rewind blame`: the same answers as
/// reading `path` from ``StateWalker``'s states before and after each step, without rebuilding
/// whole states. Only the changes that can touch the path are applied.
///
/// It keeps, per source, the subtree at the path's *anchor* — the path up to its first list index
/// (`items` for `items[7].done`, all of `user.name`) — because a list's inserts and removals move
/// what an index points at, while fields never move. Of a state record, a change below the anchor
/// is applied to the subtree, a change at or above it (only fields: the anchor has no index)
/// replaces or removes the subtree, and every other change is skipped. Of the changes inside a
/// commit (which only set values already there, and which the commit's record then restates),
/// only those at, inside or around the path are applied. How much of the anchor exists is kept
/// too: it decides whether a change at one of the anchor's ancestors applies.
///
/// ```swift
/// var walker = PathWalker(path: try StatePath(parsing: "items[7].done"))
/// for event in reader.events() {
///     if let (old, new) = walker.advance(event), old != new { print(event.sequence, old ?? .null, new ?? .null) }
/// }
/// ```
///
/// One difference from rebuilding whole states, on altered files only: a diff that does not fit the
/// state in a part away from the path is not noticed here.
public struct PathWalker: Sendable {
    /// The path followed.
    public let path: StatePath
    private let anchor: StatePath
    /// The path from the anchor down.
    private let pathBelowAnchor: StatePath

    /// The subtree at the anchor, and how many of the anchor's leading components exist.
    private struct Projection: Sendable {
        var subtree: StateValue?
        var presentDepth: Int
    }

    /// Per source: as its state records left it (what the next diff applies to), and with the
    /// changes inside a commit on top. `nil`: the source has no state yet, or lost it to a diff
    /// that did not apply.
    private var recorded: [UInt64: Projection?] = [:]
    private var current: [UInt64: Projection?] = [:]

    /// A walker for `path`.
    public init(path: StatePath) {
        self.path = path
        let firstIndex = path.components.firstIndex { if case .index = $0 { true } else { false } }
        let anchorLength = firstIndex ?? path.components.count
        anchor = StatePath(Array(path.components[..<anchorLength]))
        pathBelowAnchor = StatePath(Array(path.components[anchorLength...]))
    }

    /// Applies the event's step; returns the path's value before and after it (`nil`: absent)
    /// when the event moves its source's state, as ``StateWalker/advance(_:)`` does.
    public mutating func advance(_ event: RecordedEvent) -> (old: StateValue?, new: StateValue?)? {
        guard let step = event.stateStep else { return nil }
        let id = event.source.instanceID
        let before = current[id] ?? nil
        let old = before.flatMap(valueAtPath)
        let after: Projection?
        if case .record(let record) = step {
            // Taken out of both tables first, so that the subtree is edited in place, not copied.
            current[id] = nil
            let recordedBefore = recorded.removeValue(forKey: id) ?? nil
            after = applying(record, to: recordedBefore)
            recorded[id] = after
            guard let after else {
                current[id] = before
                return nil
            }
            current[id] = after
            return (old, valueAtPath(after))
        }
        guard case .change(let text, let value) = step, let changed = applyingChange(at: text, value, to: before) else { return nil }
        current[id] = changed
        return (old, valueAtPath(changed))
    }

    private func valueAtPath(_ projection: Projection) -> StateValue? {
        projection.subtree?[pathBelowAnchor]
    }

    /// A projection of a whole value (a keyframe, or a value set at one of the anchor's
    /// ancestors), whose own path has `depth` components.
    private func projection(of value: StateValue?, atDepth depth: Int) -> Projection {
        guard var node = value else { return Projection(subtree: nil, presentDepth: depth - 1) }
        var present = depth
        for component in anchor.components.dropFirst(depth) {
            guard let next = node[component] else { return Projection(subtree: nil, presentDepth: present) }
            node = next
            present += 1
        }
        return Projection(subtree: node, presentDepth: present)
    }

    private func applying(_ record: StateRecord, to projection: Projection?) -> Projection? {
        switch record {
        case .keyframe(let tree):
            return self.projection(of: tree, atDepth: 0)
        case .diff(let diff):
            guard var projection else { return nil }
            var below: [StateChange] = []
            func applyBelow() -> Bool {
                defer { below = [] }
                guard !below.isEmpty else { return true }
                guard var subtree = projection.subtree else { return false }
                projection.subtree = nil  // one reference: the edit happens in place
                do { try DiffApplication.apply(below[...], depth: anchor.components.count, to: &subtree) } catch { return false }
                projection.subtree = subtree
                return true
            }
            for change in diff.changes {
                let depth = change.path.components.count
                if anchor.isPrefix(of: change.path) && depth > anchor.components.count {
                    below.append(change)
                } else if change.path.isPrefix(of: anchor) {
                    guard applyBelow() else { return nil }
                    switch change.operation {
                    case .added(let value), .changed(_, let value): projection = self.projection(of: value, atDepth: depth)
                    case .removed: projection = Projection(subtree: nil, presentDepth: depth - 1)
                    }
                }
            }
            return applyBelow() ? projection : nil
        }
    }

    /// A change recorded inside a commit, as ``StateStep/applied(to:)`` applies it: the value put
    /// at its path if the path exists; `null` only where there is nothing or `null` already.
    private func applyingChange(at text: String, _ value: StateValue, to projection: Projection?) -> Projection? {
        guard let projection, let changed = StatePath(recordedChange: text) else { return nil }
        let depth = changed.components.count
        if anchor.isPrefix(of: changed) {
            // A change inside a commit only sets a value that is there (it never inserts or removes
            // list elements), and the commit's record brings the whole subtree up to date: a place
            // that is neither the path, inside it nor around it leaves the path's value as it was.
            guard changed.isPrefix(of: path) || path.isPrefix(of: changed) else { return projection }
            let relative = StatePath(Array(changed.components.dropFirst(anchor.components.count)))
            let existing = projection.subtree?[relative]
            if value == .null { return existing == nil || existing == .null ? projection : nil }
            guard let subtree = projection.subtree?.setting(value, at: relative) else { return nil }
            return Projection(subtree: subtree, presentDepth: projection.presentDepth)
        }
        if changed.isPrefix(of: anchor) {
            // The changed place exists when that much of the anchor does. Setting `null` leaves the
            // state as it was or does not apply: the path's value stays either way.
            if value == .null { return projection }
            guard projection.presentDepth >= depth else { return nil }
            return self.projection(of: value, atDepth: depth)
        }
        // Elsewhere in the state: whether or not it applies, the path's value stays.
        return projection
    }
}
