import CombineOperators
import Foundation
@preconcurrency import OpenCombine
import Testing

@Suite("CombineLatest, against Combine's documented semantics")
struct CombineLatestTests {
    @Test("nothing until every upstream has sent; then a tuple of the latest values on every value")
    func latestValues() {
        let numbers = PassthroughSubject<Int, Never>()
        let letters = PassthroughSubject<String, Never>()
        let subscriber = RecordingSubscriber<(Int, String), Never>()
        numbers.combineLatest(letters).subscribe(subscriber)
        numbers.send(1)
        numbers.send(2)
        #expect(subscriber.values.isEmpty)
        letters.send("a")
        numbers.send(3)
        letters.send("b")
        #expect(subscriber.values.map { "\($0)\($1)" } == ["2a", "3a", "3b"])
    }

    @Test("demand passes through to every upstream; one value is sent per demand")
    func demandPassesThrough() {
        // The sequence from the Apple developer forums thread on CombineLatest's demand (709494).
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let firstProbe = UpstreamProbe()
        let secondProbe = UpstreamProbe()
        let subscriber = RecordingSubscriber<(Int, Int), Never>(initialDemand: .max(1), demandPerValue: .max(1))
        firstProbe.watch(first).combineLatest(secondProbe.watch(second)).subscribe(subscriber)
        #expect(firstProbe.requests.first == .max(1))
        #expect(secondProbe.requests.first == .max(1))
        first.send(1)
        second.send(1)
        first.send(2)
        second.send(2)
        first.send(completion: .finished)
        second.send(completion: .finished)
        #expect(subscriber.values.map { [$0, $1] } == [[1, 1], [2, 1], [2, 2]])
        #expect(subscriber.isFinished)
    }

    @Test("values arriving without demand are dropped for the most recent one")
    func keepsOnlyTheLatestWithoutDemand() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<String, Never>()
        let subscriber = RecordingSubscriber<(Int, String), Never>(initialDemand: .max(3))
        first.combineLatest(second).subscribe(subscriber)
        first.send(1)
        second.send("a")
        second.send("b")
        second.send("c")
        // Demand is used up; the upstreams still had some, so these arrive with none downstream.
        first.send(2)
        first.send(3)
        #expect(subscriber.values.map { "\($0)\($1)" } == ["1a", "1b", "1c"])
        subscriber.request(.max(1))
        #expect(subscriber.values.map { "\($0)\($1)" } == ["1a", "1b", "1c", "3c"])
        subscriber.request(.max(1))
        #expect(subscriber.values.count == 4)
    }

    @Test("it finishes once every upstream has finished")
    func finishesWhenAllFinish() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = RecordingSubscriber<(Int, Int), Never>()
        first.combineLatest(second).subscribe(subscriber)
        first.send(1)
        first.send(completion: .finished)
        second.send(5)
        #expect(!subscriber.isFinished)
        second.send(6)
        second.send(completion: .finished)
        #expect(subscriber.values.map { [$0, $1] } == [[1, 5], [1, 6]])
        #expect(subscriber.isFinished)
    }

    @Test("the first failure fails it and cancels the other upstream")
    func failure() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let probe = UpstreamProbe()
        let subscriber = RecordingSubscriber<(Int, Int), TestError>()
        first.combineLatest(probe.watch(second)).subscribe(subscriber)
        first.send(1)
        second.send(2)
        first.send(completion: .failure(TestError(code: 1)))
        second.send(3)
        #expect(subscriber.values.map { [$0, $1] } == [[1, 2]])
        #expect(subscriber.failures == [TestError(code: 1)])
        #expect(probe.wasCancelled)
    }

    @Test("cancelling stops the values and cancels both upstreams")
    func cancellation() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let firstProbe = UpstreamProbe()
        let secondProbe = UpstreamProbe()
        let subscriber = RecordingSubscriber<(Int, Int), Never>()
        firstProbe.watch(first).combineLatest(secondProbe.watch(second)).subscribe(subscriber)
        first.send(1)
        second.send(1)
        subscriber.cancel()
        first.send(2)
        #expect(subscriber.values.count == 1)
        #expect(firstProbe.wasCancelled && secondProbe.wasCancelled)
    }

    @Test("three publishers, and a transform")
    func threeAndTransform() {
        let first = CurrentValueSubject<Int, Never>(1)
        let second = CurrentValueSubject<Int, Never>(10)
        let third = CurrentValueSubject<Int, Never>(100)
        let sums = RecordingSubscriber<Int, Never>()
        first.combineLatest(second, third).map { $0 + $1 + $2 }.subscribe(sums)
        second.send(20)
        #expect(sums.values == [111, 121])
        let products = RecordingSubscriber<Int, Never>()
        first.combineLatest(second) { $0 * $1 }.subscribe(products)
        first.send(3)
        #expect(products.values == [20, 60])
    }
}
