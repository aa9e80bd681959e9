/// A value read and written through closures: SwiftUI's `Binding`, which Linux does not have.
///
/// A bindable input's `@Published` properties come out of ``InputProxy`` as bindings, so a view
/// layer (or a test) reads and writes them the way SwiftUI code does:
///
/// ```swift
/// let isOn: Binding<Bool> = viewModel.input.isOn
/// isOn.wrappedValue = true     // sent into the machine, and logged
/// let count = Binding<Int>.constant(3)
/// ```
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    private let read: () -> Value
    private let write: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.read = get
        self.write = set
    }

    /// A binding to a value that never changes; writes are ignored.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }

    /// The current value; setting it writes through.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    /// The binding itself, as SwiftUI's `$binding`.
    public var projectedValue: Binding<Value> { self }

    /// A binding to a property of the value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(
            get: { self.read()[keyPath: keyPath] },
            set: { newValue in
                var value = self.read()
                value[keyPath: keyPath] = newValue
                self.write(value)
            }
        )
    }
}
