import Foundation
@preconcurrency import OpenCombine

/// A subject that sends each element to its current subscribers and can fail or complete:
/// RxSwift's `PublishSubject`, on OpenCombine.
///
/// ```swift
/// let buttonTap = PublishSubject<Void>()
/// buttonTap.onNext(())
/// ```
public final class PublishSubject<Element>: ObserverType, ObservableConvertibleType, Publisher, @unchecked Sendable {
    // Unchecked: OpenCombine's subjects are thread-safe (they lock internally).
    public typealias Output = Element
    public typealias Failure = any Error

    private let subject = PassthroughSubject<Element, any Error>()

    /// A subject with no subscribers.
    public init() {}

    public func onNext(_ element: Element) { subject.send(element) }
    public func onError(_ error: any Error) { subject.send(completion: .failure(error)) }
    public func onCompleted() { subject.send(completion: .finished) }

    /// The subject as an observer.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == any Error {
        subject.receive(subscriber: subscriber)
    }

    public func asObservable() -> Observable<Element> { Observable(subject) }
}

/// A subject that holds a current value, sends it to each new subscriber, and can fail or complete:
/// RxSwift's `BehaviorSubject`, on OpenCombine. Reading the value after a failure throws it.
///
/// ```swift
/// let isEnabled = BehaviorSubject<Bool>(value: false)
/// try isEnabled.value()   // false
/// ```
public final class BehaviorSubject<Element>: ObserverType, ObservableConvertibleType, Publisher, @unchecked Sendable {
    // Unchecked: `failure` is guarded by `lock`; OpenCombine's subjects lock internally.
    public typealias Output = Element
    public typealias Failure = any Error

    private let subject: CurrentValueSubject<Element, any Error>
    private let lock = NSLock()
    private var failure: (any Error)?

    /// A subject holding `value`.
    public init(value: Element) {
        subject = CurrentValueSubject(value)
    }

    /// The current value; throws the error the subject failed with, if it did.
    public func value() throws -> Element {
        if let failure = lock.withLock({ failure }) { throw failure }
        return subject.value
    }

    /// The last value sent, even after a failure (what a stream's logged state shows).
    package var lastValue: Element { subject.value }

    public func onNext(_ element: Element) { subject.send(element) }

    public func onError(_ error: any Error) {
        lock.withLock { if failure == nil { failure = error } }
        subject.send(completion: .failure(error))
    }

    public func onCompleted() { subject.send(completion: .finished) }

    /// The subject as an observer.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == any Error {
        subject.receive(subscriber: subscriber)
    }

    public func asObservable() -> Observable<Element> { Observable(subject) }
}
