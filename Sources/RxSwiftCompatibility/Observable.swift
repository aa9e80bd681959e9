import CombineOperators
@preconcurrency import OpenCombine

/// RxSwift's `Observable`: a stream of elements that may fail with any error, as a publisher.
///
/// Its own operators (`map`, `filter`, `flatMapLatest`, `delay`, …) return `Observable` again, as
/// RxSwift's do, so that code written for RxSwift type-checks unchanged:
///
/// ```swift
/// let repositories: Observable<[Repository]> = apiStream.output.searchResponse.map { $0.items }
/// ```
///
/// Every Combine operator works on it too (it is a `Publisher`); `asObservable()` turns any
/// publisher into one.
public struct Observable<Element>: Publisher, ObservableConvertibleType {
    public typealias Output = Element
    public typealias Failure = any Error

    private let upstream: AnyPublisher<Element, any Error>

    /// The elements of `publisher`, its failure widened to `any Error`.
    public init<Upstream: Publisher>(_ publisher: Upstream) where Upstream.Output == Element {
        if let same = publisher as? Observable<Element> {
            upstream = same.upstream
        } else {
            upstream = publisher.mapError { $0 as any Error }.eraseToAnyPublisher()
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == any Error {
        upstream.receive(subscriber: subscriber)
    }

    /// Itself.
    public func asObservable() -> Observable<Element> { self }
}

/// Something that can be seen as an ``Observable``: relays, subjects, properties and any publisher.
public protocol ObservableConvertibleType {
    /// The type of the elements.
    associatedtype Element
    /// The stream of elements.
    func asObservable() -> Observable<Element>
}

extension AnyPublisher: ObservableConvertibleType {
    public typealias Element = Output
}

extension Publisher {
    /// This publisher as an ``Observable``.
    public func asObservable() -> Observable<Output> {
        Observable(self)
    }
}

// MARK: Making observables

extension Observable {
    /// One element, then completion.
    public static func just(_ element: Element) -> Observable<Element> {
        Observable(Just(element))
    }

    /// Completion at once.
    public static func empty() -> Observable<Element> {
        Observable(Empty<Element, Never>(completeImmediately: true))
    }

    /// No element, and no completion.
    public static func never() -> Observable<Element> {
        Observable(Empty<Element, Never>(completeImmediately: false))
    }

    /// Failure at once.
    public static func error(_ error: any Error) -> Observable<Element> {
        Observable(Fail<Element, any Error>(error: error))
    }

    /// The elements of `elements`, then completion.
    public static func from(_ elements: [Element]) -> Observable<Element> {
        Observable(Publishers.Sequence<[Element], Never>(sequence: elements))
    }

    /// The elements of all `sources`, as they arrive.
    public static func merge<Source: ObservableConvertibleType>(_ sources: Source...) -> Observable<Element> where Source.Element == Element {
        Observable(Publishers.MergeMany(sources.map { $0.asObservable() }))
    }

    /// The latest elements of `first` and `second` combined by `resultSelector`, each time either
    /// sends once both have.
    public static func combineLatest<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second, resultSelector: @escaping (First.Element, Second.Element) throws -> Element
    ) -> Observable<Element> {
        Observable(Publishers.CombineLatest(first.asObservable(), second.asObservable()).tryMap { try resultSelector($0.0, $0.1) })
    }

    /// The latest elements of `first` and `second` as a pair, each time either sends once both have.
    public static func combineLatest<First: ObservableConvertibleType, Second: ObservableConvertibleType>(
        _ first: First, _ second: Second
    ) -> Observable<(First.Element, Second.Element)> where Element == (First.Element, Second.Element) {
        Observable(Publishers.CombineLatest(first.asObservable(), second.asObservable()))
    }
}
