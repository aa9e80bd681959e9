import OrderedCollections

/// Collections whose iteration order changes from one process to the next (Swift seeds its hashing
/// per process). Their captured trees are sorted so that two recordings of the same state are equal.
protocol UnorderedCollection {}

extension Set: UnorderedCollection {}
extension Dictionary: UnorderedCollection {}

enum StableOrder {
    /// Sorts the tree of an unordered collection: a set's elements, a dictionary's keys, or the
    /// key/value pairs that `Dictionary` encodes as a flat array when its keys are not strings.
    static func sorted(_ tree: StateValue, isDictionary: Bool) -> StateValue {
        switch tree {
        case .array(let elements) where isDictionary && elements.count.isMultiple(of: 2):
            let pairs = stride(from: 0, to: elements.count, by: 2).map { (elements[$0], elements[$0 + 1]) }
            let ordered = pairs.sorted { StateValue.canonicallyOrdered($0.0, $1.0) }
            return .array(ordered.flatMap { [$0.0, $0.1] })
        case .array(let elements):
            return .array(elements.sorted(by: StateValue.canonicallyOrdered))
        case .object(var fields):
            fields.sort { keyPrecedes($0.key, $1.key) }
            return .object(fields)
        default:
            return tree
        }
    }

    /// Orders dictionary keys: numerically when both are integers (so `2` comes before `10`),
    /// otherwise by their text.
    static func keyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        if let left = Int(lhs), let right = Int(rhs) { return left < right }
        return lhs < rhs
    }
}
