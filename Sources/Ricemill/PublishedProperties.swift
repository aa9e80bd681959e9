@preconcurrency import OpenCombine
import ReactiveRecording

/// The `@Published` properties of an object, found by reflection.
///
/// A `Published` value copied out of an object by `Mirror` shares its storage box with the
/// original, so the copy's projected publisher is the property's own.
enum PublishedProperties {
    /// The `@Published` properties of `object`, its superclasses' first, in declaration order.
    static func of(_ object: AnyObject) -> [ObservedProperty] {
        ObservedProperty.children(of: object).compactMap(property)
    }

    /// The stored property `child` as a watched property, if it is a `@Published` one.
    static func property(_ child: Mirror.Child) -> ObservedProperty? {
        guard let label = child.label, let storage = child.value as? any PublishedStorage else { return nil }
        return ObservedProperty(name: ObservedProperty.plainName(label), publisher: storage.anyPublisher(), currentValue: storage.currentValue)
    }
}

/// The properties of a separate output whose new values are logged as activities: its
/// `@Published` properties and its `CurrentValueSubject`s (publishers read through the output
/// proxy are logged as they deliver).
enum OutputValues {
    static func of(_ output: Any) -> [ObservedProperty] {
        ObservedProperty.children(of: output).compactMap { child in
            guard let label = child.label else { return nil }
            return PublishedProperties.property(child)
                ?? (child.value as? any CurrentValueObservable)?.observed(name: ObservedProperty.plainName(label))
        }
    }
}

/// A `CurrentValueSubject`, with its types erased.
protocol CurrentValueObservable {
    func observed(name: String) -> ObservedProperty
}

extension CurrentValueSubject: CurrentValueObservable {
    func observed(name: String) -> ObservedProperty {
        // A failure ends the subject's values; there is nothing more to log.
        ObservedProperty(
            name: name,
            publisher: map { $0 as Any }.catch { _ in Empty<Any, Never>() }.eraseToAnyPublisher(),
            currentValue: { self.value }
        )
    }
}

/// What Ricemill needs from OpenCombine's `Published`, with its value type erased.
protocol PublishedStorage {
    func anyPublisher() -> AnyPublisher<Any, Never>
    func currentValue() -> Any
    /// Whether the property holds values of `valueType` (to match a binding to its property).
    func holds(_ valueType: Any.Type) -> Bool
}

extension Published: PublishedStorage {
    func anyPublisher() -> AnyPublisher<Any, Never> {
        var shared = self
        return shared.projectedValue.map { $0 as Any }.eraseToAnyPublisher()
    }

    func currentValue() -> Any {
        var shared = self
        var current: Value?
        // The publisher sends its current value synchronously on subscription.
        let sink = Subscribers.Sink<Value, Never>(receiveCompletion: { _ in }, receiveValue: { current = $0 })
        shared.projectedValue.subscribe(sink)
        sink.cancel()
        return current!
    }

    func holds(_ valueType: Any.Type) -> Bool {
        valueType == Value.self
    }
}
