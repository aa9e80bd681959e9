@preconcurrency import OpenCombine

/// An output property whose current value can be read: a `BehaviorRelay` seen from outside.
public typealias Property<Element> = PrimitiveProperty<Element, Never>

/// An output property whose current value can be read or throw: a `BehaviorSubject` seen from
/// outside.
public typealias ThrowableProperty<Element> = PrimitiveProperty<Element, any Error>

/// A read-only view of a value-holding stream: its observable and its current value (``value`` for
/// a ``Property``, ``throwableValue()`` for a ``ThrowableProperty``), without the ability to send.
///
/// ```swift
/// let repositories: Property<[Repository]> = viewStream.output.repositories
/// repositories.value
/// ```
public final class PrimitiveProperty<Element, Failure>: ObservableConvertibleType {
    private let read: () throws -> Element
    private let observable: () -> Observable<Element>

    init(read: @escaping () throws -> Element, observable: @escaping () -> Observable<Element>) {
        self.read = read
        self.observable = observable
    }

    public func asObservable() -> Observable<Element> {
        observable()
    }
}

extension PrimitiveProperty: ValueAccessible where Failure == Never {
    /// The current value.
    public var value: Element {
        // `read` only throws for a throwable property.
        try! read()
    }

    /// A read-only view of `source`.
    public convenience init<Source: ValueAccessibleObservable>(_ source: Source) where Source.Element == Element {
        self.init(read: { source.value }, observable: { source.asObservable() })
    }
}

extension PrimitiveProperty: ThrowableValueAccessible where Failure == any Error {
    /// The current value, or the error the source failed with.
    public func throwableValue() throws -> Element {
        try read()
    }

    /// A read-only view of `source`.
    public convenience init<Source: ThrowableValueAccessibleObservable>(_ source: Source) where Source.Element == Element {
        self.init(read: { try source.throwableValue() }, observable: { source.asObservable() })
    }
}

/// An output value computed when read.
///
/// ```swift
/// struct Output: OutputType {
///     let isEnabled: Computed<Bool>
/// }
/// output.isEnabled   // the closure's value now
/// ```
public struct Computed<Element> {
    private let getter: () -> Element

    /// A value computed by `getter` each time it is read.
    public init(_ getter: @escaping () -> Element) {
        self.getter = getter
    }

    /// The value now.
    public var value: Element { getter() }
}
