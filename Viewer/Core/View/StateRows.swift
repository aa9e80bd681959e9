import Rewind

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
        func isChanged(_ path: StatePath) -> Bool {
            changed.contains { path.isPrefix(of: $0) || $0.isPrefix(of: path) }
        }
        func walk(_ value: StateValue, label: String, path: StatePath, depth: Int) {
            let folded = collapsed.contains(path)
            switch value {
            case .object(let fields) where !fields.isEmpty:
                rows.append(StateRow(path: path, depth: depth, text: "\(folded ? "▸" : "▾") \(label){\(fields.count)}", isContainer: true, isCollapsed: folded, changed: isChanged(path)))
                guard !folded else { return }
                for (key, child) in fields {
                    walk(child, label: StateValue.displayKey(key) + ": ", path: path.appending(.key(key)), depth: depth + 1)
                }
            case .array(let elements) where !elements.isEmpty:
                rows.append(StateRow(path: path, depth: depth, text: "\(folded ? "▸" : "▾") \(label)[\(elements.count)]", isContainer: true, isCollapsed: folded, changed: isChanged(path)))
                guard !folded else { return }
                for (index, child) in elements.enumerated() {
                    walk(child, label: "[\(index)] ", path: path.appending(.index(index)), depth: depth + 1)
                }
            default:
                rows.append(StateRow(path: path, depth: depth, text: "  \(label)\(value.compactDescription(limit: 200))", isContainer: false, isCollapsed: false, changed: isChanged(path)))
            }
        }
        walk(state, label: "state ", path: .root, depth: 0)
        return rows
    }

    /// The paths of every container in a state (for collapse-all).
    static func containers(_ state: StateValue?) -> [StatePath] {
        rows(state, collapsed: [], changed: []).filter(\.isContainer).map(\.path)
    }
}
