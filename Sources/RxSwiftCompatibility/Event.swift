/// One event of an observable, as a value: RxSwift's `Event`, under another name because `Event`
/// is Rewind's recorded event (a file importing both would find the name ambiguous). Written as
/// `.next(x)`, `.error(e)`, `.completed`, it reads as RxSwift's.
///
/// ```swift
/// observer.on(.next(3))
/// observer.on(.completed)
/// ```
public enum ObservableEvent<Element> {
    /// An element.
    case next(Element)
    /// The failure that ended the sequence.
    case error(any Error)
    /// The end of the sequence.
    case completed

    /// The element of a `.next` event.
    public var element: Element? {
        if case .next(let element) = self { element } else { nil }
    }

    /// The failure of an `.error` event.
    public var error: (any Error)? {
        if case .error(let error) = self { error } else { nil }
    }

    /// Whether the event ends the sequence.
    public var isStopEvent: Bool {
        if case .next = self { false } else { true }
    }
}

extension ObservableEvent: Sendable where Element: Sendable {}

extension ObserverType {
    /// Sends `event` to the observer: `onNext`, `onError` or `onCompleted`.
    public func on(_ event: ObservableEvent<Element>) {
        switch event {
        case .next(let element): onNext(element)
        case .error(let error): onError(error)
        case .completed: onCompleted()
        }
    }
}
