@preconcurrency import OpenCombine

/// Relays and subjects expose their stream as a publisher, so that the Combine operators apply.
public protocol AcceptableRelay: AnyObject, ObserverType, Publisher where Output == Element, Failure == Never {
    /// Sends an element to the subscribers.
    func accept(_ element: Element)
}

extension AcceptableRelay {
    public func onNext(_ element: Element) { accept(element) }
    /// Relays never fail: an error sent to a relay is dropped.
    public func onError(_ error: any Error) {}
    /// Relays never complete: completion sent to a relay is dropped.
    public func onCompleted() {}
}

/// A relay that sends each element to its current subscribers: RxRelay's `PublishRelay`, on
/// OpenCombine. It never fails or completes.
///
/// ```swift
/// let searchText = PublishRelay<String?>()
/// searchText.accept("swift")
/// ```
public final class PublishRelay<Element>: AcceptableRelay, ObservableConvertibleType, @unchecked Sendable {
    // Unchecked: OpenCombine's subjects are thread-safe (they lock internally).
    public typealias Output = Element
    public typealias Failure = Never

    private let subject = PassthroughSubject<Element, Never>()

    /// A relay with no subscribers.
    public init() {}

    public func accept(_ element: Element) {
        subject.send(element)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}

/// A relay that holds a current value and sends it to each new subscriber, then every new one:
/// RxRelay's `BehaviorRelay`, on OpenCombine. It never fails or completes.
///
/// ```swift
/// let repositories = BehaviorRelay<[Repository]>(value: [])
/// repositories.accept(found)
/// repositories.value   // found
/// ```
public final class BehaviorRelay<Element>: AcceptableRelay, ObservableConvertibleType, @unchecked Sendable {
    // Unchecked: OpenCombine's subjects are thread-safe (they lock internally).
    public typealias Output = Element
    public typealias Failure = Never

    private let subject: CurrentValueSubject<Element, Never>

    /// A relay holding `value`.
    public init(value: Element) {
        subject = CurrentValueSubject(value)
    }

    /// The current value.
    public var value: Element { subject.value }

    public func accept(_ element: Element) {
        subject.send(element)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    public func asObservable() -> Observable<Element> {
        subject.asObservable()
    }
}
