/// A place where a recorded state no longer matches today's type: a field renamed, removed or added,
/// or a value of another kind. The replay leaves such paths out of its comparisons and carries on
/// with the rest.
public struct SchemaProblem: Sendable, Equatable, CustomStringConvertible {
    /// Where, as a state path (`info.title`).
    public var path: String
    /// What is wrong there.
    public var reason: String
    /// The type the path is in, when the recording names it (`Cart.State`, `Action`).
    public var typeName: String?

    /// Creates a problem.
    package init(path: String, reason: String, typeName: String? = nil) {
        self.path = path
        self.reason = reason
        self.typeName = typeName
    }

    /// `Cart.State.lines: added (Array<String>)`, `title: recorded, but today's state has no such field`.
    public var description: String {
        let owner = typeName.flatMap { $0.isEmpty ? nil : $0 }
        let place = [owner, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: ".")
        return place.isEmpty ? reason : "\(place): \(reason)"
    }

    /// The fields and kinds that differ between a recorded tree and today's, outermost first.
    static func differences(recorded: StateValue, live: StateValue, at path: StatePath = .root) -> [SchemaProblem] {
        switch (recorded, live) {
        case (.object(let old), .object(let new)):
            var problems: [SchemaProblem] = []
            for key in old.keys where new[key] == nil {
                problems.append(SchemaProblem(path: path.appending(.key(key)).description, reason: "recorded, but today's state has no such field"))
            }
            for key in new.keys where old[key] == nil {
                problems.append(SchemaProblem(path: path.appending(.key(key)).description, reason: "new in today's state; the recording has no value for it"))
            }
            for (key, value) in old {
                if let current = new[key] {
                    problems += differences(recorded: value, live: current, at: path.appending(.key(key)))
                }
            }
            return problems
        case (.null, _), (_, .null), (.array, .array), (.opaque, _), (_, .opaque):
            return []
        case (.integer, .floatingPoint), (.floatingPoint, .integer), (.integer, .unsignedInteger), (.unsignedInteger, .integer):
            return []
        default:
            if recorded.shapeName == live.shapeName { return [] }
            return [SchemaProblem(path: path.description, reason: "recorded as \(recorded.shapeName), today \(live.shapeName)")]
        }
    }

    /// The problem a `DecodingError` describes, at its coding path.
    static func from(_ error: any Error) -> SchemaProblem {
        guard let error = error as? DecodingError else {
            return SchemaProblem(path: "", reason: "\(error)")
        }
        func text(_ path: [any CodingKey]) -> String {
            var statePath = StatePath.root
            for key in path {
                statePath = statePath.appending(key.intValue.map { .index($0) } ?? .key(key.stringValue))
            }
            return statePath.description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return SchemaProblem(path: text(context.codingPath + [key]), reason: "today's type needs it; the recording has no value for it")
        case .typeMismatch(let type, let context):
            return SchemaProblem(path: text(context.codingPath), reason: "today's type wants \(type) (\(context.debugDescription))")
        case .valueNotFound(let type, let context):
            return SchemaProblem(path: text(context.codingPath), reason: "today's type wants a \(type); the recording has none")
        case .dataCorrupted(let context):
            return SchemaProblem(path: text(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return SchemaProblem(path: "", reason: "\(error)")
        }
    }
}

extension StateValue {
    /// `value` without the fields at `paths` (left out of comparisons).
    func removing(_ paths: [StatePath]) -> StateValue {
        paths.reduce(self) { tree, path in tree.removing(path.components[...]) }
    }

    private func removing(_ components: ArraySlice<StatePath.Component>) -> StateValue {
        guard let first = components.first, case .key(let key) = first, case .object(var fields) = self else { return self }
        if components.count == 1 {
            fields.removeValue(forKey: key)
        } else if let child = fields[key] {
            fields[key] = child.removing(components.dropFirst())
        }
        return .object(fields)
    }
}
