extension StateDiff {
    /// The changes that turn `old` into `new`.
    public init(from old: StateValue, to new: StateValue) {
        var changes: [StateChange] = []
        if !old.needsNoWalk(against: new) { StateDiffer.collect(old, new, at: .root, into: &changes) }
        self.init(changes: changes)
    }
}

extension StateValue {
    /// This tree with `diff` applied; for a diff made by ``StateDiff/init(from:to:)`` from this
    /// tree, the result equals the new tree exactly, including field order.
    ///
    /// - Throws: ``DiffApplicationError`` when the diff does not fit the tree (it was made from another one).
    public func applying(_ diff: StateDiff) throws(DiffApplicationError) -> StateValue {
        var value = self
        try value.applyInPlace(diff)
        return value
    }
}

/// The changes that turn `old` into `new`.
@available(*, deprecated, message: "use StateDiff(from:to:)")
public func diff(_ old: StateValue, _ new: StateValue) -> StateDiff {
    StateDiff(from: old, to: new)
}

/// Applies `diff` to `old`.
@available(*, deprecated, message: "use old.applying(diff)")
public func apply(_ diff: StateDiff, to old: StateValue) throws(DiffApplicationError) -> StateValue {
    try old.applying(diff)
}

extension StateValue {
    /// Applies `diff` to the tree in place (see ``applying(_:)``): a tree held nowhere else is
    /// edited rather than copied. When the diff does not fit, the tree is left partly changed.
    mutating func applyInPlace(_ diff: StateDiff) throws(DiffApplicationError) {
        // A tree deeper than any reader decodes cannot be built by diffs either: every tool that
        // walks a state (rendering, JSON, comparing, releasing) recurses, and a crafted journal of
        // a few hundred bytes could otherwise build one thousands of levels deep.
        for change in diff.changes {
            let placed: StateValue? = switch change.operation {
            case .added(let value), .changed(_, let value): value
            case .removed: nil
            }
            if let placed, placed.isDeeper(than: StateValue.maximumDepth - change.path.components.count) {
                throw DiffApplicationError(path: change.path, reason: "it would make the state deeper than \(StateValue.maximumDepth) levels")
            }
        }
        // A diff of one scalar at a place the tree has — a counter's step, a flag — is an
        // exchange there; anything else, or a place the tree lacks, goes through the editors
        // (which refuse what does not fit).
        if diff.changes.count == 1, case .changed(_, let new) = diff.changes[0].operation, !new.isContainer,
           exchange(new, at: diff.changes[0].path.components[...]) != nil {
            return
        }
        try DiffApplication.apply(diff.changes[...], depth: 0, to: &self)
    }
}

extension StateValue {
    /// The deepest state a tree may be: what a journal reader decodes, and what diffs may build.
    package static let maximumDepth = 256

    /// Whether the tree has more than `levels` levels (a leaf has one); looks no deeper than that.
    package func isDeeper(than levels: Int) -> Bool {
        guard levels > 0 else { return true }
        switch self {
        case .array(let elements): return elements.contains { $0.isDeeper(than: levels - 1) }
        case .object(let fields): return fields.values.contains { $0.isDeeper(than: levels - 1) }
        default: return false
        }
    }
}

/// A diff was applied to a tree it was not made from.
public struct DiffApplicationError: Error, Equatable, CustomStringConvertible {
    /// The path of the change that did not fit.
    public var path: StatePath
    /// Why it did not fit.
    public var reason: String

    public var description: String { "cannot apply change at '\(path)': \(reason)" }
}

enum StateDiffer {
    /// Collects the changes between `old` and `new` — two different leaves, or two containers,
    /// which may be equal: a container is walked rather than compared whole and then walked.
    static func collect(_ old: StateValue, _ new: StateValue, at path: StatePath, into changes: inout [StateChange]) {
        switch (old, new) {
        case (.object(let oldFields), .object(let newFields)) where oldFields.keys == newFields.keys:
            // The common case — same fields, same order — needs no set arithmetic.
            for index in oldFields.values.indices where !oldFields.values[index].needsNoWalk(against: newFields.values[index]) {
                collect(oldFields.values[index], newFields.values[index], at: path.appending(.key(oldFields.keys[index])), into: &changes)
            }
        case (.object(let oldFields), .object(let newFields)):
            let commonInOldOrder = oldFields.keys.filter { newFields[$0] != nil }
            let commonInNewOrder = newFields.keys.filter { oldFields[$0] != nil }
            guard commonInOldOrder == commonInNewOrder else {
                // Fields were reordered: no list of per-field changes can say that, so replace it.
                changes.append(StateChange(path: path, operation: .changed(from: old, to: new)))
                return
            }
            for (key, value) in oldFields where newFields[key] == nil {
                changes.append(StateChange(path: path.appending(.key(key)), operation: .removed(value)))
            }
            for (position, (key, value)) in newFields.enumerated() {
                if let previous = oldFields[key] {
                    if !previous.needsNoWalk(against: value) { collect(previous, value, at: path.appending(.key(key)), into: &changes) }
                } else {
                    changes.append(StateChange(path: path.appending(.key(key)), operation: .added(value), fieldPosition: position))
                }
            }
        case (.array(let oldElements), .array(let newElements)):
            for step in ArrayAlignment.align(oldElements, newElements) {
                switch step {
                case .keep:
                    continue
                case .edit(let oldIndex, let newIndex) where !oldElements[oldIndex].needsNoWalk(against: newElements[newIndex]):
                    collect(oldElements[oldIndex], newElements[newIndex], at: path.appending(.index(newIndex)), into: &changes)
                case .edit:
                    continue
                case .remove(let oldIndex, let newIndex):
                    changes.append(StateChange(path: path.appending(.index(newIndex)), operation: .removed(oldElements[oldIndex])))
                case .insert(let newIndex):
                    changes.append(StateChange(path: path.appending(.index(newIndex)), operation: .added(newElements[newIndex])))
                }
            }
        default:
            changes.append(StateChange(path: path, operation: .changed(from: old, to: new)))
        }
    }
}
