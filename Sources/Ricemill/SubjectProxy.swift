@preconcurrency import OpenCombine
import ReactiveRecording
import Rewind

/// One input subject as seen from outside the machine: values sent through it are dispatches of
/// the machine, logged with the input's name and the value.
///
/// ```swift
/// viewModel.input.increment.send()
/// viewModel.input.isOn.send(true)   // for a PassthroughSubject<Bool, Never> input
/// ```
public struct SubjectProxy<S: Subject> {
    let subject: S
    let name: String
    let recorder: UnitRecorder?

    /// Wraps a subject that belongs to no machine (nothing is logged).
    public init(_ subject: S) {
        self.init(subject, name: "", recorder: nil)
    }

    init(_ subject: S, name: String, recorder: UnitRecorder?) {
        self.subject = subject
        self.name = name
        self.recorder = recorder
    }

    /// Sends a value into the input.
    public func send(_ value: S.Output, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        guard let recorder else { return subject.send(value) }
        let carried: Any? = S.Output.self == Void.self ? nil : value
        recorder.dispatch(name: name, value: carried, callSite: CallSite(file: file, function: function, line: line)) {
            subject.send(value)
        }
    }

    /// Sends a completion into the input.
    public func send(completion: Subscribers.Completion<S.Failure>) {
        subject.send(completion: completion)
    }

    /// Hands the input an upstream subscription.
    public func send(subscription: Subscription) {
        subject.send(subscription: subscription)
    }
}

extension SubjectProxy where S.Output == Void {
    /// Sends `()` into the input.
    public func send(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send((), file: file, function: function, line: line)
    }
}

extension Publisher {
    /// Sends every value of this publisher into a machine's input, each logged as a dispatch.
    ///
    /// ```swift
    /// button.taps.subscribe(viewModel.input.increment).store(in: &cancellables)
    /// ```
    public func subscribe<S: Subject>(
        _ proxy: SubjectProxy<S>, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) -> AnyCancellable where Output == S.Output, Failure == S.Failure {
        sink(
            receiveCompletion: { proxy.send(completion: $0) },
            receiveValue: { proxy.send($0, file: file, function: function, line: line) }
        )
    }
}
