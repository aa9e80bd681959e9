@preconcurrency import OpenCombine

/// RxSwift's `Observable`, as a publisher: a stream of elements that may fail with any error.
///
/// ```swift
/// let repositories: Observable<[Repository]> = response.map(\.items).asObservable()
/// ```
public typealias Observable<Element> = AnyPublisher<Element, any Error>

/// Something that can be seen as an ``Observable``: relays, subjects, properties and any publisher.
public protocol ObservableConvertibleType {
    /// The type of the elements.
    associatedtype Element
    /// The stream of elements.
    func asObservable() -> Observable<Element>
}

extension AnyPublisher: ObservableConvertibleType {
    public typealias Element = Output

    /// The publisher with its failure widened to `any Error`.
    public func asObservable() -> Observable<Output> {
        mapError { $0 as any Error }.eraseToAnyPublisher()
    }
}

extension Publisher {
    /// This publisher as an ``Observable``.
    public func asObservable() -> Observable<Output> {
        mapError { $0 as any Error }.eraseToAnyPublisher()
    }
}

extension AnyPublisher where Failure == any Error {
    /// An observable of one element, then completion (RxSwift's `Observable.just`).
    public static func just(_ element: Output) -> Observable<Output> {
        Just(element).setFailureType(to: (any Error).self).eraseToAnyPublisher()
    }

    /// An observable that completes at once (RxSwift's `Observable.empty()`).
    public static func empty() -> Observable<Output> {
        Empty(completeImmediately: true).eraseToAnyPublisher()
    }

    /// An observable that fails at once (RxSwift's `Observable.error`).
    public static func error(_ error: any Error) -> Observable<Output> {
        Fail(error: error).eraseToAnyPublisher()
    }
}
