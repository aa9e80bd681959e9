/// Applies a diff's changes in one pass over the tree: the changes under one container are applied
/// together, so the time is linear in the size of the diff and the tree. Applied one at a time,
/// each of n insertions into an array of n elements would shift the elements after it — a
/// 7 KB journal took minutes.
///
/// The result is exactly that of applying the changes one after another (their documented
/// meaning, see ``StateDiff``). The changes to one array must come in increasing index order, as
/// ``StateDiff/init(from:to:)`` makes them (the latest change's position may be touched again); a change further
/// back is refused rather than paid for with a shift of everything after it.
enum DiffApplication {
    /// Applies `changes`, which all lie below the path components before `depth`, to `value`.
    static func apply(_ changes: ArraySlice<StateChange>, depth: Int, to value: inout StateValue) throws(DiffApplicationError) {
        var remaining = changes
        while let change = remaining.first {
            let components = change.path.components
            guard depth < components.count else {
                // A change of this very value replaces it; later changes apply to the replacement.
                guard case .changed(_, let new) = change.operation else {
                    throw DiffApplicationError(path: change.path, reason: "only a change can apply to the root")
                }
                value = new
                remaining = remaining.dropFirst()
                continue
            }
            // The run of changes below this value that the container's editor takes in one pass.
            let run = remaining.prefix { $0.path.components.count > depth }
            switch value {
            case .array(var elements):
                value = .null  // release the tree's reference so the elements are edited in place
                defer { value = .array(elements) }
                var editor = ArrayEditor(elements)
                try editor.apply(run, depth: depth)
                elements = editor.finished()
            case .object(var fields):
                value = .null
                defer { value = .object(fields) }
                try ObjectEditor.apply(run, depth: depth, to: &fields)
            default:
                throw DiffApplicationError(path: change.path, reason: "found \(value.shapeName) where the diff expects a container")
            }
            remaining = remaining.dropFirst(run.count)
        }
    }

    /// The changes from the start of `changes` that go into the same child (same component at
    /// `depth`, and a path below it): they are applied to the child together.
    static func childRun(_ changes: ArraySlice<StateChange>, depth: Int) -> ArraySlice<StateChange> {
        let component = changes.first!.path.components[depth]
        return changes.prefix { $0.path.components.count > depth + 1 && $0.path.components[depth] == component }
    }
}

/// Edits an array by streaming: the elements up to the position of the latest change are final
/// (`done`), the rest are still to be taken from the original (`original[next...]`). A change after
/// the boundary moves it forward; one at the latest position edits the end of `done`.
private struct ArrayEditor {
    private let original: [StateValue]
    private var next = 0
    private var done: [StateValue] = []

    init(_ elements: [StateValue]) {
        original = elements
        done.reserveCapacity(elements.count)
    }

    /// How many elements the array has at this point of the application.
    private var count: Int { done.count + original.count - next }

    mutating func apply(_ changes: ArraySlice<StateChange>, depth: Int) throws(DiffApplicationError) {
        var remaining = changes
        while let change = remaining.first {
            guard case .index(let index) = change.path.components[depth] else {
                throw DiffApplicationError(path: change.path, reason: "a field name where the diff expects an index")
            }
            let isLeaf = change.path.components.count == depth + 1
            let children = isLeaf ? remaining.prefix(1) : DiffApplication.childRun(remaining, depth: depth)
            remaining = remaining.dropFirst(children.count)
            guard index <= count else { throw DiffApplicationError(path: change.path, reason: "index beyond the end") }
            guard index + 1 >= done.count else { throw DiffApplicationError(path: change.path, reason: "a change before one already made to the array") }
            if index > done.count {
                // Everything before the change is final.
                let gap = index - done.count
                done.append(contentsOf: original[next..<(next + gap)])
                next += gap
            }
            try applyAt(index, change: change, children: children, isLeaf: isLeaf, depth: depth)
        }
    }

