/// A change that replaced a whole list or object, said as what changed in it — as Redux DevTools'
/// Diff tab does — rather than as the new value: `items[id: 2].done: false → true`,
/// `items +[id: 5] {title: "Tea"}`, `items −[id: 3] "Eggs"`, with `(+2 more)` when several
/// elements changed. Elements with an `id` field are named by it (the rule of ``FollowedPath``,
/// which blame follows), others by position.
///
/// ```swift
/// ChangeText.text(path: "items", old: before, new: after, limit: 60)
/// // "items[id: 2].done: false → true"
/// ```
package enum ChangeText {
    /// The summary, cut with `…` after about `limit` characters; `nil` when `old` and `new` are
    /// not both lists or both objects (a scalar's `old → new` says it already).
    package static func text(path: String, old: StateValue, new: StateValue, limit: Int) -> String? {
        switch (old, new) {
        case (.array, .array), (.object, .object): break
        default: return nil
        }
        let changes = StateDiff(from: old, to: new).changes
        guard let first = changes.first else { return fitted("\(path): unchanged", limit) }
        var text = describe(first, path: path, old: old, new: new, limit: limit)
        if changes.count > 1 { text += " (+\(changes.count - 1) more)" }
        return fitted(text, limit)
    }

    private static func describe(_ change: StateChange, path: String, old: StateValue, new: StateValue, limit: Int) -> String {
        let room = max(8, limit / 2)
        switch change.operation {
        case .changed(let from, let to):
            return "\(path)\(relative(change.path, in: new)): \(from.compactDescription(limit: room)) → \(to.compactDescription(limit: room))"
        case .added(let value):
            let (place, label) = element(change.path, value: value, in: new)
            return "\(path) +\(place) \(label.compactDescription(limit: room))"
        case .removed(let value):
            let (place, label) = element(change.path, value: value, in: old)
            return "\(path) −\(place) \(label.compactDescription(limit: room))"
        }
    }

    /// `[id: 2].done`, or `.title`, or `[3]`: a path inside the changed value, as blame names it.
    private static func relative(_ path: StatePath, in value: StateValue) -> String {
        guard !path.components.isEmpty else { return "" }
        let text = FollowedPath(path, in: value).description
        return text.hasPrefix("[") ? text : "." + text
    }

    /// Where an added or removed element is — `[id: 5]` when it has an id, its path otherwise —
    /// and what to show of it: its one text field (`"Eggs"`) or itself without its id.
    private static func element(_ path: StatePath, value: StateValue, in container: StateValue) -> (place: String, label: StateValue) {
        guard case .object(var fields) = value, let id = fields["id"], path.components.last.map(isIndex) == true else {
            return (relative(path, in: container).trimmingPrefix("."), value)
        }
        let parent = StatePath(Array(path.components.dropLast()))
        let place = (parent.components.isEmpty ? "" : relative(parent, in: container)) + "[id: \(id.compactDescription(limit: 20))]"
        fields.removeValue(forKey: "id")
        let texts = fields.values.filter { if case .string = $0 { true } else { false } }
        return (place, texts.count == 1 ? texts[0] : .object(fields))
    }

    private static func isIndex(_ component: StatePath.Component) -> Bool {
        if case .index = component { true } else { false }
    }

    private static func fitted(_ text: String, _ limit: Int) -> String {
        VisibleText.truncated(text, to: limit)
    }
}

extension String {
    fileprivate func trimmingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
