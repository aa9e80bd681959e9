import ReactiveRecording
@_spi(Tooling) import Rewind

/// The base of the README's streams: a stream that is its own logic.
///
/// ```swift
/// final class GitHubSearchViewStream: UnioStream<GitHubSearchViewStream> {
///     convenience init() {
///         self.init(input: Input(), state: State(), extra: Extra())
///     }
///     …
///     static func bind(from dependency: Dependency<Input, State, Extra>, disposeBag: DisposeBag) -> Output { … }
/// }
/// ```
public typealias UnioStream<Logic: LogicType> = PrimitiveStream<Logic> & LogicType

/// A stream over a logic type: `bind` is called once, at creation, and the input, state, extra and
/// dispose bag live as long as the stream.
///
/// Every value sent through ``input``, every change of a state relay and every element an
/// ``output`` observable delivers reaches the stream's logger (``set(logger:)``, or the
/// process-wide ``CycleLoggingSystem`` default); creation and release are logged too.
open class PrimitiveStream<Logic: LogicType>: UnioStreamType {
    /// Sends values into the stream.
    public let input: InputWrapper<Logic.Input>
    /// Reads the stream's output.
    public let output: OutputWrapper<Logic.Output>

    let rawInput: Logic.Input
    let state: Logic.State
    private let extra: Logic.Extra
    private let disposeBag = DisposeBag()
    let recorder: UnitRecorder

    /// Makes the stream, calling `Logic.bind(from:disposeBag:)` once.
    public init(input: Logic.Input, state: Logic.State, extra: Logic.Extra) {
        let recorder = UnitRecorder(source: EventSource(framework: .unio, type: Logic.self), stateProperties: StateRelays.of(state))
        let output = Logic.bind(from: Dependency(input: input, state: state, extra: extra), disposeBag: disposeBag)
        recorder.observe(output: output)
        self.recorder = recorder
        self.rawInput = input
        self.state = state
        self.extra = extra
        self.input = InputWrapper(input, recorder: recorder)
        self.output = OutputWrapper(output, recorder: recorder)
    }

    deinit {
        disposeBag.dispose()
        recorder.released()
    }

    /// Sends this stream's events to `logger` instead of the process-wide default; `nil` goes back
    /// to the default. The stream is announced to the logger with its state now.
    public func set(logger: (any CycleLogging)?) {
        recorder.set(logger: logger)
    }

    /// The stream as a source of events (its type, instance number and label).
    public var eventSource: EventSource { recorder.channel.source }
}

/// A type-erased stream, known by its input and output types, that keeps the real stream alive
/// until the wrapper itself is released.
///
/// ```swift
/// let stream: AnyUnioStream<Input, Output> = AnyUnioStream(GitHubSearchViewStream())
/// ```
public final class AnyUnioStream<Input: InputType, Output: OutputType>: UnioStreamType {
    /// Sends values into the stream.
    public let input: InputWrapper<Input>
    /// Reads the stream's output.
    public let output: OutputWrapper<Output>
    /// The real stream, held so that it lives as long as this wrapper.
    private let stream: AnyObject

    /// Wraps `stream`.
    public init<Stream: UnioStreamType>(_ stream: Stream) where Stream.Input == Input, Stream.Output == Output {
        self.stream = stream
        self.input = stream.input
        self.output = stream.output
    }
}
