/// Something that receives elements, an error or completion: RxSwift's `ObserverType`. Relays
/// accept elements only (they never fail or complete), so they ignore the other two.
public protocol ObserverType {
    /// The type of the elements.
    associatedtype Element
    /// Receives an element.
    func onNext(_ element: Element)
    /// Receives a failure; nothing more follows.
    func onError(_ error: any Error)
    /// Receives completion; nothing more follows.
    func onCompleted()
}

extension ObserverType where Element == Void {
    /// Sends `()`.
    public func onNext() {
        onNext(())
    }
}

/// A type-erased observer: what an input wrapper hands out for an input property.
///
/// ```swift
/// input.buttonTap.onNext(())
/// ```
public struct AnyObserver<Element>: ObserverType {
    private let next: (Element) -> Void
    private let error: (any Error) -> Void
    private let completed: () -> Void

    /// An observer from three closures.
    public init(
        onNext: @escaping (Element) -> Void,
        onError: @escaping (any Error) -> Void = { _ in },
        onCompleted: @escaping () -> Void = {}
    ) {
        self.next = onNext
        self.error = onError
        self.completed = onCompleted
    }

    /// Wraps another observer.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        self.init(onNext: observer.onNext, onError: observer.onError, onCompleted: observer.onCompleted)
    }

    public func onNext(_ element: Element) { next(element) }
    public func onError(_ error: any Error) { self.error(error) }
    public func onCompleted() { completed() }
}
