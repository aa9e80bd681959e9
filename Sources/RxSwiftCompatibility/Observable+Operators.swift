import Foundation
@preconcurrency import OpenCombine

/// RxSwift's operators on ``Observable``, each returning an `Observable`.
extension Observable {
    /// Each element transformed.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Observable<Result>(tryMap(transform))
    }

    /// The elements `predicate` keeps.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Observable(tryFilter(predicate))
    }

    /// The non-`nil` results of `transform`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        Observable<Result>(tryCompactMap(transform))
    }

    /// The elements of every observable `selector` makes, merged.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Observable<Source.Element>(tryMap { try selector($0).asObservable() }.flatMap { $0 })
    }

    /// The elements of the observable `selector` made for the latest element only.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Observable<Source.Element>(tryMap { try selector($0).asObservable() }.switchToLatest())
    }

    /// Runs the callbacks as events pass, without changing them.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil
    ) -> Observable<Element> {
        let checked = tryMap { element -> Element in
            try onNext?(element)
            return element
        }
        return Observable(checked.handleEvents(receiveCompletion: { completion in
            switch completion {
            case .finished: onCompleted?()
            case .failure(let error): onError?(error)
            }
        }))
    }

    /// Every element (and the completion) `dueTime` seconds later, on `scheduler`.
    public func delay<Clock: Scheduler>(_ dueTime: Double, scheduler: Clock) -> Observable<Element> {
        Observable(delay(for: .seconds(dueTime), scheduler: scheduler))
    }

    /// Every element (and the completion) `dueTime` later, on `scheduler`.
    public func delay<Clock: Scheduler>(_ dueTime: DispatchTimeInterval, scheduler: Clock) -> Observable<Element> {
        Observable(delay(for: .nanoseconds(dueTime.nanoseconds), scheduler: scheduler))
    }

    /// An element once `dueTime` seconds pass without another.
    public func debounce<Clock: Scheduler>(_ dueTime: Double, scheduler: Clock) -> Observable<Element> {
        Observable(debounce(for: .seconds(dueTime), scheduler: scheduler))
    }

    /// An element once `dueTime` passes without another.
    public func debounce<Clock: Scheduler>(_ dueTime: DispatchTimeInterval, scheduler: Clock) -> Observable<Element> {
        Observable(debounce(for: .nanoseconds(dueTime.nanoseconds), scheduler: scheduler))
    }

    /// Events delivered on `scheduler`.
    public func observeOn<Clock: Scheduler>(_ scheduler: Clock) -> Observable<Element> {
        Observable(receive(on: scheduler))
    }

    /// One subscription to this observable, shared by every subscriber.
    public func share() -> Observable<Element> {
        Observable(Publishers.Share(upstream: self))
    }

    /// `elements` first, then this observable's.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        Observable(prepend(elements))
    }

    /// The first `count` elements.
    public func take(_ count: Int) -> Observable<Element> {
        Observable(prefix(count))
    }

    /// The elements after the first `count`.
    public func skip(_ count: Int) -> Observable<Element> {
        Observable(dropFirst(count))
    }

    /// Each event as a value: elements as `.next`, then `.error` or `.completed`, and never a
    /// failure.
    public func materialize() -> Observable<ObservableEvent<Element>> {
        // `.completed` is appended before the failure is caught: a failed sequence ends with its
        // `.error` event alone.
        let events = map { ObservableEvent.next($0) }
            .append(ObservableEvent<Element>.completed)
            .catch { Just(ObservableEvent<Element>.error($0)).setFailureType(to: (any Error).self) }
        return Observable<ObservableEvent<Element>>(events)
    }

    /// `element` in place of a failure, then completion.
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        Observable(replaceError(with: element))
    }
}

extension Observable where Element: Equatable {
    /// The elements that differ from the one before.
    public func distinctUntilChanged() -> Observable<Element> {
        Observable(removeDuplicates())
    }
}

extension Publisher where Output: Equatable {
    /// The elements that differ from the one before (RxSwift's name for `removeDuplicates`).
    public func distinctUntilChanged() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates()
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds (`never` as the largest).
    var nanoseconds: Int {
        switch self {
        case .seconds(let value): value.multipliedReportingOverflow(by: 1_000_000_000).overflow ? .max : value * 1_000_000_000
        case .milliseconds(let value): value.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : value * 1_000_000
        case .microseconds(let value): value.multipliedReportingOverflow(by: 1_000).overflow ? .max : value * 1_000
        case .nanoseconds(let value): value
        case .never: .max
        @unknown default: .max
        }
    }
}
