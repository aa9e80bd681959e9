import CombineOperators
import Foundation
@preconcurrency import OpenCombine
import Testing
import Unio

/// RxSwift's names on OpenCombine, as code written for RxSwift uses them.
@Suite("RxSwift's names")
struct RxSwiftNamesTests {
    struct Failure: Error, Equatable {}

    /// Collects what `observable` sends until it ends.
    func events<Element>(_ observable: Observable<Element>) -> [String] {
        var seen: [String] = []
        let subscription = observable.materialize().subscribe(onNext: { event in
            switch event {
            case .next(let element): seen.append("next \(element)")
            case .error(let error): seen.append("error \(error is Failure ? "Failure" : "\(error)")")
            case .completed: seen.append("completed")
            }
        })
        subscription.dispose()
        return seen
    }

    @Test("operators on Observable return Observable: map, filter, compactMap, flatMap, startWith, take, skip, distinctUntilChanged")
    func operators() {
        let numbers: Observable<Int> = Observable.from([1, 1, 2, 3, 3, 4])
        let chain: Observable<String> = numbers
            .distinctUntilChanged()
            .filter { $0 != 2 }
            .map { $0 * 10 }
            .compactMap { $0 > 10 ? "\($0)" : nil }
            .startWith("start")
            .skip(1)
            .take(2)
        #expect(events(chain) == ["next 30", "next 40", "completed"])
        let flattened: Observable<Int> = Observable.from([1, 2]).flatMap { Observable.from([$0, $0 * 100]) }
        #expect(events(flattened) == ["next 1", "next 100", "next 2", "next 200", "completed"])
    }

    @Test("errors: materialize ends with the error; catchErrorJustReturn replaces it; map may throw")
    func errors() {
        #expect(events(Observable<Int>.error(Failure())) == ["error Failure"])
        #expect(events(Observable<Int>.error(Failure()).catchErrorJustReturn(7)) == ["next 7", "completed"])
        let throwing = Observable.from([1, 2]).map { value -> Int in
            if value == 2 { throw Failure() }
            return value
        }
        #expect(events(throwing) == ["next 1", "error Failure"])
    }

    @Test("combineLatest with and without a result selector; merge")
    func combining() {
        let left = PublishRelay<Int>()
        let right = PublishSubject<String>()
        var combined: [String] = []
        var pairs: [String] = []
        let subscriptions = [
            Observable.combineLatest(left, right, resultSelector: { "\($0)\($1)" }).subscribe(onNext: { combined.append($0) }),
            Observable<(Int, String)>.combineLatest(left, right).subscribe(onNext: { pairs.append("\($0.0)-\($0.1)") }),
        ]
        left.accept(1)
        right.onNext("a")
        left.accept(2)
        #expect(combined == ["1a", "2a"] && pairs == ["1-a", "2-a"])
        subscriptions.forEach { $0.dispose() }

        let first = PublishRelay<Int>()
        let second = PublishRelay<Int>()
        var merged: [Int] = []
        let merging = Observable.merge(first.asObservable(), second.asObservable()).subscribe(onNext: { merged.append($0) })
        first.accept(1)
        second.accept(2)
        first.accept(3)
        #expect(merged == [1, 2, 3])
        merging.dispose()
    }

    @Test("delay and debounce in seconds or DispatchTimeInterval on any scheduler; do(onNext:); flatMapLatest")
    func time() {
        let clock = VirtualTimeScheduler()
        var seen: [String] = []
        let delayed = Observable.just(1)
            .delay(0.1, scheduler: clock)
            .do(onNext: { seen.append("do \($0)") }, onCompleted: { seen.append("do completed") })
            .subscribe(onNext: { seen.append("next \($0)") })
        #expect(seen.isEmpty)
        clock.advance(by: .milliseconds(100))
        #expect(seen == ["do 1", "next 1", "do completed"])
        delayed.dispose()

        let typed = PublishRelay<String>()
        var searched: [String] = []
        let debounced = typed.asObservable()
            .debounce(.milliseconds(300), scheduler: clock)
            .flatMapLatest { query in Observable.just(query.uppercased()).delay(.milliseconds(50), scheduler: clock) }
            .subscribe(onNext: { searched.append($0) })
        typed.accept("s")
        typed.accept("sw")
        clock.advance(by: .milliseconds(300))
        #expect(searched.isEmpty, "the search is 50 ms away")
        clock.advance(by: .milliseconds(50))
        #expect(searched == ["SW"])
        debounced.dispose()
    }

    @Test("observers take events: AnyObserver.on, and a disposed subscription hears nothing more")
    func observers() {
        let subject = PublishSubject<Int>()
        var seen: [String] = []
        let subscription = subject.asObservable().subscribe(
            onNext: { seen.append("\($0)") }, onError: { _ in seen.append("error") }, onCompleted: { seen.append("completed") }
        )
        let observer = subject.asObserver()
        observer.on(.next(1))
        subscription.dispose()
        observer.on(.next(2))
        #expect(seen == ["1"])

        let other = PublishSubject<Int>()
        var ended: [String] = []
        let watching = other.subscribe(onError: { _ in ended.append("error") })
        other.asObserver().on(.error(Failure()))
        #expect(ended == ["error"])
        watching.dispose()
    }

    @Test("share: one subscription upstream for every subscriber")
    func share() {
        var subscriptions = 0
        let source = Observable.just(1).do(onNext: { _ in subscriptions += 1 })
        let relay = PublishRelay<Int>()
        let shared = relay.asObservable().flatMap { _ in source }.share()
        var a: [Int] = []
        var b: [Int] = []
        let first = shared.subscribe(onNext: { a.append($0) })
        let second = shared.subscribe(onNext: { b.append($0) })
        relay.accept(0)
        #expect(a == [1] && b == [1] && subscriptions == 1)
        first.dispose()
        second.dispose()
    }
}
