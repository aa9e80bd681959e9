@preconcurrency import OpenCombine
import ReactiveRecording

/// The `@Published` properties of an object, found by reflection.
///
/// A `Published` value copied out of an object by `Mirror` shares its storage box with the
/// original, so the copy's projected publisher is the property's own.
enum PublishedProperties {
    /// The `@Published` properties of `object`, its superclasses' first, in declaration order.
    static func of(_ object: AnyObject) -> [ObservedProperty] {
        ObservedProperty.children(of: object).compactMap { child in
            guard let label = child.label, let storage = child.value as? any PublishedStorage else { return nil }
            return ObservedProperty(name: ObservedProperty.plainName(label), publisher: storage.anyPublisher(), currentValue: storage.currentValue)
        }
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
