@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

/// A machine's output from outside: publishers (each value they deliver is logged as an activity
/// named after the output property), `CurrentValueSubject`s as their current values, and — when the
/// output is the store (``StoredOutputType``) — its properties and their `$` publishers directly.
///
/// ```swift
/// viewModel.output.count      // Int, for a StoredOutputType
/// viewModel.output.$count     // Published<Int>.Publisher
/// viewModel.output.countText  // AnyPublisher<String?, Never>, for an output publisher
/// ```
@dynamicMemberLookup
public final class OutputProxy<Output: OutputType> {
    let output: Output
    let recorder: UnitRecorder?

    /// Wraps an output that belongs to no machine (nothing is logged).
    public init(_ output: Output) {
        self.output = output
        self.recorder = nil
    }

    init(_ output: Output, recorder: UnitRecorder) {
        self.output = output
        self.recorder = recorder
    }

    /// A value of the output (a store property, for a ``StoredOutputType``).
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Output, Value>) -> Value {
        output[keyPath: keyPath]
    }

    /// A `CurrentValueSubject` output's current value.
    public subscript<Value, Failure: Error>(dynamicMember keyPath: KeyPath<Output, CurrentValueSubject<Value, Failure>>) -> Value {
        output[keyPath: keyPath].value
    }

    /// An output publisher; the values it delivers are logged as activities.
    public subscript<P: Publisher>(dynamicMember keyPath: KeyPath<Output, P>) -> AnyPublisher<P.Output, P.Failure> {
        let publisher = output[keyPath: keyPath]
        guard let recorder else { return publisher.eraseToAnyPublisher() }
        let name = recorder.name(of: keyPath, in: output, value: publisher) { $0 is P } ?? ChangedPath(keyPath).description
        return publisher
            .handleEvents(receiveOutput: { recorder.outputValue($0, name: name) })
            .eraseToAnyPublisher()
    }
}
