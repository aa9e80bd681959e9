@_spi(Tooling) import Rewind

/// One line of the state tree in the viewer.
struct StateRow: Equatable {
    var path: StatePath
    var depth: Int
    var text: String
    var isContainer: Bool
    var isCollapsed: Bool
    /// This step changed the node or something inside it.
    var changed: Bool
}

/// The state tree as rows: containers fold, the values a step changed are marked.
enum StateRows {
    static func rows(_ state: StateValue?, collapsed: Set<StatePath>, changed: Set<StatePath>) -> [StateRow] {
        guard let state else { return [] }
        var rows: [StateRow] = []
        // A node is changed when a changed path is inside it or it is inside one: the paths
        // leading to a changed one are known up front, and "inside a changed one" is carried
        // down the walk, so each row is judged in constant time (a step that changed 20,000 keys
        // made this quadratic).
        var leadingToChange = Set<StatePath>()
        for path in changed {
            for length in 0..<path.components.count { leadingToChange.insert(StatePath(Array(path.components.prefix(length)))) }
        }
        func walk(_ value: StateValue, label: String, path: StatePath, depth: Int, insideChange: Bool) {
            let folded = collapsed.contains(path)
            let isInsideChange = insideChange || changed.contains(path)
            let isChanged = isInsideChange || leadingToChange.contains(path)
            switch value {
            case .object(let fields) where !fields.isEmpty:
                rows.append(StateRow(path: path, depth: depth, text: "\(folded ? "▸" : "▾") \(label){\(fields.count)}", isContainer: true, isCollapsed: folded, changed: isChanged))
                guard !folded else { return }
                for (key, child) in fields {
                    walk(child, label: StateValue.displayKey(key) + ": ", path: path.appending(.key(key)), depth: depth + 1, insideChange: isInsideChange)
                }
            case .array(let elements) where !elements.isEmpty:
                rows.append(StateRow(path: path, depth: depth, text: "\(folded ? "▸" : "▾") \(label)[\(elements.count)]", isContainer: true, isCollapsed: folded, changed: isChanged))
                guard !folded else { return }
                for (index, child) in elements.enumerated() {
                    walk(child, label: "[\(index)] ", path: path.appending(.index(index)), depth: depth + 1, insideChange: isInsideChange)
                }
            default:
                rows.append(StateRow(path: path, depth: depth, text: "  \(label)\(value.compactDescription(limit: 200))", isContainer: false, isCollapsed: false, changed: isChanged))
            }
        }
        walk(state, label: "state ", path: .root, depth: 0, insideChange: false)
        return rows
    }

    /// The paths of every container in a state (for collapse-all).
    static func containers(_ state: StateValue?) -> [StatePath] {
        rows(state, collapsed: [], changed: []).filter(\.isContainer).map(\.path)
    }
}
