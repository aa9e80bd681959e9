/// Finds where a subscript key path wrote. A Swift key path through a subscript (`\.items[3].done`)
/// prints as `items[…].done` on Linux — the index is not in its description — but the states before
/// and after the change tell it: the one element of `items` that differs.
enum SubscriptResolution {
    /// `text` (a change's path with `[…]` for each subscript) with every subscript resolved by
    /// comparing `before` and `after`; `nil` when the path names none, or when one cannot be told
    /// apart (no element or several differ, or the collection changed size).
    ///
    /// ```swift
    /// SubscriptResolution.resolve("items[…].done", before: old, after: new)   // items[3].done
    /// ```
    static func resolve(_ text: String, before: StateValue, after: StateValue) -> StatePath? {
        SubscriptedPath(text).flatMap { resolve($0, before: before, after: after) }
    }

    /// ``resolve(_:before:after:)-(String,_,_)`` for a path already split at its subscripts.
    static func resolve(_ path: SubscriptedPath, before: StateValue, after: StateValue) -> StatePath? {
        resolve(path) { collection, _ in
            guard let old = before[collection], let new = after[collection] else { return nil }
            return onlyDifference(old, new)
        }
    }

    /// The same, from the live values of the state before and after the change, without capturing
    /// either: only the elements whose bytes differ are captured and compared (see
    /// ``LiveElements``), so resolving costs what changed, not the state's size. `nil` also when the
    /// live values cannot be walked (a dictionary, a property wrapper); then capture and use
    /// ``resolve(_:before:after:)``.
    ///
    /// With the state before the change as a tree (`treeBefore`) and the value written
    /// (`written`): an element whose bytes differ, and whose tree before held something else than
    /// `written` at the path's end, is the one written — told without capturing it.
    static func resolve(_ path: SubscriptedPath, liveBefore: Any, liveAfter: Any, options: CaptureOptions, treeBefore: StateValue? = nil, written: StateValue? = nil) -> StatePath? {
        resolve(path) { collection, rest in
            guard let old = LiveValue.value(at: collection, in: liveBefore) as? any LiveElements,
                  let new = LiveValue.value(at: collection, in: liveAfter) else { return nil }
            let changedByTree: ((Int) -> Bool)? = if let treeBefore, let written, let rest {
                { index in
                    let before = treeBefore[StatePath(collection.components + [.index(index)] + rest.components)]
                    return before != nil && before != written
                }
            } else {
                nil
            }
            return old.onlyElementDiffering(from: new, options: options, changed: changedByTree).map { .index($0) }
        }
    }

    /// The field a change wrote whose key path names none (`…`: it went through a computed
    /// property at the state's root — a property wrapper's `wrappedValue`, such as a ``Secret``
    /// field's): the one top-level field in which `before` and `after` differ. `nil` when none or
    /// several differ — a write of the value already there tells nothing.
    ///
    /// The trees are compared as captured, so a secret's change shows as its versions
    /// (`<redacted>` → `<redacted 2>`): its path is found without its value.
    static func resolveUnnamedField(before: StateValue, after: StateValue) -> StatePath? {
        guard let field = onlyDifference(before, after), case .key = field else { return nil }
        return StatePath([field])
    }

    /// Walks the path piece by piece, asking `written` which element of each subscripted
    /// collection (given by its path, and — for the last subscript — the rest of the path after it)
    /// was written.
    private static func resolve(_ path: SubscriptedPath, written: (StatePath, StatePath?) -> StatePath.Component?) -> StatePath? {
        var components: [StatePath.Component] = []
        for (position, piece) in path.pieces.enumerated() {
            components += piece.components
            guard position < path.pieces.count - 1 else { break }
            guard let element = written(StatePath(components), position == path.pieces.count - 2 ? path.pieces[position + 1] : nil) else { return nil }
            components.append(element)
        }
        return StatePath(components)
    }

    /// The one element (array) or field (dictionary) in which `old` and `new` differ.
    private static func onlyDifference(_ old: StateValue, _ new: StateValue) -> StatePath.Component? {
        switch (old, new) {
        case (.array(let oldElements), .array(let newElements)) where oldElements.count == newElements.count:
            var found: Int?
            for index in oldElements.indices where oldElements[index] != newElements[index] {
                guard found == nil else { return nil }
                found = index
            }
            return found.map { .index($0) }
        case (.object(let oldFields), .object(let newFields)) where oldFields.count == newFields.count:
            var found: String?
            for (key, value) in newFields where oldFields[key] != value {
                guard found == nil else { return nil }
                found = key
            }
            return found.map { .key($0) }
        default:
            return nil
        }
    }
}

/// A change path split at its subscripts whose index the key path did not tell: `items[…].done`
/// is `items`, then `done`. Parsed once per path (see `ChangeShape`).
struct SubscriptedPath {
    /// The named steps before the first subscript, between subscripts, and after the last.
    let pieces: [StatePath]

    /// `nil` when the path has no such subscript, or a piece does not name its steps.
    init?(_ text: String) {
        let texts = text.components(separatedBy: "[…]")
        guard texts.count > 1 else { return nil }
        var pieces: [StatePath] = []
        for text in texts {
            let named = StatePath.lookingThroughOptionals(text)
            if named.isEmpty {
                pieces.append([])
                continue
            }
            guard !named.unicodeScalars.contains("…"), let parsed = try? StatePath(parsing: named) else { return nil }
            pieces.append(parsed)
        }
        self.pieces = pieces
    }
}
