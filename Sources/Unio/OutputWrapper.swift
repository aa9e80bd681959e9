@preconcurrency import OpenCombine
import ReactiveRecording
@_spi(Tooling) import Rewind

/// A stream's output from outside: any observable property as an ``Observable`` (each element it
/// delivers is logged as an activity named after the property), value-holding relays and subjects
/// as ``Property`` / ``ThrowableProperty``, and ``Computed`` values unwrapped.
///
/// ```swift
/// viewStream.output.repositories.subscribe(onNext: { print($0) })
/// let property: Property<[Repository]> = viewStream.output.repositories
/// property.value
/// ```
@dynamicMemberLookup
public final class OutputWrapper<T: OutputType> {
    let dependency: T
    let recorder: UnitRecorder?

    /// Wraps an output that belongs to no stream (nothing is logged).
    public init(_ dependency: T) {
        self.dependency = dependency
        self.recorder = nil
    }

    init(_ dependency: T, recorder: UnitRecorder) {
        self.dependency = dependency
        self.recorder = recorder
    }

    /// An output property as an observable.
    public subscript<O: ObservableConvertibleType>(dynamicMember keyPath: KeyPath<T, O>) -> Observable<O.Element> {
        logged(dependency[keyPath: keyPath], at: keyPath)
    }

    /// A `BehaviorRelay` (or other value-holding stream) as a read-only ``Property``.
    public subscript<O: ValueAccessibleObservable>(dynamicMember keyPath: KeyPath<T, O>) -> Property<O.Element> {
        let source = dependency[keyPath: keyPath]
        return Property(read: { source.value }, observable: { self.logged(source, at: keyPath) })
    }

    /// A `BehaviorSubject` (or other value-holding stream that can fail) as a read-only
    /// ``ThrowableProperty``.
    public subscript<O: ThrowableValueAccessibleObservable>(dynamicMember keyPath: KeyPath<T, O>) -> ThrowableProperty<O.Element> {
        let source = dependency[keyPath: keyPath]
        return ThrowableProperty(read: { try source.throwableValue() }, observable: { self.logged(source, at: keyPath) })
    }

    /// An output that is already a ``Property``.
    public subscript<E>(dynamicMember keyPath: KeyPath<T, Property<E>>) -> Property<E> {
        let source = dependency[keyPath: keyPath]
        return Property(read: { source.value }, observable: { self.logged(source, at: keyPath) })
    }

    /// An output that is already a ``ThrowableProperty``.
    public subscript<E>(dynamicMember keyPath: KeyPath<T, ThrowableProperty<E>>) -> ThrowableProperty<E> {
        let source = dependency[keyPath: keyPath]
        return ThrowableProperty(read: { try source.throwableValue() }, observable: { self.logged(source, at: keyPath) })
    }

    /// A ``Computed`` output's value now.
    public subscript<E>(dynamicMember keyPath: KeyPath<T, Computed<E>>) -> E {
        dependency[keyPath: keyPath].value
    }

    /// `source` as an observable whose elements are logged as activities of the property.
    private func logged<O: ObservableConvertibleType>(_ source: O, at keyPath: AnyKeyPath) -> Observable<O.Element> {
        let observable = source.asObservable()
        guard let recorder else { return observable }
        let name = recorder.name(of: keyPath, in: dependency, value: source) { type(of: $0) == O.self } ?? ChangedPath(keyPath).description
        return observable
            .handleEvents(receiveOutput: { recorder.outputValue($0, name: name) })
            .asObservable()
    }
}
