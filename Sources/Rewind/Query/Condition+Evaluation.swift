import Logging

extension Condition {
    /// Whether the condition holds at a step.
    package func isTrue(at step: ConditionStep) -> Bool {
        Evaluation(step: step).isTrue(root)
    }

    /// Whether a condition reads the state before a step (`old(…)`, `changed(…)`): at a commit's
    /// end that is the state when it began, perhaps blocks earlier.
    static func readsBefore(_ node: Node) -> Bool {
        switch node {
        case .old, .changed: true
        case .count(let inner, _, let before): before || readsBefore(inner)
        case .not(let inner): readsBefore(inner)
        case .and(let left, let right), .or(let left, let right), .compare(let left, _, let right): readsBefore(left) || readsBefore(right)
        case .literal, .path, .step: false
        }
    }

    /// One condition judged at one step, with the elements `count(…)`s are counting.
    private struct Evaluation {
        let step: ConditionStep
        /// The element each enclosing `count(…)` is at, innermost last.
        var counting: [(over: FollowedPath, before: Bool, element: StateValue)] = []

        func isTrue(_ node: Node) -> Bool {
            switch node {
            case .not(let inner): !isTrue(inner)
            case .and(let left, let right): isTrue(left) && isTrue(right)
            case .or(let left, let right): isTrue(left) || isTrue(right)
            case .changed(let path): values(path, before: true) != values(path, before: false)
            case .compare(let left, let comparison, let right): holds(left, comparison, right)
            case .literal, .path, .old, .step, .count: values(node).contains(.bool(true))
            }
        }

        /// Whether the comparison holds for some value on each side: `items[*].done != true`.
        /// (Two paths through `[*]` outside a `count(…)` go over their elements independently.)
        private func holds(_ left: Node, _ comparison: Comparison, _ right: Node) -> Bool {
            let lefts = values(left)
            return values(right).contains { right in lefts.contains { Condition.compare($0, comparison, right) } }
        }

        /// A node's values at the step: one, except for a path through `[*]`.
        private func values(_ node: Node) -> [StateValue] {
            switch node {
            case .literal(let value): [value]
            case .path(let path): values(path, before: false)
            case .old(let path): values(path, before: true)
            case .step(.kind): [.string(step.event.kind.word)]
            case .step(.name): [.string(step.event.name)]
            case .step(.seq): [.unsignedInteger(step.event.sequence)]
            case .step(.source): [.string(step.event.source.description)]
            case .step(.level): [step.event.logLevel.map { .integer(Int64($0.rank)) } ?? .null]
            case .count(let inner, let over, let before):
                [.integer(Int64(KeyPath.elements(of: over.lookUp(in: before ? step.before : step.after)).count { element in
                    var inside = self
                    inside.counting.append((over, before, element))
                    return inside.isTrue(inner)
                }))]
            case .not, .and, .or, .changed, .compare: [.bool(isTrue(node))]
            }
        }

        /// A key path's values in the state after (or before) the step, or in the element a
        /// `count(…)` over its first `[*]` is at.
        private func values(_ path: KeyPath, before: Bool) -> [StateValue] {
            if path.hasWildcard, let bound = counting.last(where: { $0.over == path.firstContainer && $0.before == before }) {
                return path.insideFirstWildcard.values(in: bound.element)
            }
            return path.values(in: before ? step.before : step.after)
        }
    }

    static func compare(_ left: StateValue, _ comparison: Comparison, _ right: StateValue) -> Bool {
        switch comparison {
        case .equal: return same(left, right)
        case .notEqual: return !same(left, right)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = order(left, right) else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    /// Equal values; numbers compare by value (`3 == 3.0`), whatever their recorded type.
    private static func same(_ left: StateValue, _ right: StateValue) -> Bool {
        if let order = numericOrder(left, right) { return order == 0 }
        return left == right
    }

    /// -1, 0 or 1 for two numbers or two texts; `nil` for anything else.
    private static func order(_ left: StateValue, _ right: StateValue) -> Int? {
        if let order = numericOrder(left, right) { return order }
        if case .string(let a) = left, case .string(let b) = right { return a < b ? -1 : a == b ? 0 : 1 }
        return nil
    }

    private static func numericOrder(_ left: StateValue, _ right: StateValue) -> Int? {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.unsignedInteger(let a), .unsignedInteger(let b)): return a < b ? -1 : a == b ? 0 : 1
        case (.integer(let a), .unsignedInteger(let b)): return a < 0 || UInt64(a) < b ? -1 : UInt64(a) == b ? 0 : 1
        case (.unsignedInteger(let a), .integer(let b)): return b < 0 || a > UInt64(b) ? 1 : a == UInt64(b) ? 0 : -1
        default:
            guard let a = number(left), let b = number(right), !a.isNaN, !b.isNaN else { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        }
    }

    private static func number(_ value: StateValue) -> Double? {
        switch value {
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        case .floatingPoint(let value): value
        default: nil
        }
    }
}
