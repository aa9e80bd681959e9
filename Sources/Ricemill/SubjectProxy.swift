@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

/// One input subject as seen from outside the machine, typed by the value it takes (as the seed
/// writes it): values sent through it are dispatches of the machine, logged with the input's name
/// and the value.
///
/// ```swift
/// let increment: SubjectProxy<Void> = viewModel.input.increment
/// increment.send()
/// let isOn: SubjectProxy<Bool> = viewModel.input.isOn
/// isOn.send(true)
/// ```
public struct SubjectProxy<Element> {
    private let sendValue: (Element) -> Void
    private let sendFinished: () -> Void
    private let sendSubscription: (any Subscription) -> Void
    let name: String
    let recorder: UnitRecorder?

    /// Wraps a subject that belongs to no machine (nothing is logged).
    public init<S: Subject>(_ subject: S) where S.Output == Element, S.Failure == Never {
        self.init(subject, name: "", recorder: nil)
    }

    init<S: Subject>(_ subject: S, name: String, recorder: UnitRecorder?) where S.Output == Element, S.Failure == Never {
        sendValue = { subject.send($0) }
        sendFinished = { subject.send(completion: .finished) }
        sendSubscription = { subject.send(subscription: $0) }
        self.name = name
        self.recorder = recorder
    }

    /// Sends a value into the input.
    public func send(_ value: Element, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        guard let recorder else { return sendValue(value) }
        let carried: Any? = Element.self == Void.self ? nil : value
        recorder.dispatch(name: name, value: carried, callSite: CallSite(file: file, function: function, line: line)) {
            sendValue(value)
        }
    }

    /// Sends a completion into the input (inputs never fail).
    public func send(completion: Subscribers.Completion<Never>) {
        sendFinished()
    }

    /// Hands the input an upstream subscription.
    public func send(subscription: any Subscription) {
        sendSubscription(subscription)
    }
}

extension SubjectProxy where Element == Void {
    /// Sends `()` into the input.
    public func send(file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line) {
        send((), file: file, function: function, line: line)
    }
}

extension Publisher where Failure == Never {
    /// Sends every value of this publisher into a machine's input, each logged as a dispatch.
    ///
    /// ```swift
    /// button.taps.subscribe(viewModel.input.increment).store(in: &cancellables)
    /// ```
    public func subscribe(
        _ proxy: SubjectProxy<Output>, file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) -> AnyCancellable {
        sink(
            receiveCompletion: { proxy.send(completion: $0) },
            receiveValue: { proxy.send($0, file: file, function: function, line: line) }
        )
    }
}
