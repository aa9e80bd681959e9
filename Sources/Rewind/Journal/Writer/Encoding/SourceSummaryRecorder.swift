/// Builds one source's part of its block's ``BlockSummary`` on the writer's thread, from what the
/// writer already has at hand: the state records' trees and changes, and the changes made inside
/// commits.
///
/// The paths tracked are chosen once per block, from the state the source enters the block with
/// (or its first state, when it had none): fields reached through objects only, and `.count` of
/// lists. A path that appears later in the block is not tracked, so the summary never claims what
/// a path held at steps it did not watch. Each tracked path's value is read by the reader's own
/// rule (``FollowedPath/lookUp(in:)``), at every step that can move it — or taken straight from
/// the change that set it.
///
/// It runs for every event the journal records, so it keeps small arrays searched by equality
/// (short strings compare without hashing) rather than sets and dictionaries.
struct SourceSummaryRecorder {
    /// Whether the source's first event in the block has been seen.
    private(set) var isStarted = false
    /// Whether the tracked paths are chosen (they are, at the first state the block sees).
    private var pathsChosen = false
    private var tracked: [TrackedPath] = []
    private var kindMask: UInt16 = 0
    /// `nil` once there are more than ``nameLimit``.
    private var names: [String]? = []
    /// `nil` once any field may have changed.
    private var changedFields: [String]? = []
    /// Set when the source entered the block with changes its last state record does not hold:
    /// its next record is made from that record's state, so it may move any tracked path.
    private var recordMayRevert = false

    private struct TrackedPath {
        let keys: [String]
        /// Its first key, the field of the state it is in.
        let root: String
        let followed: FollowedPath
        var span = ValueSpan()
        /// Set once a step moved the path in a way the recorder cannot follow: it is then left out.
        var isWide = false

        init(keys: [String]) {
            self.keys = keys
            root = keys[0]
            followed = FollowedPath(components: keys.map { .key($0) })
        }
    }

    /// The most paths tracked per source and block, and how deep through objects.
    static let pathLimit = 64
    static let depthLimit = 4
    /// The most event names, and changed fields, listed per source and block.
    static let nameLimit = 32
    static let fieldLimit = 64

    /// The source's first event in the block, with the state it enters the block with (`.some(nil)`
    /// when it has none yet); `nil` when the writer cannot tell it — then no path is tracked in
    /// this block.
    mutating func start(entering: StateValue??) {
        isStarted = true
        switch entering {
        case .none: pathsChosen = true
        case .some(.none): break
        case .some(.some(let state)): choosePaths(in: state, missingBefore: false)
        }
    }

    /// The source enters the block with changes on top of its last state record, to `fields`
    /// (`nil`: to any field). The next record is made from that record's state, not from the
    /// state a reader enters the block with, so it may set those fields back: they count as
    /// changed, and every tracked path is looked up at that record.
    mutating func enteredWithUnrecordedChanges(to fields: [String]?) {
        recordMayRevert = true
        guard let fields else {
            changedFields = nil
            return
        }
        for field in fields { noteChanged(field) }
    }

    /// An event of the source: its kind and name.
    mutating func saw(_ kind: Event.Category, name: String) {
        kindMask |= Self.bit(of: kind)
        guard names != nil, !names!.contains(name) else { return }
        if names!.count == Self.nameLimit { names = nil } else { names!.append(name) }
    }

    /// A state record made the source's state `state`, by `changes` when the writer knows them;
    /// otherwise (a keyframe) `previous` is the state before, compared field by field.
    mutating func recorded(_ state: StateValue, changes: StateDiff?, previous: StateValue?) {
        if recordMayRevert {
            recordMayRevert = false
            if pathsChosen {
                noteChangedFields(changes, previous: previous, state: state)
                return addAll(from: state)
            }
        }
        guard pathsChosen else {
            choosePaths(in: state, missingBefore: true)
            noteChangedFields(changes, previous: previous, state: state)
            return
        }
        noteChangedFields(changes, previous: previous, state: state)
        if let changes, changes.changes.count == 1 {
            // The common case, one change: the paths of other fields did not move, and the path
            // it set exactly takes its value without a look-up.
            let change = changes.changes[0]
            guard case .key(let root)? = change.path.components.first else { return addAll(from: state) }
            for index in tracked.indices where tracked[index].root == root && !tracked[index].isWide {
                if case .changed(_, let value) = change.operation, Self.isPath(tracked[index].keys, exactly: change.path.components) {
                    tracked[index].span.add(value)
                } else {
                    tracked[index].span.add(tracked[index].followed.lookUp(in: state))
                }
            }
            return
        }
        guard let fields = changedFields else { return addAll(from: state) }
        for index in tracked.indices where !tracked[index].isWide && fields.contains(tracked[index].root) {
            tracked[index].span.add(tracked[index].followed.lookUp(in: state))
        }
    }

