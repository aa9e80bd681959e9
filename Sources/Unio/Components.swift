/// A stream's inputs: `PublishRelay` (or `PublishSubject`) properties declared with internal
/// scope. From outside they are reached through ``InputWrapper``, which is how every input value
/// gets logged.
///
/// ```swift
/// struct Input: InputType {
///     let searchText = PublishRelay<String?>()
///     let buttonTap = PublishSubject<Void>()
/// }
/// ```
public protocol InputType {}

/// A stream's outputs: relays, subjects, observables, ``Property``s and ``Computed`` values, read
/// from outside through ``OutputWrapper``.
public protocol OutputType {}

/// A stream's inner state: `BehaviorRelay` (or `BehaviorSubject`) properties. Every change of one is
/// logged as a key-path change at its name.
public protocol StateType {}

/// A stream's other dependencies (an API stream, a scheduler, …).
public protocol ExtraType {}

/// The state of a stream that has none.
public struct NoState: StateType {
    /// No state.
    public init() {}
}

/// The extra of a stream that needs none.
public struct NoExtra: ExtraType {
    /// No dependencies.
    public init() {}
}

/// Makes a stream's ``OutputType`` from its input, state and extra.
///
/// ```swift
/// static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output {
///     dependency.inputObservables.searchText
///         .bind(to: dependency.extra.apiStream.input.searchText)
///         .disposed(by: disposeBag)
///     return Output(repositories: dependency.state.repositories)
/// }
/// ```
public protocol LogicType {
    /// The stream's input.
    associatedtype Input: InputType
    /// The stream's output.
    associatedtype Output: OutputType
    /// The stream's inner state.
    associatedtype State: StateType
    /// The stream's other dependencies.
    associatedtype Extra: ExtraType

    /// Connects input and state to the output. Called once, when the stream is created; `disposeBag`
    /// lives as long as the stream.
    static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output
}

/// Anything with a stream's wrappers.
public protocol UnioStreamType: AnyObject {
    /// The stream's input.
    associatedtype Input: InputType
    /// The stream's output.
    associatedtype Output: OutputType
    /// Sends values into the stream.
    var input: InputWrapper<Input> { get }
    /// Reads the stream's output.
    var output: OutputWrapper<Output> { get }
}
