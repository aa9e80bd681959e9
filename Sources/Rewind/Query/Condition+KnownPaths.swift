extension Condition {
    /// A key path of a condition whose first field no unit of a recording has, with the known
    /// fields nearest to it: `unredCount` in a journal whose units have `unreadCount`.
    package struct UnknownPath: Sendable, Equatable, CustomStringConvertible {
        /// The path as written.
        package var path: String
        /// Known fields that look like its first one (at most five), nearest first.
        package var nearest: [String]

        package var description: String {
            "no unit in this recording has a field \(path)" + (nearest.isEmpty ? "" : "; did you mean \(nearest.map { "'\($0)'" }.joined(separator: ", "))?")
        }
    }

    /// The condition's key paths whose first field is none of `knownFields` (the fields units'
    /// states start with: ``JournalReader/recordedFields()``). Only the first field is judged:
    /// deeper, a field may hold a dictionary, an optional that was `nil`, an element of a list.
    /// With `nil` (what the units' states hold is not all known), nothing is unknown.
    package func unknownPaths(knownFields: Set<String>?) -> [UnknownPath] {
        paths.compactMap { Self.unknownPath($0, knownFields: knownFields) }
    }

    /// `path`, if its first field is none of `knownFields` (see ``unknownPaths(knownFields:)``):
    /// for commands that take one key path (`rewind blame`).
    package static func unknownPath(_ path: FollowedPath, knownFields: Set<String>?) -> UnknownPath? {
        guard let knownFields, !knownFields.isEmpty, case .key(let first)? = path.components.first, !knownFields.contains(first) else { return nil }
        return UnknownPath(path: path.description, nearest: nearest(to: first, among: knownFields))
    }

    /// Every key path the condition reads (up to its first `[*]`).
    var paths: [FollowedPath] {
        var found: [FollowedPath] = []
        func visit(_ node: Node) {
            switch node {
            case .path(let path), .old(let path), .changed(let path): found.append(path.segments[0])
            case .count(let inner, let over, _):
                found.append(over)
                visit(inner)
            case .not(let inner): visit(inner)
            case .and(let left, let right), .or(let left, let right), .compare(let left, _, let right):
                visit(left)
                visit(right)
            case .literal, .step: break
            }
        }
        visit(root)
        return found
    }

    /// The known names nearest to `name`, by edit distance without case (a few edits, or one
    /// that contains the other), nearest first.
    static func nearest(to name: String, among known: Set<String>) -> [String] {
        let target = Array(name.lowercased())
        let scored = known.map { candidate -> (String, Int) in
            let lowered = candidate.lowercased()
            let distance = lowered.contains(name.lowercased()) || name.lowercased().contains(lowered) ? 1 : editDistance(target, Array(lowered))
            return (candidate, distance)
        }
        let limit = max(2, target.count / 3)
        return scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(5).map(\.0)
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension JournalReader {
    /// The fields the recording's units' states start with: the first fields of the type schema
    /// each unit recorded when it was created, and the fields of the state it was created with
    /// (a `Codable` state's coding keys, a class's inherited properties). `nil` when that is not
    /// known for every unit that has a state: one created before the recording began or by an
    /// older writer, or whose state is not an object (a list: `count` is its length).
    package func recordedFields() -> Set<String>? {
        var fields = Set<String>()
        // The app's loggers have no state: their messages say nothing of fields.
        for summary in sources where !summary.source.isLogger {
            guard let first = try? event(sequence: summary.sequences.lowerBound) else { return nil }
            if first.kind == .created, !first.carriesState { continue }
            guard first.kind == .created, let schema = TypeSchema(recorded: first.description),
                  schema.fields.count < TypeSchema.maximumFields,
                  case .keyframe(.object(let state))? = first.stateRecord else { return nil }
            fields.formUnion(schema.fields.map(\.path).filter { !$0.contains(".") })
            fields.formUnion(state.keys)
        }
        return fields
    }
}
