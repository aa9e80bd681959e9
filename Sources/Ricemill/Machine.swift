@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

/// The base of the README's view models: a machine that is its own resolver.
///
/// ```swift
/// final class ViewModel: Machine<ViewModel> {
///     typealias Output = Store
///     final class Input: BindableInputType { … }
///     final class Store: StoredOutputType { … }
///     struct Extra: ExtraType {}
///     static func polish(input: Publishing<Input>, store: Store, extra: Extra) -> Polished<Output> { … }
/// }
/// let viewModel = ViewModel(input: .init(), store: .init(), extra: .init())
/// ```
///
/// The alias names the base class by the resolver alone (not by its `Input` and `Output`), so that a
/// class can name itself in its own superclass without a circular reference.
public typealias Machine<Resolver: ResolverType> = PrimitiveMachine<Resolver> & ResolverType

/// A machine over a resolver type: `polish` is called once, at creation, and what it returns lives as
/// long as the machine.
///
/// Every input value sent through ``input``, every change of a store `@Published` property and
/// every value an ``output`` publisher delivers reaches the machine's logger (``set(logger:)``, or
/// the process-wide ``CycleLoggingSystem`` default); creation and release are logged too.
open class PrimitiveMachine<Resolver: ResolverType>: MachineType {
    /// Sends values into the machine.
    public let input: InputProxy<Resolver.Input>
    /// Reads what the machine publishes.
    public let output: OutputProxy<Resolver.Output>
    let core: MachineCore

    /// Makes the machine.
    public init(input: Resolver.Input, store: Resolver.Store, extra: Resolver.Extra) {
        let (core, input, output) = MachineCore.make(input: input, store: store, extra: extra, resolver: Resolver.self)
        self.core = core
        self.input = input
        self.output = output
    }

    /// Sends this machine's events to `logger` instead of the process-wide default; `nil` goes back
    /// to the default. The machine is announced to the logger with its store's state now.
    public func set(logger: (any CycleLogging)?) {
        core.recorder.set(logger: logger)
    }

    /// The machine as a source of events (its type, instance number and label).
    public var eventSource: EventSource { core.recorder.channel.source }
}

extension PrimitiveMachine: ObservableObject where Resolver.Output: StoredOutputType {
    /// Fires before any property of the store changes.
    public var objectWillChange: ObservableObjectPublisher {
        ChangeNotifiers.shared.publisher(for: output.output)
    }
}

/// A machine that can be made from any resolver with its input and output types.
public protocol AnyResolverBasedMachineType: MachineType {
    /// Makes a machine: calls `resolver`'s `polish` once and keeps what it returns.
    init<Resolver: ResolverType>(
        input: Resolver.Input, store: Resolver.Store, extra: Resolver.Extra, resolver _: Resolver.Type
    ) where Input == Resolver.Input, Output == Resolver.Output
}

extension AnyResolverBasedMachineType where Self: ResolverType {
    /// Makes a machine that is its own resolver.
    public init(input: Input, store: Store, extra: Extra) {
        self.init(input: input, store: store, extra: extra, resolver: Self.self)
    }
}

/// A machine known only by its input and output types, over any resolver with those types.
///
/// ```swift
/// let machine = AnyResolverBasedMachine(input: Input(), store: Store(), extra: Extra(), resolver: CounterResolver.self)
/// machine.set(logger: JournalLogger(path: "session.rewind"))
/// machine.input.increment.send()
/// ```
open class AnyResolverBasedMachine<Input: InputType, Output: OutputType>: AnyResolverBasedMachineType {
    /// Sends values into the machine.
    public let input: InputProxy<Input>
    /// Reads what the machine publishes.
    public let output: OutputProxy<Output>
    let core: MachineCore

    required public init<Resolver: ResolverType>(
        input: Resolver.Input, store: Resolver.Store, extra: Resolver.Extra, resolver: Resolver.Type
    ) where Input == Resolver.Input, Output == Resolver.Output {
        let (core, input, output) = MachineCore.make(input: input, store: store, extra: extra, resolver: resolver)
        self.core = core
        self.input = input
        self.output = output
    }

    /// Sends this machine's events to `logger` instead of the process-wide default; `nil` goes back
    /// to the default.
    public func set(logger: (any CycleLogging)?) {
        core.recorder.set(logger: logger)
    }

    /// The machine as a source of events.
    public var eventSource: EventSource { core.recorder.channel.source }
}

extension AnyResolverBasedMachine: ObservableObject where Output: StoredOutputType {
    /// Fires before any property of the store changes.
    public var objectWillChange: ObservableObjectPublisher {
        ChangeNotifiers.shared.publisher(for: output.output)
    }
}

/// What every machine holds: the recorder, its input and store, and the extra and subscriptions
/// `polish` returned.
/// Its release is the machine's: the subscriptions are cancelled and the release is logged.
final class MachineCore {
    let recorder: UnitRecorder
    let input: Any
    let store: AnyObject
    let extra: Any
    let cancellables: [AnyCancellable]

    private init(recorder: UnitRecorder, input: Any, store: AnyObject, extra: Any, cancellables: [AnyCancellable]) {
        self.recorder = recorder
        self.input = input
        self.store = store
        self.extra = extra
        self.cancellables = cancellables
    }

    static func make<Resolver: ResolverType>(
        input: Resolver.Input, store: Resolver.Store, extra: Resolver.Extra, resolver: Resolver.Type
    ) -> (MachineCore, InputProxy<Resolver.Input>, OutputProxy<Resolver.Output>) {
        let recorder = UnitRecorder(source: EventSource(framework: .ricemill, type: Resolver.self), stateProperties: PublishedProperties.of(store))
        let polished = Resolver.polish(input: Publishing(input), store: store, extra: extra)
        guard let output = polished.output ?? (store as? Resolver.Output) else {
            // `Polished(cancellables:)` is only available when the store is the output type.
            preconditionFailure("polish returned no output and the store is not the output")
        }
        // A store that is the output is logged as the state; a separate output's own `@Published`
        // values are its activities.
        let isStore = type(of: output) is AnyClass && (output as AnyObject) === store
        recorder.observe(output: output, valueProperties: isStore ? [] : OutputValues.of(output))
        let core = MachineCore(recorder: recorder, input: input, store: store, extra: extra, cancellables: polished.cancellables)
        return (core, InputProxy(input, recorder: recorder), OutputProxy(output, recorder: recorder))
    }

    deinit {
        for cancellable in cancellables { cancellable.cancel() }
        recorder.released()
    }
}
