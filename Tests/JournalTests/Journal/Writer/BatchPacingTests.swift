@testable import Rewind
import Testing

/// A producer waiting for room in a full queue waits for one take of the writer; these check that
/// a take holds about as many events as the writer encodes in the target time, whatever they cost.
@Suite("Writer batch pacing")
struct BatchPacingTests {
    @Test("cheap events are taken 1,024 at a time, as before pacing")
    func cheapEventsFillTheLargestBatch() {
        var pacing = BatchPacing()
        #expect(pacing.limit == 1_024)
        pacing.encoded(1_024, in: 1_024 * 900)  // 0.9 µs an event: a release build's counter
        #expect(pacing.limit == 1_024)
    }

    @Test("costly events shrink the batch to what fits in the target time")
    func costlyEventsShrinkTheBatch() {
        var pacing = BatchPacing()
        pacing.encoded(100, in: 100 * 20_000)  // 20 µs an event: 2 ms holds 100
        #expect(pacing.limit == 100)
        for _ in 0..<20 { pacing.encoded(100, in: 100 * 500_000) }  // half a millisecond an event
        #expect(pacing.limit == BatchPacing.limits.lowerBound)
    }

    @Test("one slow batch does not undo what the others measured")
    func oneSlowBatchIsSmoothed() {
        var pacing = BatchPacing()
        for _ in 0..<10 { pacing.encoded(200, in: 200 * 10_000) }  // 10 µs an event: 200 fit
        #expect(pacing.limit == 200)
        pacing.encoded(200, in: 200 * 40_000)  // one batch four times slower
        #expect(pacing.limit > 100 && pacing.limit < 200)
        for _ in 0..<20 { pacing.encoded(200, in: 200 * 10_000) }
        #expect((195...200).contains(pacing.limit))
    }

    @Test("an empty take changes nothing")
    func emptyTakeChangesNothing() {
        var pacing = BatchPacing()
        pacing.encoded(100, in: 100 * 20_000)
        pacing.encoded(0, in: 5_000_000)
        #expect(pacing.limit == 100)
    }
}
