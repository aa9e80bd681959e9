extension StateValue {
    /// A total order over state values, used to give unordered collections (sets, dictionaries with
    /// non-string keys) the same order in every process: Swift's hashing is seeded per process, so
    /// their iteration order is not.
    static func canonicallyOrdered(_ lhs: StateValue, _ rhs: StateValue) -> Bool {
        if lhs.shapeRank != rhs.shapeRank { return lhs.shapeRank < rhs.shapeRank }
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.integer(let a), .integer(let b)): return a < b
        case (.unsignedInteger(let a), .unsignedInteger(let b)): return a < b
        case (.integer, .unsignedInteger): return true
        case (.unsignedInteger, .integer): return false
        case (.floatingPoint(let a), .floatingPoint(let b)): return a < b
        case (.string(let a), .string(let b)): return a < b
        case (.array(let a), .array(let b)):
            return a.lexicographicallyPrecedes(b, by: canonicallyOrdered)
        case (.object(let a), .object(let b)):
            return a.elements.lexicographicallyPrecedes(b.elements) { left, right in
                left.key != right.key ? left.key < right.key : canonicallyOrdered(left.value, right.value)
            }
        case (.opaque(let a), .opaque(let b)):
            return (a.typeName, a.text) < (b.typeName, b.text)
        default: return false
        }
    }

    private var shapeRank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer, .unsignedInteger: 2
        case .floatingPoint: 3
        case .string: 4
        case .array: 5
        case .object: 6
        case .opaque: 7
        }
    }
}
