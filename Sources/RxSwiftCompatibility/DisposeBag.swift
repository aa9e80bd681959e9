import Foundation
@preconcurrency import OpenCombine

/// RxSwift's name for a subscription that can be cancelled.
public typealias Disposable = AnyCancellable

/// A bag of subscriptions, cancelled together when the bag goes: RxSwift's `DisposeBag`, holding
/// OpenCombine cancellables. A stream's bag lives exactly as long as the stream.
///
/// ```swift
/// searchText.bind(to: api.query).disposed(by: disposeBag)
/// ```
public final class DisposeBag: @unchecked Sendable {
    // Unchecked: `cancellables` is guarded by `lock`.
    private let lock = NSLock()
    private var cancellables: [AnyCancellable] = []

    /// An empty bag.
    public init() {}

    /// Keeps `cancellable` until the bag goes.
    public func insert(_ cancellable: AnyCancellable) {
        lock.withLock { cancellables.append(cancellable) }
    }

    /// Cancels everything in the bag now.
    public func dispose() {
        let taken = lock.withLock {
            defer { cancellables = [] }
            return cancellables
        }
        taken.forEach { $0.cancel() }
    }

    deinit {
        cancellables.forEach { $0.cancel() }
    }
}

extension AnyCancellable {
    /// Cancels the subscription (RxSwift's `Disposable.dispose()`).
    public func dispose() {
        cancel()
    }

    /// Keeps this subscription in `bag` until the bag goes.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}

extension Publisher {
    /// Subscribes with RxSwift's callbacks.
    public func subscribe(
        onNext: ((Output) -> Void)? = nil,
        onError: ((Failure) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil
    ) -> Disposable {
        sink(
            receiveCompletion: { completion in
                switch completion {
                case .finished: onCompleted?()
                case .failure(let error): onError?(error)
                }
            },
            receiveValue: { onNext?($0) }
        )
    }

    /// Sends every element into `observers` (relays, subjects, observers): RxSwift's `bind(to:)`.
    /// A failure or completion reaches subjects; relays ignore both, as they never end.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Output {
        subscribe(
            onNext: { element in observers.forEach { $0.onNext(element) } },
            onError: { error in observers.forEach { $0.onError(error) } },
            onCompleted: { observers.forEach { $0.onCompleted() } }
        )
    }

    /// Sends every element, made optional, into `observers` (RxSwift's `bind(to:)` for optional
    /// targets).
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Output? {
        subscribe(
            onNext: { element in observers.forEach { $0.onNext(element) } },
            onError: { error in observers.forEach { $0.onError(error) } },
            onCompleted: { observers.forEach { $0.onCompleted() } }
        )
    }
}
