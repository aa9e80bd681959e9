/// Lines up the elements of two arrays: which stayed, which were edited in place, which were removed
/// and which were inserted. Diffing and diff rendering share it so that they always agree.
enum ArrayAlignment {
    /// One step of the alignment, in order from the front.
    enum Step: Equatable {
        /// `old[old]` is unchanged and is `new[new]`.
        case keep(old: Int, new: Int)
        /// `old[old]` was edited into `new[new]`.
        case edit(old: Int, new: Int)
        /// `old[old]` was removed; it sat where `new[new]` is now.
        case remove(old: Int, new: Int)
        /// `new[new]` was inserted.
        case insert(new: Int)

        /// The step with both positions moved on by `offset`.
        func shifted(by offset: Int) -> Step {
            switch self {
            case .keep(let old, let new): .keep(old: old + offset, new: new + offset)
            case .edit(let old, let new): .edit(old: old + offset, new: new + offset)
            case .remove(let old, let new): .remove(old: old + offset, new: new + offset)
            case .insert(let new): .insert(new: new + offset)
            }
        }
    }

    /// The largest table the longest-common-subsequence search may fill; beyond it (two long arrays
    /// that differ everywhere) elements are paired by position, which is quadratic in nothing.
    static let tableLimit = 4_000_000

    /// Elements that carry an identity — objects with an `id` field, as `Identifiable` models encode —
    /// are matched by it, so an edited item stays itself and an inserted one is an insertion. Other
    /// elements are matched by equality.
    static func align(_ old: [StateValue], _ new: [StateValue]) -> [Step] {
        // Equal elements at the front and back are kept whichever way the rest is matched; trees that
        // share storage (a list that grew by one item keeps its other items' trees) compare at once.
        // Only the middle is looked into for identities.
        var front = 0
        while front < old.count, front < new.count, old[front].isSame(as: new[front]) { front += 1 }
        var back = 0
        while back < old.count - front, back < new.count - front, old[old.count - 1 - back].isSame(as: new[new.count - 1 - back]) { back += 1 }
        var aligned = (0..<front).map { Step.keep(old: $0, new: $0) }
        aligned.reserveCapacity(max(old.count, new.count))
        let oldMiddle = Array(old[front..<(old.count - back)]), newMiddle = Array(new[front..<(new.count - back)])
        let middle: [Step] = if let oldIDs = identities(oldMiddle), let newIDs = identities(newMiddle) {
            steps(oldMiddle, newMiddle, matching: matches(oldIDs, newIDs), byIdentity: true)
        } else {
            steps(oldMiddle, newMiddle, matching: matches(oldMiddle, newMiddle), byIdentity: false)
        }
        for step in middle { aligned.append(step.shifted(by: front)) }
        aligned += (0..<back).map { Step.keep(old: old.count - back + $0, new: new.count - back + $0) }
        return aligned
    }

    private static func identities(_ elements: [StateValue]) -> [StateValue]? {
        guard !elements.isEmpty else { return nil }
        var ids: [StateValue] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let fields) = element, let id = fields["id"] else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// The index pairs of matching keys (elements, or their identities), in order: the common front
    /// and back are matched directly, and only what lies between them is searched — so an append, a
    /// removal or an edit in a long array costs one pass, not a table as large as both arrays.
    private static func matches(_ old: [StateValue], _ new: [StateValue]) -> [(Int, Int)] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }

        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        var pairs = (0..<prefix).map { ($0, $0) }
        if oldMiddle.count * newMiddle.count <= tableLimit {
            pairs += commonSubsequence(old, oldMiddle, new, newMiddle)
        }
        pairs += (0..<suffix).map { (old.count - suffix + $0, new.count - suffix + $0) }
        return pairs
    }

    /// The steps between and at the matched pairs. Elements matched by equality are kept; matched
    /// by identity, they are kept or edited. Between matches, elements matched by equality are
    /// paired as edits in place; by identity they are not (a different identity is a different
    /// element).
    private static func steps(_ old: [StateValue], _ new: [StateValue], matching pairs: [(Int, Int)], byIdentity: Bool) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(max(old.count, new.count))
        var oldCursor = 0, newCursor = 0
        for (oldIndex, newIndex) in pairs + [(old.count, new.count)] {
            appendHunk(&steps, old: oldCursor..<oldIndex, new: newCursor..<newIndex, pairingLeftovers: !byIdentity)
            if oldIndex < old.count {
                steps.append(byIdentity && old[oldIndex] != new[newIndex] ? .edit(old: oldIndex, new: newIndex) : .keep(old: oldIndex, new: newIndex))
            }
            oldCursor = oldIndex + 1
            newCursor = newIndex + 1
        }
        return steps
    }

    /// A run of removed and inserted elements between two kept ones: pairs are edits in place, the
    /// rest are removals or insertions. Elements matched by identity are not paired: a different
    /// identity is a different element.
    private static func appendHunk(_ steps: inout [Step], old: Range<Int>, new: Range<Int>, pairingLeftovers: Bool = true) {
        let paired = pairingLeftovers ? min(old.count, new.count) : 0
        for offset in 0..<paired {
            steps.append(.edit(old: old.lowerBound + offset, new: new.lowerBound + offset))
        }
        for offset in paired..<max(paired, old.count) {
            steps.append(.remove(old: old.lowerBound + offset, new: new.lowerBound + paired))
        }
        for offset in paired..<max(paired, new.count) {
            steps.append(.insert(new: new.lowerBound + offset))
        }
    }

    /// The index pairs of a longest common subsequence of the two ranges, by dynamic programming.
    private static func commonSubsequence(
        _ old: [StateValue], _ oldRange: Range<Int>, _ new: [StateValue], _ newRange: Range<Int>
    ) -> [(Int, Int)] {
        let rows = oldRange.count, columns = newRange.count
        guard rows > 0, columns > 0 else { return [] }
        // lengths[i][j]: LCS length of old[i...] and new[j...], flattened.
        var lengths = [Int32](repeating: 0, count: (rows + 1) * (columns + 1))
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i * (columns + 1) + j] = old[oldRange.lowerBound + i] == new[newRange.lowerBound + j]
                    ? lengths[(i + 1) * (columns + 1) + j + 1] + 1
                    : max(lengths[(i + 1) * (columns + 1) + j], lengths[i * (columns + 1) + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < rows, j < columns {
            if old[oldRange.lowerBound + i] == new[newRange.lowerBound + j] {
                pairs.append((oldRange.lowerBound + i, newRange.lowerBound + j))
                i += 1
                j += 1
            } else if lengths[(i + 1) * (columns + 1) + j] >= lengths[i * (columns + 1) + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
