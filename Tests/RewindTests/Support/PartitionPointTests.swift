@_spi(Tooling) @testable import Rewind
import Testing

@Suite("The one binary search")
struct PartitionPointTests {
    @Test("the first position where a false-then-true predicate holds, against a linear scan, for every cut of ranges up to 40 long")
    func againstALinearScan() {
        for start in [0, 3] {
            for length in 0...40 {
                let range = start..<(start + length)
                for cut in range.lowerBound...range.upperBound {
                    var calls = 0
                    let found = range.partitionPoint { calls += 1; return $0 >= cut }
                    #expect(found == (range.first { $0 >= cut } ?? range.upperBound))
                    // A binary search: about log2(n) looks, never a scan.
                    #expect(calls <= Int.bitWidth - max(1, length).leadingZeroBitCount + 1)
                }
            }
        }
    }
}
