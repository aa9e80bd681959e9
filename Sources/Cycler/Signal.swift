@preconcurrency import OpenCombine

/// A stream of events that never fails and is meant to be observed, not stored: RxCocoa's `Signal`,
/// as the Cycler README uses it for activities.
///
/// ```swift
/// let subscription = viewModel.activity.emit(onNext: { activity in print(activity) })
/// ```
public struct Signal<Element>: Publisher {
    public typealias Output = Element
    public typealias Failure = Never

    private let upstream: AnyPublisher<Element, Never>

    /// Wraps a publisher.
    public init(_ upstream: AnyPublisher<Element, Never>) {
        self.upstream = upstream
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Element, S.Failure == Never {
        upstream.receive(subscriber: subscriber)
    }

    /// Calls `onNext` with every element; cancel the returned value (or let it go) to stop.
    public func emit(onNext: @escaping (Element) -> Void) -> AnyCancellable {
        upstream.sink(receiveValue: onNext)
    }
}
