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

/// What the viewer shows for the current step: its event, the source's state before and after, the
/// diff base, and the state tree's rows.
struct StepView {
    let event: RecordedEvent?
    let state: StateValue?
    let base: StateValue?
    let rows: [StateRow]
    let diffLines: [DiffRenderer.Line]

    init(model: ViewerModel, timeline: Timeline) {
        event = timeline.event(at: model.position)
        guard let event else {
            state = nil
            base = nil
            rows = []
            diffLines = []
            return
        }
        let source = event.source.instanceID
        let current = timeline.state(of: source, at: event.sequence)
        let previous = event.sequence > 0 ? timeline.state(of: source, at: event.sequence - 1) : nil
        state = current
        base = model.pinned.map { timeline.state(of: source, at: $0) } ?? previous
        let changed = Set((previous == nil || current == nil) ? [] : diff(previous!, current!).changedPaths)
        rows = current.map { Self.rows($0, collapsed: model.collapsed, changed: changed) } ?? []
        diffLines = DiffRenderer(valueWidth: 60).lines(from: base ?? .null, to: current ?? .null)
    }

    static func rows(_ state: StateValue, collapsed: Set<StatePath>, changed: Set<StatePath>) -> [StateRow] {
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
}
