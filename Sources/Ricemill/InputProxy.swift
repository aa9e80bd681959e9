@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

/// A machine's input from outside: each input subject as a ``SubjectProxy`` and, for a
/// ``BindableInputType``, each `@Published` property as a ``Binding``. Everything sent through it is
/// logged as a dispatch named after the input property.
///
/// ```swift
/// viewModel.input.increment.send()
/// viewModel.input.isOn.wrappedValue = true
/// ```
@dynamicMemberLookup
public final class InputProxy<Input: InputType> {
    let input: Input
    let recorder: UnitRecorder?

    /// Wraps an input that belongs to no machine (nothing is logged).
    public init(_ input: Input) {
        self.input = input
        self.recorder = nil
    }

    init(_ input: Input, recorder: UnitRecorder) {
        self.input = input
        self.recorder = recorder
    }

    /// An input subject, as a proxy typed by the value it takes.
    public subscript<S: Subject>(dynamicMember keyPath: KeyPath<Input, S>) -> SubjectProxy<S.Output> where S.Failure == Never {
        let subject = input[keyPath: keyPath]
        let name = recorder?.name(of: keyPath, in: input, value: subject) { $0 is S } ?? ChangedPath(keyPath).description
        return SubjectProxy(subject, name: name, recorder: recorder)
    }
}

extension InputProxy where Input: BindableInputType {
    /// A `@Published` input property as a binding; writing it is a logged dispatch.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Input, Value>) -> Binding<Value> {
        let input = self.input
        guard let recorder else {
            return Binding(get: { input[keyPath: keyPath] }, set: { input[keyPath: keyPath] = $0 })
        }
        return Binding(
            get: { input[keyPath: keyPath] },
            set: { newValue in
                let named = recorder.name(
                    of: keyPath, in: input, value: input[keyPath: keyPath],
                    isCandidate: { ($0 as? any PublishedStorage)?.holds(Value.self) == true },
                    currentValue: { ($0 as? any PublishedStorage)?.currentValue() }
                )
                if let named {
                    recorder.dispatch(name: named, value: newValue, callSite: .unknown) { input[keyPath: keyPath] = newValue }
                    return
                }
                // Several `@Published` properties of this type hold the same value: the one this
                // write changes is the one named.
                var changed: Set<String> = []
                let probes = PublishedProperties.of(input)
                    .filter { property in type(of: property.currentValue()) == Value.self }
                    .map { property in property.publisher.dropFirst().sink { _ in changed.insert(property.name) } }
                recorder.dispatch(value: newValue, callSite: .unknown, send: { input[keyPath: keyPath] = newValue }) {
                    probes.forEach { $0.cancel() }
                    guard changed.count == 1, let name = changed.first else { return ChangedPath(keyPath).description }
                    recorder.remember(name, for: keyPath)
                    return name
                }
            }
        )
    }
}
