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
    }

    /// The largest table the longest-common-subsequence search may fill; beyond it (two long arrays
    /// that differ everywhere) elements are paired by position, which is quadratic in nothing.
    static let tableLimit = 4_000_000

    /// Elements that carry an identity — objects with an `id` field, as `Identifiable` models encode —
    /// are matched by it, so an edited item stays itself and an inserted one is an insertion. Other
    /// elements are matched by equality.
    static func align(_ old: [StateValue], _ new: [StateValue]) -> [Step] {
        if let oldIDs = identities(old), let newIDs = identities(new) {
            return alignByIdentity(old, new, oldIDs, newIDs)
        }
        return alignByEquality(old, new)
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

    private static func alignByIdentity(_ old: [StateValue], _ new: [StateValue], _ oldIDs: [StateValue], _ newIDs: [StateValue]) -> [Step] {
        let matches = oldIDs.count * newIDs.count <= tableLimit
            ? commonSubsequence(oldIDs, 0..<oldIDs.count, newIDs, 0..<newIDs.count) : []
        var steps: [Step] = []
        var oldCursor = 0, newCursor = 0
        for (oldIndex, newIndex) in matches + [(old.count, new.count)] {
            appendHunk(&steps, old: oldCursor..<oldIndex, new: newCursor..<newIndex, pairingLeftovers: false)
            if oldIndex < old.count {
                steps.append(old[oldIndex] == new[newIndex] ? .keep(old: oldIndex, new: newIndex) : .edit(old: oldIndex, new: newIndex))
            }
            oldCursor = oldIndex + 1
            newCursor = newIndex + 1
        }
        return steps
    }

    private static func alignByEquality(_ old: [StateValue], _ new: [StateValue]) -> [Step] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }

        var steps = (0..<prefix).map { Step.keep(old: $0, new: $0) }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        let matches = oldMiddle.count * newMiddle.count <= tableLimit
            ? commonSubsequence(old, oldMiddle, new, newMiddle)
            : []
        var oldCursor = oldMiddle.lowerBound
        var newCursor = newMiddle.lowerBound
        for (oldIndex, newIndex) in matches + [(oldMiddle.upperBound, newMiddle.upperBound)] {
            appendHunk(&steps, old: oldCursor..<oldIndex, new: newCursor..<newIndex)
            if oldIndex < oldMiddle.upperBound {
                steps.append(.keep(old: oldIndex, new: newIndex))
            }
            oldCursor = oldIndex + 1
            newCursor = newIndex + 1
        }
        for offset in 0..<suffix {
            steps.append(.keep(old: old.count - suffix + offset, new: new.count - suffix + offset))
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