    private mutating func applyAt(_ index: Int, change: StateChange, children: ArraySlice<StateChange>, isLeaf: Bool, depth: Int) throws(DiffApplicationError) {
        let atBoundary = index == done.count
        switch (isLeaf, change.operation) {
        case (true, .added(let new)):
            if atBoundary { done.append(new) } else { done.insert(new, at: index) }
        case (true, .removed):
            guard index < count else { throw DiffApplicationError(path: change.path, reason: "no such element") }
            if atBoundary { next += 1 } else { done.remove(at: index) }
        case (true, .changed(_, let new)):
            guard index < count else { throw DiffApplicationError(path: change.path, reason: "no such element") }
            if atBoundary {
                next += 1
                done.append(new)
            } else {
                done[index] = new
            }
        case (false, _):
            guard index < count else { throw DiffApplicationError(path: change.path, reason: "no element \(index)") }
            if atBoundary {
                done.append(original[next])
                next += 1
            }
            var child = done[index]
            done[index] = .null
            try DiffApplication.apply(children, depth: depth + 1, to: &child)
            done[index] = child
        }
    }

    /// The array after the changes.
    consuming func finished() -> [StateValue] {
        done.append(contentsOf: original[next...])
        return done
    }
}

/// Edits an object's fields in one pass, in the order ``StateDiff/init(from:to:)`` makes an object's changes:
/// removals first, then additions in increasing position, with changes to the kept fields (made in
/// place) anywhere. The removals are made and the additions merged once, at the end, so the time
/// is linear in the fields and the changes. Changes in another order — a removal after an addition,
/// an addition before one already made, a field touched after it was removed or added — are
/// refused rather than paid for with a pass over the fields each (a crafted journal of alternating
/// additions and removals took minutes).
private struct ObjectEditor {
    private var removals: Set<String> = []
    private var additions: [(change: StateChange, key: String, value: StateValue)] = []
    private var addedKeys: Set<String> = []

    static func apply(_ changes: ArraySlice<StateChange>, depth: Int, to fields: inout StateObjectFields) throws(DiffApplicationError) {
        var editor = ObjectEditor()
        var remaining = changes
        while let change = remaining.first {
            guard case .key(let key) = change.path.components[depth] else {
                throw DiffApplicationError(path: change.path, reason: "an index where the diff expects a field name")
            }
            if editor.addedKeys.contains(key) || editor.removals.contains(key) {
                throw DiffApplicationError(path: change.path, reason: "the field was already added or removed by this diff")
            }
            guard change.path.components.count == depth + 1 else {
                let children = DiffApplication.childRun(remaining, depth: depth)
                remaining = remaining.dropFirst(children.count)
                guard var child = fields[key] else { throw DiffApplicationError(path: change.path, reason: "no field '\(key)'") }
                fields[key] = .null
                try DiffApplication.apply(children, depth: depth + 1, to: &child)
                fields[key] = child
                continue
            }
            remaining = remaining.dropFirst()
            switch change.operation {
            case .added(let new):
                if let last = editor.additions.last, (last.change.fieldPosition ?? .max) >= (change.fieldPosition ?? .max),
                   last.change.fieldPosition != nil || change.fieldPosition != nil {
                    throw DiffApplicationError(path: change.path, reason: "an addition before one this diff already made")
                }
                guard fields[key] == nil else { throw DiffApplicationError(path: change.path, reason: "the field already exists") }
                editor.additions.append((change, key, new))
                editor.addedKeys.insert(key)
            case .removed:
                guard editor.additions.isEmpty else {
                    throw DiffApplicationError(path: change.path, reason: "a removal after an addition")
                }
                guard fields[key] != nil else { throw DiffApplicationError(path: change.path, reason: "no such field") }
                editor.removals.insert(key)
            case .changed(_, let new):
                guard fields[key] != nil else { throw DiffApplicationError(path: change.path, reason: "no such field") }
                fields[key] = new
            }
        }
        try editor.finish(into: &fields)
    }

    /// Makes the gathered removals, then merges the gathered additions (in increasing position).
    private mutating func finish(into fields: inout StateObjectFields) throws(DiffApplicationError) {
        if !removals.isEmpty {
            fields.removeAll { removals.contains($0.key) }
        }
        guard !additions.isEmpty else { return }
        var merged = StateObjectFields(minimumCapacity: fields.count + additions.count)
        var kept = fields.elements.makeIterator()
        for addition in additions {
            let position = addition.change.fieldPosition ?? .max
            while merged.count < position, let field = kept.next() { merged[field.key] = field.value }
            guard merged.updateValue(addition.value, forKey: addition.key) == nil else {
                throw DiffApplicationError(path: addition.change.path, reason: "the field already exists")
            }
        }
        while let field = kept.next() { merged[field.key] = field.value }
        fields = merged
    }
}
