/// The changes that turn `old` into `new`; see ``StateDiff``.
public func diff(_ old: StateValue, _ new: StateValue) -> StateDiff {
    var changes: [StateChange] = []
    StateDiffer.collect(old, new, at: .root, into: &changes)
    return StateDiff(changes: changes)
}

/// Applies `diff` to `old`; for a diff made by ``diff(_:_:)`` from `old`, the result equals the new
/// tree exactly, including field order.
///
/// - Throws: ``DiffApplicationError`` when the diff does not fit the tree (it was made from another one).
public func apply(_ diff: StateDiff, to old: StateValue) throws(DiffApplicationError) -> StateValue {
    var value = old
    for change in diff.changes {
        try StateDiffer.apply(change, components: change.path.components[...], to: &value)
    }
    return value
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
    static func collect(_ old: StateValue, _ new: StateValue, at path: StatePath, into changes: inout [StateChange]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let oldFields), .object(let newFields)) where oldFields.keys == newFields.keys:
            // The common case — same fields, same order — needs no set arithmetic.
            for index in oldFields.values.indices where oldFields.values[index] != newFields.values[index] {
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
                    collect(previous, value, at: path.appending(.key(key)), into: &changes)
                } else {
                    changes.append(StateChange(path: path.appending(.key(key)), operation: .added(value), fieldPosition: position))
                }
            }
        case (.array(let oldElements), .array(let newElements)):
            for step in ArrayAlignment.align(oldElements, newElements) {
                switch step {
                case .keep:
                    continue
                case .edit(let oldIndex, let newIndex):
                    collect(oldElements[oldIndex], newElements[newIndex], at: path.appending(.index(newIndex)), into: &changes)
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

    static func apply(_ change: StateChange, components: ArraySlice<StatePath.Component>, to value: inout StateValue) throws(DiffApplicationError) {
        guard let first = components.first else {
            guard case .changed(_, let new) = change.operation else {
                throw DiffApplicationError(path: change.path, reason: "only a change can apply to the root")
            }
            value = new
            return
        }
        let rest = components.dropFirst()
        switch (value, first) {
        case (.object(var fields), .key(let key)):
            value = .null  // release the tree's reference so the fields are mutated in place
            defer { value = .object(fields) }
            if rest.isEmpty {
                switch change.operation {
                case .added(let new):
                    guard fields[key] == nil else { throw DiffApplicationError(path: change.path, reason: "the field already exists") }
                    fields.updateValue(new, forKey: key, insertingAt: min(change.fieldPosition ?? fields.count, fields.count))
                case .removed:
                    guard fields.removeValue(forKey: key) != nil else { throw DiffApplicationError(path: change.path, reason: "no such field") }
                case .changed(_, let new):
                    guard fields[key] != nil else { throw DiffApplicationError(path: change.path, reason: "no such field") }
                    fields[key] = new
                }
            } else {
                guard var child = fields[key] else { throw DiffApplicationError(path: change.path, reason: "no field '\(key)'") }
                fields[key] = .null
                try apply(change, components: rest, to: &child)
                fields[key] = child
            }
        case (.array(var elements), .index(let index)):
            value = .null
            defer { value = .array(elements) }
            if rest.isEmpty {
                switch change.operation {
                case .added(let new):
                    guard index <= elements.count else { throw DiffApplicationError(path: change.path, reason: "index beyond the end") }
                    elements.insert(new, at: index)
                case .removed:
                    guard elements.indices.contains(index) else { throw DiffApplicationError(path: change.path, reason: "no such element") }
                    elements.remove(at: index)
                case .changed(_, let new):
                    guard elements.indices.contains(index) else { throw DiffApplicationError(path: change.path, reason: "no such element") }
                    elements[index] = new
                }
            } else {
                guard elements.indices.contains(index) else { throw DiffApplicationError(path: change.path, reason: "no element \(index)") }
                var child = elements[index]
                elements[index] = .null
                try apply(change, components: rest, to: &child)
                elements[index] = child
            }
        default:
            throw DiffApplicationError(path: change.path, reason: "found \(value.shapeName) where the diff expects a container")
        }
    }
}
