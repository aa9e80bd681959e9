@preconcurrency import OpenCombine

/// The values a machine receives: `PassthroughSubject` properties (and `@Published` ones, for a
/// ``BindableInputType``) declared with internal scope. From outside, they are reached through
/// ``InputProxy``, which is how every input value gets logged.
///
/// ```swift
/// struct Input: InputType {
///     let increment = PassthroughSubject<Void, Never>()
///     let isOn = PassthroughSubject<Bool, Never>()
/// }
/// ```
public protocol InputType {}

/// What a machine publishes: publishers, `CurrentValueSubject`s and `@Published` properties, read
/// from outside through ``OutputProxy``.
public protocol OutputType {}

/// A machine's inner state: a class of `@Published` properties.
///
/// Change notification is explicit: `objectWillChange` fires before every change of any
/// `@Published` property, found by reflection when it is first asked for — not through OpenCombine's
/// synthesis, whose type-metadata layout is only stable on Darwin.
public protocol StoreType: ObservableObject {}

/// Other dependencies a resolver uses (an API client, a clock, …).
public protocol ExtraType {}

/// An input that also has `@Published` properties, reached from outside as ``Binding``s:
/// `viewModel.input.isOn` is a `Binding<Bool>`.
public protocol BindableInputType: InputType, ObservableObject {}

/// A store that is also the machine's output, so that its values and publishers are read directly:
/// `viewModel.output.count` is an `Int`, `viewModel.output.$count` its publisher.
public protocol StoredOutputType: OutputType, StoreType {}

/// Makes a machine's ``OutputType`` from its input, store and extra.
///
/// ```swift
/// enum Resolver: ResolverType {
///     static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> {
///         var cancellables: [AnyCancellable] = []
///         input.increment
///             .map { store.count + 1 }
///             .assign(to: \.count, on: store)
///             .store(in: &cancellables)
///         return Polished(output: Output(count: store.$count.eraseToAnyPublisher()), cancellables: cancellables)
///     }
/// }
/// ```
public protocol ResolverType {
    /// The machine's input.
    associatedtype Input: InputType
    /// The machine's output.
    associatedtype Output: OutputType
    /// The machine's inner state.
    associatedtype Store: StoreType
    /// The machine's other dependencies.
    associatedtype Extra: ExtraType

    /// Connects input to store and output. Called once, when the machine is created.
    static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output>
}

/// Anything with a machine's proxies.
public protocol MachineType: AnyObject {
    /// The machine's input.
    associatedtype Input: InputType
    /// The machine's output.
    associatedtype Output: OutputType
    /// Sends values into the input.
    var input: InputProxy<Input> { get }
    /// Reads the output.
    var output: OutputProxy<Output> { get }
}
