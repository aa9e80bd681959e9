/// Follows one path's value through a journal's events, for `rewind blame`: the same answers as
/// reading `path` from ``StateWalker``'s states before and after each step, without rebuilding
/// whole states. Only the changes that can touch the path are applied.
///
/// It keeps, per source, the subtree at the path's *anchor* — the path up to its first list index
/// (`items` for `items[7].done`, all of `user.name`) — because a list's inserts and removals move
/// what an index points at, while fields never move. Of a state record, a change below the anchor
/// is applied to the subtree, a change at or above it (only fields: the anchor has no index)
/// replaces or removes the subtree, and every other change is skipped. Of the changes inside a
/// commit (which set values already there, or add a field an object does not have, and which the
/// commit's record then restates), only those at, inside or around the path are applied. How much of the anchor exists is kept
/// too: it decides whether a change at one of the anchor's ancestors applies.
///
/// ```swift
/// var walker = PathWalker(path: try StatePath(parsing: "items[7].done"))
/// for event in reader.events() {
///     if let (old, new) = walker.advance(event), old != new { print(event.sequence, old ?? .null, new ?? .null) }
/// }
/// ```
///
/// The path may follow a list element by its id (`items[id: 3].done`, see ``FollowedPath``): the
/// anchor is then the list, every change inside it is applied, and the value is looked up by id.
/// Followed by position (`items[1].done`), a step that puts another identified element at that
/// position (an insertion or removal before it) is an index shift, not a change of the element:
/// ``lastStepMovedElement`` says so, and blame does not report it as a change.
///
/// One difference from rebuilding whole states, on altered files only: a diff that does not fit the
/// state in a part away from the path is not noticed here.
package struct PathWalker: Sendable {
    /// The path followed.
    package let followedPath: FollowedPath
    /// The path followed, by positions (`nil` when it follows an element by id).
    private let path: StatePath?
    private let anchor: StatePath
    /// The path from the anchor down.
    private let pathBelowAnchor: FollowedPath
    /// Whether the last step that moved the state put a different identified element at the
    /// position the path follows (see the type's documentation).
    package private(set) var lastStepMovedElement = false

    /// The subtree at the anchor, and how many of the anchor's leading components exist.
    private struct Projection: Sendable {
        var subtree: StateValue?
        var presentDepth: Int
        /// When the anchor is missing: whether the deepest part of it that exists is an object, to
        /// which a change inside a commit can add the next field (as ``StateStep/applied(to:)``
        /// does).
        var deepestIsObject = true

        /// Whether a change at the anchor's first `depth` components adds a field the state
        /// does not have: its parent exists and is an object.
        func addsField(atDepth depth: Int) -> Bool {
            subtree == nil && presentDepth == depth - 1 && deepestIsObject
        }
    }

    /// Per source: as its state records left it (what the next diff applies to), and with the
    /// changes inside a commit on top. `nil`: the source has no state yet, or lost it to a diff
    /// that did not apply.
    private var recorded: [UInt64: Projection?] = [:]
    private var current: [UInt64: Projection?] = [:]

    /// A walker for `path`, by positions.
    package init(path: StatePath) {
        self.init(path: FollowedPath(path))
    }

    /// A walker for `path`, which may follow list elements by id.
    package init(path: FollowedPath) {
        followedPath = path
        self.path = path.statePath
        let firstList = path.components.firstIndex { if case .key = $0 { false } else { true } }
        let anchorLength = firstList ?? path.components.count
        anchor = StatePath(path.components[..<anchorLength].map { if case .key(let key) = $0 { .key(key) } else { .index(0) } })
        pathBelowAnchor = FollowedPath(components: Array(path.components[anchorLength...]))
    }

    /// A walker for `path` that goes on from the folds a reader rebuilt (``JournalReader/stateFold(of:before:)``):
    /// for readers that start at a step rather than at the beginning, such as the viewer's blame.
    package init(path: FollowedPath, from folds: [UInt64: StateFold]) {
        self.init(path: path)
        for (source, fold) in folds {
            recorded[source] = fold.recorded.map { projection(of: $0, atDepth: 0) }
            current[source] = fold.current.map { projection(of: $0, atDepth: 0) }
        }
    }

    /// What a step did to the path, by blame's one rule.
    package enum Verdict: Sendable, Equatable {
        /// The step changed the path's value (`nil`: absent).
        case changed(old: StateValue?, new: StateValue?)
        /// Followed by position, the step only put another identified element there (an insertion
        /// or a removal before it): an index shift, which blame does not count as a change.
        case movedAnotherElementHere
    }

    /// Applies the event's step (every event of every source must be given, in order); what it did
    /// to the path, or `nil` when it left the path's value as it was. `rewind blame`, the viewer's
    /// `path:` filter and its `b`/`B` all ask this.
    package mutating func verdict(_ event: RecordedEvent) -> Verdict? {
        // The move first: the verdict reads what the step left (``lastStepMovedElement``).
        let move = advance(event)
        return verdict(after: move)
    }

    /// The same for a record read in its block.
    package mutating func verdict(_ record: BlockRecords.Record) -> Verdict? {
        let move = record.stateStep.flatMap { advance(by: $0, source: record.sourceID) }
        return verdict(after: move)
    }

    /// The verdict on the step just applied, which moved the path's value as `move` says.
    private func verdict(after move: (old: StateValue?, new: StateValue?)?) -> Verdict? {
        guard let (old, new) = move, old != new else { return nil }
        return lastStepMovedElement ? .movedAnotherElementHere : .changed(old: old, new: new)
    }

    /// Applies the event's step; returns the path's value before and after it (`nil`: absent)
    /// when the event moves its source's state, as ``StateWalker/advance(_:)`` does.
    package mutating func advance(_ event: RecordedEvent) -> (old: StateValue?, new: StateValue?)? {
        event.stateStep.flatMap { advance(by: $0, source: event.source.instanceID) }
    }

    private mutating func advance(by step: StateStep, source id: UInt64) -> (old: StateValue?, new: StateValue?)? {
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
            lastStepMovedElement = movesElement(from: before, to: after)
            return (old, valueAtPath(after))
        }
        guard case .change(let text, let value) = step, let changed = applyingChange(at: text, value, to: before) else { return nil }
        current[id] = changed
        lastStepMovedElement = movesElement(from: before, to: changed)
        return (old, valueAtPath(changed))
    }

    private func movesElement(from before: Projection?, to after: Projection?) -> Bool {
        guard let old = idAtFollowedPosition(before), let new = idAtFollowedPosition(after) else { return false }
        return old != new
    }

    private func valueAtPath(_ projection: Projection) -> StateValue? {
        projection.subtree.flatMap(pathBelowAnchor.value(in:))
    }

    /// The id of the element at the position the path follows first, if it has one.
    private func idAtFollowedPosition(_ projection: Projection?) -> StateValue? {
        guard case .index(let index)? = pathBelowAnchor.components.first,
              case .object(let fields)? = projection?.subtree?[.index(index)] else { return nil }
        return fields["id"]
    }

    /// A projection of a whole value (a keyframe, or a value set at one of the anchor's
    /// ancestors), whose own path has `depth` components.
    private func projection(of value: StateValue?, atDepth depth: Int) -> Projection {
        guard var node = value else { return Projection(subtree: nil, presentDepth: depth - 1) }
        var present = depth
        for component in anchor.components.dropFirst(depth) {
            guard let next = node[component] else {
                let isObject = if case .object = node { true } else { false }
                return Projection(subtree: nil, presentDepth: present, deepestIsObject: isObject)
            }
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
    /// at its path if the path exists, or added as a field of an object that does not have it;
    /// `null` only where there is nothing or `null` already.
    private func applyingChange(at text: String, _ value: StateValue, to projection: Projection?) -> Projection? {
        guard let projection, let changed = StatePath(recordedChange: text) else { return nil }
        let depth = changed.components.count
        if anchor.isPrefix(of: changed) {
            // A change inside a commit only sets a value that is there or adds a missing field (it
            // never inserts or removes list elements), and the commit's record brings the whole
            // subtree up to date: a place that is neither the path, inside it nor around it leaves
            // the path's value as it was.
            // Followed by id, the element may be anywhere in the list: every change inside it may
            // touch the path.
            if let path, !(changed.isPrefix(of: path) || path.isPrefix(of: changed)) { return projection }
            let relative = StatePath(Array(changed.components.dropFirst(anchor.components.count)))
            guard var subtree = projection.subtree else {
                // `null` where there is nothing leaves it so; a value at the missing anchor
                // itself is a field added to the object above it.
                if value == .null { return projection }
                if relative.components.isEmpty, projection.addsField(atDepth: depth) { return self.projection(of: value, atDepth: depth) }
                return nil
            }
            // Below the anchor, by the rule every fold applies a change inside a commit with.
            guard StateStep.apply(value, at: relative, to: &subtree).applied else { return nil }
            return Projection(subtree: subtree, presentDepth: projection.presentDepth)
        }
        if changed.isPrefix(of: anchor) {
            // The changed place exists when that much of the anchor does. Setting `null` leaves the
            // state as it was or does not apply: the path's value stays either way.
            if value == .null { return projection }
            guard projection.presentDepth >= depth || projection.addsField(atDepth: depth) else { return nil }
            return self.projection(of: value, atDepth: depth)
        }
        // Elsewhere in the state: whether or not it applies, the path's value stays.
        return projection
    }
}
