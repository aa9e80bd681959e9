import Foundation
@preconcurrency import OpenCombine
import Rewind

/// One `@Published` property of an object, found by reflection: its name and a way to its publisher
/// and current value.
///
/// A `Published` value copied out of an object by `Mirror` shares its storage box with the
/// original, so the copy's projected publisher is the property's own.
struct PublishedProperty {
    /// The property's name, without the storage's leading underscore.
    let name: String
    let storage: any PublishedStorage

    /// The property's publisher, values erased to `Any`. It sends the current value on
    /// subscription, then every new value before it is stored (as Combine's `$property`).
    var publisher: AnyPublisher<Any, Never> { storage.anyPublisher() }

    /// The property's value now.
    var currentValue: Any { storage.currentValue() }

    /// The `@Published` properties of `object`, its superclasses' first, in declaration order.
    static func of(_ object: AnyObject) -> [PublishedProperty] {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            mirrors.insert(current, at: 0)
            mirror = current.superclassMirror
        }
        return mirrors.flatMap { mirror in
            mirror.children.compactMap { child -> PublishedProperty? in
                guard let label = child.label, let storage = child.value as? any PublishedStorage else { return nil }
                return PublishedProperty(name: label.hasPrefix("_") ? String(label.dropFirst()) : label, storage: storage)
            }
        }
    }

    /// The values of `properties` now, as a state to log.
    static func snapshot(of properties: [PublishedProperty]) -> StateFields {
        StateFields(properties.map { ($0.name, $0.currentValue) })
    }
}

/// What Ricemill needs from OpenCombine's `Published`, with its value type erased.
protocol PublishedStorage {
    func anyPublisher() -> AnyPublisher<Any, Never>
    func currentValue() -> Any
    /// Whether `value` is of this property's value type (to match a binding to its property).
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
