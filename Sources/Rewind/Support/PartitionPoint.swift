extension Range where Bound == Int {
    /// The first position in the range at which `isPast` holds, for a predicate that is false up
    /// to some position and true from there on (a partition point, as C++'s
    /// `std::partition_point`); `upperBound` when it never holds. A binary search: about
    /// `log2(count)` calls of `isPast`. The one binary search of the package.
    ///
    /// ```swift
    /// let sorted = [2, 3, 5, 7, 11]
    /// sorted.indices.partitionPoint { sorted[$0] >= 5 }   // 2
    /// sorted.indices.partitionPoint { sorted[$0] > 11 }   // 5
    /// ```
    package func partitionPoint(where isPast: (Int) throws -> Bool) rethrows -> Int {
        var low = lowerBound, high = upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if try isPast(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
