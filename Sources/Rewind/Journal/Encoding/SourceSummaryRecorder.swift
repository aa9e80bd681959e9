/// Builds one source's part of its block's ``BlockSummary`` on the writer's thread, from what the
/// writer already has at hand: the state records' trees and changes, and the changes made inside
/// commits.
///
/// The paths tracked are chosen once per block, from the state the source enters the block with
/// (or its first state, when it had none): fields reached through objects only, and `.count` of
/// lists. A path that appears later in the block is not tracked, so the summary never claims what
/// a path held at steps it did not watch. Each tracked path's value is read by the reader's own
/// rule (``Condition/lookUp(_:in:)``), at every step that can move it.
struct SourceSummaryRecorder {
    private(set) var summary = BlockSummary.Source()
    /// Whether the source's first event in the block has been seen.
    private(set) var isStarted = false
    /// Whether the tracked paths are chosen (they are, at the first state the block sees).
    private var pathsChosen = false
    private var tracked: [TrackedPath] = []
    private var lastName: String?

    private struct TrackedPath {
        let keys: [String]
        let followed: FollowedPath
        /// Set once a step moved the path in a way the recorder cannot follow: it is then left out.
        var isWide = false
    }

    /// The most paths tracked per source and block, and how deep through objects.
    static let pathLimit = 64
    static let depthLimit = 4
    /// The most event names listed per source and block.
    static let nameLimit = 32

    /// The most changes without a record kept between two state records for the next block's
    /// start; past it, that block tracks no path.
    static let pendingChangeLimit = 64

    /// The source's first event in the block, with the state it enters the block with: the
    /// states it may be (empty when it has none yet) and the changes a reader puts on top; `nil`
    /// when the writer cannot tell it — then no path is tracked in this block.
    mutating func start(entering: (states: [StateValue], changes: [(path: StatePath?, value: StateValue)])?) {
        isStarted = true
        guard let entering else { return pathsChosen = true }
        guard let first = entering.states.first else { return }
        choosePaths(in: first, missingBefore: false)
        for state in entering.states.dropFirst() {
            for index in tracked.indices { add(Condition.lookUp(tracked[index].followed, in: state), to: index) }
        }
        for change in entering.changes { changed(change.path, to: change.value) }
    }

    /// An event of the source: its kind and name.
    mutating func saw(_ kind: Event.Category, name: String) {
        summary.kinds.insert(kind)
        guard name != lastName, summary.names != nil else { return }
        lastName = name
        summary.names!.insert(name)
        if summary.names!.count > Self.nameLimit { summary.names = nil }
    }

    /// A state record made the source's state `state`; `changedFields` are the top-level fields
    /// that differ from the state before (`nil`: any may).
    mutating func recorded(_ state: StateValue, changedFields: Set<String>?) {
        if !pathsChosen {
            choosePaths(in: state, missingBefore: true)
            noteChanged(changedFields)
            return
        }
        noteChanged(changedFields)
        for index in tracked.indices where changedFields.map({ $0.contains(tracked[index].keys[0]) }) ?? true {
            add(Condition.lookUp(tracked[index].followed, in: state), to: index)
        }
    }

    /// A change that carries no state record, which a reader puts at its path in the state (see
    /// ``StateStep/applied(to:)``): `path` is `nil` when the recording could not name its place
    /// (a reader then leaves the state as it was).
    mutating func changed(_ path: StatePath?, to value: StateValue) {
        guard let path else { return }
        guard case .key(let root)? = path.components.first else {
            summary.changedFields = nil
            for index in tracked.indices { tracked[index].isWide = true }
            return
        }
        summary.changedFields?.insert(root)
        for index in tracked.indices where tracked[index].keys[0] == root {
            let keys = tracked[index].keys
            if let rest = Self.remainder(of: keys, after: path.components) {
                add(Condition.lookUp(FollowedPath(components: rest.map { .key($0) }), in: value), to: index)
            } else if keys.last == "count", path.components.count >= keys.count,
                      Self.remainder(of: Array(keys.dropLast()), after: Array(path.components.prefix(keys.count - 1))) == [],
                      case .index = path.components[keys.count - 1] {
                // A place in the list `count` counts: one past its end appends.
                tracked[index].isWide = true
            }
        }
    }

    /// What the summary says once the block is sealed.
    func finished() -> BlockSummary.Source {
        var result = summary
        for path in tracked where path.isWide { result.values[path.keys] = nil }
        return result
    }

    private mutating func noteChanged(_ fields: Set<String>?) {
        guard let fields else { return summary.changedFields = nil }
        summary.changedFields?.formUnion(fields)
    }

    private mutating func add(_ value: StateValue, to index: Int) {
        guard !tracked[index].isWide else { return }
        summary.values[tracked[index].keys, default: ValueSpan()].add(value)
    }

    /// Tracks the paths of `state` (the first state the block sees); with `missingBefore`, the
    /// source had no state before it, so every path was missing until then.
    private mutating func choosePaths(in state: StateValue, missingBefore: Bool) {
        pathsChosen = true
        guard case .object(let fields) = state else { return }
        var chosen: [[String]] = []
        Self.collectPaths(fields, prefix: [], into: &chosen)
        for keys in chosen {
            let followed = FollowedPath(components: keys.map { .key($0) })
            tracked.append(TrackedPath(keys: keys, followed: followed))
            var span = ValueSpan()
            span.add(Condition.lookUp(followed, in: state))
            if missingBefore { span.holdsNil = true }
            summary.values[keys] = span
        }
    }

    private static func collectPaths(_ fields: StateObjectFields, prefix: [String], into paths: inout [[String]]) {
        for (key, value) in fields {
            guard paths.count < pathLimit else { return }
            let path = prefix + [key]
            paths.append(path)
            switch value {
            case .object(let inner) where path.count < depthLimit:
                collectPaths(inner, prefix: path, into: &paths)
            case .array where paths.count < pathLimit:
                paths.append(path + ["count"])
            default:
                break
            }
        }
    }

    /// The keys of `keys` after `components`, when `components` are keys that `keys` starts with.
    private static func remainder(of keys: [String], after components: [StatePath.Component]) -> [String]? {
        guard components.count <= keys.count else { return nil }
        for (key, component) in zip(keys, components) {
            guard case .key(let name) = component, name == key else { return nil }
        }
        return Array(keys.dropFirst(components.count))
    }
}

extension SourceSummaryRecorder {
    /// The top-level fields a state record's changes touch; `nil` when one changes the state
    /// whole (a path that starts with no field).
    static func changedFields(of changes: StateDiff) -> Set<String>? {
        var fields = Set<String>()
        for change in changes.changes {
            guard case .key(let root)? = change.path.components.first else { return nil }
            fields.insert(root)
        }
        return fields
    }

    /// The top-level fields that differ between two states, for a keyframe made without a diff;
    /// `nil` when either is not an object.
    static func changedFields(from old: StateValue?, to new: StateValue) -> Set<String>? {
        guard case .object(let before)? = old, case .object(let after) = new else { return nil }
        var fields = Set<String>()
        for (key, value) in after where before[key] != value { fields.insert(key) }
        for key in before.keys where after[key] == nil { fields.insert(key) }
        return fields
    }
}
