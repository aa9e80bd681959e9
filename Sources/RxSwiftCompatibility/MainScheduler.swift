import Foundation
@preconcurrency import OpenCombine
import OpenCombineDispatch

/// RxSwift's scheduler for the main thread: `MainScheduler.instance` is the main dispatch queue as a
/// scheduler, for `delay`, `debounce` and `observeOn`.
///
/// ```swift
/// Observable.just(()).delay(0.1, scheduler: MainScheduler.instance)
/// ```
///
/// Work on it runs when the main queue is serviced: by an app's run loop, `dispatchMain()`, or an
/// `async` main. In tests, prefer a virtual clock (`VirtualTimeScheduler`), which a test advances.
public enum MainScheduler {
    /// The main queue as a scheduler.
    public static var instance: DispatchQueue.OCombine { DispatchQueue.main.ocombine }
}
