@preconcurrency import OpenCombine

/// The input as the resolver sees it: every input property as a publisher, and a bindable input's
/// `@Published` properties as their values.
///
/// ```swift
/// input.increment.map { store.count + 1 }   // AnyPublisher<Void, Never> → …
/// input.$isOn.assign(to: \.isIncrementEnabled, on: store)
/// ```
@dynamicMemberLookup
public final class Publishing<Input: InputType> {
    private let input: Input

    init(_ input: Input) {
        self.input = input
    }

    /// An input property as a publisher.
    public subscript<P: Publisher>(dynamicMember keyPath: KeyPath<Input, P>) -> AnyPublisher<P.Output, P.Failure> {
        input[keyPath: keyPath].eraseToAnyPublisher()
    }
}

extension Publishing where Input: BindableInputType {
    /// A bindable input's property value.
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Input, Value>) -> Value {
        input[keyPath: keyPath]
    }
}
