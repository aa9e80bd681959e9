import ReactiveRecording
@_spi(Tooling) import Rewind

/// A stream's input from outside: each relay as a function that accepts a value, and each relay or
/// subject as an observer. Everything sent through it is logged as a dispatch named after the input
/// property, carrying the value.
///
/// ```swift
/// viewStream.input.searchText("swift")    // a relay's `accept`
/// viewStream.input.buttonTap.onNext(())   // an observer
/// searchBar.text.bind(to: viewStream.input.searchText)
/// ```
@dynamicMemberLookup
public final class InputWrapper<T: InputType> {
    let dependency: T
    let recorder: UnitRecorder?

    /// Wraps an input that belongs to no stream (nothing is logged).
    public init(_ dependency: T) {
        self.dependency = dependency
        self.recorder = nil
    }

    init(_ dependency: T, recorder: UnitRecorder) {
        self.dependency = dependency
        self.recorder = recorder
    }

    /// A relay's `accept`, as a function: `input.searchText("query")`.
    public subscript<U: AcceptableRelay>(dynamicMember keyPath: KeyPath<T, U>) -> (U.Element) -> Void {
        let relay = dependency[keyPath: keyPath]
        let send: (U.Element, () -> Void) -> Void = dispatcher(for: keyPath, target: relay)
        return { element in send(element) { relay.accept(element) } }
    }

    /// A relay or subject as an observer: `input.buttonTap.onNext(())`.
    public subscript<O: ObserverType>(dynamicMember keyPath: KeyPath<T, O>) -> AnyObserver<O.Element> {
        let observer = dependency[keyPath: keyPath]
        let send: (O.Element, () -> Void) -> Void = dispatcher(for: keyPath, target: observer)
        return AnyObserver(
            onNext: { element in send(element) { observer.onNext(element) } },
            onError: observer.onError,
            onCompleted: observer.onCompleted
        )
    }

    /// Runs a send as a logged dispatch of the input at `keyPath`.
    private func dispatcher<Element>(for keyPath: AnyKeyPath, target: Any) -> (Element, () -> Void) -> Void {
        guard let recorder else { return { _, send in send() } }
        let name = recorder.name(of: keyPath, in: dependency, value: target) { type(of: $0) == type(of: target) } ?? ChangedPath(keyPath).description
        return { element, send in
            let carried: Any? = Element.self == Void.self ? nil : element
            recorder.dispatch(name: name, value: carried, callSite: .unknown, send)
        }
    }
}
