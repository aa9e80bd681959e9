import CombineOperators
import Foundation
@preconcurrency import OpenCombine
import Testing

@Suite("Merge and MergeMany, against Combine's documented semantics")
struct MergeTests {
    @Test("values from either upstream are republished in the order they arrive")
    func interleaves() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        first.merge(with: second).subscribe(subscriber)
        first.send(1)
        second.send(10)
        first.send(2)
        second.send(20)
        #expect(subscriber.values == [1, 10, 2, 20])
        #expect(subscriber.completionCount == 0)
    }

    @Test("it finishes only once every upstream has finished")
    func finishesWhenAllFinish() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<Int, Never>()
        first.merge(with: second).subscribe(subscriber)
        first.send(completion: .finished)
        #expect(!subscriber.isFinished)
        second.send(5)
        second.send(completion: .finished)
        #expect(subscriber.values == [5])
        #expect(subscriber.isFinished)
        #expect(subscriber.completionCount == 1)
    }

    @Test("the first failure fails the merge at once and cancels the other upstreams")
    func failureCancelsOthers() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let probe = UpstreamProbe()
        let subscriber = RecordingSubscriber<Int, TestError>()
        first.merge(with: probe.watch(second)).subscribe(subscriber)
        first.send(1)
        first.send(completion: .failure(TestError(code: 7)))
        second.send(2)
        second.send(completion: .failure(TestError(code: 8)))
        #expect(subscriber.values == [1])
        #expect(subscriber.failures == [TestError(code: 7)])
        #expect(subscriber.completionCount == 1)
        #expect(probe.wasCancelled)
    }

    @Test("limited demand: never more values than requested, each upstream asked for one at a time")
    func backPressure() {
        let firstProbe = UpstreamProbe()
        let secondProbe = UpstreamProbe()
        let subscriber = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        firstProbe.watch([1, 2, 3].publisher)
            .merge(with: secondProbe.watch([10, 20].publisher))
            .subscribe(subscriber)
        #expect(subscriber.values.count == 2)
        #expect(!subscriber.isFinished)
        #expect(firstProbe.requests.allSatisfy { $0 == .max(1) })
        #expect(secondProbe.requests.allSatisfy { $0 == .max(1) })

        subscriber.request(.max(2))
        #expect(subscriber.values.count == 4)
        #expect(!subscriber.isFinished)

        subscriber.request(.max(10))
        #expect(subscriber.values.sorted() == [1, 2, 3, 10, 20])
        #expect(subscriber.values.filter { $0 < 10 } == [1, 2, 3])
        #expect(subscriber.isFinished)
    }

    @Test("unlimited demand is passed to every upstream")
    func unlimitedDemand() {
        let firstProbe = UpstreamProbe()
        let secondProbe = UpstreamProbe()
        let subscriber = RecordingSubscriber<Int, Never>()
        firstProbe.watch(PassthroughSubject<Int, Never>())
            .merge(with: secondProbe.watch(PassthroughSubject<Int, Never>()))
            .subscribe(subscriber)
        #expect(firstProbe.requests == [.unlimited])
        #expect(secondProbe.requests == [.unlimited])
    }

    @Test("cancelling stops the values and cancels every upstream")
    func cancellation() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let firstProbe = UpstreamProbe()
        let secondProbe = UpstreamProbe()
        let subscriber = RecordingSubscriber<Int, Never>()
        firstProbe.watch(first).merge(with: secondProbe.watch(second)).subscribe(subscriber)
        first.send(1)
        subscriber.cancel()
        first.send(2)
        second.send(3)
        #expect(subscriber.values == [1])
        #expect(subscriber.completionCount == 0)
        #expect(firstProbe.wasCancelled && secondProbe.wasCancelled)
    }

    @Test("MergeMany merges any number of publishers; with none it finishes at once")
    func mergeMany() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = RecordingSubscriber<Int, Never>()
        Publishers.MergeMany(subjects).subscribe(subscriber)
        subjects[2].send(3)
        subjects[0].send(1)
        subjects[1].send(2)
        subjects.forEach { $0.send(completion: .finished) }
        #expect(subscriber.values == [3, 1, 2])
        #expect(subscriber.isFinished)

        let empty = RecordingSubscriber<Int, Never>()
        Publishers.MergeMany([PassthroughSubject<Int, Never>]()).subscribe(empty)
        #expect(empty.isFinished)
    }

    @Test("a value sent from inside the downstream's receive is delivered after it, not inside it")
    func reentrantSend() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var depth = 0
        var maximumDepth = 0
        let subscriber = RecordingSubscriber<Int, Never> { value in
            depth += 1
            maximumDepth = max(maximumDepth, depth)
            if value == 1 { second.send(2) }
            depth -= 1
        }
        first.merge(with: second).subscribe(subscriber)
        first.send(1)
        #expect(subscriber.values == [1, 2])
        #expect(maximumDepth == 1)
    }

    @Test("values sent from several threads all arrive, one at a time")
    func concurrentUpstreams() async {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let inside = NSLock()
        let overlaps = LockedCount()
        let subscriber = RecordingSubscriber<Int, Never> { _ in
            guard inside.try() else { return overlaps.increment() }
            inside.unlock()
        }
        first.merge(with: second).subscribe(subscriber)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 0..<2_000 { first.send(value) } }
            group.addTask { for value in 10_000..<12_000 { second.send(value) } }
        }
        #expect(subscriber.values.count == 4_000)
        #expect(subscriber.values.filter { $0 < 10_000 } == Array(0..<2_000))
        #expect(overlaps.value == 0)
    }
}

final class LockedCount: @unchecked Sendable {
    // Unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
