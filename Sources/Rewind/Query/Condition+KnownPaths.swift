extension Condition {
    /// A key path of a condition that no unit of a recording has, with the known paths nearest
    /// to it: `unredCount` in a journal whose units have `unreadCount`.
    public struct UnknownPath: Sendable, Equatable, CustomStringConvertible {
        /// The path as written.
        public var path: String
        /// Known paths that look like it (at most five), nearest first.
        public var nearest: [String]

        public var description: String {
            "no unit in this recording has a field \(path)" + (nearest.isEmpty ? "" : "; did you mean \(nearest.map { "'\($0)'" }.joined(separator: ", "))?")
        }
    }

    /// The condition's key paths that none of `schemas` has (the type schemas units record when
    /// they are created, ``TypeSchema``): a path is checked key by key, through the fields a
    /// schema lists — a field whose inside it does not list (a list, a dictionary, an enum) may
    /// hold anything. A path that starts with an index or reads `count` of a field is checked up
    /// to there. With no schemas (a journal written before schemas were recorded), nothing is
    /// unknown.
    public func unknownPaths(given schemas: [TypeSchema]) -> [UnknownPath] {
        paths.compactMap { Self.unknownPath($0, given: schemas) }
    }

    /// `path`, if none of `schemas` has it (see ``unknownPaths(given:)``): for commands that take
    /// one key path (`rewind blame`).
    public static func unknownPath(_ path: FollowedPath, given schemas: [TypeSchema]) -> UnknownPath? {
        guard !schemas.isEmpty else { return nil }
        let known = Set(schemas.flatMap { $0.fields.map(\.path) })
        var unknown: [UnknownPath] = []
        do {
            var prefix = ""
            for component in path.components {
                guard case .key(let key) = component else { break }
                let candidate = prefix.isEmpty ? key : prefix + "." + key
                // `count` of a field that has none is its length.
                if key == "count", !known.contains(candidate), !prefix.isEmpty { break }
                guard known.contains(candidate) else {
                    // Only where the schema lists the fields at this level.
                    let siblings = known.filter { field in
                        prefix.isEmpty ? !field.contains(".") : field.hasPrefix(prefix + ".") && !field.dropFirst(prefix.count + 1).contains(".")
                    }
                    if !siblings.isEmpty {
                        unknown.append(UnknownPath(path: path.description, nearest: Self.nearest(to: candidate, among: siblings)))
                    }
                    break
                }
                prefix = candidate
            }
        }
        return unknown.first
    }

    /// Every key path the condition reads.
    var paths: [FollowedPath] {
        var found: [FollowedPath] = []
        func visit(_ node: Node) {
            switch node {
            case .path(let path), .old(let path), .changed(let path): found.append(path)
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

    /// The known paths nearest to `path`, by edit distance without case (a few edits, or one
    /// that contains the other), nearest first.
    static func nearest(to path: String, among known: Set<String>) -> [String] {
        let target = Array(path.lowercased())
        let scored = known.map { candidate -> (String, Int) in
            let lowered = candidate.lowercased()
            let distance = lowered.contains(path.lowercased()) || path.lowercased().contains(lowered) ? 1 : editDistance(target, Array(lowered))
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
    /// The type schemas the recording's units recorded when they were created; `nil` when a unit
    /// that has a state recorded none (it was created before the recording began, or by an older
    /// writer): then what the units' states hold is not all known. Units without a state (a
    /// flux) need none.
    public func recordedSchemas() -> [TypeSchema]? {
        var schemas: [TypeSchema] = []
        for summary in sources {
            guard let first = try? event(sequence: summary.sequences.lowerBound) else { return nil }
            if first.kind == .created, !first.carriesState { continue }
            guard first.kind == .created, let schema = TypeSchema(recorded: first.description),
                  schema.fields.count < TypeSchema.maximumFields else { return nil }
            schemas.append(schema)
        }
        return schemas
    }
}
