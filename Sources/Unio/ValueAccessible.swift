/// Something with a current value: a `BehaviorRelay`, a ``Property``.
public protocol ValueAccessible {
    /// The type of the value.
    associatedtype Element
    /// The current value.
    var value: Element { get }
}

/// Something with a current value that may be an error instead: a `BehaviorSubject`, a
/// ``ThrowableProperty``.
public protocol ThrowableValueAccessible {
    /// The type of the value.
    associatedtype Element
    /// The current value, or the error the source failed with.
    func throwableValue() throws -> Element
}

/// A value-holding stream whose value can be read: what becomes a ``Property`` in an output.
public typealias ValueAccessibleObservable = ValueAccessible & ObservableConvertibleType

/// A value-holding stream whose value can be read or throw: what becomes a ``ThrowableProperty``.
public typealias ThrowableValueAccessibleObservable = ThrowableValueAccessible & ObservableConvertibleType

extension BehaviorRelay: ValueAccessible {}

extension BehaviorSubject: ThrowableValueAccessible {
    /// The current value, or the error the subject failed with.
    public func throwableValue() throws -> Element { try value() }
}