    /// Every tracked path's value in `state`.
    private mutating func addAll(from state: StateValue) {
        for index in tracked.indices where !tracked[index].isWide {
            tracked[index].span.add(tracked[index].followed.lookUp(in: state))
        }
    }

    /// A change that carries no state record, which a reader puts at its path in the state (see
    /// ``StateStep/applied(to:)``): `path` is `nil` when the recording could not name its place
    /// (a reader then leaves the state as it was).
    mutating func changed(_ path: StatePath?, to value: StateValue) {
        guard let path else { return }
        guard case .key(let root)? = path.components.first else {
            changedFields = nil
            for index in tracked.indices { tracked[index].isWide = true }
            return
        }
        noteChanged(root)
        for index in tracked.indices where tracked[index].root == root && !tracked[index].isWide {
            let keys = tracked[index].keys
            if Self.keys(keys, startWith: path.components) {
                let rest = keys.count - path.components.count
                tracked[index].span.add(rest == 0 ? value : FollowedPath(components: keys.suffix(rest).map { .key($0) }).lookUp(in: value))
            } else if keys.last == "count", path.components.count == keys.count,
                      Self.keys(keys.dropLast(), startWith: path.components.dropLast()),
                      case .index = path.components[keys.count - 1] {
                // An element of the list `count` counts, set whole: one past its end appends
                // (a change deeper inside an element leaves the count as it was).
                tracked[index].isWide = true
            }
        }
    }

    /// What the summary says once the block is sealed.
    func finished() -> BlockSummary.Source {
        var result = BlockSummary.Source()
        result.kinds = Set(Event.Category.allCases.filter { kindMask & Self.bit(of: $0) != 0 })
        result.names = names.map(Set.init)
        result.changedFields = changedFields.map(Set.init)
        for path in tracked where !path.isWide { result.values[path.keys] = path.span }
        return result
    }

    /// A kind's bit in the mask: the bit of its journal code, as the summary writes it.
    private static func bit(of kind: Event.Category) -> UInt16 {
        UInt16(1) << UInt16(WireRecord.KindCode.code(of: kind))
    }

    private mutating func noteChanged(_ field: String) {
        guard changedFields != nil, !changedFields!.contains(field) else { return }
        if changedFields!.count == Self.fieldLimit { changedFields = nil } else { changedFields!.append(field) }
    }

    /// The top-level fields a state record changed: its changes' first keys, or for a keyframe
    /// the fields that differ from the state before (any, when either is not an object).
    private mutating func noteChangedFields(_ changes: StateDiff?, previous: StateValue?, state: StateValue) {
        if let changes {
            for change in changes.changes {
                guard case .key(let root)? = change.path.components.first else { return changedFields = nil }
                noteChanged(root)
            }
            return
        }
        guard case .object(let before)? = previous, case .object(let after) = state else { return changedFields = nil }
        for (key, value) in after where before[key] != value { noteChanged(key) }
        for key in before.keys where after[key] == nil { noteChanged(key) }
    }

    /// Tracks the paths of `state` (the first state the block sees); with `missingBefore`, the
    /// source had no state before it, so every path was missing until then.
    private mutating func choosePaths(in state: StateValue, missingBefore: Bool) {
        pathsChosen = true
        guard case .object(let fields) = state else { return }
        var chosen: [[String]] = []
        Self.collectPaths(fields, prefix: [], into: &chosen)
        for keys in chosen {
            var path = TrackedPath(keys: keys)
            path.span.add(path.followed.lookUp(in: state))
            if missingBefore { path.span.holdsNil = true }
            tracked.append(path)
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

    /// Whether `components` are exactly the keys `keys`.
    private static func isPath(_ keys: [String], exactly components: [StatePath.Component]) -> Bool {
        components.count == keys.count && Self.keys(keys, startWith: components)
    }

    /// Whether `components` are keys that `keys` starts with.
    private static func keys(_ keys: some Collection<String>, startWith components: some Collection<StatePath.Component>) -> Bool {
        guard components.count <= keys.count else { return false }
        for (key, component) in zip(keys, components) {
            guard case .key(let name) = component, name == key else { return false }
        }
        return true
    }
}
