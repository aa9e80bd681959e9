@preconcurrency import OpenCombine

/// RxCocoa's `Driver`: a stream that never fails. Here it delivers on the thread that sends, at
/// once (RxCocoa's hops to the main thread; add `.receive(on: MainScheduler.instance)` for that).
///
/// ```swift
/// viewModel.state.asDriver(keyPath: \.count).skip(1).drive(onNext: { print($0) })
/// ```
public typealias Driver<Element> = AnyPublisher<Element, Never>

extension Publisher where Failure == Never {
    /// Subscribes to every element (RxCocoa's `drive(onNext:)`).
    public func drive(onNext: @escaping (Output) -> Void) -> Disposable {
        sink(receiveValue: onNext)
    }
}

extension Publisher {
    /// The elements after the first `count` (RxSwift's name for `dropFirst`).
    public func skip(_ count: Int) -> Publishers.Drop<Self> {
        dropFirst(count)
    }
}
