@preconcurrency import OpenCombine

/// What ``LogicType/bind(from:disposeBag:)`` works with: the state, the extra, and every input
/// property as an ``Observable``.
///
/// ```swift
/// dependency.inputObservables.searchText   // Observable<String?>
/// ```
public final class Dependency<Input: InputType, State: StateType, Extra: ExtraType> {
    /// The stream's state (the same instance the stream keeps).
    public let state: State
    /// The stream's extra (the same instance the stream keeps).
    public let extra: Extra

    private let input: Input

    init(input: Input, state: State, extra: Extra) {
        self.input = input
        self.state = state
        self.extra = extra
    }

    /// An input property as an observable.
    public func inputObservable<O: ObservableConvertibleType>(for keyPath: KeyPath<Input, O>) -> Observable<O.Element> {
        input[keyPath: keyPath].asObservable()
    }

    /// Every input property as an observable, by name.
    public var inputObservables: ObservableWrapper<Input> {
        ObservableWrapper(input)
    }
}

/// Reaches the observable properties of a value by name: `dependency.inputObservables.searchText`.
@dynamicMemberLookup
public final class ObservableWrapper<T> {
    private let object: T

    init(_ object: T) {
        self.object = object
    }

    /// A property as an observable.
    public subscript<O: ObservableConvertibleType>(dynamicMember keyPath: KeyPath<T, O>) -> Observable<O.Element> {
        object[keyPath: keyPath].asObservable()
    }
}
