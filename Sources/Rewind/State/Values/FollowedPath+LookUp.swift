extension FollowedPath {
    /// The path's value in a state, as a condition reads it: `count` of a list, text or object
    /// (where it has no such field) is its length, and what is not there is `null`. The one rule
    /// for conditions, the block summaries the writer makes and `verify --deep`.
    package func lookUp(in state: StateValue?) -> StateValue {
        guard let state else { return .null }
        if let value = value(in: state) { return value }
        guard case .key("count")? = components.last else { return .null }
        let container = FollowedPath(components: Array(components.dropLast())).value(in: state)
        switch container {
        case .array(let elements)?: return .integer(Int64(elements.count))
        case .string(let text)?: return .integer(Int64(text.count))
        case .object(let fields)?: return .integer(Int64(fields.count))
        default: return .null
        }
    }
}
