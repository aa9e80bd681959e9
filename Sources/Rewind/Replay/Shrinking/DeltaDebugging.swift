/// Delta debugging's `ddmin` (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing
/// Input", 2002): reduces a failing set of items to one where removing any single item makes the
/// failure go away (1-minimal), by testing halves, then quarters, and so on, and their complements.
///
/// It is pure: the test is given, and nothing else is touched.
package enum DeltaDebugging {
    /// What a reduction ended with.
    package struct Result: Equatable {
        /// The items kept, in their original order.
        package var kept: [Int]
        /// Whether removing any one of `kept` was tried and made the failure go away; `false` when
        /// the time ran out first.
        package var isMinimal: Bool
        /// How many sets were tested.
        package var tests: Int
    }

    /// Reduces `items` (which fail) as far as the time allows.
    ///
    /// - Parameters:
    ///   - fails: whether a subset of `items` (in their order) still fails.
    ///   - isOutOfTime: whether to stop now, with what is reduced so far.
    static func minimize(_ items: [Int], fails: ([Int]) -> Bool, isOutOfTime: () -> Bool) -> Result {
        var tested: [[Int]: Bool] = [:]
        func test(_ subset: [Int]) -> Bool {
            if let known = tested[subset] { return known }
            let result = fails(subset)
            tested[subset] = result
            return result
        }
        var current = items
        var granularity = 2
        while current.count >= 2 {
            let chunks = Self.split(current, into: granularity)
            var reduced = false
            for chunk in chunks {
                if isOutOfTime() { return Result(kept: current, isMinimal: false, tests: tested.count) }
                if test(chunk) {
                    current = chunk
                    granularity = 2
                    reduced = true
                    break
                }
            }
            // With two chunks, each complement is the other chunk, tested already.
            if !reduced, chunks.count > 2 {
                for index in chunks.indices {
                    if isOutOfTime() { return Result(kept: current, isMinimal: false, tests: tested.count) }
                    let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
                    if test(complement) {
                        current = complement
                        granularity = max(granularity - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if granularity >= current.count { break }
                granularity = min(granularity * 2, current.count)
            }
        }
        if current.count == 1 {
            if isOutOfTime() { return Result(kept: current, isMinimal: false, tests: tested.count) }
            if test([]) { current = [] }
        }
        return Result(kept: current, isMinimal: true, tests: tested.count)
    }

    /// `items` in `count` runs of nearly equal length, in order.
    static func split(_ items: [Int], into count: Int) -> [[Int]] {
        var chunks: [[Int]] = []
        var start = 0
        for index in 0..<count {
            let end = start + (items.count - start) / (count - index)
            chunks.append(Array(items[start..<end]))
            start = end
        }
        return chunks.filter { !$0.isEmpty }
    }
}
